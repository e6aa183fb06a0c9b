"""The firmware's configuration: ``gameboard.json`` on the Pico names the pins, the chains and the strips.

Every mistake is a SettingsError naming the key and what it should be, printed where
`mpremote run main.py` shows it (docs/firmware.md has every key): a file that is not JSON
(read strictly, with its line and column), a key or value out of place, a pin given twice
or one its bus cannot use, more channels than the protocol carries.
"""

import json

from gameboard_fw import strict_json
from gameboard_fw.protocol import MAX_ANALOG_CHANNELS
from gameboard_fw.sensors import DEFAULT_NOISE, DirectInputs, HallMuxes, ShiftChain

PATH = "gameboard.json"
#: The Pico's GPIO numbers, and those with an ADC.
GPIOS = range(30)
ADC_PINS = (26, 27, 28)
#: The RP2040's pins for each signal of its two SPIs and two UARTs (the datasheet's GPIO functions):
#: MicroPython raises ValueError("bad SCK pin") for any other.
SPI_SCK = ((2, 6, 18, 22), (10, 14, 26))
SPI_MISO = ((0, 4, 16, 20), (8, 12, 24, 28))
UART_TX = ((0, 12, 16, 28), (4, 8, 20, 24))
UART_RX = ((1, 13, 17, 29), (5, 9, 21, 25))
#: One PIO state machine a strip.
MAX_STRIPS = 8


class SettingsError(ValueError):
    """A configuration mistake: the message says where and how to fix it."""


class _Section:
    """One JSON object of the file, read key by key; keys it does not know are an error."""

    def __init__(self, path: str, where: str, data) -> None:
        if not isinstance(data, dict):
            raise SettingsError(f"{path}: {where or 'the file'} must be a JSON object {{...}}")
        self.path, self.where, self.data = path, where, data
        self.read: set = set()

    def _fail(self, key: str, wanted: str, value) -> SettingsError:
        return SettingsError(f"{self.path}: {self.where}{'.' if self.where else ''}{key} must be {wanted}, "
                             f"not {json.dumps(value)}")

    def get(self, key: str, default=None, required: bool = False):
        self.read.add(key)
        if key not in self.data:
            if required:
                raise SettingsError(f"{self.path}: {self.where}{'.' if self.where else ''}{key} is missing")
            return default
        return self.data[key]

    def integer(self, key: str, low: int, high: int, default=None, required: bool = False) -> int:
        value = self.get(key, default, required)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self._fail(key, f"a whole number from {low} to {high}", value)
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise self._fail(key, "true or false", value)
        return value

    def pin(self, key: str, required: bool = True, choices=GPIOS, what: str = "a GPIO number"):
        """A GPIO number among ``choices`` (``what`` they are: "an SCK pin of SPI0"...)."""
        value = self.get(key, None, required)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value not in choices:
            raise self._fail(key, f"{what} ({', '.join(str(c) for c in choices)})" if choices is not GPIOS
                             else "a GPIO number from 0 to 29", value)
        return value

    def pins(self, key: str, count=None) -> list:
        value = self.get(key, None, True)
        if not isinstance(value, list) or (count is not None and len(value) != count) or not value:
            raise self._fail(key, f"a list of {count or 'one or more'} GPIO numbers", value)
        for number in value:
            if not isinstance(number, int) or isinstance(number, bool) or number not in GPIOS:
                raise self._fail(key, "a list of GPIO numbers from 0 to 29", value)
        return value

    def section(self, key: str, required: bool = True):
        return _Section(self.path, f"{self.where}{'.' if self.where else ''}{key}", self.get(key, {}, required))

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            raise SettingsError(f"{self.path}: {self.where or 'the file'} has no key {unknown[0]!r}: "
                                f"a misspelling? (docs/firmware.md lists them)")


class Settings:
    """What the file describes: the line, the sensors' front-end and noise, the strips, the heartbeat."""

    def __init__(self, data, path: str = PATH) -> None:
        top = _Section(path, "", data)
        line = top.section("line", required=False)
        port = line.get("port", "usb")
        self.line: dict
        if port == "usb":
            self.line = {"port": "usb"}
        elif port == "uart":
            uart = line.integer("uart", 0, 1, 0)
            self.line = {"port": "uart", "uart": uart,
                         "tx": line.pin("tx", choices=UART_TX[uart], what=f"a TX pin of UART{uart}"),
                         "rx": line.pin("rx", choices=UART_RX[uart], what=f"an RX pin of UART{uart}"),
                         "baudrate": line.integer("baudrate", 1200, 4_000_000, 115200)}
        else:
            raise line._fail("port", '"usb" or "uart"', port)
        line.finish()
        sensors = top.section("sensors")
        self.front_end = _front_end(sensors)
        self.noise = sensors.integer("noise", 0, 4095, DEFAULT_NOISE)
        sensors.finish()
        strips = top.get("strips", [])
        if not isinstance(strips, list) or len(strips) > MAX_STRIPS:
            raise top._fail("strips", f"a list of at most {MAX_STRIPS} strips", strips)
        self.strips = []
        for number, strip in enumerate(strips):
            section = _Section(path, f"strips[{number}]", strip)
            order = section.get("order", "GRB")
            if order not in ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"):
                raise section._fail("order", 'a colour order such as "GRB" (WS2812) or "RGB"', order)
            self.strips.append({"pin": section.pin("pin"), "leds": section.integer("leds", 1, 1000, required=True),
                                "order": order})
            section.finish()
        self.heartbeat_ms = top.integer("heartbeat_ms", 50, 1000, 500)
        top.finish()
        used: dict = {}
        for key, number in self.pins():
            if number in used:
                raise SettingsError(f"{path}: {key} is GPIO {number}, which {used[number]} uses already: "
                                    "each needs a pin of its own")
            used[number] = key

    def pins(self) -> list:
        """(key, GPIO number) of every pin the file gives; multiplexers sharing an ADC pin give it once."""
        pins = []
        if self.line["port"] == "uart":
            pins += [("line.tx", self.line["tx"]), ("line.rx", self.line["rx"])]
        spec = self.front_end
        if spec["front_end"] == "hc165":
            pins += [("sensors.sck", spec["sck"]), ("sensors.miso", spec["miso"]), ("sensors.load", spec["load"])]
        elif spec["front_end"] == "gpio":
            pins += [(f"sensors.pins[{index}]", number) for index, number in enumerate(spec["pins"])]
        else:
            pins += [(f"sensors.select[{index}]", number) for index, number in enumerate(spec["select"])]
            adcs: list = []
            for index, mux in enumerate(spec["muxes"]):
                if mux["adc"] not in adcs:
                    adcs.append(mux["adc"])
                    pins.append((f"sensors.muxes[{index}].adc", mux["adc"]))
                if mux["enable"] is not None:
                    pins.append((f"sensors.muxes[{index}].enable", mux["enable"]))
        return pins + [(f"strips[{index}].pin", strip["pin"]) for index, strip in enumerate(self.strips)]


