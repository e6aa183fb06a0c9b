"""The gameboard co-processor firmware for the Raspberry Pi Pico (MicroPython), protocol version 1.

docs/serial-protocol.md is the protocol, docs/firmware.md the build and deployment.
"""

NAME = "gameboard-pico 1.0"
