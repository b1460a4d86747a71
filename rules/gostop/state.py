"""The Go-Stop (2-player Matgo) engine: deal, turns as a small state machine, settlement.

A turn (rules 6–16): the player's decision (:class:`Play` a card — naming which of two
different floor cards it takes, and whether to shake — or :class:`Bomb` a month), then the
automatic part: the flip, matching, ppuk/jjok/ttadak/sweep, steals and instant points. The
turn stops for a decision only when the flipped card could take either of two different floor
cards (:class:`TakeFlip`) and when the player's score asks for :class:`Go` or :class:`Stop`.
Flip-only turns owed after a bomb run by themselves, as the player's next turns. Cards are
indices (see ``cards``) inside; actions, events and views carry :class:`HwatuCard` instances.

Where docs/rules/gostop.md leaves room, this engine reads it so:

- *A player's last card* (rules 12, 22) is the turn after which they hold no card and owe no
  flip-only turn, or the turn that flips the pile's last card.
- Rule 12's "nothing is stolen" waives every steal a last turn would pay: a stack taken (dealt,
  rule 4, or a ppuk's, rule 8), jjok, ttadak, sweep and a bomb (rule 13), as the seed's
  ``IsNotLast`` skips all its steals, three-card takes included, on the last card. A bonus card's
  steal (rule 2) is paid as it is played, before the turn can be known to be the last.
- Opening ppuks (rule 16) pay 7 each, so a player's instant points read 7, 14, 21 after ppuks
  on their first one, two, three turns.
- A deal that is a nagari (rules 4, 5) is dealt again inside :func:`new`, the carry one higher.
- A chongtong (rule 5) is offered at the start of its holder's first turn, so the non-dealer
  decides after the dealer's first move: asked before it, they would show the dealer that they
  hold one. Others see that moment as an ordinary turn start (phase ``PLAY``).
- A bonus card dealt to the floor goes to the dealer's pile and is replaced from the pile.
- Chongtong (10) and three ppuks (7) take no in-game multiplier, but a carried nagari doubles
  them as it doubles any win (rule 24).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import floor
from operator import itemgetter
from typing import Any

from rules.engine import (
    Action,
    Event,
    GameOver,
    IllegalAction,
    Outcome,
    Result,
    SnapshotError,
    check_snapshot,
    result_data,
    result_from_data,
)
from rules.gostop.cards import BONUS_SETS, CARDS, DECK, GUKJIN, TWIN, HwatuCard, Kind
from rules.gostop.events import (
    Bomb,
    Bombed,
    Captured,
    CardPlayed,
    ChongtongChoice,
    ChongtongWin,
    Flipped,
    Forfeited,
    Go,
    GoCalled,
    InstantPoints,
    Play,
    Shook,
    Special,
    Stolen,
    Stop,
    Stopped,
    TakeFlip,
)
from rules.gostop.scoring import (
    DELTAS,
    TALLY_SIZE,
    WINNING_SCORE,
    Breakdown,
    Settlement,
    best_points,
    best_score,
    best_tally_breakdown,
    first_steal,
    settle_tallies,
    settle_total,
)
from rules.rng import GameRandom

__all__ = [
    "GAME",
    "SCHEMA",
    "GostopView",
    "Phase",
    "PileView",
    "State",
    "new",
    "restore",
]

GAME = "gostop"
SCHEMA = 1
HAND_SIZE = 10
FLOOR_SIZE = 8
CHONGTONG_POINTS = 10
THREE_PPUK_POINTS = 7
INSTANT_PER_OPENING_PPUK = 7  # first turn 7, first two turns 14, first three 21 (rule 16)
FIRST_TURN_TTADAK = 7
FLIPS_PER_BOMB = 2


class Phase:
    """What the state waits for (plain ints so snapshots stay small)."""

    CHONGTONG = 0
    PLAY = 1
    FLIP_CHOICE = 2
    GO_STOP = 3
    OVER = 4


# The phases as module constants for the engine's own hot paths: in CPython 3.11 reading a
# class attribute is a lookup every time, a module global's read is cached.
_IN_CHONGTONG = Phase.CHONGTONG
_IN_PLAY = Phase.PLAY
_IN_FLIP_CHOICE = Phase.FLIP_CHOICE
_IN_GO_STOP = Phase.GO_STOP
_IS_OVER = Phase.OVER


_NO_SPECIAL, _PPUK, _JJOK, _TTADAK = 0, 1, 2, 3
_MONTH: tuple[int, ...] = tuple(c.month for c in CARDS)
_KIND: tuple[Kind, ...] = tuple(c.kind for c in CARDS)
_PI_KINDS = (Kind.JUNK, Kind.DOUBLE, Kind.BONUS)
# Read once here: an Enum class attribute read is a call into EnumType.__getattr__ each time
# (CPython 3.11 cannot specialise attribute reads on a class whose metaclass defines one).
_WIN, _LOSE, _DRAW = Outcome.WIN, Outcome.LOSE, Outcome.DRAW


# ---------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True, slots=True)
class PileView:
    """One capture pile, grouped by kind, with its current score."""

    brights: tuple[HwatuCard, ...]
    animals: tuple[HwatuCard, ...]
    ribbons: tuple[HwatuCard, ...]
    pi: tuple[HwatuCard, ...]
    pi_value: int
    score: int
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class GostopView:
    """What one seat may see (``seat`` None: a spectator).

    Never the opponent's hand nor the pile order: those are counts. ``multipliers[s]`` lists
    what would multiply seat ``s``'s score if they won now; ``potential[s]`` is that total.
    """

    seat: int | None
    phase: int
    current_seat: int | None
    dealer: int
    hand: tuple[HwatuCard, ...] | None
    hand_sizes: tuple[int, int]
    # (month, cards, stack): stack is the seat whose ppuk left three cards, -1 for three
    # dealt together (rule 4), None when the month is no stack.
    floor: tuple[tuple[int, tuple[HwatuCard, ...], int | None], ...]
    pile_size: int
    piles: tuple[PileView, PileView]
    goes: tuple[int, int]
    go_scores: tuple[int, int]
    shakes: tuple[int, int]
    bombs: tuple[int, int]
    ppuks: tuple[int, int]
    flip_turns: tuple[int, int]
    instant: tuple[int, int]
    nagari_carry: int
    multipliers: tuple[tuple[str, ...], tuple[str, ...]]
    potential: tuple[int, int]
    flipped: HwatuCard | None
    in_play: tuple[HwatuCard, ...]  # taken this turn, not yet in a pile (while a choice waits)
    flip_choices: tuple[HwatuCard, ...]
    legal: tuple[Action, ...]
    result: Result | None
    bonus_cards: int = 0  # the ``bonus_cards`` option this game was dealt with (rule 2)
    redeals: int = 0  # nagari deals (rules 4, 5) dealt again before this one, in its carry
    win_reason: str = ""  # once over: ``stop``, ``chongtong``, ``three-ppuk``, ``nagari``, ...
    settlement: Settlement | None = None  # the winner's score sheet after a Stop or forfeit


# What each phase accepts, and what to tell a player who sent something else (code, reason).
_EXPECTED: dict[int, tuple[tuple[type[Action], ...], str, str]] = {
    Phase.CHONGTONG: (
        (ChongtongChoice,),
        "expects_chongtong",
        "Choose whether to end with your chongtong.",
    ),
    Phase.PLAY: ((Play, Bomb), "expects_play", "Play a card from your hand."),
    Phase.FLIP_CHOICE: (
        (TakeFlip,),
        "expects_flip_choice",
        "Choose which floor card the flipped card takes.",
    ),
    Phase.GO_STOP: ((Go, Stop), "expects_go_stop", "Choose Go or Stop."),
}

# Actions and events are immutable, so every game shares one instance of each that can recur:
# listing the legal actions then allocates nothing but the list, and a turn builds only the
# events whose fields vary freely (captures, shakes, points). Measured: this and the floor kept
# by month (``State._months``) are most of the engine's speed.
_PLAIN: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
_SHAKE: tuple[Play, ...] = tuple(Play(c, shake=True) for c in CARDS)
# (card, floor card) -> the play naming that floor card, for every pair of one month.
_AIMED: dict[tuple[int, int], Play] = {
    (c.index, t.index): Play(c, t) for c in DECK for t in DECK if c.month == t.month
}
_BOMB: tuple[Bomb, ...] = tuple(Bomb(m) for m in range(13))
_TAKE: tuple[TakeFlip, ...] = tuple(TakeFlip(c) for c in CARDS)
_STOP_OR_GO: tuple[Action, Action] = (Stop(), Go())
_CHONGTONG: tuple[Action, Action] = (ChongtongChoice(end=False), ChongtongChoice(end=True))
# [seat][card]
_CARD_PLAYED = tuple(tuple(CardPlayed(s, c) for c in CARDS) for s in (0, 1))
_FLIPPED = tuple(tuple(Flipped(s, c) for c in CARDS) for s in (0, 1))
_STOLEN = tuple(tuple(Stolen(s, c) for c in CARDS) for s in (0, 1))
# [seat, name, month]: ppuk and stack name a month, jjok, ttadak and sweep none (0).
_SPECIAL: dict[tuple[int, str, int], Special] = {
    (s, name, m): Special(s, name, m)
    for s in (0, 1)
    for name, months in (
        ("ppuk", range(1, 13)),
        ("stack", range(1, 13)),
        ("jjok", (0,)),
        ("ttadak", (0,)),
        ("sweep", (0,)),
    )
    for m in months
}


# Captured is the one event built on nearly every turn. Its frozen dataclass ``__init__`` sets
# each field through ``object.__setattr__``; writing the slots through their descriptors
# builds the same object in about half the time (a test checks the two stay equal).
_new_event = object.__new__
_set_captured_seat = Captured.__dict__["seat"].__set__  # the slot's member descriptor
_set_captured_cards = Captured.__dict__["cards"].__set__


def _tally_add(t: list[int], card: int) -> None:
    for slot, amount in DELTAS[card]:
        t[slot] += amount


def _tally_remove(t: list[int], card: int) -> None:
    for slot, amount in DELTAS[card]:
        t[slot] -= amount


def _months_of(cards: Sequence[int]) -> list[list[int]]:
    """``cards`` grouped by month, in their order: index 0 (bonus cards) up to 12."""
    # Thirteen empty lists written out: a display builds them without a call each (half the
    # time of list(map(list, ...)) or a comprehension).
    months: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], []]
    for c in cards:
        months[_MONTH[c]].append(c)
    return months


def _held_counts(hand: Sequence[int]) -> bytearray:
    """Cards held per month; bonus cards (month 0) are not counted, as they are never shaken.

    A ``bytearray``, so that asking whether a month is held three times is one ``memchr``
    (``3 in held``), where ``max`` over a list compares thirteen objects on every listing.
    """
    held = bytearray(13)
    for c in hand:
        held[_MONTH[c]] += 1
    held[0] = 0
    return held


class State:
    """One game of Matgo between seats 0 and 1. Build with :func:`new` or :func:`restore`."""

    __slots__ = (
        "_bombs",
        "_captured",
        "_carry",
        "_choices",
        "_dealer",
        "_flip",
        "_flip_turns",
        "_go_score",
        "_goes",
        "_hands",
        "_held",
        "_instant",
        "_log",
        "_months",
        "_opening",
        "_options",
        "_pending",
        "_phase",
        "_pile",
        "_played",
        "_played_n",
        "_ppuks",
        "_redeals",
        "_result",
        "_rng",
        "_score",
        "_seat",
        "_settlement",
        "_shakes",
        "_special",
        "_stacks",
        "_steals",
        "_tallies",
        "_turns",
        "_win_reason",
        "current_seat",
    )

    def __init__(self, rng: GameRandom) -> None:
        self._rng = rng
        self._options: dict[str, int] = {}
        self._dealer = 0
        self._carry = 0
        self._redeals = 0
        self._hands: list[list[int]] = [[], []]  # each sorted
        # These two are laid down by the deal (or a restore), which builds them anew.
        self._held: list[bytearray] = []  # _held_counts of each hand
        # The floor by month (index 0 stays empty: a bonus card never stays on the floor), so
        # finding what a card matches is one lookup; within a month, in the order laid down.
        self._months: list[list[int]] = []
        self._pile: list[int] = []
        self._captured: list[list[int]] = [[], []]
        self._tallies: list[list[int]] = [[0] * TALLY_SIZE, [0] * TALLY_SIZE]
        self._score = [0, 0]  # each seat's base score as of the end of its last turn
        self._stacks: dict[int, int] = {}  # month -> owner seat, -1 for a stack dealt
        self._goes = [0, 0]
        self._go_score = [0, 0]
        self._shakes = [0, 0]
        self._bombs = [0, 0]
        self._ppuks = [0, 0]
        self._opening = [0, 0]
        self._flip_turns = [0, 0]
        self._turns = [0, 0]
        self._instant = [0, 0]
        self._phase = _IN_PLAY
        self._seat = 0
        # The seat to act, or None once the game is over: a plain attribute (kept by
        # ``_begin_turn``, ``_over`` and restore) rather than a property, as it is read after
        # every move and a property read is a Python call in CPython 3.11.
        self.current_seat: int | None = 0
        self._played = -1
        self._played_n = 0
        self._pending: list[int] = []
        self._flip = -1
        self._choices: list[int] = []
        self._special = _NO_SPECIAL
        self._steals = 0  # owed by this turn's stacks and bomb, paid at its end (rule 12)
        self._result: Result | None = None
        self._settlement: Settlement | None = None
        self._win_reason = ""
        self._log: list[list[Any]] = []

    # -- the contract ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (a win or nagari)."""
        return self._phase == _IS_OVER

    @property
    def result(self) -> Result | None:
        """Outcomes and points (rule 26) once over; a nagari is a draw."""
        return self._result

    @property
    def settlement(self) -> Settlement | None:
        """The winner's score sheet after a Stop or a forfeit (None for nagari, chongtong,
        three ppuks)."""
        if self._settlement is None and self._win_reason in ("stop", "forfeit"):
            # Built on first reading (the game is over, so its tallies no longer change): a
            # Stop needs only the total it pays, and most finished games are never viewed.
            assert self._result is not None
            self._settlement = self._settle(self._result.winners[0])
        return self._settlement

    @property
    def win_reason(self) -> str:
        """``stop``, ``chongtong``, ``three-ppuk``, ``nagari`` or ``forfeit`` once over; else
        empty."""
        return self._win_reason

    @property
    def phase(self) -> int:
        """The :class:`Phase` the game is in."""
        return self._phase

    @property
    def dealer(self) -> int:
        """The seat that dealt and moved first."""
        return self._dealer

    @property
    def nagari_carry(self) -> int:
        """Nagaris in a row before this deal, deal-time redeals included (each ×2)."""
        return self._carry

    def next_options(self) -> dict[str, int]:
        """Options for the next game (rule 3): the winner deals; after a nagari the dealer
        stays and the carry grows by one."""
        if self._result is None:
            raise ValueError("the game is not over")
        winners = self._result.winners
        return {
            "bonus_cards": self._options["bonus_cards"],
            "dealer": winners[0] if winners else self._dealer,
            "nagari_carry": 0 if winners else min(self._carry + 1, MAX_NAGARI_CARRY),
        }

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """What ``seat`` may do now; the first is the safe default a timer would take."""
        if seat != self._seat:
            return []
        phase = self._phase
        if phase != _IN_PLAY:  # the other phases after one test: a card to play is the rule
            if phase == _IN_GO_STOP:
                return list(_STOP_OR_GO)
            if phase == _IN_FLIP_CHOICE:
                return [_TAKE[c] for c in self._choices]
            if phase == _IN_CHONGTONG:
                return list(_CHONGTONG)
            return []  # over
        hand = self._hands[seat]
        months = self._months
        month = _MONTH
        kind = _KIND
        plain = _PLAIN
        actions: list[Action] = []
        for c in hand:
            same = months[month[c]]
            if len(same) == 2 and kind[same[0]] is not kind[same[1]]:
                actions.append(_AIMED[c, same[0]])
                actions.append(_AIMED[c, same[1]])
            else:
                actions.append(plain[c])
        held = self._held[seat]
        if 3 in held or 4 in held:
            # Loops, not generator expressions: extend() over a generator resumes a frame per
            # item.
            for c in hand:
                if held[month[c]] >= 3 and not months[month[c]]:
                    actions.append(_SHAKE[c])
            for m in range(1, 13):
                if held[m] == 3 and len(months[m]) == 1:
                    actions.append(_BOMB[m])
        return actions

    def forfeit(self, seat: int) -> list[Event]:
        """``seat`` leaves the game (a member leaving the table): the other seat wins, paid
        as if they had stopped now (their score sheet, rule 26), whatever the phase.

        Refused with ``IllegalAction`` once the game is over, changing nothing.
        """
        if self._phase == _IS_OVER:
            raise IllegalAction("The game is over.", code="game_over")
        if seat not in (0, 1):
            raise IllegalAction("Go-Stop has seats 0 and 1.", code="no_such_seat", seat=seat)
        self._log.append(["forfeit", seat])
        events: list[Event] = [Forfeited(seat)]
        winner = 1 - seat
        self._win(winner, self._settle_total(winner), "forfeit", events)
        return events

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Verify, then apply; refused actions raise :class:`IllegalAction` and change nothing.

        Two identical cards (a month's two plain junk, the two 2-pi bonus cards) are one card
        to every rule: naming either plays the one held, takes the one on the floor."""
        phase = self._phase
        if phase == _IS_OVER:
            raise IllegalAction("The game is over.", code="game_over")
        if seat != self._seat:
            raise IllegalAction("It is not your turn.", code="not_your_turn")
        if type(action) is not Play or phase != _IN_PLAY:  # a card at a turn's start: no lookup
            kinds, code, reason = _EXPECTED[phase]
            if not isinstance(action, kinds):
                raise IllegalAction(reason, code=code)
        events: list[Event] = []
        if isinstance(action, Play):
            card, target = self._checked_play(seat, action)
            self._log.append(["play", card, target, action.shake])
            self._play(card, target, action.shake, events)
        elif isinstance(action, Bomb):
            self._check_bomb(seat, action.month)
            self._log.append(["bomb", action.month])
            self._bomb(action.month, events)
        elif isinstance(action, TakeFlip):
            taken = self._checked_take(action.target.index)
            self._log.append(["take", taken])
            self._take_flip(taken, events)
        elif isinstance(action, Go):
            self._log.append(["go"])
            self._go(events)
        elif isinstance(action, Stop):
            self._log.append(["stop"])
            events.append(Stopped(seat, self._score[seat], automatic=False))
            self._finish_stop(seat, events)
        else:
            assert isinstance(action, ChongtongChoice)
            self._log.append(["chongtong", action.end])
            if action.end:
                self._finish_chongtong(seat, events)
            else:
                self._phase = _IN_PLAY  # their first turn goes on as any other
        return events

    # -- verification ---------------------------------------------------------------------

    def _checked_take(self, taken: int) -> int:
        """The floor card a :class:`TakeFlip` names (its twin when that is the one offered)."""
        choices = self._choices
        if taken in choices:
            return taken
        if TWIN[taken] in choices:
            return TWIN[taken]
        first, second = (CARDS[c].code for c in choices)
        raise IllegalAction(
            f"The flipped card can take {first} or {second}.",
            code="bad_target",
            options=f"{first} or {second}",
            card=CARDS[self._flip].code,
            first=first,
            second=second,
        )

    def _check_bomb(self, seat: int, m: int) -> None:
        if not 1 <= m <= 12 or self._held[seat][m] != 3 or len(self._months[m]) != 1:
            raise IllegalAction(
                "A bomb needs three cards of a month in your hand and the fourth on the floor.",
                code="no_bomb",
                month=m,
            )

    def _checked_play(self, seat: int, action: Play) -> tuple[int, int]:
        """(card, floor card or -1) of a legal :class:`Play`, twins read as the one at hand."""
        hand = self._hands[seat]
        c = action.card.index
        if c not in hand:
            if TWIN[c] not in hand:
                code = CARDS[c].code
                raise IllegalAction(f"You don't have {code}.", code="not_in_hand", card=code)
            c = TWIN[c]
        m = _MONTH[c]
        same: Sequence[int] = self._months[m] if m else ()  # a bonus card takes nothing
        target = action.target
        t = -1 if target is None else target.index
        if t >= 0 and t not in same and TWIN[t] in same:
            t = TWIN[t]
        if len(same) == 2 and _KIND[same[0]] is not _KIND[same[1]]:
            if t not in same:
                code = CARDS[c].code
                first, second = (CARDS[f].code for f in same)
                raise IllegalAction(
                    f"Choose which card {code} takes: {first} or {second}.",
                    code="choose_target",
                    options=f"{first} or {second}",
                    card=code,
                    first=first,
                    second=second,
                )
        elif t >= 0:
            code = CARDS[c].code
            raise IllegalAction(f"{code} has no choice of floor card.", code="no_choice", card=code)
        if action.shake and (not m or self._held[seat][m] < 3 or same):
            raise IllegalAction(
                "You may shake only when you hold three cards of that month and the floor "
                "has none.",
                code="no_shake",
                card=CARDS[c].code,
            )
        return c, t

    # -- the turn machine -----------------------------------------------------------------

    def _begin_turn(self, s: int, events: list[Event]) -> None:
        """Start seat ``s``'s turn: a decision, or a flip-only turn owed after a bomb; a nagari
        when the pile is out or ``s`` has no turn left."""
        self._seat = self.current_seat = s
        hand = self._hands[s]
        flips = self._flip_turns[s]
        if not self._pile or (not hand and flips == 0):
            self._finish_nagari(events)
            return
        self._played = -1
        self._played_n = 0
        self._special = _NO_SPECIAL
        self._steals = 0  # (``_pending`` is already empty: the last turn's end emptied it)
        if flips > 0 or not hand:
            if flips > 0:
                self._flip_turns[s] = flips - 1
            self._phase = _IN_PLAY
            self._flip_step(events)
        elif self._turns[s] == 0 and 4 in self._held[s]:
            self._phase = _IN_CHONGTONG  # rule 5, asked when the holder's turn comes
        else:
            self._phase = _IN_PLAY

    def _play(self, c: int, t: int, shake: bool, events: list[Event]) -> None:
        """Play card ``c`` (onto floor card ``t``, -1 when there is no choice), then flip."""
        s = self._seat
        hand = self._hands[s]
        hand.remove(c)
        events.append(_CARD_PLAYED[s][c])
        m = _MONTH[c]
        if not m:
            # A bonus card (rule 2): taken at once, steals one pi, a replacement is drawn and
            # play goes on.
            self._capture(s, [c], events)
            self._steal(s, 1, events)
            if self._pile:
                drawn = self._pile.pop()
                hand.append(drawn)
                hand.sort()
                if _MONTH[drawn]:
                    self._held[s][_MONTH[drawn]] += 1
            if not hand:
                self._flip_step(events)
            return
        self._held[s][m] -= 1
        same = self._months[m]
        n = len(same)
        if shake:
            self._shakes[s] += 1
            shown = tuple(CARDS[h] for h in sorted([c, *(h for h in hand if _MONTH[h] == m)]))
            events.append(Shook(s, m, shown))
        if n == 0:
            same.append(c)
        elif n == 3:
            self._pending = [c, *same]
            same.clear()
            self._take_stack(s, m, events)
        else:
            if t < 0:
                t = same[0]
            same.remove(t)
            self._pending = [c, t]
        self._played = c
        self._played_n = n
        self._flip_step(events)

    def _bomb(self, m: int, events: list[Event]) -> None:
        s = self._seat
        hand = self._hands[s]
        three = [c for c in hand if _MONTH[c] == m]
        for c in three:
            hand.remove(c)
        self._held[s][m] = 0
        fourth = self._months[m].pop()
        events.append(Bombed(s, m, tuple(CARDS[c] for c in three)))
        self._bombs[s] += 1
        self._flip_turns[s] += FLIPS_PER_BOMB
        self._steals += 1
        self._pending = [*three, fourth]
        self._played = three[0]
        self._played_n = 4
        self._flip_step(events)

    def _take_stack(self, s: int, m: int, events: list[Event]) -> None:
        owner = self._stacks.pop(m)
        events.append(_SPECIAL[s, "stack", m])
        # A stack dealt (rule 4) steals one; a ppuk stack (rule 8) one, or two if it was s's own.
        self._steals += 2 if owner == s else 1

    def _flip_step(self, events: list[Event]) -> None:
        s = self._seat
        pile = self._pile
        flipped = _FLIPPED[s]
        f = -1
        while pile:
            f = pile.pop()
            events.append(flipped[f])
            if _MONTH[f]:
                break
            self._capture(s, [f], events)  # a flipped bonus is taken; flip again (rule 2)
            f = -1
        self._flip = f
        if f < 0:
            self._resolve(events)
            return
        fm = _MONTH[f]
        played = self._played
        played_n = self._played_n
        same = self._months[fm]
        # The flip lands on the month just played, onto the one, two or no floor cards the
        # played card met (-1: a flip-only turn played none; 3 and 4, a stack taken or a bomb,
        # left the month empty).
        if played >= 0 and played_n < 3 and _MONTH[played] == fm:
            if played_n == 1:
                self._special = _PPUK
                self._pending.append(f)
            elif played_n == 2:
                self._special = _TTADAK
                other = same.pop()  # the one card of the month the play left on the floor
                self._pending += [other, f]
            else:
                self._special = _JJOK
                same.remove(played)
                self._pending += [played, f]
        else:
            k = len(same)
            if k == 0:
                same.append(f)
            elif k == 2 and _KIND[same[0]] is not _KIND[same[1]]:
                self._choices = list(same)
                self._phase = _IN_FLIP_CHOICE
                return
            elif k < 3:
                self._pending += [f, same.pop(0)]
            else:
                self._pending += [f, *same]
                same.clear()
                self._take_stack(s, fm, events)
        self._resolve(events)

    def _take_flip(self, t: int, events: list[Event]) -> None:
        self._months[_MONTH[t]].remove(t)
        self._pending += [self._flip, t]
        self._choices = []
        self._phase = _IN_PLAY
        self._resolve(events)

    def _resolve(self, events: list[Event]) -> None:
        """The end of a turn: captures, specials, steals, instant points, the score check."""
        s = self._seat
        last = (not self._hands[s] and self._flip_turns[s] == 0) or not self._pile
        special = self._special
        pending = self._pending
        steals = 0
        if special == _PPUK and not last:
            month = _MONTH[pending[0]]
            self._months[month].extend(pending)
            self._stacks[month] = s
            self._ppuks[s] += 1
            events.append(_SPECIAL[s, "ppuk", month])
            pending = []
            first_turn = self._turns[s]
            if first_turn == self._opening[s] and first_turn < 3:
                self._opening[s] += 1
                self._pay_instant(s, INSTANT_PER_OPENING_PPUK, "ppuk", events)
        if pending:
            self._capture(s, pending, events)
        self._pending = []
        if not last:
            steals = self._steals
            if special == _JJOK:
                events.append(_SPECIAL[s, "jjok", 0])
                steals += 1
            elif special == _TTADAK:
                events.append(_SPECIAL[s, "ttadak", 0])
                steals += 1
                if self._turns[s] == 0:
                    self._pay_instant(s, FIRST_TURN_TTADAK, "ttadak", events)
            if not any(self._months):
                events.append(_SPECIAL[s, "sweep", 0])
                steals += 1
        if steals:
            self._steal(s, steals, events)
        self._turns[s] += 1
        if special == _PPUK and self._ppuks[s] == 3:  # (only a ppuk turn can make the third)
            self._finish_three_ppuk(s, events)
            return
        # Only here is a score read (Go, Stop and the check below), so it is worked out once a
        # turn rather than after every card that moves.
        score = self._score[s] = best_score(self._tallies[s])
        if score >= WINNING_SCORE and (self._goes[s] == 0 or score > self._go_score[s]):
            if last:
                events.append(Stopped(s, score, automatic=True))
                self._finish_stop(s, events)
            else:
                self._phase = _IN_GO_STOP
            return
        self._begin_turn(1 - s, events)

    def _go(self, events: list[Event]) -> None:
        s = self._seat
        self._goes[s] += 1
        self._go_score[s] = self._score[s]
        events.append(GoCalled(s, self._goes[s], self._score[s]))
        self._phase = _IN_PLAY
        self._begin_turn(1 - s, events)

    # -- piles ----------------------------------------------------------------------------

    def _capture(self, s: int, cards: list[int], events: list[Event]) -> None:
        self._captured[s].extend(cards)
        t = self._tallies[s]
        for c in cards:
            for slot, amount in DELTAS[c]:
                t[slot] += amount
        event = _new_event(Captured)  # what Captured(s, cards) builds, in half the time
        _set_captured_seat(event, s)
        # The cards picked in C by an itemgetter, which beats map() and a comprehension for
        # the two to four cards of a capture; given one index it returns the card alone.
        taken = itemgetter(*cards)(CARDS) if len(cards) > 1 else (CARDS[cards[0]],)
        _set_captured_cards(event, taken)
        events.append(event)

    def _steal(self, s: int, count: int, events: list[Event]) -> None:
        o = 1 - s
        victim = self._captured[o]
        vt = self._tallies[o]
        stolen = _STOLEN[s]
        for _ in range(count):
            card = first_steal(victim, gukjin_as_double=best_points(vt)[1])
            if card < 0:
                break
            victim.remove(card)
            _tally_remove(vt, card)
            self._captured[s].append(card)
            _tally_add(self._tallies[s], card)
            events.append(stolen[card])

    def _pay_instant(self, s: int, points: int, reason: str, events: list[Event]) -> None:
        self._instant[s] += points
        events.append(InstantPoints(s, points, self._instant[s], reason))

    # -- endings --------------------------------------------------------------------------

    def _over(
        self, outcomes: tuple[Outcome, Outcome], scores: tuple[int, int], reason: str
    ) -> None:
        # The winner first; in a nagari the seat with more instant points.
        first = (
            1 if outcomes[1] is _WIN or (outcomes[0] is not _WIN and scores[1] > scores[0]) else 0
        )
        ranking = (first, 1 - first)
        self._result = Result(outcomes, scores, ranking)
        self._phase = _IS_OVER
        self.current_seat = None
        self._win_reason = reason

    def _win(self, w: int, points: int, reason: str, events: list[Event]) -> None:
        scores = [self._instant[0], self._instant[1]]
        scores[w] += points
        outcomes = (_WIN, _LOSE) if w == 0 else (_LOSE, _WIN)
        self._over(outcomes, (scores[0], scores[1]), reason)
        assert self._result is not None
        events.append(GameOver(self._result))

    def _settle(self, w: int) -> Settlement:
        """Seat ``w``'s score sheet if they won now."""
        return settle_tallies(self._tallies[w], self._tallies[1 - w], **self._settle_terms(w))

    def _settle_total(self, w: int) -> int:
        """``_settle(w).total``, without the score sheet."""
        return settle_total(self._tallies[w], self._tallies[1 - w], **self._settle_terms(w))

    def _settle_terms(self, w: int) -> dict[str, int]:
        """What besides the piles the settlement of seat ``w``'s win counts."""
        lo = 1 - w
        return {
            "winner_go": self._goes[w],
            "shakes": self._shakes[w],
            "bombs": self._bombs[w],
            "loser_go": self._goes[lo],
            "nagari_carry": self._carry,
        }

    def _finish_stop(self, w: int, events: list[Event]) -> None:
        self._win(w, self._settle_total(w), "stop", events)

    def _finish_three_ppuk(self, w: int, events: list[Event]) -> None:
        self._win(w, THREE_PPUK_POINTS << self._carry, "three-ppuk", events)

    def _finish_chongtong(self, w: int, events: list[Event]) -> None:
        month = _chongtong_months(self._held[w])[0]
        events.append(ChongtongWin(w, month))
        self._win(w, CHONGTONG_POINTS << self._carry, "chongtong", events)

    def _finish_nagari(self, events: list[Event]) -> None:
        self._over((_DRAW, _DRAW), (self._instant[0], self._instant[1]), "nagari")
        assert self._result is not None
        events.append(GameOver(self._result))

    # -- views ----------------------------------------------------------------------------

    def _pile_view(self, s: int) -> PileView:
        cards = sorted(self._captured[s])
        b = best_tally_breakdown(self._tallies[s])
        gukjin_pi = GUKJIN if b.gukjin_as_double else -1  # shown among the pi when it counts so
        brights = tuple(CARDS[c] for c in cards if _KIND[c] is Kind.BRIGHT)
        animals = tuple(CARDS[c] for c in cards if _KIND[c] is Kind.ANIMAL and c != gukjin_pi)
        ribbons = tuple(CARDS[c] for c in cards if _KIND[c] is Kind.RIBBON)
        pi = tuple(CARDS[c] for c in cards if _KIND[c] in _PI_KINDS or c == gukjin_pi)
        return PileView(brights, animals, ribbons, pi, b.pi_value, b.total, b)

    def _multiplier_names(self, s: int, potential: Settlement) -> tuple[str, ...]:
        names = [f"shake×{self._shakes[s]}"] if self._shakes[s] else []
        if self._bombs[s]:
            names.append(f"bomb×{self._bombs[s]}")
        if self._goes[s] >= 3:
            names.append(f"go×{1 << (self._goes[s] - 2)}")
        names.extend(potential.baks)
        if self._carry:
            names.append(f"nagari×{1 << self._carry}")
        return tuple(names)

    def view(self, seat: int | None) -> GostopView:
        """What ``seat`` may see; ``None`` for a spectator (no hand at all)."""
        floor = tuple(
            (m, tuple(CARDS[f] for f in sorted(cs)), self._stacks.get(m))
            for m, cs in enumerate(self._months)
            if cs
        )
        potentials = (self._settle(0), self._settle(1))
        flipped = CARDS[self._flip] if self._phase == _IN_FLIP_CHOICE else None
        legal: tuple[Action, ...] = ()
        if seat is not None and seat == self.current_seat:
            legal = tuple(self.legal_actions(seat))
        phase = self._phase
        if phase == _IN_CHONGTONG and seat != self._seat:
            phase = _IN_PLAY  # to the others, an ordinary turn start: the hand stays hidden
        return GostopView(
            seat=seat,
            phase=phase,
            current_seat=self.current_seat,
            dealer=self._dealer,
            hand=None if seat is None else tuple(CARDS[c] for c in sorted(self._hands[seat])),
            hand_sizes=(len(self._hands[0]), len(self._hands[1])),
            floor=floor,
            pile_size=len(self._pile),
            piles=(self._pile_view(0), self._pile_view(1)),
            goes=(self._goes[0], self._goes[1]),
            go_scores=(self._go_score[0], self._go_score[1]),
            shakes=(self._shakes[0], self._shakes[1]),
            bombs=(self._bombs[0], self._bombs[1]),
            ppuks=(self._ppuks[0], self._ppuks[1]),
            flip_turns=(self._flip_turns[0], self._flip_turns[1]),
            instant=(self._instant[0], self._instant[1]),
            nagari_carry=self._carry,
            multipliers=(
                self._multiplier_names(0, potentials[0]),
                self._multiplier_names(1, potentials[1]),
            ),
            potential=(potentials[0].total, potentials[1].total),
            flipped=flipped,
            in_play=tuple(CARDS[c] for c in self._pending)
            + ((flipped,) if flipped is not None else ()),
            flip_choices=tuple(CARDS[c] for c in self._choices),
            legal=legal,
            result=self._result,
            bonus_cards=self._options.get("bonus_cards", 0),
            redeals=self._redeals,
            win_reason=self._win_reason,
            settlement=self.settlement,
        )

    # -- snapshots ------------------------------------------------------------------------

    _LIST_FIELDS = (
        "_goes",
        "_go_score",
        "_shakes",
        "_bombs",
        "_ppuks",
        "_opening",
        "_flip_turns",
        "_turns",
        "_instant",
    )
    _INT_FIELDS = (
        "_dealer",
        "_carry",
        "_redeals",
        "_phase",
        "_seat",
        "_played",
        "_played_n",
        "_flip",
        "_special",
        "_steals",
    )

    def snapshot(self) -> dict[str, Any]:
        """A JSON-safe dict; :func:`restore` rebuilds an identical state from it."""
        data: dict[str, Any] = {
            "game": GAME,
            "schema": SCHEMA,
            "rng": self._rng.getstate(),
            "options": dict(self._options),
            "hands": [list(h) for h in self._hands],
            "floor": [f for cards in self._months for f in cards],
            "pile": list(self._pile),
            "captured": [list(p) for p in self._captured],
            "stacks": [[m, o] for m, o in self._stacks.items()],
            "pending": list(self._pending),
            "choices": list(self._choices),
            "win_reason": self._win_reason,
            "log": [list(entry) for entry in self._log],
            "result": result_data(self._result),
        }
        for name in self._LIST_FIELDS:
            data[name[1:]] = list(getattr(self, name))
        for name in self._INT_FIELDS:
            data[name[1:]] = getattr(self, name)
        return data

    @classmethod
    def _from_snapshot(cls, data: Mapping[str, Any]) -> State:
        check_snapshot(data, GAME, SCHEMA)
        try:
            state = cls(GameRandom.from_state(data["rng"]))
            state._options = {str(k): int(v) for k, v in data["options"].items()}
            state._hands = [[int(c) for c in h] for h in data["hands"]]
            floor = [int(c) for c in data["floor"]]
            state._pile = [int(c) for c in data["pile"]]
            state._captured = [[int(c) for c in p] for p in data["captured"]]
            state._stacks = {int(m): int(o) for m, o in data["stacks"]}
            state._pending = [int(c) for c in data["pending"]]
            state._choices = [int(c) for c in data["choices"]]
            state._win_reason = str(data["win_reason"])
            state._log = [list(entry) for entry in data["log"]]
            if "steals" not in data:  # saved before the turn's two steal counts became one
                data = {**data, "steals": int(data["steal_firm"]) + int(data["steal_exempt"])}
            for name in cls._LIST_FIELDS:
                setattr(state, name, [int(v) for v in data[name[1:]]])
            for name in cls._INT_FIELDS:
                setattr(state, name, int(data[name[1:]]))
            state.current_seat = None if state._phase == _IS_OVER else state._seat
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SnapshotError(f"damaged gostop snapshot: {exc}") from exc
        everything = [
            *state._hands[0],
            *state._hands[1],
            *floor,
            *state._pile,
            *state._captured[0],
            *state._captured[1],
            *state._pending,
        ]
        if len(set(everything)) != len(everything) or not all(0 <= c < 51 for c in everything):
            raise SnapshotError("damaged gostop snapshot: cards repeated or unknown")
        state._months = _months_of(floor)
        state._held = [_held_counts(h) for h in state._hands]
        state._tallies = [[0] * TALLY_SIZE, [0] * TALLY_SIZE]
        for s in (0, 1):
            for c in state._captured[s]:
                _tally_add(state._tallies[s], c)
            state._score[s] = best_score(state._tallies[s])
        result = data.get("result")
        if result is not None:
            try:
                state._result = result_from_data(result)
            except (KeyError, TypeError, ValueError) as exc:
                raise SnapshotError(f"damaged gostop snapshot: {exc}") from exc
        return state  # (a finished game's settlement is built when first read)


def _chongtong_months(held: bytearray) -> list[int]:
    """The months of which a hand with these ``_held_counts`` holds all four."""
    return [m for m in range(1, 13) if held[m] == 4]


MAX_NAGARI_CARRY = 30  # nagaris in a row a game's stakes may carry


def _check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, int]:
    if players != 2:
        raise ValueError("Go-Stop (Matgo) is for exactly 2 players")
    if not options:
        return {"bonus_cards": 0, "nagari_carry": 0}
    opts = dict(options)
    unknown = set(opts) - {"bonus_cards", "dealer", "nagari_carry"}
    if unknown:
        raise ValueError(f"unknown gostop option(s): {', '.join(sorted(unknown))}")
    bonus = opts.get("bonus_cards", 0)
    if type(bonus) is not int or bonus not in BONUS_SETS:
        raise ValueError("bonus_cards must be 0, 2 or 3")
    # Each nagari doubles the next game's stakes: past a few the stakes mean nothing, and a
    # huge carry (2 ** carry) would take the process's memory.
    carry = opts.get("nagari_carry", 0)
    if type(carry) is not int or not 0 <= carry <= MAX_NAGARI_CARRY:
        raise ValueError(f"nagari_carry must be 0 to {MAX_NAGARI_CARRY}")
    dealer = opts.get("dealer")
    if dealer is not None and (type(dealer) is not int or dealer not in (0, 1)):
        raise ValueError("dealer must be seat 0 or 1")
    checked = {"bonus_cards": bonus, "nagari_carry": carry}
    if dealer is not None:
        checked["dealer"] = int(dealer)
    return checked


