"""One Card's :class:`~bot.games.GameAdapter`: what the session code needs to know of the game.

Moves reach the engine as ``(verb, arg)`` pairs from buttons, select menus and commands:
``("take", None)`` and ``("play", "<card>[/<suit>]")``, the suit only after a 7 (rule 9);
``/onecard play`` also takes the number the member's hand shows (:meth:`OneCardAdapter.shown_card`).
Tables and hands are drawn by :mod:`bot.text.onecard` in plain words; the public table never
holds a card of any hand, only counts.
"""

from __future__ import annotations

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
    SoakStrategy,
    fit_options,
    soak_seats,
)
from bot.i18n import DEFAULT, counted, t
from bot.text import onecard as render
from bot.text.cards import red_cards
from rules import onecard
from rules.cards import SUITS, Card, CardParseError, Rank, Suit, parse_card, whole_number
from rules.engine import Event, IllegalAction
from rules.levels import Level
from rules.onecard.ai import choose_action
from rules.onecard.state import MAX_PLAYERS, MIN_PLAYERS

__all__ = [
    "ADAPTER",
    "SUIT_SEPARATOR",
    "TAKE",
    "OneCardAdapter",
    "coloured",
    "parse_suit",
    "play_arg",
    "take_label",
]

TAKE: Final = "take"
SUIT_SEPARATOR: Final = "/"  # never part of a card as people type it
_SUIT_WORDS: Final[dict[str, Suit]] = {
    **{suit.value: suit for suit in SUITS},
    **{suit.name[0].lower(): suit for suit in SUITS},
    **{suit.name.lower(): suit for suit in SUITS},
    **{suit.name.lower().rstrip("s"): suit for suit in SUITS},
    "스페이드": Suit.SPADES,
    "하트": Suit.HEARTS,
    "다이아몬드": Suit.DIAMONDS,
    "다이아": Suit.DIAMONDS,
    "클로버": Suit.CLUBS,
}

_COLOUR_JOKER: Final = parse_card("JKC")


def coloured(body: str, locale: str = DEFAULT) -> str:
    """The table for an ``ansi`` code block: hearts, diamonds and the colour joker in red."""
    return red_cards(body, [render.card_name(_COLOUR_JOKER, locale)])


def parse_suit(text: str) -> Suit:
    """``♥``, ``h``, ``hearts`` or ``하트``; ``IllegalAction`` for anything else."""
    suit = _SUIT_WORDS.get(text.strip().lower())
    if suit is None:
        raise IllegalAction(
            f"Unknown suit {text.strip()!r}: choose ♠, ♥, ♦ or ♣.", code="unknown_suit"
        )
    return suit


def play_arg(card: str, suit: str | None = None) -> str:
    """The ``play`` argument for ``card`` (and the suit named after a 7)."""
    return card if not suit else f"{card}{SUIT_SEPARATOR}{suit}"


def take_label(offense: int, locale: str) -> str:
    """``Take``, or under attack ``Take 4``, in the member's language."""
    return t("onecard.take_n", locale, n=offense) if offense else t("onecard.take", locale)


