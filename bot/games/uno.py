"""Uno's :class:`~bot.games.GameAdapter`: what the session code needs to know of the game.

Moves reach the engine as ``(verb, arg)`` pairs from buttons, select menus and commands:
``play <card>[/<colour>][@<seat>]`` (a card by its code, the colour after a wild, the seat a
7 swaps with under ``seven_zero``; ``/uno play`` also takes the number the member's hand shows,
see :meth:`UnoAdapter.shown_card`), ``draw``, ``pass`` (keep the card just drawn), ``uno``,
``catch <seat>``, ``challenge`` and ``colour <colour>`` (a wild turned first, rule 4).
Tables and hands are drawn by :mod:`bot.text.uno`; the public table holds counts only.
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
    Scores,
    SoakStrategy,
    fit_options,
    soak_seats,
)
from bot.i18n import counted, t
from bot.text import uno as render
from rules import uno
from rules.cards import whole_number
from rules.engine import Action, Event, IllegalAction
from rules.levels import Level
from rules.uno.ai import choose_action

__all__ = ["ADAPTER", "COLOUR_MARK", "TARGET_MARK", "UnoAdapter", "play_arg"]

COLOUR_MARK: Final = "/"  # never part of a card code
TARGET_MARK: Final = "@"
KEEP: Final = "pass"
NAME_COLOUR: Final = "="  # a menu value naming the colour of a wild turned first


def play_arg(card: str, colour: str | None = None, target: int | None = None) -> str:
    """The ``play`` argument: the card, the colour after a wild, the seat a 7 swaps with."""
    arg = card
    if colour:
        arg += f"{COLOUR_MARK}{colour}"
    if target is not None:
        arg += f"{TARGET_MARK}{target}"
    return arg


def _colour(text: str) -> int:
    try:
        return int(uno.parse_colour(text))
    except uno.CardParseError:
        raise IllegalAction(
            "Name red, yellow, green or blue.", code="unknown_colour", text=text.strip()
        ) from None


def _plays(view: uno.UnoView) -> dict[str, list[uno.Play]]:
    """The legal plays of this seat by card code, each code once, in hand order."""
    hand = view.hand or ()
    found: dict[str, list[uno.Play]] = {}
    for action in view.legal:
        if isinstance(action, uno.Play):
            found.setdefault(hand[action.index], []).append(action)
    return found


def _needs(plays: Sequence[uno.Play]) -> str | None:
    """What a card asks for next: ``colour`` (a wild), ``target`` (a 7), or nothing."""
    if any(p.colour is not None for p in plays):
        return "colour"
    if any(p.target is not None for p in plays):
        return "target"
    return None


def _soak_start(rng: random.Random) -> dict[str, Any]:
    """Two to four players, each house rule on half the time."""
    chosen = soak_seats(2, 4)(rng)
    for rule in ("stacking", "jump_in", "seven_zero", "uno_call"):
        chosen[rule] = rng.random() < 0.5
    return chosen


class UnoAdapter(BaseAdapter):
    """Uno for the session code: 2-10 seats, Draw then Keep when time runs out."""

    name = "uno"
    min_seats = uno.MIN_PLAYERS
    max_seats = uno.MAX_PLAYERS
    verbs = ("play", "draw", KEEP, "uno", "challenge", "catch", "colour")
    order = 3
    scores = Scores.POINTS  # the cards left in the others' hands
    console = Program("bot.console.uno", "the Uno judge protocol: PLAYERS")
    soak = SoakStrategy(
        start=_soak_start,
        moves=(
            ("play", {"card": AUTOCOMPLETE}),
            ("play", {"card": NONSENSE}),
            ("draw", {}),
            ("pass", {}),
            ("uno", {}),
            ("challenge", {}),
            ("hand", {}),
        ),
        practice={"players": 3, "bots": 2, "stacking": True},
    )
    timeout_moves = 2  # Draw, then Keep the drawn card

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[uno.State, tuple[Event, ...]]:
        """Deal 7 cards each (rule 2); every seed deals a fair shuffle, the secret one too.
        What the first card did (official rule 4: a skip, two cards, a reversal, a colour to
        name) comes back for the first table to say."""
        state, events = uno.deal(seats, seed=seed, options=options or None)
        return state, tuple(events)

    def restore(self, snapshot: dict[str, Any]) -> uno.State:
        """Continue a saved game."""
        return uno.restore(snapshot)

    def timeout_action(self, state: uno.State, seat: int) -> Action:
        """Out of time: draw (or take the pending cards); after a draw, keep the card; a
        wild turned first takes the colour the computer would name."""
        phase = state.view(seat).phase
        if phase == "after_draw":
            return uno.Pass()
        if phase == "choose_colour":
            return choose_action(state.view(seat))
        return uno.Draw()

    def choose(self, view: uno.UnoView, level: Level, rng: random.Random | None) -> Action:
        """``rules/uno/ai.py``."""
        return choose_action(view, level, rng)

    def parse(self, verb: str, arg: str | None) -> Action:
        """A verb and its argument as the engine's action; ``IllegalAction`` if none."""
        if verb == "play" and arg:
            return _parse_play(arg)
        if verb == "draw" and not arg:
            return uno.Draw()
        if verb == "pass" and not arg:
            return uno.Pass()
        if verb == "uno" and not arg:
            return uno.CallUno()
        if verb == "challenge" and not arg:
            return uno.Challenge()
        if verb == "catch":  # nobody named: the engine says there is nobody to catch
            caught = whole_number(arg or "")
            return uno.CatchUno(-1 if caught is None else caught)
        if verb == "colour" and arg:
            return uno.ChooseColour(_colour(arg))
        raise IllegalAction("That is not an Uno move.", code="not_an_uno_move")

    def shown_card(self, view: uno.UnoView, text: str) -> str | None:
        """The card a member named by its number in their hand as :meth:`hand` shows it
        (``3``), as its code; ``None``: ``text`` is no such number (a card as typed, or a
        number the hand does not show, which :meth:`parse` refuses)."""
        number = whole_number(text)
        cards = render.numbered(view)
        if number is None or not 1 <= number <= len(cards):
            return None
        return cards[number - 1]

    def table(
        self, view: uno.UnoView, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered:
        """The public table: the move log above the code block, and its buttons."""
        return Rendered(
            log=tuple(render.escape_log(render.event_lines(events, names, locale))),
            body=render.table_body(view, names, locale),
            lang="ansi",
            controls=self._table_controls(view, locale),
        )

    def _table_controls(self, view: uno.UnoView, locale: str) -> tuple[Control, ...]:
        if view.result is not None:
            return (Control("again", "button.again", "success"),)
        draw = t("uno.take_n", locale, n=view.pending) if view.pending else t("uno.draw", locale)
        controls = [Control("hand", "button.hand", "primary"), Control("draw", draw)]
        if _challengeable(view):
            controls.insert(1, Control("challenge", t("uno.challenge", locale), "danger"))
        if "uno_call" in view.house:
            current = view.current_seat
            if view.uno_exposed is not None:
                controls.append(Control("uno", t("uno.call", locale), "success"))
                catch = t("uno.catch", locale)
                controls.append(Control("catch", catch, "danger", str(view.uno_exposed)))
            elif current is not None and view.hand_counts[current] == 2:
                controls.append(Control("uno", t("uno.call", locale), "success"))
        return tuple(controls)

    def hand(self, view: uno.UnoView, names: Sequence[str], locale: str) -> Rendered:
        """One seat's hand in colour, sorted and numbered; with the menu of its legal plays
        (on its turn, or a jump-in), Keep after a draw, UNO! when it may be called."""
        lines = [t("hand.title", locale)]
        menu = self._menu(view, locale)
        controls: list[Control] = []
        legal = view.legal
        if any(isinstance(a, uno.CallUno) for a in legal):
            controls.append(Control("uno", t("uno.call", locale), "success"))
        if view.phase == "after_draw" and view.current_seat == view.seat:
            lines.append(t("uno.after_draw", locale))
            drawn = (view.hand or ("",))[-1]
            plays = _plays(view).get(drawn, [])
            if plays and _needs(plays) is None:
                controls.append(Control("play", t("uno.play_it", locale), "primary", drawn))
            controls.append(Control(KEEP, t("uno.keep", locale)))
        elif menu is not None and view.current_seat == view.seat:
            # With no card that fits, the menu holds only the draw: say that, not "pick a card".
            playable = any(option.value not in ("draw", KEEP) for option in menu.options)
            lines.append(t("uno.your_turn" if playable else "uno.your_turn_draw", locale))
        body = "\n".join(render.hand_lines(view, locale))
        return Rendered(
            log=tuple(lines), body=body, lang="ansi", controls=tuple(controls), menu=menu
        )

    def _menu(self, view: uno.UnoView, locale: str) -> Menu | None:
        """The legal plays (each card once), Keep after a draw, Draw on a turn; a wild turned
        first asks for its colour. ``None`` when this seat has no move to pick."""
        if view.phase == "choose_colour" and view.current_seat == view.seat:
            return Menu(t("uno.pick_colour", locale), _colour_options(locale, NAME_COLOUR))
        plays = _plays(view)
        options = [
            Option(render.card_name(code, locale), code, _hint(_needs(p), locale))
            for code, p in sorted(plays.items(), key=lambda item: render.sort_key(item[0]))
        ]
        mine = view.current_seat == view.seat
        if not options and not mine:
            return None  # out of turn the menu is only for a jump-in
        last = []
        if mine:
            if view.phase == "after_draw":
                last.append(Option(t("uno.keep", locale), KEEP))
            else:
                draw = t("uno.take_n", locale, n=view.pending) if view.pending else None
                last.append(Option(draw or t("uno.draw", locale), "draw"))
        kept, left_out = fit_options(options, keep_last=last)
        note = counted("uno.more_cards", left_out, locale) if left_out else None
        return Menu(t("uno.pick", locale), kept, note=note)

    def private(
        self, view: uno.UnoView, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered | None:
        """To the mover alone: the hand a challenge revealed (rule 8); after a draw that
        may be played, the drawn card with Play it / Keep; after UNO! said before the
        next-to-last card, the hand again (its menu of this version) and that it counts."""
        # UNO! said early (no event): the table is posted again, so the hand a member pressed
        # it in is out of date; a fresh one comes with the answer.
        if not events and view.current_seat == view.seat:
            hand = self.hand(view, names, locale)
            log = (t("uno.said_early", locale), *hand.log[1:])
            return Rendered(log=log, body=hand.body, lang="ansi", menu=hand.menu)
        if view.revealed is not None and any(isinstance(e, uno.ChallengeResolved) for e in events):
            offender, cards = view.revealed
            body = "\n".join(render.revealed_lines(offender, cards, names, locale))
            return Rendered(log=(), body=body, lang="ansi")
        if view.phase == "after_draw" and view.current_seat == view.seat:
            drawn = (view.hand or ("",))[-1]
            hand = self.hand(view, names, locale)
            log = (t("uno.drew_card", locale, card=render.card_name(drawn, locale)),)
            return Rendered(
                log=log, body=hand.body, lang="ansi", controls=hand.controls, menu=hand.menu
            )
        return None

    def picked(
        self,
        view: uno.UnoView,
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> Move | Menu:
        """A card (a wild asks for its colour, a 7 for its target), Draw, Keep, a colour."""
        if value.startswith(NAME_COLOUR):
            return ("colour", value[len(NAME_COLOUR) :])
        if step is not None:
            card, _, kind = step.partition(COLOUR_MARK)
            if kind == "target":
                return ("play", play_arg(card, target=whole_number(value)))
            return ("play", play_arg(card, colour=value))
        if value in ("draw", KEEP):
            return (value, None)
        plays = _plays(view).get(value, [])
        needs = _needs(plays)
        if needs == "colour":
            return Menu(
                t("uno.pick_colour", locale),
                _colour_options(locale),
                step=value,
                prompt=t("uno.choose_colour", locale, card=render.card_name(value, locale)),
            )
        if needs == "target":  # the seats the engine offers: never one who left
            targets = sorted({p.target for p in plays if p.target is not None})
            seats = [
                Option(
                    t(
                        "uno.seat.one" if view.hand_counts[seat] == 1 else "uno.seat",
                        locale,
                        n=seat + 1,
                        name=names[seat] if seat < len(names) else "",
                        cards=view.hand_counts[seat],
                    ).replace("  ", " "),
                    str(seat),
                )
                for seat in targets
            ]
            return Menu(
                t("uno.pick_target", locale),
                tuple(seats),
                step=f"{value}{COLOUR_MARK}target",
                prompt=t("uno.choose_target", locale, card=render.card_name(value, locale)),
            )
        return ("play", value)

    def suggest(self, view: uno.UnoView, option: str, typed: str, locale: str) -> list[Option]:
        """``/uno play card``: only this seat's legal plays matching what was typed (a number
        of the hand: that card, when it may be played)."""
        wanted = typed.strip().lower()
        shown = self.shown_card(view, typed)
        found = []
        for code, plays in sorted(_plays(view).items(), key=lambda item: render.sort_key(item[0])):
            name = render.card_name(code, locale)
            if shown is not None and code != shown:
                continue
            if shown is None and wanted and wanted not in f"{name} {code}".lower():
                continue
            hint = _hint(_needs(plays), locale)
            found.append(Option(f"{name} - {hint}" if hint else name, code))
        return found


def _challengeable(view: uno.UnoView) -> bool:
    """Rule 8: an official Wild Draw Four waits for its victim's answer."""
    return view.ruleset == "official" and view.pending == 4 and view.top.endswith("_W+4")


def _hint(needs: str | None, locale: str) -> str | None:
    return None if needs is None else t(f"uno.hint.{needs}", locale)


def _colour_options(locale: str, prefix: str = "") -> tuple[Option, ...]:
    return tuple(
        Option(render.colour_name(colour, locale), f"{prefix}{colour}") for colour in render.COLOURS
    )


def _parse_play(arg: str) -> uno.PlayCard:
    """``<card>[/<colour>][@<seat>]``; the card as people type it (``r5``, ``wild red``)."""
    rest, _, target_text = arg.partition(TARGET_MARK)
    card_text, _, colour_text = rest.partition(COLOUR_MARK)
    try:
        code, named = uno.parse_play(card_text)
    except uno.CardParseError:
        number = whole_number(card_text)
        if number is not None:  # a number the hand does not show (UnoAdapter.shown_card)
            raise IllegalAction(
                f"Your hand has no card number {number}.", code="no_number", n=number
            ) from None
        raise IllegalAction(
            "Unknown card: type one like red 5, r5, blue +2, wild or +4.",
            code="unknown_card",
            text=card_text.strip(),
        ) from None
    colour = _colour(colour_text) if colour_text.strip() else named
    target = whole_number(target_text)
    return uno.PlayCard(code, None if colour is None else int(colour), target)


ADAPTER = UnoAdapter()
