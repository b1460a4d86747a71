"""Every engine has one layout (docs/design.md §2): ``__init__.py`` exports ``new`` and
``restore``; ``events.py`` holds every action and event; ``state.py`` the ``State`` class and
the game's ``<Game>View``; ``ai.py`` the computer player's ``choose_action``."""

import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import rules
from rules.engine import Action, Event

GAMES = sorted(info.name for info in pkgutil.iter_modules(rules.__path__) if info.ispkg)


def modules_of(game: str) -> list[ModuleType]:
    """The game's package and every module in it."""
    package = importlib.import_module(f"rules.{game}")
    inside = pkgutil.iter_modules(package.__path__, f"rules.{game}.")
    return [package, *(importlib.import_module(info.name) for info in inside)]


def defined_in(module: ModuleType) -> list[type]:
    """The public classes ``module`` defines (not those it imports)."""
    return [
        value
        for name, value in vars(module).items()
        if inspect.isclass(value) and value.__module__ == module.__name__ and name[0] != "_"
    ]


def misplaced(game: str) -> list[str]:
    """Public actions and events of ``game`` defined anywhere but its ``events.py``."""
    return [
        f"{module.__name__}.{kind.__name__}"
        for module in modules_of(game)
        if module.__name__ != f"rules.{game}.events"
        for kind in defined_in(module)
        if issubclass(kind, Action | Event)
    ]


def test_every_engine_is_found() -> None:
    assert {"blackjack", "gostop", "onecard", "rummikub", "uno"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_an_engine_has_the_four_modules(game: str) -> None:
    folder = Path(rules.__path__[0]) / game
    for module in ("__init__.py", "events.py", "state.py", "ai.py"):
        assert (folder / module).is_file(), f"rules/{game}/{module}"


@pytest.mark.parametrize("game", GAMES)
def test_an_engine_exports_new_and_restore(game: str) -> None:
    package = importlib.import_module(f"rules.{game}")
    assert callable(package.new)
    assert callable(package.restore)


@pytest.mark.parametrize("game", GAMES)
def test_its_state_and_view_live_in_state_py(game: str) -> None:
    state = importlib.import_module(f"rules.{game}.state")
    assert inspect.isclass(state.State)
    assert state.State.__module__ == state.__name__
    views = [name for name in vars(state) if name.lower() == f"{game}view"]
    assert views, f"rules/{game}/state.py defines no <Game>View"
    assert vars(state)[views[0]].__module__ == state.__name__


@pytest.mark.parametrize("game", GAMES)
def test_its_actions_and_events_live_in_events_py(game: str) -> None:
    assert misplaced(game) == []
    events = importlib.import_module(f"rules.{game}.events")
    kinds = [
        v for v in vars(events).values() if inspect.isclass(v) and v.__module__ == events.__name__
    ]
    assert any(issubclass(v, Action) for v in kinds)
    assert any(issubclass(v, Event) for v in kinds)


@pytest.mark.parametrize("game", GAMES)
def test_its_computer_player_is_choose_action(game: str) -> None:
    ai = importlib.import_module(f"rules.{game}.ai")
    assert inspect.isfunction(ai.choose_action)
    assert "view" in inspect.signature(ai.choose_action).parameters