def new(
    players: int = 2, *, seed: int | None = None, options: Mapping[str, Any] | None = None
) -> State:
    """Deal a game (rules 3–5).

    Options: ``bonus_cards`` (0, 2 or 3), ``dealer`` (seat; random when absent: the first
    game), ``nagari_carry`` (nagaris in a row before this game). A deal with four of a month on
    the floor, or chongtong in both hands, is a nagari: the cards are dealt again at once with
    the carry one higher.
    """
    opts = _check_options(players, options)
    rng = GameRandom(seed)
    state = State(rng)
    state._options = opts  # (a new dict: _check_options builds one each call)
    state._dealer = opts["dealer"] if "dealer" in opts else rng.randbelow(2)
    state._carry = opts["nagari_carry"]
    deck = _DECKS[opts["bonus_cards"]]
    while True:
        cards = _shuffled(rng, deck)
        if _deal(state, cards):
            break
        state._carry += 1
        state._redeals += 1
    return state


# The cards dealt with each ``bonus_cards`` option, by index.
_DECKS: dict[int, tuple[int, ...]] = {
    n: tuple(c.index for c in (*DECK, *bonus)) for n, bonus in BONUS_SETS.items()
}


def _shuffled(rng: GameRandom, deck: Sequence[int]) -> list[int]:
    """Fisher–Yates over the state's generator, drawing floats instead of ``randbelow``.

    ``GameRandom.shuffle`` makes one exact ``randrange`` call per card, which is a fifth of
    a random game's time here; ``int(random() * n)`` is biased by under 2**-50 for n ≤ 51.
    """
    cards = list(deck)
    random = rng.float_source()
    for i in range(len(cards) - 1, 0, -1):
        j = floor(random() * (i + 1))  # as int() for floats ≥ 0, without a type call
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _deal(state: State, cards: list[int]) -> bool:
    """Deal ``cards`` (the pile's top is the list's end); False when the deal is a nagari."""
    d = state._dealer
    # As the seed deals: a card to each hand and one to the floor, ten times (the floor stops
    # at eight). So from the top the 28 dealt cards run dealer, other, floor eight times, then
    # dealer, other twice: slices of them.
    top = cards[: -2 * HAND_SIZE - FLOOR_SIZE - 1 : -1]
    pile = cards[: -2 * HAND_SIZE - FLOOR_SIZE]
    rounds = 3 * FLOOR_SIZE
    hands: list[list[int]] = [[], []]
    hands[d] = top[0:rounds:3] + top[rounds::2]
    hands[1 - d] = top[1:rounds:3] + top[rounds + 1 :: 2]
    months = _months_of(top[2:rounds:3])
    captured: list[list[int]] = [[], []]
    # A bonus card dealt to the floor goes to the dealer and is replaced from the pile.
    bonuses = months[0]
    while bonuses:
        captured[d].append(bonuses.pop(0))
        replacement = pile.pop()
        months[_MONTH[replacement]].append(replacement)
    sizes = bytes(map(len, months))  # cards of each month on the floor
    if 4 in sizes:
        return False
    held = [_held_counts(hands[0]), _held_counts(hands[1])]
    if 4 in held[0] and 4 in held[1]:
        return False
    for h in hands:
        h.sort()
    state._hands = hands
    state._held = held
    state._months = months
    state._pile = pile
    state._captured = captured
    if captured[d]:  # (the tallies are still the constructor's zeros: a nagari returned above)
        for c in captured[d]:
            _tally_add(state._tallies[d], c)
        state._score[d] = best_score(state._tallies[d])
    if 3 in sizes:
        state._stacks = {m: -1 for m in range(1, 13) if sizes[m] == 3}
    state._begin_turn(d, [])  # the dealer's hand and the pile are full: no nagari here
    return True


def restore(snapshot: Mapping[str, Any]) -> State:
    """Rebuild a state saved by :meth:`State.snapshot`."""
    return State._from_snapshot(snapshot)
