"""The actions the simulator's page may send, and their checks: the page is not trusted.

Each action is carried out by the ``SimSession`` method named after it (``_click`` for
"click"); a field the action does not have, or one of the wrong JSON kind, is refused
before anything happens.
"""

from __future__ import annotations

from typing import Any

from engine.errors import GameboardError


class SimError(GameboardError, ValueError):
    """An action the simulated hands cannot do; the message says why."""


#: The actions of the page, their fields and the JSON kind each takes (every one required, but a
#: new game's options).
ACTION_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "click": {"loc": (str,)}, "flip": {"loc": (str,)}, "take": {"piece": (str,)}, "drop": {}, "lift_rest": {},
    "button": {"name": (str,)}, "dice": {"text": (str,)}, "noise": {"on": (bool,)},
    "new_game": {"game": (str,), "options": (dict, type(None)), "seats": (list, type(None))},
    "play": {"text": (str,)}, "auto": {"on": (bool,)},
    "replay": {"ply": (int, type(None))}, "import_record": {"text": (str,)},
}
KIND_NAMES = {str: "a string", bool: "true or false", dict: "an object", list: "a list", int: "a whole number"}


def check_fields(kind: str, action: dict[str, Any]) -> None:
    """Refuse an action with a field it does not have, or one of the wrong kind."""
    fields = ACTION_FIELDS[kind]
    unknown = sorted(action.keys() - fields.keys() - {"type"})
    if unknown:
        raise SimError(f'a {kind} action has no "{unknown[0]}"; its fields: {", ".join(fields) or "none"}')
    for name, kinds in fields.items():
        if not isinstance(action.get(name), kinds):
            raise SimError(f'a {kind} action needs "{name}" as {KIND_NAMES[kinds[0]]}')
