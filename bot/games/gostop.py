"""Go-Stop's :class:`~bot.games.GameAdapter`: two seats of Matgo for the session code.

Moves reach the engine as ``(verb, arg)`` pairs from buttons, select menus and commands:

- ``("play", "4열")``, ``("play", "4열>4띠")`` (which of two floor cards it takes, rule 6),
  ``("play", "3광 shake")`` (rule 14) and ``("play", "bomb 3")`` (rule 13): what
  ``/gostop play card:`` and its autocomplete carry; ``("shake", "3광")`` and
  ``("bomb", "3")`` are the same moves from a menu;
- ``("choose", "12열")``: what the flipped card takes (rule 7);
- ``("go", None)``, ``("stop", None)`` (rule 22) and ``("chongtong", "end" | "play")`` (rule 5).

The hand's menu offers the playable cards; a card with a choice to make (two floor cards, a
shake, a bomb) asks it in a second menu. Tables and hands are drawn by :mod:`bot.text.gostop`;
the public table never holds a card of a hand or of the pile.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.games import (
    AUTOCOMPLETE,
    NONSENSE,
    BaseAdapter,
    Control,
    Menu,
    Move,
    Option,
    Program,
    Rendered,
    Scores,
    SoakStrategy,
)
from bot.i18n import LANGUAGES, t
from bot.text import gostop as render
from rules import gostop
from rules.cards import whole_number
from rules.engine import Action, Event, GameOver, IllegalAction
from rules.gostop.ai import choose_action
from rules.gostop.cards import CARDS, HwatuCard, HwatuParseError, Kind, parse_hwatu
from rules.gostop.events import Bomb, ChongtongChoice, Go, Play, Stop, TakeFlip
from rules.gostop.state import GostopView, Phase, State
from rules.levels import Level

__all__ = ["ADAPTER", "GostopAdapter", "parse_move"]

TARGET: Final = ">"  # between a card and the floor card it takes: "4열>4띠"
SHAKE: Final = "shake"
BOMB: Final = "bomb"
PLAIN: Final = "plain"  # in a second menu: play the card without shaking or bombing
CHONGTONG_END: Final = "end"
CHONGTONG_PLAY: Final = "play"
_SHAKE_WORDS: Final = frozenset({SHAKE, "흔들기", "흔들"})
_BOMB_WORDS: Final = frozenset({BOMB, "폭탄"})
_ECHO: Final = 40  # at most this much of what a member typed comes back in a refusal
_GO_STOP: Final = (
    Control("go", "button.go", "success"),
    Control("stop", "button.stop", "danger"),
)


@functools.cache
def _shown_names() -> dict[str, HwatuCard]:
    """Every card by the name the tables show it in each language, spaces and case aside
    (``nov double``): what a member reads can be typed back. Twins share a name; it reads as
    the first, which the engine plays as whichever of the two is held."""
    named: dict[str, HwatuCard] = {}
    for lang in LANGUAGES:
        for card in CARDS:
            named.setdefault(_squeezed(render.card_name(card, lang)), card)
    return named


def _squeezed(text: str) -> str:
    return "".join(text.lower().split())


def _parse(text: str) -> HwatuCard:
    """A card by code, alias (:func:`parse_hwatu`) or shown name; ``HwatuParseError`` if none."""
    try:
        return parse_hwatu(text)
    except HwatuParseError:
        card = _shown_names().get(_squeezed(text))
        if card is None:
            raise
        return card


def _card(text: str) -> HwatuCard:
    """A card as typed; refused with what was typed (clipped) when it names none."""
    try:
        return _parse(text)
    except HwatuParseError:
        typed = text.strip()[:_ECHO]
        raise IllegalAction(
            f"Unknown card '{typed}': type one like 1광, 5피a or jan-bright.",
            code="unknown_card",
            text=typed,
        ) from None


def _month(text: str) -> int:
    """``3``, ``3월`` or a card of the month, for a bomb."""
    cleaned = text.strip().removesuffix("월")
    if cleaned.isdecimal() and 1 <= int(cleaned) <= 12:
        return int(cleaned)
    try:
        month = _parse(text).month
    except HwatuParseError:
        month = 0
    if not month:
        raise IllegalAction("Name the month to bomb: 1 to 12.", code="unknown_month")
    return month


def parse_move(text: str) -> Play | Bomb:
    """What ``/gostop play card:`` says: ``4열``, ``4열>4띠`` or ``4열 4띠``, ``3광 shake``
    (``흔들기``), ``bomb 3`` (``폭탄 3월``); cards as :func:`parse_hwatu` reads them or by the
    names the tables show (``Nov double``)."""
    words = text.replace(TARGET, f" {TARGET} ").split()
    if not words:
        raise IllegalAction("That is not a Go-Stop move.", code="not_a_gostop_move")
    if words[0].lower() in _BOMB_WORDS:
        return Bomb(_month(" ".join(words[1:])))
    shake = words[-1].lower() in _SHAKE_WORDS
    if shake:
        words = words[:-1]
        if not words:
            raise IllegalAction("Name the card to shake with, e.g. 3광 shake.", code="shake_what")
    if TARGET in words:
        at = words.index(TARGET)
        if at == len(words) - 1:
            raise IllegalAction(
                "Name the floor card after >, e.g. 4열>4띠.", code="no_target", card=words[0]
            )
        return Play(_card(" ".join(words[:at])), _card(" ".join(words[at + 1 :])), shake)
    whole = " ".join(words)
    try:
        return Play(_parse(whole), None, shake)
    except HwatuParseError:
        pass
    # A card and its target without the ``>``: the first split where both are cards.
    for at in range(1, len(words)):
        try:
            return Play(_parse(" ".join(words[:at])), _parse(" ".join(words[at:])), shake)
        except HwatuParseError:
            continue
    return Play(_card(whole), None, shake)


def _soak_start(rng: random.Random) -> dict[str, Any]:
    """A member against a member or a computer, mostly seeded."""
    chosen: dict[str, Any] = {"bots": rng.randint(0, 1)}
    if rng.random() < 0.8:
        chosen["seed"] = rng.randint(0, 10**6)
    return chosen


class GostopAdapter(BaseAdapter):
    """Matgo for the session code: two seats, the safe move when time runs out, the engine's
    computer player, and leaving as a forfeit (the other seat wins)."""

    name = "gostop"
    min_seats = 2
    max_seats = 2
    verbs = ("go", "stop", "play", SHAKE, BOMB, "choose", "chongtong")
    order = 4
    scores = Scores.POINTS  # the score sheet
    console = Program("bot.console.gostop", "the Go-Stop (Matgo) seed program, South against North")
    tools = Program("bot.tools.gostop", "Go-Stop tools (score sheets)")
    soak = SoakStrategy(
        start=_soak_start,
        moves=(
            ("play", {"card": AUTOCOMPLETE}),
            ("play", {"card": NONSENSE}),
            ("go", {}),
            ("stop", {}),
            ("hand", {}),
        ),
        practice={"bots": 1},
    )

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[State, tuple[Event, ...]]:
        """Deal (rules 3-5): a nagari deal is dealt again inside; dealing itself says nothing.
        Every seed deals a fair shuffle, the bot's secret one too."""
        return gostop.new(seats, seed=seed, options=options), ()

    def restore(self, snapshot: dict[str, Any]) -> State:
        """Continue a saved game."""
        return gostop.restore(snapshot)

    def next_options(self, state: State, options: Mapping[str, Any]) -> dict[str, Any]:
        """Rule 3 and 25: the winner deals the next game; after a nagari the dealer stays and
        the stakes double again."""
        return {**options, **state.next_options()}

    def timeout_action(self, state: State, seat: int) -> Action:
        """Out of time: the engine's first legal move, the safe one: the first card, no shake
        or bomb, Stop, play on a chongtong; where a floor card is chosen, the one the table
        marks ``[1]`` (the floor's order, not the engine's)."""
        legal = state.legal_actions(seat)
        first = legal[0]
        if isinstance(first, TakeFlip):
            choices: list[Play | TakeFlip] = [a for a in legal if isinstance(a, TakeFlip)]
        elif isinstance(first, Play) and first.target is not None:
            choices = [
                a for a in legal if isinstance(a, Play) and a.card is first.card and not a.shake
            ]
        else:
            return first
        shown_first = render.in_floor_order(a.target for a in choices if a.target)[0]
        return next(a for a in choices if a.target is shown_first)

    def choose(self, view: GostopView, level: Level, rng: random.Random | None) -> Action:
        """``rules/gostop/ai.py``."""
        return choose_action(view, level, rng)

    def shown_card(self, view: GostopView, text: str) -> str | None:
        """The card a member named by its number in their hand as :meth:`hand` shows it
        (``3``), as its code; ``None``: ``text`` is no such number (a card as typed, or a
        number the hand does not show, which :meth:`parse` refuses)."""
        number = whole_number(text)
        cards = render.numbered_hand(view)
        if number is None or not 1 <= number <= len(cards):
            return None
        return cards[number - 1].code

    def parse(self, verb: str, arg: str | None) -> Action:
        """The move a button, menu or command names; a move of no Go-Stop verb is refused."""
        text = (arg or "").strip()
        if verb == "go" and not text:
            return Go()
        if verb == "stop" and not text:
            return Stop()
        if verb == "play" and text:
            return parse_move(text)
        if verb == SHAKE and text:
            return Play(_card(text), None, True)
        if verb == BOMB and text:
            return Bomb(_month(text))
        if verb == "choose" and text:
            return TakeFlip(_card(text))
        if verb == "chongtong" and text in (CHONGTONG_END, CHONGTONG_PLAY):
            return ChongtongChoice(end=text == CHONGTONG_END)
        raise IllegalAction("That is not a Go-Stop move.", code="not_a_gostop_move")

    def table(
        self, view: GostopView, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered:
        """The public table: the move log above the floor, the piles and the turn (or the
        score sheet); Hand while the game runs, Go and Stop when they are asked, Deal again
        at the end."""
        controls: tuple[Control, ...] = (Control("again", "button.again", "success"),)
        if view.result is None:
            controls = (Control("hand", "button.hand", "primary"),)
            if view.phase == Phase.GO_STOP:
                controls += _GO_STOP
        log = render.event_lines(events, names, locale)
        if any(isinstance(event, GameOver) for event in events):
            log += render.bak_lines(view, names, locale)
        return Rendered(
            log=tuple(render.escape_log(log)),
            body=render.table_body(view, names, locale),
            controls=controls,
        )

    def hand(self, view: GostopView, names: Sequence[str], locale: str) -> Rendered:
        """One seat's hand, numbered and grouped by month with what each card would take; on
        their turn the choice the game asks of them: a card to play (menu), what the flipped
        card takes (menu), Go or Stop (buttons, with the score), or the chongtong."""
        seat = view.seat
        assert seat is not None
        body = render.hand_lines(view, locale)
        lines = [t("hand.title", locale)]
        menu: Menu | None = None
        controls: tuple[Control, ...] = ()
        mover = view.current_seat
        if mover is None:
            lines.append(t("gostop.hand.over", locale))
        elif mover != seat:
            lines.append(t("gostop.hand.waiting", locale, name=names[mover]))
        elif view.phase == Phase.FLIP_CHOICE:
            assert view.flipped is not None
            flipped = render.card_name(view.flipped, locale)
            lines.append(t("gostop.hand.flip", locale, card=flipped))
            marks = render.in_floor_order(view.flip_choices)
            floor = render.floor_lines(view, render.block_names(names), locale, marks)
            body = [t("gostop.table.floor", locale, pile=view.pile_size), *floor, "", *body]
            menu = self._flip_menu(view, locale)
        elif view.phase == Phase.GO_STOP:
            lines += render.go_stop_lines(view, names, locale)
            controls = _GO_STOP
        elif view.phase == Phase.CHONGTONG:
            month = next(c.month for c in view.hand or () if _held(view, c.month) == 4)
            lines.append(t("gostop.hand.chongtong", locale, month=render.month_name(month, locale)))
            menu = Menu(
                t("gostop.menu.chongtong", locale),
                (
                    Option(t("choice.gostop.chongtong.end", locale), CHONGTONG_END),
                    Option(t("choice.gostop.chongtong.play", locale), CHONGTONG_PLAY),
                ),
            )
        else:
            lines.append(t("gostop.hand.your_turn", locale))
            menu = self._play_menu(view, locale)
        return Rendered(
            log=tuple(render.escape_log(lines)), body="\n".join(body), controls=controls, menu=menu
        )

    def _play_menu(self, view: GostopView, locale: str) -> Menu:
        """Each playable card once (at most 10 and a bonus card's draws: far below 25), with
        what it would take; a card with more to choose says so."""
        options = []
        for card in _distinct(render.legal_cards(view.legal)):
            more = len(_moves_of(view, card)) > 1
            options.append(
                Option(
                    f"{render.card_name(card, locale)} {render.outcome_text(view, card, locale)}",
                    card.code,
                    t("gostop.menu.more", locale) if more else None,
                )
            )
        return Menu(t("gostop.menu.play", locale), tuple(options))

    def _flip_menu(self, view: GostopView, locale: str) -> Menu:
        assert view.flipped is not None
        return Menu(
            t("gostop.menu.flip", locale, card=render.card_name(view.flipped, locale)),
            tuple(
                Option(f"[{n}] {render.card_name(card, locale)}", card.code)
                for n, card in enumerate(render.in_floor_order(view.flip_choices), 1)
            ),
        )

    def private(
        self, view: GostopView, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered | None:
        """When the move leaves the mover a choice (what the flip takes, Go or Stop, another
        card after a bonus card), their hand with it; otherwise nothing."""
        if view.result is not None or view.current_seat != view.seat:
            return None
        return self.hand(view, names, locale)

    def picked(
        self,
        view: GostopView,
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> Move | Menu:
        """A card (asking next which floor card, whether to shake or to bomb when the rules
        give that choice), the flip's floor card, or the chongtong choice."""
        if step is not None:  # the second menu carries the card picked first
            if value == SHAKE:
                return (SHAKE, step)
            if value == BOMB:
                return (BOMB, step)
            if value == PLAIN:
                return ("play", step)
            return ("play", f"{step}{TARGET}{value}")
        if view.phase == Phase.FLIP_CHOICE:
            return ("choose", value)
        if view.phase == Phase.CHONGTONG:
            return ("chongtong", value)
        try:
            card = _parse(value)
        except HwatuParseError:
            return ("play", value)  # refused by parse with its reason
        return self._second_menu(view, card, locale) or ("play", card.code)

    def _second_menu(self, view: GostopView, card: HwatuCard, locale: str) -> Menu | None:
        """The choice a card leaves (rules 6, 13, 14), or ``None`` when it has none."""
        moves = _moves_of(view, card)
        name = render.card_name(card, locale)
        month = render.month_name(card.month, locale)
        targets = render.in_floor_order(
            m.target for m in moves if isinstance(m, Play) and m.target is not None
        )
        if targets:
            return Menu(
                t("gostop.menu.target", locale, card=name),
                tuple(Option(render.card_name(c, locale), c.code) for c in targets),
                step=card.code,
                prompt=t("gostop.menu.target_prompt", locale, card=name),
            )
        three = render.cards_text([c for c in view.hand or () if c.month == card.month], locale)
        just = Option(t("gostop.menu.just", locale, card=name), PLAIN)
        if any(isinstance(m, Play) and m.shake for m in moves):
            return Menu(
                t("gostop.menu.shake", locale, month=month),
                (Option(t("gostop.menu.shake_yes", locale, cards=three), SHAKE), just),
                step=card.code,
                prompt=t("gostop.menu.shake_prompt", locale, month=month),
            )
        if any(isinstance(m, Bomb) for m in moves):
            return Menu(
                t("gostop.menu.bomb", locale, month=month),
                (Option(t("gostop.menu.bomb_yes", locale, cards=three), BOMB), just),
                step=card.code,
                prompt=t("gostop.menu.bomb_prompt", locale, month=month),
            )
        return None

    def suggest(self, view: GostopView, option: str, typed: str, locale: str) -> list[Option]:
        """``/gostop play card``: this seat's legal moves on its turn, each way to play a card
        (its target, a shake, a bomb) as its own entry; ``/gostop choose card``: the two floor
        cards the flipped card may take."""
        if view.seat is None or view.current_seat != view.seat:
            return []
        if option == "choose":
            found = [
                Option(render.card_name(a.target, locale), a.target.code)
                for a in view.legal
                if isinstance(a, TakeFlip)
            ]
        else:
            plays = set(_distinct(render.legal_cards(view.legal)))
            found = [
                _move_option(view, a, locale)
                for a in view.legal
                if isinstance(a, Bomb) or (isinstance(a, Play) and a.card in plays)
            ]
        wanted = " ".join(typed.lower().split())
        return [o for o in found if wanted in f"{o.label} {o.value}".lower()]


def _distinct(cards: Sequence[HwatuCard]) -> list[HwatuCard]:
    """``cards`` without a second junk of a month already listed: the two play alike."""
    seen: set[tuple[int, Kind]] = set()
    kept = []
    for card in cards:
        if (card.month, card.kind) not in seen or card.kind is not Kind.JUNK:
            kept.append(card)
        seen.add((card.month, card.kind))
    return kept


def _held(view: GostopView, month: int) -> int:
    return sum(1 for c in view.hand or () if c.month == month)


def _moves_of(view: GostopView, card: HwatuCard) -> list[Action]:
    """The legal moves that play ``card``: plain, with a target, shaking, or its month's bomb."""
    return [
        a
        for a in view.legal
        if (isinstance(a, Play) and a.card is card)
        or (isinstance(a, Bomb) and a.month == card.month)
    ]


def _move_option(view: GostopView, action: Play | Bomb, locale: str) -> Option:
    """One legal move as an autocomplete entry: what it does, and the text ``parse`` reads."""
    if isinstance(action, Bomb):
        three = [c for c in view.hand or () if c.month == action.month]
        label = t("gostop.menu.bomb_yes", locale, cards=render.cards_text(three, locale))
        return Option(label, f"{BOMB} {action.month}")
    card = action.card
    name = render.card_name(card, locale)
    if action.target is not None:
        target = render.card_name(action.target, locale)
        label = t("gostop.menu.target_option", locale, card=name, target=target)
        return Option(label, f"{card.code}{TARGET}{action.target.code}")
    if action.shake:
        three = [c for c in view.hand or () if c.month == card.month]
        label = t(
            "gostop.menu.shake_play", locale, card=name, cards=render.cards_text(three, locale)
        )
        return Option(label, f"{card.code} {SHAKE}")
    return Option(f"{name} {render.outcome_text(view, card, locale)}", card.code)


ADAPTER = GostopAdapter()
