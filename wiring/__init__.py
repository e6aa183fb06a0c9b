"""The maps between hardware and board: the model, its file format, its checks and the bands' arithmetic.

Below the drivers (``hal``) that read a wiring; the calibration tool that writes one drives hardware, so it
lives above both, in ``firmware_host/calibration/``."""
