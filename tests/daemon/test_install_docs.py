"""The install steps in the docs work as written: real commands and options, the package from its own folder,
and the README's Pi steps preparing what the unit expects, in an order that can pass."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from firmware_host.cli import build_parser
from tests.daemon.test_systemd import UNIT, last, service_settings

ROOT = Path(__file__).parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SEPARATORS = {"&&", "||", ";", "|"}


def shell_lines(text: str) -> list[str]:
    """The lines of the ```sh blocks."""
    return [line for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()]


def snippets(text: str) -> list[str]:
    """Every command a reader may copy: the lines of the shell blocks and the inline code."""
    return shell_lines(text) + re.findall(r"`([^`\n]+)`", text)


def words_after(snippet: str, command: str) -> list[str]:
    """The arguments given to ``command`` (its words, the first one perhaps with a folder) up to the next separator."""
    words = shlex.split(snippet.replace(";", " ; "), comments=True)
    head, *tail = command.split()
    for i, word in enumerate(words):
        if (word == head or word.endswith(f"/{head}")) and words[i + 1:i + 1 + len(tail)] == tail:
            args = words[i + 1 + len(tail):]
            return args[:next((j for j, arg in enumerate(args) if arg in SEPARATORS), len(args))]
    raise AssertionError(f"no `{command}` in `{snippet}`")


def parses(args: list[str]) -> bool:
    try:
        build_parser().parse_args(args)
    except SystemExit:
        return False
    return True


def pi_steps() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### On the Pi"):]
    return shell_lines(section[:section.index("\n## ")])


def installs_by_name(text: str) -> list[str]:
    """The commands of ``text`` that install gameboard by its name rather than from a folder."""
    return [snippet for snippet in snippets(text) if "pip install" in snippet
            and any(re.match(r"gameboard\b", word) for word in words_after(snippet, "pip install"))]


def test_the_docs_install_the_package_only_from_its_folder() -> None:
    # PyPI's project called gameboard is an unrelated one: `pip install gameboard[...]` would fetch it.
    assert installs_by_name('`pip install "gameboard[pi]"` and `pip install gameboard`') == [
        'pip install "gameboard[pi]"', "pip install gameboard"]
    assert installs_by_name('`pip install ".[pi]"` and `pip install RPi.GPIO`') == []
    assert [f"{doc.name}: {found}" for doc in DOCS for found in installs_by_name(doc.read_text())] == []


def test_every_board_draw_in_the_docs_is_a_valid_command() -> None:
    def args(snippet: str) -> list[str]:  # a placeholder in capitals (BOARD, NAME) stands for a board
        return ["board", "draw", *(re.sub(r"^[A-Z]+$", "overpass", word)
                                   for word in words_after(snippet, "gameboard board draw"))]

    draws = [(doc.name, snippet) for doc in DOCS for snippet in snippets(doc.read_text())
             if "gameboard board draw" in snippet]
    assert draws and [(doc, snippet) for doc, snippet in draws if not parses(args(snippet))] == []  # -o is required


def test_the_pi_steps_use_real_commands_and_files() -> None:
    steps = pi_steps()
    command = "/opt/gameboard/bin/gameboard"
    commands = [words_after(line, command) for line in steps if f"{command} " in line]
    assert len(commands) >= 2 and [args for args in commands if not parses(args)] == []
    files = {name for line in steps for name in re.findall(r"(?<![\w/])systemd/[\w.-]+", line)}
    assert files and {name for name in files if not (ROOT / name).is_file()} == set()


def test_the_pi_steps_prepare_what_the_unit_expects_in_an_order_that_passes() -> None:
    steps = pi_steps()
    service = service_settings(UNIT)
    groups = set(last(service, "SupplementaryGroups").split())

    def line_with(fragment: str) -> int:
        found = [i for i, line in enumerate(steps) if fragment in line]
        assert found, f"no step runs {fragment}"
        return found[0]

    # Every group exists before the user joins it (plain Debian lacks gpio and spi; systemd refuses a missing one).
    created = set(re.search(r"for group in ([\w ]+);", steps[line_with("groupadd")]).group(1).split())
    joined = set(words_after(steps[line_with("useradd")], "--groups")[0].split(","))
    assert created == joined == groups and line_with("groupadd") < line_with("useradd")
    # The unit runs what the steps install, with the configuration they install.
    program, _, _, config = last(service, "ExecStart").split()[:4]
    assert f"venv {program.removesuffix('/bin/gameboard')}" in steps[line_with("python3 -m venv")]
    assert config.rsplit("/", 1)[0] in steps[line_with("systemd/gameboard.toml")]
    # calibrate writes the wiring file that run --check needs; the service starts after both.
    assert line_with("gameboard calibrate") < line_with("gameboard run --check") < line_with("systemctl enable")


def test_the_pi_steps_take_lgpio_from_pip_not_from_raspberry_pi_s_apt_archive() -> None:
    # python3-lgpio is not in Debian: an apt line naming it fails as a whole there.
    apt = [words_after(line, "apt-get install") for line in pi_steps() if "apt-get install" in line]
    assert apt and all("python3-lgpio" not in packages for packages in apt)


def test_the_pi_steps_install_the_configuration_readable_by_the_service_alone() -> None:
    # It may hold the broker's password: root's, so the service cannot rewrite it, and its group's, so it reads it.
    steps = pi_steps()
    group = last(service_settings(UNIT), "Group")
    [install] = [part for line in steps for part in line.split("&&") if "systemd/gameboard.toml" in part]
    options = dict(zip(*[iter(words_after(install, "install")[:-2])] * 2))
    assert options == {"-o": "root", "-g": group, "-m": options["-m"]} and int(options["-m"], 8) & 0o007 == 0
    [user] = [i for i, line in enumerate(steps) if "useradd" in line]
    assert "--user-group" in words_after(steps[user], "useradd") and words_after(steps[user], "useradd")[-1] == group
    assert user < steps.index(next(line for line in steps if "systemd/gameboard.toml" in line))


def test_the_docs_run_sim_and_watch_with_options_they_take() -> None:
    # A password on the command line is refused (`ps` shows it): the docs must not show one either.
    def args(snippet: str, command: str) -> list[str]:  # GAME stands for a game; [GAME] may be left out
        return [command, *(re.sub(r"^[A-Z]+$", "overpass", word)
                           for word in words_after(snippet, f"gameboard {command}") if not word.startswith("["))]

    commands = [(doc.name, snippet, command) for doc in DOCS for snippet in snippets(doc.read_text())
                for command in ("sim", "watch") if re.search(rf"\bgameboard {command}\b", snippet)]
    assert commands and [(doc, snippet) for doc, snippet, command in commands
                         if not parses(args(snippet, command))] == []
