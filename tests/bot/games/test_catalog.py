"""The catalog and a game's pieces agree: no piece of a game is missing, none is left over.

Each game is registered once, by its adapter (``bot/games/<game>.py``); everything else that
names it must name a registered game, and every registered game must have all of it: its cog
package (``cogs/<game>/``, whose command group is ``/<game>``), its words in each language
(``bot/locales/<lang>/<game>.json`` with its display name, command and ``/rules`` text;
the names of its commands and options there or, when games share them, in ``core.json``),
its engine (``rules/<game>/``), its text (``bot/text/<game>.py``), its rules
(``docs/rules/<game>.md``), and a soak strategy whose commands and options its cog has.

Pieces are looked for both ways where they are only ever written for a game the bot plays
(a cog, a catalog file, an adapter module); an engine, its rules and its text are written
and tested before the game is registered (docs/adding-a-game.md), so only a registered game
is checked for them. The last tests show the checks failing on a game with pieces missing
and on pieces of no game.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from discord import app_commands
from discord.ext import commands

import bot.games
from bot.games import (
    AUTOCOMPLETE,
    NONSENSE,
    AnyAdapter,
    BaseAdapter,
    GameCatalog,
    Program,
    SoakStrategy,
    UnknownGame,
)
from bot.i18n import LANGUAGES, t
from cogs.common.ids import menu_id
from rules.engine import IllegalAction

ROOT = Path(__file__).resolve().parents[3]
CATALOG = GameCatalog.discover()
ENGINE = ("new", "restore")  # what a game's rules package gives (docs/design.md §2)
PROGRAM = ("add_arguments", "run")  # what a console or a tool gives (bot/cli.py)
ADAPTER = re.compile(r"^ADAPTER\b", re.MULTILINE)
LARGEST_CHANNEL, LARGEST_VERSION = 10**20 - 1, 10**12 - 1  # what a custom id holds


def module(name: str) -> ModuleType | None:
    """The module ``name``, or ``None`` if there is none."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            return None
        raise


@cache
def command_group(game: str) -> app_commands.Group | None:
    """The ``/<game>`` group of the cog package ``cogs.<game>``, if it has one."""
    package = module(f"cogs.{game}")
    if package is None:
        return None
    found = [package]
    for info in pkgutil.iter_modules(getattr(package, "__path__", []), f"cogs.{game}."):
        found.append(importlib.import_module(info.name))
    for each in found:
        for value in vars(each).values():
            if isinstance(value, type) and issubclass(value, commands.Cog):
                for command in getattr(value, "__cog_app_commands__", []):
                    if isinstance(command, app_commands.Group) and command.name == game:
                        return command
    return None


def options_of(group: app_commands.Group) -> dict[str, set[str]]:
    """Each subcommand of ``group`` and the names of its options."""
    return {
        command.name: {p.display_name for p in command.parameters}
        for command in group.commands
        if isinstance(command, app_commands.Command)
    }


def read_catalog(root: Path, lang: str, part: str) -> dict[str, str] | None:
    path = root / "bot" / "locales" / lang / f"{part}.json"
    if not path.is_file():
        return None
    found: dict[str, str] = json.loads(path.read_text("utf-8"))
    return found


def drift(game: AnyAdapter, root: Path = ROOT) -> list[str]:
    """What of ``game``'s pieces is missing or disagrees with its registration."""
    name = game.name
    problems: list[str] = []
    try:  # the name goes into its menu's custom id, whose pattern allows at most 12 letters
        menu_id(LARGEST_CHANNEL, LARGEST_VERSION, name, "x" * 40)
    except ValueError:
        problems.append(f"{name!r}: a game's name is lower-case letters only, at most 12")
    adapter_module = module(f"bot.games.{name}")
    if adapter_module is None or getattr(adapter_module, "ADAPTER", None) is not game:
        problems.append(f"bot/games/{name}.py: its ADAPTER is not the registered one")
    problems += _words(name, root)
    for path in (f"rules/{name}/__init__.py", f"bot/text/{name}.py", f"docs/rules/{name}.md"):
        if not (root / path).is_file():
            problems.append(f"{path}: missing")
    engine = module(f"rules.{name}")
    if engine is not None and not all(callable(getattr(engine, f, None)) for f in ENGINE):
        problems.append(f"rules/{name}: no new() and restore() in __init__.py")
    problems += _adapter(game)
    group = command_group(name)
    if group is None:
        problems.append(f"cogs/{name}/: no cog with the command group /{name}")
        return problems
    if not callable(getattr(module(f"cogs.{name}"), "setup", None)):
        problems.append(f"cogs/{name}/: no setup(), so the bot never loads it")
    commands_ = options_of(group)
    named = {group.name, *(c.name for c in group.commands)}
    named |= {option for options in commands_.values() for option in options}
    return problems + _names(name, named, root) + _soak(name, game.soak, commands_)