def _front_end(sensors: _Section) -> dict:
    """The front-end's constructor arguments, checked; ``make_front_end`` opens it."""
    kind = sensors.get("front_end", None, True)
    if kind == "hc165":
        chips = sensors.integer("chips", 1, 128, required=True)
        spi = sensors.integer("spi", 0, 1, 0)
        return {"front_end": kind, "spi": spi,
                "sck": sensors.pin("sck", choices=SPI_SCK[spi], what=f"an SCK pin of SPI{spi}"),
                "miso": sensors.pin("miso", choices=SPI_MISO[spi], what=f"a MISO pin of SPI{spi}"),
                "load": sensors.pin("load"), "chips": chips,
                "channels": sensors.integer("channels", 1, 8 * chips, 8 * chips),
                "active_low": sensors.boolean("active_low", True),
                "baudrate": sensors.integer("baudrate", 10_000, 10_000_000, 1_000_000)}
    if kind == "gpio":
        return {"front_end": kind, "pins": sensors.pins("pins"), "active_low": sensors.boolean("active_low", True)}
    if kind == "hall_mux":
        muxes = sensors.get("muxes", None, True)
        if not isinstance(muxes, list) or not muxes:
            raise sensors._fail("muxes", 'a list of multiplexers, e.g. [{"adc": 26, "enable": 6}]', muxes)
        checked = []
        for number, mux in enumerate(muxes):
            section = _Section(sensors.path, f"sensors.muxes[{number}]", mux)
            checked.append({"adc": section.pin("adc", choices=ADC_PINS, what="an ADC pin"),
                            "enable": section.pin("enable", False)})
            section.finish()
        for pin in ADC_PINS:
            sharing = [mux for mux in checked if mux["adc"] == pin]
            if len(sharing) > 1 and any(mux["enable"] is None for mux in sharing):
                raise SettingsError(f"{sensors.path}: sensors.muxes: the multiplexers on ADC pin {pin} each need "
                                    "an \"enable\" pin (their /EN), since they share it")
        carried = 16 * len(checked)
        if carried > MAX_ANALOG_CHANNELS and "channels" not in sensors.data:
            raise SettingsError(f"{sensors.path}: sensors.muxes: {len(checked)} multiplexers carry {carried} channels, "
                                f"more than the {MAX_ANALOG_CHANNELS} analog channels a SNAPSHOT holds: "
                                f"set sensors.channels to at most {MAX_ANALOG_CHANNELS}")
        return {"front_end": kind, "select": sensors.pins("select", 4), "muxes": checked,
                "channels": sensors.integer("channels", 1, min(carried, MAX_ANALOG_CHANNELS), carried),
                "settle_us": sensors.integer("settle_us", 0, 1000, 10)}
    raise sensors._fail("front_end", '"hc165", "gpio" or "hall_mux"', kind)


def make_front_end(spec: dict):
    arguments = dict(spec)
    kind = arguments.pop("front_end")
    return {"hc165": ShiftChain, "gpio": DirectInputs, "hall_mux": HallMuxes}[kind](**arguments)


def load(path: str = PATH) -> Settings:
    try:
        with open(path) as file:
            text = file.read()
    except OSError:
        raise SettingsError(f"{path} is missing: copy one from firmware/examples with mpremote") from None
    except UnicodeError:
        raise SettingsError(f"{path} is not UTF-8 text: save it as UTF-8") from None
    return parse(text, path)


def parse(text: str, path: str = PATH) -> Settings:
    """The settings ``text`` gives, read as strict JSON (strict_json.py): the same on the Pico as under CPython."""
    try:
        data = strict_json.loads(text)
    except strict_json.JsonError as exc:
        raise SettingsError(f"{path}, line {exc.line}, column {exc.column}: {exc.message}") from None
    return Settings(data, path)
