"""Shared test set-up: every test runs on any machine, with mocks only at the hardware boundary."""

import os
import signal

# gpiozero picks its pin factory at the first device: make it the mock everywhere.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# Blinka's fake board lets the real NeoPixel and I2C adapters run off a Pi.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
# A suite started as a shell's background job inherits Ctrl-C ignored, and so would the daemons and simulators
# the tests start and then stop with Ctrl-C: a handler here is reset to the default in every process started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
