"""How the view travels to a page: the whole view when the page connects, then only what changed.

Over a Raspberry Pi's Wi-Fi the view is the heaviest thing the board sends (the board's drawing alone is 15 to
130 kB), and most changes touch a few places: a change carries the keys whose values changed and, for the
keys kept place by place (``MERGED``), only the places that changed.  A page that reconnects gets the whole
view again.  ``apply`` is what a page does with a message (``static/app.js`` does the same).
"""

from __future__ import annotations

from typing import Any

#: The view's keys whose value is an object of many entries, few of which change at once (a place's drawing,
#: what a click there does, the daemon's facts): a change sends only the entries that changed, and the names
#: of those gone.
MERGED = ("places", "clicks", "daemon")


def whole(view: dict[str, Any]) -> dict[str, Any]:
    """The first message: the whole view."""
    return {"type": "view", "view": view}


def change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The message that turns the view ``before`` into ``after``; None if they are the same."""
    keys = {key: value for key, value in after.items() if key not in MERGED and before.get(key) != value}
    keys.update({key: None for key in before if key not in after})
    merged: dict[str, dict[str, Any]] = {}
    dropped: dict[str, list[str]] = {}
    for key in MERGED:
        old, new = before.get(key) or {}, after.get(key) or {}
        entries = {entry: value for entry, value in new.items() if entry not in old or old[entry] != value}
        gone = [entry for entry in old if entry not in new]
        if entries:
            merged[key] = entries
        if gone:
            dropped[key] = gone
    if not keys and not merged and not dropped:
        return None
    return {"type": "change", "view": keys, "merge": merged, "drop": dropped}


def apply(view: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    """The view a page holds once ``message`` (a whole view or a change) arrived on top of ``view``."""
    if message["type"] == "view":
        return message["view"]
    if view is None:
        raise ValueError("a change arrived before the whole view")
    updated = {**view, **message["view"]}
    for key in {**message["merge"], **message["drop"]}:
        merged = {**(view.get(key) or {}), **message["merge"].get(key, {})}
        for entry in message["drop"].get(key, ()):
            merged.pop(entry, None)
        updated[key] = merged
    return updated