def _words(name: str, root: Path) -> list[str]:
    problems = []
    for lang in LANGUAGES:
        words = read_catalog(root, lang, name)
        if words is None:
            problems.append(f"bot/locales/{lang}/{name}.json: missing")
            continue
        for key in (f"game.{name}", f"name.{name}", f"cmd.{name}", f"rules.{name}"):
            if key not in words:
                problems.append(f"bot/locales/{lang}/{name}.json: no {key}")
        if f"game.{name}" in (read_catalog(root, lang, "core") or {}):
            problems.append(f"bot/locales/{lang}/core.json: game.{name} belongs in {name}.json")
    return problems


def _names(name: str, named: set[str], root: Path) -> list[str]:
    """Every command and option name of ``/<name>`` is said in each language by the game's
    own words or by ``core.json`` (the words games share), never by another game's file: a
    catalog key lives in one file, and another game's may go or change its word."""
    problems = []
    for lang in LANGUAGES:
        own = {**(read_catalog(root, lang, "core") or {}), **(read_catalog(root, lang, name) or {})}
        for word in sorted(named):
            if f"name.{word}" not in own:
                problems.append(
                    f"bot/locales/{lang}: name.{word} (/{name}) is in neither {name}.json nor "
                    "core.json (a name two games use is core's)"
                )
    return problems


def _adapter(game: AnyAdapter) -> list[str]:
    problems = []
    if not game.verbs:
        problems.append(f"{game.name}: the adapter names no verbs")
    try:
        game.parse("no-such-verb", "x")
    except IllegalAction:
        pass
    except Exception as error:
        problems.append(f"{game.name}: an unknown verb raised {error!r}, not IllegalAction")
    else:
        problems.append(f"{game.name}: an unknown verb was read as a move")
    if not isinstance(game.soak, SoakStrategy):
        problems.append(f"{game.name}: no soak strategy")
    plays = getattr(type(game), "choose", None) is not BaseAdapter.choose
    if game.session_plays_computers and isinstance(game, BaseAdapter) and not plays:
        problems.append(f"{game.name}: the session plays its computers, but it has no choose()")
    for program in (game.console, game.tools):
        if program is not None and not _runs(program.module):
            problems.append(f"{game.name}: {program.module} has no add_arguments() and run()")
    return problems


def _runs(name: str) -> bool:
    """Whether ``name`` is a module with what ``deckhand`` calls (bot/cli.py)."""
    found = module(name)
    return found is not None and all(callable(getattr(found, f, None)) for f in PROGRAM)


def _soak(name: str, soak: SoakStrategy | None, commands_: dict[str, set[str]]) -> list[str]:
    """The soak's commands and options are the cog's; its practice table can be opened."""
    if not isinstance(soak, SoakStrategy):
        return []
    problems = []
    start = commands_.get("start", set())
    if not {"bots", "level"} <= start:
        problems.append(f"/{name} start: no bots and level options (computer seats)")
    practice = set(soak.practice)
    chosen = set(soak.start(random.Random(1)))
    for what, given in (("practice table", practice), ("start", chosen)):
        if not given <= start or "bots" not in given:
            problems.append(f"{name}'s soak {what}: {sorted(given)} is not /{name} start's")
    verbs = {"join", "leave"} if soak.join else set()
    for verb, options in soak.moves:
        verbs.add(verb)
        if verb in commands_ and not set(options) <= commands_[verb]:
            problems.append(f"{name}'s soak: /{name} {verb} has no option {sorted(options)}")
        for value in options.values():
            if value is not AUTOCOMPLETE and not isinstance(value, (tuple, str, int)):
                problems.append(f"{name}'s soak: /{name} {verb} is given {value!r}")
    for verb in sorted(verbs - set(commands_)):
        problems.append(f"{name}'s soak: /{name} has no {verb}")
    return problems


