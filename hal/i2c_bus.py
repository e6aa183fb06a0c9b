"""The Pi's I2C bus through Blinka, opened only by the drivers that need it."""

from __future__ import annotations

from typing import Any

from hal.base import HardwareError


def open_i2c() -> Any:
    """Blinka's ``board.I2C()`` (SDA on GPIO2, SCL on GPIO3), or a HardwareError with the fix."""
    try:
        import board

        return board.I2C()
    except (ImportError, NotImplementedError, RuntimeError, OSError, ValueError) as exc:
        raise HardwareError(
            f"cannot open the I2C bus ({exc}); enable I2C with raspi-config, add the user to the "
            "i2c group and install the [pi] extra"
        ) from None


def no_device(chip: str, address: int, exc: Exception) -> HardwareError:
    """The error for a chip that does not answer at its address."""
    return HardwareError(
        f"no {chip} answers at I2C address 0x{address:02x} ({exc}); check its address pins, "
        "its power and the SDA/SCL wires (`i2cdetect -y 1` lists the addresses that answer)"
    )
