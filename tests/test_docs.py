"""The spec lives in the repository: what the code cites, a clone can open.

Every document a source or document names exists (``docs/...``, any ``*.md``, a Markdown
link and its anchor); every section of ``docs/design.md`` cited as ``§N`` is a heading
there; every ``rule N`` (``rules N-M``, ``test_rule_<N>_...``) in a game's code, tests or
docs is a numbered rule of ``docs/rules/<game>.md``; and code names concepts, never the
number of the issue that asked for them. The checks run over the repository's own code,
documents, catalogs and pages (``.py``, ``.md``, ``.toml``, ``.json``, ``.js``, ``.html``,
``.sql``); the last tests show each check catching what it guards.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from bot.i18n import catalog

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DESIGN = DOCS / "design.md"
SUFFIXES = (".py", ".md", ".toml", ".json", ".js", ".html", ".sql")
# Vendored text that is not ours to change (Discord's published API description), and this
# file, whose examples of what the checks catch would be caught.
VENDORED = ("bot/fakediscord/openapi/",)
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()


def game_words() -> dict[str, str]:
    """A game's names in prose, each to its code name: every game with numbered rules
    (``docs/rules/<game>.md``), by its code name and by its English name where the catalogs
    have one (``game.<game>``: ``one card``, ``go-stop``)."""
    english = catalog("en")
    words = {}
    for path in sorted((DOCS / "rules").glob("*.md")):
        words[path.stem] = path.stem
        shown = english.get(f"game.{path.stem}")
        if shown:
            words[shown.lower()] = path.stem
    return words


GAME_WORDS = game_words()
_GAME = "|".join(sorted((re.escape(word) for word in GAME_WORDS), key=len, reverse=True))
_NUMBERS = r"\d+(?:\s*(?:[-–]|,|and|or|to)\s*\d+)*"
RULE = re.compile(rf"\b[Rr]ules?\s+(?P<numbers>{_NUMBERS})")
MD_RULE = re.compile(rf"\b(?P<game>{_GAME})\.md\s+(?P<numbers>{_NUMBERS})", re.IGNORECASE)
TEST_RULE = re.compile(r"\btest_rules?_(?P<first>\d+)(?:_(?:and|to)_(?P<last>\d+))?")
# A game named right before a rule: "Blackjack rule 11", "gostop.md rule 27", "Uno's seed rule".
QUALIFIER = re.compile(
    rf"(?:docs/rules/)?(?P<game>{_GAME})(?:\.md)?(?:'s|')?\s+(?:(?:official|seed|house|casino)\s+)?$",
    re.IGNORECASE,
)
GAME_MENTION = re.compile(rf"(?<![\w-])(?P<game>{_GAME})(?![\w-])", re.IGNORECASE)
ISSUE = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)
MD_PATH = re.compile(r"(?<![\w/.<>-])((?:\.\./)*(?:[\w.-]+/)*[\w.-]+\.md)(?![\w/])")
DOCS_PATH = re.compile(r"(?<![\w/.-])(docs/[\w./-]*[\w-])")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
SECTION = re.compile(r"§\s*(?P<number>\d+(?:\.\d+)*)")
DESIGN_SECTION = re.compile(r"design\.md\s+section\s+(?P<number>\d+(?:\.\d+)*)", re.IGNORECASE)
HEADING_NUMBER = re.compile(r"^#{1,6}\s+(?P<number>\d+(?:\.\d+)*)\.?\s")
NUMBERED_RULE = re.compile(r"^(?P<number>\d+)\.\s")


@dataclass(frozen=True, slots=True)
class Problem:
    """One citation that does not resolve: where, what, and why."""

    path: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}: {self.why}"


@cache
def scanned() -> tuple[str, ...]:
    """The repository's files to check, relative to its root (tracked and new, not ignored)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        skip = {".git", ".venv", "node_modules", "__pycache__"}
        listed = [
            p.relative_to(ROOT).as_posix()
            for p in ROOT.rglob("*")
            if p.is_file() and not skip.intersection(p.relative_to(ROOT).parts)
        ]
    return tuple(
        sorted(
            path
            for path in listed
            if path.endswith(SUFFIXES)
            and not path.startswith(VENDORED)
            and path != SELF
            and (ROOT / path).is_file()
        )
    )


def lines_of(path: str) -> Iterator[tuple[int, str]]:
    """The file's lines, numbered from 1."""
    yield from enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1)