def strays(registered: set[str], root: Path = ROOT) -> list[str]:
    """Pieces only a registered game has, found for a game that is not registered."""
    problems = []
    for path in sorted((root / "cogs").iterdir()):
        cog = (path / "__init__.py").is_file() and "def setup" in _text(path)
        if cog and path.name not in registered:
            problems.append(f"cogs/{path.name}/: a cog of no registered game")
    for lang in LANGUAGES:
        for path in sorted((root / "bot" / "locales" / lang).glob("*.json")):
            if path.stem != "core" and path.stem not in registered:
                problems.append(f"bot/locales/{lang}/{path.name}: words of no registered game")
    for path in sorted((root / "bot" / "games").glob("*.py")):
        if ADAPTER.search(path.read_text("utf-8")) and path.stem not in registered:
            problems.append(f"bot/games/{path.name}: an adapter the catalog did not find")
    return problems


def _text(package: Path) -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(package.glob("*.py")))


# -- the games as they are ------------------------------------------------------------------


def test_the_catalog_finds_the_games() -> None:
    assert len(CATALOG) >= 5
    assert {"blackjack", "onecard", "uno", "gostop", "rummikub"} <= set(CATALOG.names())
    assert CATALOG.names() == sorted(CATALOG.names(), key=lambda n: (CATALOG.get(n).order, n))
    with pytest.raises(UnknownGame):
        CATALOG.get("poker")


@pytest.mark.parametrize("game", CATALOG.names())
def test_every_piece_of_the_game_agrees_with_its_registration(game: str) -> None:
    assert drift(CATALOG.get(game)) == []


def test_nothing_names_a_game_the_catalog_does_not_have() -> None:
    assert strays(set(CATALOG.names())) == []


def test_every_module_of_bot_games_with_an_adapter_is_the_game_it_is_named_after() -> None:
    for info in pkgutil.iter_modules(bot.games.__path__):
        adapter = getattr(importlib.import_module(f"bot.games.{info.name}"), "ADAPTER", None)
        if adapter is not None:
            assert adapter.name == info.name
            assert CATALOG.get(info.name) is adapter


def test_each_catalog_part_has_the_same_keys_in_every_language() -> None:
    for part in ["core", *CATALOG.names()]:
        keys = {lang: set(read_catalog(ROOT, lang, part) or {}) for lang in LANGUAGES}
        english = keys["en"]
        assert all(found == english for found in keys.values()), part


def test_the_readme_names_every_game_and_how_to_start_it() -> None:
    """The README's list of the games (its first lines and its table of games) is written
    by hand for readers: a game left out of it fails here instead of going unnoticed."""
    readme = (ROOT / "README.md").read_text("utf-8")
    missing = [
        name
        for name in CATALOG.names()
        if f"/{name} start" not in readme or f"**{t(f'game.{name}')}**" not in readme
    ]
    assert missing == [], "add the game to the README's first lines and table of games"


def test_the_session_lists_the_games_it_was_given_in_their_order() -> None:
    games = GameCatalog([CATALOG.get("uno"), CATALOG.get("blackjack")])
    assert games.names() == ["blackjack", "uno"] and len(games) == 2
    games.unregister("uno")
    assert "uno" not in games and [g.name for g in games] == ["blackjack"]


# -- the checks fail where they should ------------------------------------------------------


class Poker(BaseAdapter):
    """A game registered with nothing else written: every piece is missing."""

    name = "poker"
    min_seats, max_seats = 2, 9
    verbs = ()
    console = Program("bot.console.poker", "no such program")
    soak = SoakStrategy(start=lambda rng: {"players": 2}, moves=(), practice={"bots": 1})


def test_a_game_with_nothing_but_its_adapter_is_every_piece_missing() -> None:
    found = "\n".join(drift(Poker()))
    for missing in (
        "bot/games/poker.py",
        "bot/locales/en/poker.json",
        "bot/locales/ko/poker.json",
        "rules/poker/__init__.py",
        "bot/text/poker.py",
        f"docs/rules/{Poker.name}.md",  # (not a path literal: tests/test_docs.py reads those)
        "names no verbs",
        "no choose()",
        "bot.console.poker",
        "cogs/poker/",
    ):
        assert missing in found, missing


@pytest.mark.parametrize("name", ["texasholdempoker", "Poker", "poker2", "five_card"])
def test_a_name_no_menu_id_can_hold_is_drift(name: str) -> None:
    class Named(Poker):
        pass

    Named.name = name
    assert f"{name!r}: a game's name is lower-case letters only, at most 12" in drift(Named())
    assert "a game's name" not in "\n".join(drift(Poker()))


