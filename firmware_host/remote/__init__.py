"""Remote play: boards, browsers and spectators sharing one game through an MQTT broker (docs/remote.md)."""
