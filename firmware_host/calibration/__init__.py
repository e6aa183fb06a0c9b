"""``gameboard calibrate``'s guided walk: it reads the sensors and lights the LEDs (``hal``) to write a wiring
file (``wiring``), so it stands above both; the wiring model and its file stay below, in ``wiring/``."""