def test_a_soak_strategy_that_is_not_the_cogs_is_drift() -> None:
    uno = CATALOG.get("uno")

    class Wrong(type(uno)):  # type: ignore[misc]
        soak = SoakStrategy(
            start=lambda rng: {"players": 2, "bots": 1, "wild": True},
            moves=(("fold", {}), ("play", {"cards": NONSENSE})),
            practice={"players": 3},
        )

    found = "\n".join(drift(Wrong()))
    assert "soak start: ['bots', 'players', 'wild'] is not /uno start's" in found
    assert "soak practice table: ['players']" in found  # no computers at a practice table
    assert "/uno play has no option ['cards']" in found
    assert "/uno has no fold" in found
    assert "ADAPTER is not the registered one" in found


def test_words_left_in_core_or_missing_in_a_language_are_drift(tmp_path: Path) -> None:
    for lang in LANGUAGES:
        (tmp_path / "bot" / "locales" / lang).mkdir(parents=True)
    english = {"game.uno": "Uno", "name.uno": "uno", "cmd.uno": "Play", "rules.uno": "..."}
    (tmp_path / "bot/locales/en/uno.json").write_text(json.dumps(english), "utf-8")
    (tmp_path / "bot/locales/ko/core.json").write_text('{"game.uno": "우노"}', "utf-8")
    (tmp_path / "bot/locales/ko/uno.json").write_text('{"cmd.uno": "우노"}', "utf-8")
    found = _words("uno", tmp_path)
    assert "bot/locales/ko/uno.json: no game.uno" in found
    assert "bot/locales/ko/core.json: game.uno belongs in uno.json" in found
    assert not [p for p in found if "/en/" in p]


def test_a_command_name_said_only_by_another_games_words_is_drift(tmp_path: Path) -> None:
    for lang in LANGUAGES:
        (tmp_path / "bot" / "locales" / lang).mkdir(parents=True)
        (tmp_path / "bot" / "locales" / lang / "core.json").write_text(
            '{"name.play": "p"}', "utf-8"
        )
        (tmp_path / "bot" / "locales" / lang / "poker.json").write_text(
            '{"name.poker": "p"}', "utf-8"
        )
        (tmp_path / "bot" / "locales" / lang / "uno.json").write_text('{"name.card": "c"}', "utf-8")
    found = _names("poker", {"poker", "play", "card"}, tmp_path)
    assert found == [
        f"bot/locales/{lang}: name.card (/poker) is in neither poker.json nor core.json "
        "(a name two games use is core's)"
        for lang in LANGUAGES
    ]


def test_a_cog_or_words_of_no_registered_game_are_strays(tmp_path: Path) -> None:
    (tmp_path / "cogs" / "poker").mkdir(parents=True)
    (tmp_path / "cogs" / "common").mkdir()
    (tmp_path / "cogs/poker/__init__.py").write_text("async def setup(bot): ...\n", "utf-8")
    (tmp_path / "cogs/common/__init__.py").write_text("", "utf-8")  # helpers: no setup
    for lang in LANGUAGES:
        (tmp_path / "bot" / "locales" / lang).mkdir(parents=True)
        (tmp_path / "bot" / "locales" / lang / "core.json").write_text("{}", "utf-8")
        (tmp_path / "bot" / "locales" / lang / "poker.json").write_text("{}", "utf-8")
    (tmp_path / "bot" / "games").mkdir()
    (tmp_path / "bot/games/poker.py").write_text("ADAPTER: Any = None\n", "utf-8")
    assert strays(set(), tmp_path) == [
        "cogs/poker/: a cog of no registered game",
        "bot/locales/en/poker.json: words of no registered game",
        "bot/locales/ko/poker.json: words of no registered game",
        "bot/games/poker.py: an adapter the catalog did not find",
    ]


def test_discovery_finds_an_adapter_module_and_skips_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "more_games"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "helpers.py").write_text("WORDS = 1\n", "utf-8")  # no ADAPTER: not a game
    (package / "_private.py").write_text("raise RuntimeError('never imported')\n", "utf-8")
    (package / "poker.py").write_text(
        "from tests.bot.games.test_catalog import Poker\nADAPTER = Poker()\n", "utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert GameCatalog.discover("more_games").names() == ["poker"]
