"""The maker's kit: from a board's geometry to a drilling template at true scale and a wiring plan.

``data`` reads ``kit.json`` (where each LED sits beside its sensor, hole sizes, the
route style, the front-ends); ``layout`` scales the board to millimetres and checks
the clearance between drill centres; ``drawing`` turns a layout into layered shapes
that ``svg`` and ``pdf`` write and ``tiles`` spreads over sheets of paper; ``routes``
orders the places for the LED strips and the sensor chain, and ``plan`` turns that
order into a wiring file (the same format ``gameboard wiring check`` reads).  No lens:
everything here is to scale.
"""
