"""JSON read strictly, the same on the Pico as under CPython, saying where a mistake is.

MicroPython's ``json`` takes missing and trailing commas that CPython's refuses, and reports a
real mistake as "syntax error in JSON" with no place; CPython's takes NaN and a key given
twice, the first one silently lost.  gameboard.json is small, so a plain reader costs nothing
and refuses them all, naming the line and column.
"""

#: Nesting deeper than this is refused (the Pico's stack is small; the settings nest 3 deep).
MAX_DEPTH = 16
SPACE = " \t\n\r"
ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
WORDS = (("true", True), ("false", False), ("null", None))


class JsonError(ValueError):
    """``message`` at ``line`` and ``column`` (both from 1) of the text."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message, self.line, self.column = message, line, column


def loads(text: str):
    """The value ``text`` holds: dicts, lists, str, int, float, bool and None, as CPython's json.loads gives."""
    reader = _Reader(text)
    reader.skip_space()
    if reader.at == len(text):
        raise reader.error("the file is empty: the settings are one JSON object {...}")
    value = reader.value(0)
    reader.skip_space()
    if reader.at < len(text):
        raise reader.error("more after the end of the settings' {...}: remove it, or move it inside")
    return value


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def error(self, message: str, at: int = -1) -> JsonError:
        at = self.at if at < 0 else at
        line_start = self.text.rfind("\n", 0, at) + 1
        return JsonError(message, self.text.count("\n", 0, at) + 1, at - line_start + 1)

    def skip_space(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at] in SPACE:
            at += 1
        self.at = at

    def next_char(self) -> str:
        """The character at the reading place, "" at the end."""
        return self.text[self.at : self.at + 1]

    def value(self, depth: int):
        char = self.next_char()
        if char == "{":
            return self.object(depth + 1)
        if char == "[":
            return self.array(depth + 1)
        if char == '"':
            return self.string()
        if char == "-" or "0" <= char <= "9":
            return self.number()
        for word, value in WORDS:
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return value
        if not char:
            raise self.error("the file ends where a value is expected")
        raise self.error("a value is expected here: a number, a string in double quotes, true, false, null, "
                         "[...] or {...}")

    def object(self, depth: int) -> dict:
        self.enter(depth)
        result: dict = {}
        self.skip_space()
        if self.next_char() == "}":
            self.at += 1
            return result
        while True:
            self.skip_space()
            if self.next_char() != '"':
                raise self.error("a key in double quotes is expected here")
            key_at = self.at
            key = self.string()
            if key in result:
                raise self.error(f'the key "{key}" is given twice', key_at)
            self.skip_space()
            if self.next_char() != ":":
                raise self.error(f"a ':' is expected after the key \"{key}\"")
            self.at += 1
            self.skip_space()
            result[key] = self.value(depth)
            if self.after_item("}", "key"):
                return result

    def array(self, depth: int) -> list:
        self.enter(depth)
        result: list = []
        self.skip_space()
        if self.next_char() == "]":
            self.at += 1
            return result
        while True:
            self.skip_space()
            result.append(self.value(depth))
            if self.after_item("]", "value"):
                return result

    def enter(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise self.error(f"nested more than {MAX_DEPTH} deep")
        self.at += 1

    def after_item(self, closing: str, item: str) -> bool:
        """Past the comma after an item (False) or the closing bracket (True); a comma missing or left over is an error."""
        self.skip_space()
        char = self.next_char()
        if char == closing:
            self.at += 1
            return True
        if char == ",":
            comma = self.at
            self.at += 1
            self.skip_space()
            if self.next_char() == closing:
                raise self.error(f"a ',' with no {item} after it: remove it", comma)
            return False
        if not char:
            inside = "{...}" if closing == "}" else "[...]"
            raise self.error(f"the file ends inside {inside}: a '{closing}' is missing")
        starts_item = char == '"' if item == "key" else char in '"-[{tfn' or "0" <= char <= "9"
        if starts_item:
            raise self.error(f"a ',' is missing before this {item}")
        raise self.error(f"a ',' or '{closing}' is expected here")

    def string(self) -> str:
        text, start = self.text, self.at
        parts = []
        at = start + 1
        while True:
            run = at
            while at < len(text) and text[at] != '"' and text[at] != "\\" and text[at] >= " ":
                at += 1
            parts.append(text[run:at])
            if at == len(text):
                raise self.error("this string has no closing '\"'", start)
            char = text[at]
            if char == '"':
                self.at = at + 1
                return "".join(parts)
            if char < " ":
                raise self.error("a line break inside a string: write it \\n" if char == "\n" else
                                 "a control character inside a string: write it \\u00XX", at)
            escape = text[at + 1 : at + 2]
            if escape == "u":
                decoded, at = self.unicode_escape(at)
                parts.append(decoded)
            elif escape in ESCAPES:
                parts.append(ESCAPES[escape])
                at += 2
            else:
                raise self.error(f"\\{escape} is no JSON escape: write \\\\ for a backslash", at)

    def unicode_escape(self, at: int) -> tuple:
        """The character a \\uXXXX escape at ``at`` stands for (two for a surrogate pair), and where it ends."""
        code = self.hex4(at)
        if 0xD800 <= code < 0xDC00 and self.text.startswith("\\u", at + 6):
            low = self.hex4(at + 6)
            if 0xDC00 <= low < 0xE000:
                return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), at + 12
        if 0xD800 <= code < 0xE000:
            raise self.error("a lone surrogate escape: \\uD800-\\uDFFF come in pairs", at)
        return chr(code), at + 6

    def hex4(self, at: int) -> int:
        digits = self.text[at + 2 : at + 6]
        if len(digits) != 4 or any(char not in "0123456789abcdefABCDEF" for char in digits):
            raise self.error("\\u needs four hexadecimal digits", at)
        return int(digits, 16)

    def number(self):
        text, start = self.text, self.at
        at = start + 1 if text[start] == "-" else start
        digits = at
        at = self.digits(at)
        if at == digits or (text[digits] == "0" and at - digits > 1):
            raise self.error("a number such as 12 or -3.5 is expected here (no leading zero, no '+')", start)
        fraction = text[at : at + 1] == "."
        if fraction:
            at = self.digits(at + 1, start)
        exponent = text[at : at + 1] in ("e", "E")
        if exponent:
            at += 2 if text[at + 1 : at + 2] in ("+", "-") else 1
            at = self.digits(at, start)
        self.at = at
        return float(text[start:at]) if fraction or exponent else int(text[start:at])

    def digits(self, at: int, number_at: int = -1) -> int:
        """Past the digits from ``at``; at least one is needed if ``number_at`` (the number's start) is given."""
        text, first = self.text, at
        while at < len(text) and "0" <= text[at] <= "9":
            at += 1
        if number_at >= 0 and at == first:
            raise self.error("a number such as 12 or -3.5 is expected here (digits after '.' and 'e')", number_at)
        return at
