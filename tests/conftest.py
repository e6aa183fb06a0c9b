"""Shared test set-up: every test runs on any machine, with mocks only at the hardware boundary."""

import os

# gpiozero picks its pin factory at the first device: make it the mock everywhere.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# Blinka's fake board lets the real NeoPixel and I2C adapters run off a Pi.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
