"""How far apart two colours look, to normal eyes and to dichromats: so that no two lights lit together look alike.

A colour is an 8-bit sRGB triple, as the page draws it and the presenter names it.  A
dichromat's view is simulated after Machado, Oliveira & Fernandes (2009), "A physiologically-based
model for simulation of color vision deficiency", at severity 1.0 (protanopia,
deuteranopia, tritanopia): a matrix applied in linear RGB.  Colours are compared in
CIELAB (D65) by CIEDE2000 (Sharma, Wu & Dalal 2005, "The CIEDE2000 color-difference
formula: implementation notes"), where about 1 is the least a person notices side by side
and 15 or more reads as another colour at a glance.
"""

from __future__ import annotations

import math

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

#: Machado et al. 2009, severity 1.0, for linear RGB; "normal" leaves a colour as it is.
SIMULATIONS: dict[str, Matrix] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: Linear sRGB -> CIE XYZ (D65), and the D65 white point.
_SRGB_TO_XYZ: Matrix = ((0.4124564, 0.3575761, 0.1804375),
                        (0.2126729, 0.7151522, 0.0721750),
                        (0.0193339, 0.1191920, 0.9503041))
_WHITE = (0.95047, 1.0, 1.08883)


def _apply(matrix: Matrix, vector: tuple[float, float, float]) -> tuple[float, float, float]:
    return tuple(sum(m * v for m, v in zip(row, vector)) for row in matrix)  # type: ignore[return-value]


def linear(colour: RGB) -> tuple[float, float, float]:
    """An 8-bit sRGB colour as linear light, 0..1 per channel."""
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                 for c in (channel / 255 for channel in colour))  # type: ignore[return-value]


def encoded(light: tuple[float, float, float]) -> RGB:
    """Linear light (0..1 per channel, clipped) as an 8-bit sRGB colour."""
    def encode(c: float) -> int:
        c = min(max(c, 0.0), 1.0)
        return round(255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055))
    return encode(light[0]), encode(light[1]), encode(light[2])


def seen_dimmed(colour: RGB, fraction: float) -> RGB:
    """``colour`` as an LED shows it driven at ``fraction`` of its value: an LED's light scales linearly with
    its duty, so a glow at a quarter looks far brighter than the sRGB triple scaled by a quarter."""
    return encoded(tuple(c * fraction for c in linear(colour)))  # type: ignore[arg-type]


def simulated(colour: RGB, simulation: str) -> tuple[float, float, float]:
    """``colour`` as linear light as seen under ``simulation`` (``SIMULATIONS``), clipped to the display's gamut."""
    return tuple(min(max(c, 0.0), 1.0)
                 for c in _apply(SIMULATIONS[simulation], linear(colour)))  # type: ignore[return-value]


def lab(colour: RGB, simulation: str = "normal") -> tuple[float, float, float]:
    """An 8-bit sRGB colour in CIELAB (D65), as seen under ``simulation``."""
    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    x, y, z = (value / white for value, white in zip(_apply(_SRGB_TO_XYZ, simulated(colour, simulation)), _WHITE))
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    h_mean = h1p + h2p
    if c1p * c2p:
        if abs(h1p - h2p) <= 180:
            h_mean /= 2
        else:
            h_mean = (h_mean + 360) / 2 if h_mean < 360 else (h_mean - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    r_t = -math.sin(math.radians(2 * 30 * math.exp(-(((h_mean - 275) / 25) ** 2)))) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_big_h / s_h) ** 2
                     + r_t * (dc / s_c) * (d_big_h / s_h))


def distance(first: RGB, second: RGB, simulation: str = "normal") -> float:
    """How far apart two sRGB colours look under ``simulation`` (CIEDE2000)."""
    return ciede2000(lab(first, simulation), lab(second, simulation))
