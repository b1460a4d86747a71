"""Crazy Eights' :class:`~bot.games.GameAdapter`: what the session code needs to know of the
game, and its registration (``ADAPTER``).

Moves reach the engine as ``(verb, arg)`` pairs from buttons, select menus and commands:
``("draw", None)``, ``("pass", None)`` and ``("play", "<card>[/<suit>]")``, the suit only
with an 8 (rule 10). Tables and hands are drawn by :mod:`bot.text.crazyeights`; the public
table never holds a card of any hand, only counts.
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
    Rendered,
    Scores,
    SoakStrategy,
    soak_seats,
)
from bot.i18n import t
from bot.text import crazyeights as render
from bot.text.cards import red_cards
from bot.text.names import escape_log
from rules import crazyeights
from rules.cards import STANDARD_DECK, SUITS, Card, CardParseError, Rank, Suit, parse_card
from rules.crazyeights.ai import choose_action
from rules.engine import Event, IllegalAction
from rules.levels import Level

__all__ = ["ADAPTER", "DRAW", "PASS", "SUIT_SEPARATOR", "CrazyEightsAdapter", "play_arg"]

DRAW: Final = "draw"
PASS: Final = "pass"
SUIT_SEPARATOR: Final = "/"  # never part of a card as people type it
_SUITS: Final = {suit.value: suit for suit in SUITS}
# One timeout plays the whole turn as the books do: draw until a card fits, then play it
# (the normal player's choice). Drawing ends at the latest when every card but the top one
# is in a hand (rule 18), so a turn is at most that many draws and one play or pass.
_TURN_MOVES: Final = len(STANDARD_DECK) + 1


def play_arg(card: str, suit: str | None = None) -> str:
    """The ``play`` argument for ``card`` (and the suit named with an 8)."""
    return card if not suit else f"{card}{SUIT_SEPARATOR}{suit}"


def _parse_suit(text: str) -> Suit:
    suit = _SUITS.get(text.strip())
    if suit is None:
        raise IllegalAction(
            f"Unknown suit {text.strip()!r}: choose ♠, ♥, ♦ or ♣.", code="unknown_suit"
        )
    return suit


class CrazyEightsAdapter(BaseAdapter):
    """Crazy Eights for the session code: 2-6 seats, the normal player's move when time
    runs out, ``rules/crazyeights/ai.py`` for computers, a suit menu after an 8."""

    name = "crazyeights"
    min_seats = crazyeights.MIN_PLAYERS
    max_seats = crazyeights.MAX_PLAYERS
    verbs = ("play", DRAW, PASS)
    order = 6
    scores = Scores.POINTS  # the winner scores the cards left in the other hands (rule 17)
    timeout_moves = _TURN_MOVES
    soak = SoakStrategy(
        start=soak_seats(2, 4),
        moves=(
            ("play", {"card": AUTOCOMPLETE}),
            ("play", {"card": AUTOCOMPLETE, "suit": tuple(_SUITS)}),
            ("play", {"card": NONSENSE}),
            ("draw", {}),
            ("pass", {}),
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
    ) -> tuple[crazyeights.State, tuple[Event, ...]]:
        """Deal (rules 1-8); dealing says nothing, the first table shows what it did. Every
        seed deals a fair shuffle, the bot's secret one too."""
        return crazyeights.new(seats, seed=seed, options=options or None), ()

    def restore(self, snapshot: dict[str, Any]) -> crazyeights.State:
        """Continue a saved game."""
        return crazyeights.restore(snapshot)

    def timeout_action(
        self, state: crazyeights.State, seat: int
    ) -> crazyeights.PlayCard | crazyeights.Draw | crazyeights.Pass:
        """Out of time: a card that fits if there is one (an 8 last, naming the suit held
        most), else a draw, else a pass: the normal player, always legal."""
        return choose_action(state.view(seat), Level.NORMAL)

    def choose(
        self, view: crazyeights.CrazyEightsView, level: Level, rng: random.Random | None
    ) -> crazyeights.PlayCard | crazyeights.Draw | crazyeights.Pass:
        """``rules/crazyeights/ai.py``."""
        return choose_action(view, level, rng)

    def parse(
        self, verb: str, arg: str | None
    ) -> crazyeights.PlayCard | crazyeights.Draw | crazyeights.Pass:
        """``draw``, ``pass`` or ``play <card>[/<suit>]``; anything else is refused."""
        if verb == DRAW and not arg:
            return crazyeights.Draw()
        if verb == PASS and not arg:
            return crazyeights.Pass()
        if verb == "play" and arg:
            card_text, _, suit_text = arg.partition(SUIT_SEPARATOR)
            try:
                card = parse_card(card_text)
            except CardParseError:
                raise IllegalAction(
                    f"Unknown card '{card_text.strip()}': type one like ♠A, ♥10 or ♣8.",
                    code="unknown_card",
                    text=card_text.strip(),
                ) from None
            # An 8 without a suit is the engine's refusal, after "you don't have it" and
            # "it does not fit", so the member hears the first thing that is wrong.
            suit = _parse_suit(suit_text) if suit_text.strip() else None
            return crazyeights.PlayCard(card, suit)
        raise IllegalAction("That is not a Crazy Eights move.", code="not_a_crazyeights_move")

    def table(
        self,
        view: crazyeights.CrazyEightsView,
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Rendered:
        """The public table under the move log, counts only; Hand and Draw (Pass once
        nothing is left to draw: what the table shows, not what a hand holds); once over,
        every seat's place and Deal again."""
        controls: tuple[Control, ...] = (Control("again", "button.again", "success"),)
        if not view.is_over:
            step = DRAW if view.can_draw else PASS
            controls = (
                Control("hand", "button.hand", "primary"),
                Control(step, f"crazyeights.{step}"),
            )
        return Rendered(
            log=tuple(escape_log(render.log_lines(events, names, locale))),
            body=red_cards(render.table_body(view, names, locale)),
            lang="ansi",
            controls=controls,
        )

    def hand(
        self, view: crazyeights.CrazyEightsView, names: Sequence[str], locale: str
    ) -> Rendered:
        """One seat's hand by suit under the top card; on their turn what they may do and
        the menu of exactly their legal moves (so no button)."""
        lines = [t("hand.title", locale)]
        menu = None
        if view.current is not None and view.current == view.seat:
            lines.append(render.turn_line(view, locale))
            menu = self._menu(view, locale)
        body = red_cards(render.hand_body(view, names, locale))
        return Rendered(log=tuple(lines), body=body, lang="ansi", menu=menu)

    def _menu(self, view: crazyeights.CrazyEightsView, locale: str) -> Menu:
        """The cards that fit, each once (an 8 asks for the suit next), then Draw, or Pass
        when nothing fits and nothing is left to draw. At most 19 cards fit a top card (its
        suit's 12, its rank's other 3, the other 8s): the menu never overflows."""
        fits = set(view.playable)
        options = [_card_option(c, locale) for c in render.sorted_hand(view) if c in fits]
        if view.can_draw:
            options.append(Option(t("crazyeights.draw", locale), DRAW))
        elif not options:
            options.append(Option(t("crazyeights.pass", locale), PASS))
        return Menu(t("crazyeights.pick", locale), tuple(options))

    def private(
        self,
        view: crazyeights.CrazyEightsView,
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Rendered | None:
        """After a draw, to the member alone: the card drawn and the hand again, with its
        menu, so they can play it or draw on."""
        drew = any(isinstance(e, crazyeights.CardDrawn) and e.seat == view.seat for e in events)
        if not drew or view.current != view.seat or not view.hand:
            return None
        hand = self.hand(view, names, locale)
        drawn = t("crazyeights.drew", locale, card=render.card_name(view.hand[-1]))
        return Rendered(log=(drawn, *hand.log[1:]), body=hand.body, lang="ansi", menu=hand.menu)

    def picked(
        self,
        view: crazyeights.CrazyEightsView,
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> Move | Menu:
        """A card (an 8 first asks for the suit, rule 10), Draw, Pass, or after an 8 its
        suit."""
        if step is not None:  # the suit menu carries the 8
            return ("play", play_arg(step, value))
        if value in (DRAW, PASS):
            return (value, None)
        try:
            card = parse_card(value)
        except CardParseError:
            return ("play", value)  # refused by parse with its reason
        if card.rank is Rank.EIGHT:
            return Menu(
                t("crazyeights.pick_suit", locale, card=render.card_name(card)),
                tuple(Option(suit.value, suit.value) for suit in SUITS),
                step=card.code,
                prompt=t("crazyeights.choose_suit", locale),
            )
        return ("play", card.code)

    def suggest(
        self, view: crazyeights.CrazyEightsView, option: str, typed: str, locale: str
    ) -> list[Option]:
        """``/crazyeights play card``: only this seat's cards that fit, on its turn, that
        match what was typed (``♥``, ``10h``, ``하트 10``); an 8 says that the ``suit``
        option is wanted too (rule 10)."""
        wanted = typed.strip().lower()
        try:
            typed_card: Card | None = parse_card(typed) if wanted else None
        except CardParseError:
            typed_card = None
        found = []
        for card in render.sorted_hand(view):
            if card not in view.playable:
                continue
            if wanted and wanted not in card.code.lower() and card is not typed_card:
                continue
            label = card.code
            if card.rank is Rank.EIGHT:
                label = f"{label} - {t('crazyeights.eight_hint', locale)}"
            found.append(Option(label, card.code))
        return found


def _card_option(card: Card, locale: str) -> Option:
    hint = t("crazyeights.eight_hint", locale) if card.rank is Rank.EIGHT else None
    return Option(render.card_name(card), card.code, hint)


ADAPTER = CrazyEightsAdapter()
