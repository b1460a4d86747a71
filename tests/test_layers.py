"""Layers only look down (docs/design.md §1): the engines know no bot, the bot no cog, and
the text layer no Discord. Read from the source's import statements, transitively through
the project's own modules, so a shortcut through a third module is caught too."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "bot", "cogs")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
}


@cache
def direct_imports(module: str) -> frozenset[str]:
    """What ``module`` imports, by full name (``from . import x`` resolved)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(_without_type_checking(tree)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return frozenset(found)


def _without_type_checking(tree: ast.Module) -> ast.Module:
    """The module without its ``if TYPE_CHECKING:`` blocks: names for the type checker,
    imported by nothing at run time."""

    class Strip(ast.NodeTransformer):
        def visit_If(self, node: ast.If) -> ast.AST | None:
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            return None if name == "TYPE_CHECKING" else self.generic_visit(node)

    stripped = Strip().visit(tree)
    assert isinstance(stripped, ast.Module)
    return stripped


def reached(module: str) -> set[str]:
    """Every module ``module`` imports, through the project's own modules."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for name in direct_imports(todo.pop()):
            if name in seen:
                continue
            seen.add(name)
            if name in MODULES:
                todo.append(name)
    return seen


def offending(modules: list[str], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    bad = {}
    for module in modules:
        hits = sorted(
            name
            for name in reached(module)
            if any(name == f or name.startswith(f + ".") for f in forbidden)
        )
        if hits:
            bad[module] = hits
    return bad


def of(prefix: str) -> list[str]:
    return sorted(m for m in MODULES if m == prefix or m.startswith(prefix + "."))


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("rules", ("bot", "cogs", "discord", "asyncio", "aiohttp")),
        ("bot", ("cogs",)),
        ("bot.text", ("discord", "cogs", "bot.sessions", "bot.store", "asyncio")),
        ("bot.i18n", ("discord",)),
    ],
)
def test_a_layer_imports_nothing_above_it(layer: str, forbidden: tuple[str, ...]) -> None:
    modules = of(layer)
    assert modules, layer
    assert offending(modules, forbidden) == {}


def test_the_check_sees_an_import_through_another_module() -> None:
    """bot.client imports discord directly; bot.text.names reaches rules through bot.i18n."""
    assert "discord" in reached("bot.client")
    assert "rules.engine" in reached("bot.text.names")
    assert offending(["bot.client"], ("discord",)) == {"bot.client": ["discord", *sorted(
        name for name in reached("bot.client") if name.startswith("discord.")
    )]}  # fmt: skip
