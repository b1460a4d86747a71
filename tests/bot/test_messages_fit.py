"""Every message the bot builds fits Discord by design, held against Discord's description.

Random and extreme states of every game (the most seats, Uno hands of 40 cards and more, a
Rummikub table of 100 tiles and a turn of 100 staged sets, names of 32 Korean characters or
of markdown) are rendered as every kind of message a member can see: the public table with
its notices and a fair deal's reveal, each seat's hand with its menu, what the mover alone is
told, a refused move. Each payload goes through the fake Discord's validator (Discord's
OpenAPI description, then the documented rules) as an interaction's answer: none may be
refused, and none may be cut mid-line (every code block closed, the reveal and the turn line
kept).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import bot.text.rummikub  # noqa: F401 - registers how Rummikub's refusals are said
import rules.rummikub as rk
from bot.fakediscord.limits import check_message
from bot.fakediscord.spec import check_body, readable_path
from bot.games import GameCatalog
from bot.i18n import refusal, t
from bot.sessions.model import Post, compose
from bot.text.fit import MAX_MESSAGE, fit_list, fit_tail, pages
from bot.verify import verify_command
from cogs.common.buttons import build_view
from rules.engine import IllegalAction
from rules.levels import Level
from tests.language import english_words
from tests.phone import assert_tables_fit_phone
from tests.rules.rummikub.test_properties import random_edit

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
NAMES = {
    "korean": ["가나다라마바사아자차카타파하" * 3][0][:32],
    "markdown": "# BIG x```y [free nitro](https://x.y)\n-# tiny \u202egnirts **b** <@&1>",
}


def names(kind: str, seats: int) -> list[str]:
    base = NAMES[kind]
    return [f"{base}{n}"[:32] for n in range(1, seats + 1)]


def refusals_of(post: Post) -> list[str]:
    """What Discord would refuse of ``post`` sent as an interaction's answer."""
    data: dict[str, Any] = {"content": post.content}
    view = build_view(post)
    if view is not None:
        data["components"] = view.to_components()
    body = {"type": 4, "data": json.loads(json.dumps(data))}
    found = check_body(CALLBACK, body) + check_message(data)
    return [f"{readable_path(p)}: {m}" for p, _c, m in found]


def assert_fits(post: Post, *must_keep: str) -> None:
    assert refusals_of(post) == [], post.content[:300]
    assert len(post.content) <= MAX_MESSAGE
    assert_dressed_by_no_name(post.content)
    for line in must_keep:
        assert line in post.content


def assert_dressed_by_no_name(text: str) -> None:
    """No display name breaks out of a code block, makes a heading, subtext or a masked
    link, or turns a line around (bidi controls)."""
    assert text.count("```") % 2 == 0, "a code block left open"
    assert "\u202e" not in text and "\u2066" not in text
    outside = re.sub(r"```.*?```", "", text, flags=re.S)
    assert not re.search(r"(?<!\\)\]\(", outside), "a masked link"
    for line in outside.splitlines():
        assert not re.match(r"\s*(#{1,3}|-#)\s", line), line


def reveal(game: str, seats: int, options: dict[str, Any], locale: str) -> str:
    command = verify_command(game, 2**64 - 1, "f" * 32, seats, options=options, locale=locale)
    return t("fair.reveal", locale, seed=2**64 - 1, salt="f" * 32, command=command)


def options_of(game: str, pick: random.Random) -> dict[str, Any]:
    if game == "uno":
        house = ("stacking", "draw_until_playable", "jump_in", "seven_zero", "uno_call")
        return {"ruleset": "official", **{rule: pick.random() < 0.5 for rule in house}}
    if game == "blackjack" and pick.random() < 0.5:
        return {"ruleset": "casino"}  # split hands, doubles and bets on the table
    return {}


