"""Hardware drivers behind small interfaces (``hal.base``), and the mock HAL.

``hal.registry`` opens a driver by the name the configuration gives; the daemon only
sees ``SensorArray``, ``LedSink``, ``ButtonPanel`` and ``DiceSource``.  Sensors:
``gpio_inputs``, ``hc165``, ``mcp23017``, ``mcp3008``, ``ads1115``, ``serial_drivers``
(over ``serial_link``, ``serial_protocol``, ``cobs_frames``).  LEDs:
``neopixel_strips``, ``serial_drivers``.  Buttons: ``buttons``.  Dice: ``dice``.
The mock board: ``mock`` (with ``magnets``, ``clock``), opened from a configuration by
``mock_driver``.  docs/hardware.md describes the hardware; docs/serial-protocol.md the
co-processor's protocol.
"""
