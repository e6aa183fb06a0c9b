"""Any JSON at any action of the page, through the real websocket: an error or nothing, and play goes on."""

import asyncio
import json

import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.registry import GAMES
from firmware_host.sim_actions import ACTION_FIELDS
from hal.base import BUTTONS

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6)

#: Values an action's field takes in play, so that actions also get past their fields' kinds.
PLAUSIBLE = {
    "loc": st.sampled_from(["p1", "p5", "center", "a1", "nowhere"]),
    "piece": st.sampled_from(["black", "white", "red", "blue"]),
    "name": st.sampled_from(BUTTONS),
    "text": st.sampled_from(["", "end", "roll 3+4", "p1", "enter", "claim"]),
    "on": st.booleans(),
    "ply": st.none() | st.integers(-2, 30),
    "game": st.sampled_from(list(GAMES)),
    "seats": st.lists(st.sampled_from(["human", "computer:easy", "computer:expert", "robot", 3]), max_size=4),
    "options": st.dictionaries(st.sampled_from(["players", "variant", "seed", "layout", "pieces", "goal", "mode"]),
                               json_values | st.sampled_from([2, 3, "classic", "standard"]), max_size=2),
}


@st.composite
def actions(draw):
    """An action of any type, each field plausible, of any JSON value, or missing; sometimes a field too many."""
    kind = draw(st.sampled_from(list(ACTION_FIELDS)))
    action = {"type": kind}
    for field in ACTION_FIELDS[kind]:
        value = draw(st.one_of(PLAUSIBLE[field], json_values, st.just(...)))
        if value is not ...:
            action[field] = value
    action.update(draw(st.dictionaries(st.text(max_size=6), json_values, max_size=1)))
    return action


messages = st.lists(st.one_of(actions(), json_values, st.text(max_size=10)), min_size=1, max_size=4)


async def send_all(url: str, sent: list) -> list[dict]:
    """Send the messages, then one known to fail; the answers before its error reply."""
    async with websockets.connect(url) as ws:
        assert json.loads(await ws.recv())["type"] == "view"
        for message in sent:
            await ws.send(json.dumps(message))
        await ws.send(json.dumps({"type": "last"}))
        answers = []
        while True:
            answer = json.loads(await ws.recv())
            if answer.get("message", "").startswith("unknown action 'last'"):
                return answers
            answers.append(answer)


def test_any_message_gets_an_error_or_nothing_and_the_board_plays_on(served):
    sim = served("overpass", {"players": 2}, entered_dice=True, seed=3)
    url = sim.url.replace("http://", "ws://") + "ws"

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(messages)
    def anything(sent):
        answers = asyncio.run(send_all(url, sent))
        errors = [answer for answer in answers if answer["type"] not in ("view", "change")]
        assert len(errors) <= len(sent)
        assert all(error["type"] == "error" and error["message"] for error in errors), errors
        json.dumps(sim.call(sim.session.view))

    anything()
    # The session still plays: a new game, a piece put on the board.
    answers = asyncio.run(send_all(url, [{"type": "noise", "on": False}, {"type": "new_game", "game": "squareoff"},
                                          {"type": "take", "piece": "black"}, {"type": "click", "loc": "p1"}]))
    assert [answer for answer in answers if answer["type"] == "error"] == []
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {"p1": "black"}