def grow(game: str, state: Any, pick: random.Random) -> None:
    """Push a state to the extremes a long game reaches: Uno hands of 40 cards and more, a
    Rummikub table of every pooled tile and a turn of one staged set per tile."""
    if game == "uno" and len(state.pile) > 45:
        seat = pick.randrange(state.n)
        state.hands[seat] += state.pile[:42]
        del state.pile[:42]
    if game == "rummikub":
        state.table = [[tile] for tile in state.pool[:100]]
        del state.pool[:100]
        state.melded = [True] * state.players
        rack = state.racks[state.turn]
        state._staged = [list(s) for s in state.table] + [[tile] for tile in rack]
        state._fresh = [False] * len(state.table) + [True] * len(rack)
        state._staged_rack = []


def decisions(game: str, seed: int, pick: random.Random) -> Iterator[tuple[Any, list[Any]]]:
    """A random game at the most seats: its state and the events of each decision."""
    adapter = GameCatalog.discover().get(game)
    seats = adapter.max_seats
    computers = [s for s in range(seats) if s % 3 == 2]
    state, events = adapter.new(seats, seed, options_of(game, pick), computers, secret=True)
    yield state, list(events)
    for step in range(60):
        if state.is_over:
            return
        if step == 5:
            grow(game, state, pick)
        seat = state.current_seat
        if game == "rummikub" and pick.random() < 0.5:
            try:
                edited = list(state.apply(seat, random_edit(state, pick)))
            except IllegalAction:
                continue
            yield state, edited
            continue
        action = adapter.computer_action(state, seat, Level.EASY, pick)
        try:
            events = list(state.apply(seat, action))
        except IllegalAction:  # a grown table no player could have made: draw instead
            events = list(state.apply(seat, state.legal_actions(seat)[0]))
        yield state, events


@pytest.mark.parametrize("kind", sorted(NAMES))
@pytest.mark.parametrize("locale", ["en", "ko"])
@pytest.mark.parametrize("game", GameCatalog.discover().names())
def test_every_message_of_random_and_extreme_states_is_one_discord_accepts(
    game: str, locale: str, kind: str
) -> None:
    adapter = GameCatalog.discover().get(game)
    pick = random.Random(f"{game}{locale}{kind}")
    shown = 0
    for seed in range(3):
        seated = names(kind, adapter.max_seats)
        options = options_of(game, random.Random(seed))
        for state, events in decisions(game, seed, pick):
            table = adapter.table(state.view(None), events, seated, locale)
            closing = [reveal(game, len(seated), options, locale)]
            turn = t("turn.yours", locale, member="<@123456789012345678>")
            public = compose(table, ["notice"], turn, locale, closing)
            post = Post(1, 1, public, table.controls, locale, game)
            assert_fits(post, closing[0], turn, table.body.split("\n")[0])
            # Within a phone's width, and every column lines up whether the reader's font
            # draws the suits, arrows and marks one column wide or two.
            assert_tables_fit_phone(public)
            korean = locale == "ko" and kind == "korean"  # names of Latin letters aside
            if korean:
                assert english_words(compose(table, locale=locale)) == []
            for seat in range(len(seated)):
                view = state.view(seat)
                hand = adapter.hand(view, seated, locale)
                assert_tables_fit_phone(compose(hand, locale=locale))
                if korean:
                    assert english_words(compose(hand, locale=locale)) == []
                assert_fits(
                    Post(1, 1, compose(hand, locale=locale), hand.controls, locale, game, hand.menu)
                )
                said = adapter.private(view, events, seated, locale)
                if said is not None:
                    assert_fits(
                        Post(
                            1,
                            1,
                            compose(said, locale=locale),
                            said.controls,
                            locale,
                            game,
                            said.menu,
                        )
                    )
            if game == "rummikub" and state._staged:
                try:
                    state.apply(state.turn, rk.Done())
                except IllegalAction as error:
                    assert_fits(Post(1, 1, refusal(error, locale, game), (), locale))
            shown += 1
    assert shown > 20


# -- the pieces ------------------------------------------------------------------------------