def game_of(path: str) -> str | None:
    """The game a file belongs to, from its path: a folder named for the game
    (``rules/uno/``, ``cogs/uno/``, ``tests/rules/uno/``) or a file name with the game as a
    word (``bot/games/uno.py``, ``test_uno.py``, ``ai_uno.py``, ``docs/rules/uno.md``)."""
    *folders, name = path.split("/")
    for folder in folders:
        if folder in GAME_WORDS.values():
            return folder
    words = set(re.split(r"[_.\-]", name))
    found = [game for game in GAME_WORDS.values() if game in words]
    return found[0] if len(set(found)) == 1 else None


@cache
def numbered_rules(game: str) -> frozenset[int]:
    """The rule numbers of ``docs/rules/<game>.md`` (lines that start ``N.``)."""
    path = DOCS / "rules" / f"{game}.md"
    if not path.is_file():
        return frozenset()
    return frozenset(
        int(match["number"])
        for line in path.read_text(encoding="utf-8").splitlines()
        if (match := NUMBERED_RULE.match(line))
    )


@cache
def design_sections() -> frozenset[str]:
    """The section numbers of ``docs/design.md``'s headings (``## 3. Sessions`` is ``3``)."""
    if not DESIGN.is_file():
        return frozenset()
    return frozenset(
        match["number"]
        for line in DESIGN.read_text(encoding="utf-8").splitlines()
        if (match := HEADING_NUMBER.match(line))
    )


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as ``-``."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors of a Markdown file's headings."""
    return frozenset(
        slug(line.lstrip("#"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    )


def numbers(text: str) -> list[int]:
    """``3``, ``8-11``, ``13–14``, ``1-3, 5, 6``, ``2 and 7-14`` as the numbers they name."""
    found: list[int] = []
    for part in re.split(r"\s*(?:,|and|or)\s*", text):
        ends = [int(n) for n in re.split(r"\s*(?:[-–]|to)\s*", part) if n]
        if len(ends) == 2 and ends[0] < ends[1]:
            found.extend(range(ends[0], ends[1] + 1))
        else:
            found.extend(ends)
    return found


def rule_game(path: str, line: str, start: int) -> str | None:
    """The game a rule cited at ``line[start:]`` belongs to: a game named right before it,
    else the file's game, else the last game the line names before it."""
    qualified = QUALIFIER.search(line[:start])
    if qualified:
        return GAME_WORDS[qualified["game"].lower()]
    own = game_of(path)
    if own is not None:
        return own
    mentions = list(GAME_MENTION.finditer(line[:start]))
    return GAME_WORDS[mentions[-1]["game"].lower()] if mentions else None


def rule_problems(path: str, number: int, line: str) -> list[Problem]:
    """Rule citations on one line that name no numbered rule of their game."""
    found: list[tuple[int, str, str | None, list[int]]] = []
    for match in RULE.finditer(line):
        found.append(
            (
                match.start(),
                match[0],
                rule_game(path, line, match.start()),
                numbers(match["numbers"]),
            )
        )
    for match in MD_RULE.finditer(line):
        found.append(
            (match.start(), match[0], GAME_WORDS[match["game"].lower()], numbers(match["numbers"]))
        )
    for match in TEST_RULE.finditer(line):
        last = match["last"] or match["first"]
        cited = [int(match["first"]), int(last)]
        found.append((match.start(), match[0], game_of(path), cited))
    problems = []
    for _start, text, game, cited in found:
        if game is None:
            problems.append(Problem(path, number, text, "names no game (say whose rule it is)"))
            continue
        missing = [n for n in cited if n not in numbered_rules(game)]
        if missing:
            why = f"docs/rules/{game}.md numbers no rule {', '.join(map(str, missing))}"
            problems.append(Problem(path, number, text, why))
    return problems


def document_problems(path: str, number: int, line: str) -> list[Problem]:
    """Documents, Markdown links and design sections cited on one line that do not exist."""
    here = (ROOT / path).parent
    problems = []
    for match in MD_PATH.finditer(line):
        cited = match[1]
        word = line[: match.start()].rsplit(None, 1)[-1] if line[: match.start()].strip() else ""
        if "://" in word or word.endswith(("github.com/", "www.")):
            continue  # a web address, not a file of ours
        if not any((base / cited).is_file() for base in (here, ROOT)):
            problems.append(Problem(path, number, cited, "no such document in the repository"))
    for match in DOCS_PATH.finditer(line):
        if not (ROOT / match[1]).exists():
            problems.append(Problem(path, number, match[1], "no such file under docs/"))
    if path.endswith(".md"):
        for match in LINK.finditer(line):
            target = match["target"]
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            file, _, anchor = target.partition("#")
            linked = (here / file).resolve() if file else ROOT / path
            if not linked.exists():
                problems.append(Problem(path, number, target, "the link leads nowhere"))
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(Problem(path, number, target, "no heading has that anchor"))
    for match in [*SECTION.finditer(line), *DESIGN_SECTION.finditer(line)]:
        if match["number"] not in design_sections():
            why = "docs/design.md has no section of that number"
            problems.append(Problem(path, number, match[0], why))
    return problems


def issue_problems(path: str, number: int, line: str) -> list[Problem]:
    """Issue numbers standing in for a concept's name."""
    return [
        Problem(path, number, match[0], "name the concept, not the issue that asked for it")
        for match in ISSUE.finditer(line)
    ]


Check = Callable[[str, int, str], list[Problem]]


def problems_in(path: str, check: Check) -> list[Problem]:
    """Every problem ``check`` finds in ``path``."""
    return [problem for number, line in lines_of(path) for problem in check(path, number, line)]


def report(problems: list[Problem]) -> str:
    """The problems, one a line, for an assertion message."""
    return "\n".join(map(str, problems))


# ---------------------------------------------------------------- the repository


def test_the_spec_is_in_the_repository() -> None:
    assert DESIGN.is_file()
    assert (DOCS / "glossary.md").is_file()
    assert (DOCS / "adding-a-game.md").is_file()
    engines = [p.parent.name for p in (ROOT / "rules").glob("*/__init__.py")]
    assert engines, "no game engines found under rules/"
    missing = [game for game in engines if not numbered_rules(game)]
    assert not missing, f"games without numbered rules in docs/rules/<game>.md: {missing}"


@pytest.mark.parametrize("game", sorted(set(GAME_WORDS.values())))
def test_each_rules_file_numbers_its_rules_once_in_order(game: str) -> None:
    path = DOCS / "rules" / f"{game}.md"
    cited = [
        int(match["number"])
        for line in path.read_text(encoding="utf-8").splitlines()
        if (match := NUMBERED_RULE.match(line))
    ]
    assert cited == list(range(1, len(cited) + 1))


def test_every_cited_document_exists() -> None:
    problems = [p for path in scanned() for p in problems_in(path, document_problems)]
    assert not problems, report(problems)


def test_every_cited_rule_is_numbered_in_its_games_rules() -> None:
    problems = [p for path in scanned() for p in problems_in(path, rule_problems)]
    assert not problems, report(problems)


def test_code_names_concepts_not_issue_numbers() -> None:
    problems = [p for path in scanned() for p in problems_in(path, issue_problems)]
    assert not problems, report(problems)


# ---------------------------------------------------------------- the checks bite


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("rules/uno/state.py", "the penalty of rule 99"),
        ("tests/rules/uno/test_rules.py", "def test_rule_42_nothing() -> None:"),
        ("tests/e2e/test_onecard.py", "rules 27-29 at once"),
        ("bot/games/uno.py", "as Blackjack rule 30 says"),  # a game named: its rules, not Uno's
        ("tests/deals.py", "a fair deal (rule 12)"),  # whose rule 12?
        ("README.md", "docs/rules/gostop.md rule 28"),
        ("bot/games/gostop.py", "as Crazy Eights' rule 25 says"),  # its 19, not Go-Stop's
        ("bot/locales/en/uno.json", '"illegal.uno.x": "See rule 99."'),
    ],
)
def test_a_rule_that_is_not_numbered_is_caught(path: str, line: str) -> None:
    assert rule_problems(path, 1, line)


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("rules/uno/state.py", "rules 15-18 and rule 8"),
        ("README.md", "| `/rummikub put` | the staged turn (rule 15) |"),
        ("bot/games/uno.py", "as Blackjack rule 12 says"),
        ("bot/tools/gostop.py", "the score sheet (docs/rules/gostop.md rule 27)"),
    ],
)
def test_a_numbered_rule_passes(path: str, line: str) -> None:
    assert not rule_problems(path, 1, line)


@pytest.mark.parametrize(
    "line",
    [
        "the contract (DESIGN.md section 2)",
        "see docs/design.md §42",
        "see docs/nothing-here.md",
        "as gostop.md says",  # no such file at the root or beside the citing file
        "the engine of rules/uno.md",  # rules/ holds the engines; the rules are in docs/rules/
    ],
)
def test_a_missing_document_or_section_is_caught(line: str) -> None:
    assert document_problems("bot/sessions/core.py", 1, line)


def test_a_link_to_a_missing_anchor_is_caught() -> None:
    assert document_problems("docs/design.md", 1, "the [glossary](glossary.md#no-such-word)")
    assert not document_problems("docs/design.md", 1, "a [level](glossary.md#level)")


def test_an_issue_number_is_caught() -> None:
    assert issue_problems("rules/levels.py", 1, "How well a computer plays (Issue 18)")
    assert issue_problems("tests/x.py", 1, "# see issue #34")
    assert not issue_problems("rules/levels.py", 1, "How well a computer plays (levels)")