class OneCardAdapter(BaseAdapter):
    """One Card for the session code: 2-4 seats, Take when time runs out, ``ai`` for computers."""

    name = "onecard"
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    verbs = ("play", TAKE)
    order = 2
    console = Program("bot.console.onecard", "the One Card seed program")
    soak = SoakStrategy(
        start=soak_seats(2, 3),
        moves=(
            ("play", {"card": AUTOCOMPLETE}),
            ("play", {"card": NONSENSE}),
            ("take", {}),
            ("hand", {}),
        ),
        practice={"players": 3, "bots": 2},
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
    ) -> tuple[onecard.State, tuple[Event, ...]]:
        """Deal 5 cards to each of ``seats`` players (rules 1-4); dealing itself says nothing.
        Every seed deals a fair shuffle, the bot's secret one too."""
        return onecard.new(seats, seed=seed, options=options or None), ()

    def restore(self, snapshot: dict[str, Any]) -> onecard.State:
        """Continue a saved game."""
        return onecard.restore(snapshot)

    def timeout_action(self, state: onecard.State, seat: int) -> onecard.Take:
        """Out of time: take (one card, or the attack's penalty) — always legal."""
        return onecard.Take()

    def choose(
        self, view: onecard.OneCardView, level: Level, rng: random.Random | None
    ) -> onecard.PlayCard | onecard.Take:
        """``rules/onecard/ai.py``."""
        return choose_action(view, level, rng)

    def parse(self, verb: str, arg: str | None) -> onecard.PlayCard | onecard.Take:
        """``take`` or ``play <card>[/<suit>]``; anything else is refused with a reason."""
        if verb == "take" and not arg:
            return onecard.Take()
        if verb == "play" and arg:
            card_text, _, suit_text = arg.partition(SUIT_SEPARATOR)
            try:
                card = parse_card(card_text)
            except CardParseError:
                typed = card_text.strip()
                number = whole_number(typed)
                if number is not None:  # a number the hand does not show (shown_card)
                    raise IllegalAction(
                        f"Your hand has no card number {number}.", code="no_number", n=number
                    ) from None
                raise IllegalAction(
                    f"Unknown card '{typed}': type one like ♠A, 10h or JKB, "
                    "or its number in your hand.",
                    code="unknown_card",
                    text=typed,
                ) from None
            # A 7 without a suit is the engine's refusal, after "you don't have it" and
            # "it does not fit", so the member hears the first thing that is wrong.
            suit = parse_suit(suit_text) if suit_text.strip() else None
            return onecard.PlayCard(card, suit)
        raise IllegalAction("That is not a One Card move.", code="not_a_onecard_move")

    def shown_card(self, view: onecard.OneCardView, text: str) -> str | None:
        """What a member named by a number of their hand as :meth:`hand` shows it (``1``):
        that card's code, or :data:`TAKE` for the last number; ``None``: ``text`` is no
        such number (a card as typed, or a number the hand does not show, which
        :meth:`parse` refuses)."""
        number = whole_number(text)
        hand = view.hand or ()
        if number is None or view.seat is None or not view.playing[view.seat]:
            return None
        if number == len(hand) + 1:
            return TAKE
        return hand[number - 1].code if 1 <= number <= len(hand) else None

    def table(
        self,
        view: onecard.OneCardView,
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Rendered:
        """The public table in plain words under the move log, counts only; once over,
        every seat's place and Deal again."""
        controls: tuple[Control, ...] = (Control("again", "button.again", "success"),)
        if not view.is_over:
            controls = (
                Control("hand", "button.hand", "primary"),
                Control("take", take_label(view.offense, locale), "secondary"),
            )
        return Rendered(
            log=tuple(render.escape_log(render.log_lines(events, names, locale))),
            body=coloured(render.table_body(view, names, locale), locale),
            lang="ansi",
            controls=controls,
        )

    def hand(self, view: onecard.OneCardView, names: Sequence[str], locale: str) -> Rendered:
        """One seat's hand, numbered, under the open card; on their turn what they may do
        and the menu of exactly their legal cards and Take (the menu holds Take, so no
        button)."""
        seat = view.seat
        take = take_label(view.offense, locale)
        body = render.hand_body(view, take, names, locale)
        if seat is not None and not view.playing[seat]:  # bankrupt (rule 22): nothing to show
            return Rendered(log=(t("onecard.out", locale),), body=body)
        lines = [t("hand.title", locale)]
        menu = None
        if view.current is not None and view.current == seat:
            lines.append(render.turn_line(view, take, locale))
            menu = self._cards_menu(view, locale)
        return Rendered(log=tuple(lines), body=body, menu=menu)

    def _cards_menu(self, view: onecard.OneCardView, locale: str) -> Menu:
        """The legal cards (each once; a 7 asks for its suit next) and Take. A hand never
        reaches 20 cards (rule 22); should more legal cards than fit come up, the menu
        shows the first 24 and the note points to ``/onecard play``."""
        cards = [_card_option(card, locale) for card in view.playable]
        take = Option(take_label(view.offense, locale), TAKE)
        options, left_out = fit_options(cards, keep_last=[take])
        note = counted("onecard.more_cards", left_out, locale) if left_out else None
        return Menu(t("onecard.pick", locale), options, note=note)

    def picked(
        self,
        view: onecard.OneCardView,
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> Move | Menu:
        """A card (a 7 first asks for the suit, rule 9), Take, or after a 7 its suit."""
        if step is not None:  # the suit menu carries the 7
            return ("play", play_arg(step, value))
        if value == TAKE:
            return (TAKE, None)
        try:
            card = parse_card(value)
        except CardParseError:
            return ("play", value)  # refused by parse with its reason
        if card.rank is Rank.SEVEN:
            return Menu(
                t("onecard.pick_suit", locale, card=render.card_name(card, locale)),
                tuple(Option(suit.value, suit.value) for suit in SUITS),
                step=card.code,
                prompt=t("onecard.choose_suit", locale),
            )
        return ("play", card.code)

    def suggest(
        self, view: onecard.OneCardView, option: str, typed: str, locale: str
    ) -> list[Option]:
        """``/onecard play card``: only this seat's legal cards, on its turn (a number of the
        hand: that card, when it may be played); a 7 says that the ``suit`` option is wanted
        too (rule 9)."""
        wanted = typed.strip().lower()
        shown = self.shown_card(view, typed)
        found = []
        for card in view.playable:
            name = render.card_name(card, locale)
            if shown is not None:
                if card.code != shown:
                    continue
            elif wanted and wanted not in f"{name} {card.code}".lower():
                try:
                    if parse_card(typed) is not card:
                        continue
                except ValueError:
                    continue
            if card.rank is Rank.SEVEN:
                name = f"{name} - {t('onecard.seven_hint', locale)}"
            found.append(Option(name, card.code))
        return found


def _card_option(card: Card, locale: str) -> Option:
    description = t("onecard.seven_hint", locale) if card.rank is Rank.SEVEN else None
    return Option(render.card_name(card, locale), card.code, description)


ADAPTER = OneCardAdapter()