def test_a_long_log_gives_way_to_the_reveal_and_says_how_much_it_left_out() -> None:
    from bot.games import Rendered

    burst = tuple(f"Computer {n % 9 + 2} played Red {n % 10}, then drew a card" for n in range(90))
    table = Rendered(burst, "the table\nline 2", "ansi")
    closing = reveal("uno", 10, {"ruleset": "official", "stacking": True}, "en")
    text = compose(table, ["A notice"], "Your turn, <@1>", "en", [closing])
    assert len(text) <= MAX_MESSAGE
    lines = text.split("\n")
    assert lines[0] == "A notice"
    assert lines[1].startswith("… ") and lines[1].endswith("earlier lines not shown")
    left_out = int(lines[1].split()[1])
    assert lines[2:-6] == list(burst[left_out:])  # the newest moves, whole lines
    # The reveal stands whole and is read last, after the final table.
    assert lines[-6:] == ["Your turn, <@1>", "```ansi", "the table", "line 2", "```", closing]
    assert "options:ruleset=official,stacking`" in closing


def test_fit_list_and_fit_tail_keep_whole_lines_and_count_the_rest() -> None:
    lines = [f"line {n:03d}" for n in range(100)]
    head = fit_list(lines, 100, lambda n: f"and {n} more")
    assert head[-1] == f"and {100 - len(head) + 1} more" and len("\n".join(head)) <= 100
    assert head[:-1] == lines[: len(head) - 1]
    tail = fit_tail(lines, 100, lambda n: f"{n} earlier")
    assert tail[0] == f"{100 - len(tail) + 1} earlier" and tail[1:] == lines[-(len(tail) - 1) :]
    assert fit_list(lines[:3], 100, str) == lines[:3]


def test_pages_show_every_line_once_in_closed_blocks() -> None:
    lines = [f"seat {n}: " + "x" * 150 for n in range(40)]
    found = pages("head", lines, "ansi")
    assert len(found) > 1 and found[0].startswith("head\n```ansi\n")
    assert all(len(page) <= MAX_MESSAGE and page.endswith("\n```") for page in found)
    shown = [line for page in found for line in page.split("\n") if line.startswith("seat")]
    assert shown == lines


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_a_refused_done_names_its_first_wrong_sets_and_counts_the_rest(locale: str) -> None:
    """Every tile of a melded seat's table and rack on a line of its own, then Done: the
    engine lists 120 wrong sets (2,562 characters of refusal in English before)."""
    import rules.rummikub as rk

    state = rk.new(2, seed=5)
    state.melded = [True, True]
    seat = state.turn
    tiles = state.pool[: 106 - 28]
    state.table = [[tile] for tile in tiles]
    del state.pool[: len(tiles)]
    rack = state.racks[seat]
    state._staged = [*([t] for t in tiles), *([t] for t in rack)]
    state._fresh = [False] * len(tiles) + [True] * len(rack)
    state._staged_rack = []
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, rk.Done())
    assert refused.value.params["count"] == len(tiles) + len(rack)
    said = refusal(refused.value, locale, "rummikub")
    assert len(said) < 1000
    assert said.endswith(t("fit.more", locale, n=len(tiles) + len(rack) - 5))
    assert_fits(Post(1, 1, said, (), locale))


HOSTILE_NAMES = ["x```y", "# BIG", "[free nitro](https://evil.example)", "-# tiny", "ab\u202ecd"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_dresses_up_no_message_outside_a_code_block(name: str) -> None:
    from bot.sessions.model import Seat, Session
    from bot.text.lobby import lobby_text
    from bot.text.names import block_name, escape_log, markdown_name

    shown = markdown_name(name)
    assert_dressed_by_no_name(f"{shown}\n{shown} joined")
    assert "\u202e" not in block_name(name) and "`" not in block_name(name)
    for line in escape_log([f"{name} played ♠3", f"{name}"]):
        assert_dressed_by_no_name(line)
    session = Session(1, 2, "onecard", 3, "en", 4, 0, None, {}, 60.0, [Seat(3, name)])
    assert_dressed_by_no_name(lobby_text(session, [t("lobby.joined", "en", name=shown)]))
