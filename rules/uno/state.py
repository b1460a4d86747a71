"""The Uno state machine: both rulesets of ``docs/rules/uno.md`` and its house rules.

Cards are ints (see :mod:`rules.uno.cards`), hands are lists in the order the cards came
(the seed's ``rank`` is an index into them, and drawn cards go to the end), the draw pile
is a list drawn from its end. Nothing is copied on the hot path: :meth:`State.apply`
checks, then mutates in place.

Where the rules are silent, this engine decides (docs/rules/uno.md lists these too):

- A game can block: when nobody can play and nothing is left to draw, a whole round of
  turns changes nothing. After ``players`` such turns in a row the game ends and the fewest
  hand points win (the documented cap).
- Rule 5 is enforced by the challenge of rule 8, as in Mattel's rules: an official Wild
  Draw Four held with the colour in play is a bluff that :meth:`State.legal_actions`
  offers and :meth:`State.apply` accepts, and a challenge catches it (the bluffer draws
  four). Refusing it outright would leave rule 8's penalty nothing to punish. A challenge
  is open against one unstacked W+4. The computer player (:mod:`rules.uno.ai`) never bluffs.
- Jump-in (rule 17) needs the same colour and symbol (never a wild) and is closed while
  cards are pending or a drawn card waits; play goes on from the jumper.
- Going out on a 7 or 0 under ``seven_zero`` wins before any swap. A seed 7 without a
  target swaps with the next player.
- Seed rule 11 with cards pending (``stacking``): the penalty card comes on top of the
  pending cards, for an illegal card and an empty input (a Draw) alike.
- A player who leaves (:meth:`State.forfeit`) puts their cards under the draw pile and
  leaves the rotation; cards pending for them lapse. The last player left wins.
- ``uno_call``: a player who reaches one card without having said UNO (on their turn, with
  two cards) can be caught until the next action of the player to act.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
)
from rules.rng import GameRandom
from rules.uno.cards import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_POINTS,
    CARD_RANK,
    COLOUR_NAMES,
    DECK_SIZE,
    DRAW_TWO,
    NONE,
    RANK_NAMES,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    top_code,
)
from rules.uno.events import (
    CallUno,
    CardPlayed,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColour,
    ColourChosen,
    DirectionChanged,
    Draw,
    FirstCard,
    Forfeited,
    HandsRotated,
    HandsSwapped,
    Pass,
    Play,
    PlayCard,
    Reshuffled,
    RuleBroken,
    Skipped,
    TurnPassed,
    UnoAnnounced,
    UnoCaught,
)

__all__ = [
    "GAME",
    "HOUSE_RULES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULESETS",
    "SCHEMA",
    "State",
    "UnoView",
    "new",
    "restore",
]

GAME = "uno"
SCHEMA = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 10
HAND_SIZE = 7
RULESETS = ("official", "seed")
HOUSE_RULES = ("stacking", "draw_until_playable", "jump_in", "seven_zero", "uno_call")

# Phases of the player to act.
PLAY = 0  # play a card or draw (or, with cards pending, take them / stack / challenge)
AFTER_DRAW = 1  # official rule 6: play the card just drawn or pass
CHOOSE_COLOUR = 2  # official rule 4: name the colour of a wild turned first
PHASE_NAMES = ("play", "after_draw", "choose_colour")
NOT_PLAYABLE = "That card matches neither the colour nor the top card."

# Shared, immutable actions: legal_actions hands these out instead of building new ones.
_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    (Play(i), Play(i, 0), Play(i, 1), Play(i, 2), Play(i, 3)) for i in range(DECK_SIZE)
)
_DRAW = Draw()
_PASS = Pass()
_CHALLENGE = Challenge()
_CALL_UNO = CallUno()
_CHOOSE = tuple(ChooseColour(c) for c in range(4))
# CardPlayed events by seat, then card * 10 + colour * 2 + jump_in, made on first use.
_PLAYED: tuple[list[CardPlayed | None], ...] = tuple(
    [None] * (DECK_SIZE * 10) for _ in range(MAX_PLAYERS)
)
_SINGLE_PLAYS = tuple(plays[0] for plays in _PLAYS)
_WILD_PLAYS = tuple(plays[1:] for plays in _PLAYS)
_FIRST_WILD = CARD_RANK.index(WILD)
assert all(rank >= WILD for rank in CARD_RANK[_FIRST_WILD:])


def _playable_table(colour: int, top_rank: int) -> bytes:
    # Rules 5/12/14: same colour, same number or symbol, any wild; colour none takes all.
    return bytes(
        CARD_COLOUR[c] == colour or CARD_RANK[c] == top_rank or c >= _FIRST_WILD or colour == NONE
        for c in range(DECK_SIZE)
    )


# By colour in play * 15 + rank of the top card: which cards may be played on it.
_PLAYABLE = tuple(_playable_table(colour, rank) for colour in range(5) for rank in range(15))
_CACHED_DRAWS = 16
_DRAWN = tuple(tuple(CardsDrawn(s, k) for k in range(_CACHED_DRAWS)) for s in range(MAX_PLAYERS))
_PASSED = tuple(TurnPassed(s) for s in range(MAX_PLAYERS))
_SKIPPED = tuple(Skipped(s) for s in range(MAX_PLAYERS))
_TURNED = {1: DirectionChanged(1), -1: DirectionChanged(-1)}


def _options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    opts: dict[str, Any] = {"ruleset": "official", **dict.fromkeys(HOUSE_RULES, False)}
    for key, value in (options or {}).items():
        if key not in opts:
            raise ValueError(f"unknown Uno option {key!r}")
        opts[key] = value
    if opts["ruleset"] not in RULESETS:
        raise ValueError(f"unknown Uno ruleset {opts['ruleset']!r} (official or seed)")
    for key in HOUSE_RULES:
        opts[key] = bool(opts[key])
    return opts


@dataclass(frozen=True, slots=True)
class UnoView:
    """What one seat (or a spectator, ``seat=None``) may see; other hands only as counts."""

    seat: int | None
    ruleset: str
    hand: tuple[str, ...] | None
    hand_counts: tuple[int, ...]
    top: str
    colour: str
    current_seat: int | None
    direction: int
    phase: str
    pending: int
    draw_pile: int
    uno_exposed: int | None
    revealed: tuple[int, tuple[str, ...]] | None
    legal: tuple[Action, ...]
    result: Result | None
    points: tuple[int, ...] | None = None  # each hand's points (rule 10), once over
    house: tuple[str, ...] = ()  # the house rules in play, in HOUSE_RULES order
    out: tuple[int, ...] = ()  # the seats that left the game
    # Per seat, what the table saw it lack: it drew and passed on ``(colour, rank)`` of the
    # top card, so that many of the cards it holds fit neither (None: nothing known).
    unfit: tuple[tuple[str, str, int] | None, ...] = ()
    # The discard pile under its top card, oldest first: every card was seen as it was played.
    played: tuple[str, ...] = ()


class State:
    """One game of Uno; see :func:`new` and the module docstring."""

    __slots__ = (
        "_declared",
        "_exposed",
        "_guilty",
        "_idle",
        "_offender",
        "_out",
        "_rand",
        "_result",
        "_reveal",
        "_unfit",
        "_unshuffled",
        "colour",
        "direction",
        "discard",
        "draw_until",
        "hands",
        "jump_in",
        "log",
        "n",
        "options",
        "pending",
        "phase",
        "pile",
        "rng",
        "seed_program_rules",
        "seven_zero",
        "stacking",
        "turn",
        "uno_call",
    )

    def __init__(self, players: int, rng: GameRandom, options: dict[str, Any]) -> None:
        self.n = players
        self.rng = rng
        self.options = options
        self.seed_program_rules: bool = options["ruleset"] == "seed"
        self.stacking: bool = options["stacking"]
        self.draw_until: bool = options["draw_until_playable"]
        self.jump_in: bool = options["jump_in"]
        self.seven_zero: bool = options["seven_zero"]
        self.uno_call: bool = options["uno_call"]
        self.hands: list[list[int]] = []
        self.pile: list[int] = []
        # The pile is shuffled lazily: positions below this have not had their Fisher-Yates
        # step yet; it runs when the card there is drawn. Same odds as shuffling up front,
        # without shuffling the 60-odd cards a short game never reaches.
        self._unshuffled = 0
        self._rand = rng._random.random  # the bound C method, for the shuffle steps
        self.discard: list[int] = []
        self.colour = NONE
        self.turn = 0
        self.direction = 1
        self.phase = PLAY
        self.pending = 0  # cards the player to act must take (+2/+4 not yet answered)
        self._guilty = False  # the last Wild Draw Four was played holding the old colour
        self._offender = -1  # who played the Wild Draw Four now pending
        self._exposed = -1  # uno_call: seat on one card who said nothing, while catchable
        self._declared = -1  # uno_call: seat that said UNO before going down to one card
        self._reveal: tuple[int, int, tuple[str, ...]] | None = None
        self._idle = 0
        self._out: list[bool] = []  # seats that left; empty while nobody has (the hot path)
        # Per seat (empty until someone passes): the top card's playable-table key it passed
        # on and how many of its cards are known not to fit it (see UnoView.unfit).
        self._unfit: list[tuple[int, int] | None] = []
        self._result: Result | None = None
        self.log: list[tuple[int, Action]] = []

    # -- the contract ------------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        return None if self._result is not None else self.turn

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """Scores and ranking once the game is over."""
        return self._result

    @property
    def top(self) -> int:
        """The card on the discard pile."""
        return self.discard[-1]

    def playable(self, card: int) -> bool:
        """Whether the player to act may play ``card`` now, ignoring pending cards.

        A wild always may (rules 5 and 12). An official Wild Draw Four played while holding
        the colour in play is a bluff the rules forbid but only a challenge (rule 8) catches,
        as at a real table.
        """
        return bool(_PLAYABLE[self.colour * 15 + CARD_RANK[self.discard[-1]]][card])

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may take now (wild plays once per colour)."""
        if self._result is not None:
            return ()
        out: list[Action] = []
        if self._out and self._out[seat]:
            return out
        if seat != self.turn:
            self._out_of_turn_actions(seat, out)
            return out
        hand = self.hands[seat]
        phase = self.phase
        if not phase and not self.pending:
            # The hot loop of every playout: rules 5/12 as a table lookup, one pass.
            playable = _PLAYABLE[self.colour * 15 + CARD_RANK[self.discard[-1]]]
            seven_zero = self.seven_zero
            wild_plays = _PLAYS if self.seed_program_rules else _WILD_PLAYS
            append = out.append
            for i, card in enumerate(hand):
                if playable[card]:
                    if card >= _FIRST_WILD:
                        out += wild_plays[i]
                    elif seven_zero and CARD_RANK[card] == 7:
                        self._add_play(seat, i, out)
                    else:
                        append(_SINGLE_PLAYS[i])
            append(_DRAW)
        elif phase == CHOOSE_COLOUR:
            return _CHOOSE
        elif phase == AFTER_DRAW:
            self._add_play(seat, len(hand) - 1, out)
            out.append(_PASS)
        elif self.pending:
            if self.stacking:
                rank = CARD_RANK[self.discard[-1]]
                for i, card in enumerate(hand):
                    if CARD_RANK[card] == rank:
                        self._add_play(seat, i, out)
            if self._can_challenge():
                out.append(_CHALLENGE)
            out.append(_DRAW)
        if self.uno_call:
            if len(hand) == 2 and self._declared != seat:
                out.append(_CALL_UNO)
            if self._exposed >= 0:
                self._out_of_turn_actions(seat, out)
        return out

    def _out_of_turn_actions(self, seat: int, out: list[Action]) -> None:
        exposed = self._exposed
        if exposed >= 0:
            out.append(_CALL_UNO if exposed == seat else CatchUno(exposed))
        if seat != self.turn and self._jump_in_open():
            for i, card in enumerate(self.hands[seat]):
                if self._identical(card):
                    self._add_play(seat, i, out)

    def _add_play(self, seat: int, index: int, out: list[Action]) -> None:
        # Seed rules 12 and 18: a wild without a colour and a 7 without a target are
        # accepted (a random colour, the next player), so they are listed too.
        hand = self.hands[seat]
        rank = CARD_RANK[hand[index]]
        if rank >= WILD:
            out += _PLAYS[index] if self.seed_program_rules else _WILD_PLAYS[index]
        elif self.seven_zero and rank == 7 and len(hand) > 1:
            if self.seed_program_rules:
                out.append(_SINGLE_PLAYS[index])
            out += [Play(index, None, t) for t in range(self.n) if t != seat and self._in(t)]
        else:
            out.append(_SINGLE_PLAYS[index])

    def _identical(self, card: int) -> bool:
        top = self.discard[-1]
        return (
            CARD_RANK[card] == CARD_RANK[top]
            and CARD_COLOUR[card] == CARD_COLOUR[top]
            and CARD_RANK[card] < WILD
        )

    def _jump_in_open(self) -> bool:
        return self.jump_in and self.phase == PLAY and not self.pending

    def _can_challenge(self) -> bool:
        return (
            not self.seed_program_rules
            and self.pending == 4
            and CARD_RANK[self.discard[-1]] == WILD_DRAW_FOUR
            and self._offender >= 0
        )

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check ``action`` for ``seat``, then play it; refusals change nothing."""
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if not 0 <= seat < self.n:
            raise IllegalAction("There is no such seat.", code="no_seat")
        if self._out and self._out[seat]:
            raise IllegalAction("You left this game.", code="not_playing")
        cls = action.__class__
        events: list[Event] = []
        if cls is PlayCard:
            action = self._by_code(seat, action)  # type: ignore[arg-type]
            cls = Play
        if cls is Play:
            self._play(seat, action, events)  # type: ignore[arg-type]
        elif cls is CallUno or cls is CatchUno:
            self._uno_action(seat, action, events)
        else:
            if seat != self.turn:
                raise IllegalAction("It is not your turn.", code="not_your_turn")
            if cls is Draw:
                self._draw_action(seat, events)
            elif cls is Pass:
                if self.phase != AFTER_DRAW:
                    raise IllegalAction(
                        "You can only pass after drawing a playable card.", code="cannot_pass"
                    )
                if self.uno_call or self._reveal is not None:
                    self._close_windows(seat)
                events.append(_PASSED[seat])
                # It kept the card it drew, which fits; the rest did not, or it had played.
                self._note_unfit(seat, len(self.hands[seat]) - 1)
                self.phase = PLAY
                self._next(1)
            elif cls is Challenge:
                if not self._can_challenge():
                    raise IllegalAction(
                        "There is no Wild Draw Four to challenge.", code="cannot_challenge"
                    )
                self._close_windows(seat)
                self._challenge(seat, events)
            elif cls is ChooseColour:
                colour = action.colour  # type: ignore[attr-defined]
                if self.phase != CHOOSE_COLOUR:
                    raise IllegalAction("There is no colour to name now.", code="no_colour")
                if colour not in (0, 1, 2, 3):
                    raise IllegalAction("Name red, green, blue or yellow.", code="bad_colour")
                self.colour = colour
                self.phase = PLAY
                events.append(ColourChosen(seat, COLOUR_NAMES[colour]))
            else:
                raise IllegalAction("That is not an Uno move.", code="not_an_uno_move")
        self.log.append((seat, action))
        if self._result is not None:
            events.append(GameOver(self._result))
        return events

    def forfeit(self, seat: int) -> list[Event]:
        """``seat`` leaves: its cards go under the draw pile and it leaves the rotation.

        On its turn, the turn passes (cards pending for it lapse); the last seat left wins.
        """
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if not 0 <= seat < self.n or not self._in(seat):
            raise IllegalAction("That seat is already out of the game.", code="not_playing")
        if not self._out:
            self._out = [False] * self.n
        hand = self.hands[seat]
        self._shuffle_rest()
        self.pile[:0] = hand  # the pile is drawn from its end: index 0 is its bottom
        self.hands[seat] = []
        if self._unfit:
            self._unfit[seat] = None
        self._out[seat] = True
        events: list[Event] = [Forfeited(seat, len(hand))]
        for window in ("_exposed", "_declared", "_offender"):
            if getattr(self, window) == seat:
                setattr(self, window, -1)
        if self._reveal is not None and seat in self._reveal[:2]:
            self._reveal = None
        self._idle = 0
        if seat == self.turn:
            self.pending = 0
            if self.phase == AFTER_DRAW:
                self.phase = PLAY
            self.turn = self._after(seat)
        self.log.append((seat, _FORFEIT))
        live = [i for i in range(self.n) if self._in(i)]
        if len(live) == 1:
            self._finish(live[0])
            assert self._result is not None
            events.append(GameOver(self._result))
        return events

    def _shuffle_rest(self) -> None:
        """Finish the lazy shuffle (see ``_unshuffled``), so cards put under the pile stay
        there; the same odds as drawing each card."""
        pile = self.pile
        for top in range(self._unshuffled - 1, 0, -1):
            other = int(self._rand() * (top + 1))
            pile[top], pile[other] = pile[other], pile[top]
        self._unshuffled = 0

    # -- playing -----------------------------------------------------------------------

    def _refuse(self, seat: int, reason: str, code: str, events: list[Event]) -> None:
        """Official: refuse. Seed (rule 11): a penalty card and the turn passes."""
        if not self.seed_program_rules:
            raise IllegalAction(reason, code=code)
        self._close_windows(seat)
        events.append(RuleBroken(seat, code))
        self._draw(seat, 1 + self.pending, events)
        self.pending = 0
        self._next(1)

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        hand = self.hands[seat]
        index = action.index
        jumping = seat != self.turn
        if jumping:
            if not self._jump_in_open():
                raise IllegalAction("It is not your turn.", code="not_your_turn")
            if not (0 <= index < len(hand) and self._identical(hand[index])):
                raise IllegalAction(
                    "Only a card identical to the top card may jump in.", code="no_jump_in"
                )
            self._check_extras(seat, hand[index], action)
        elif self.phase or self.pending or not 0 <= index < len(hand):
            if self._check_unusual_play(seat, action, events):
                return
        else:
            card = hand[index]
            if (
                card >= _FIRST_WILD
                or self.seven_zero
                or action.colour is not None
                or action.target is not None
            ):
                self._check_extras(seat, card, action)
            if not _PLAYABLE[self.colour * 15 + CARD_RANK[self.discard[-1]]][card]:
                self._refuse(seat, NOT_PLAYABLE, "not_playable", events)
                return
        # Checked; from here on the play happens.
        card = hand[index]
        rank = CARD_RANK[card]
        target = action.target
        if rank >= WILD:
            colour = action.colour
            if colour is None:  # seed only (_check_extras): rule 12 draws a random colour
                colour = self.rng.randbelow(4)
            if rank == WILD_DRAW_FOUR:
                self._offender = seat
                old = self.colour
                self._guilty = any(CARD_COLOUR[c] == old for c in hand)
        else:
            colour = CARD_COLOUR[card]
            if target is None and self.seven_zero and rank == 7 and len(hand) > 1:
                target = self._after(seat)  # seed only: the next player
        if self.uno_call or self._reveal is not None:
            self._close_windows(seat)
        self._idle = 0
        del hand[index]
        if self._unfit:
            known = self._unfit[seat]
            if known is not None:
                # A card that fits what it passed on was drawn since; any other may have
                # been one of those known not to fit (counted so: never more than it holds).
                left = min(known[1] - (not _PLAYABLE[known[0]][card]), len(hand))
                # A seat that played its last card lacks nothing any more: no record.
                self._unfit[seat] = (known[0], left) if left > 0 else None
        self.discard.append(card)
        self.colour = colour
        if self.phase:
            self.phase = PLAY
        if jumping:
            self.turn = seat
        played = _PLAYED[seat]
        key = card * 10 + colour * 2 + jumping
        event = played[key]
        if event is None:  # events are immutable: one per (seat, card, colour) serves all games
            event = played[key] = CardPlayed(seat, CARD_CODES[card], COLOUR_NAMES[colour], jumping)
        events.append(event)
        left = len(hand)
        if left > 1:
            if rank < DRAW_TWO and not self.seven_zero:
                # The common case, inlined while nobody has left.
                self.turn = self._after(seat) if self._out else (seat + self.direction) % self.n
            else:
                self._effect(seat, rank, target, events)
        elif left == 1:
            if self.seven_zero and (rank == 0 or (rank == 7 and target is not None)):
                # The hands move first: UNO is for whoever holds one card afterwards.
                self._effect(seat, rank, target, events)
            else:
                if not self.uno_call or self._declared == seat:
                    events.append(UnoAnnounced(seat))
                else:
                    self._exposed = seat
                self._effect(seat, rank, target, events)
        elif rank < DRAW_TWO or not self.seed_program_rules:
            self._effect(seat, rank, target, events)
            self._finish(seat)
        else:
            # Seed rule 13: no going out on an action card.
            self._effect(seat, rank, target, events)
            self._draw(seat, 1, events)

    def _by_code(self, seat: int, action: PlayCard) -> Play:
        """The :class:`Play` of the card ``action`` names: after a draw the card just drawn
        if it is that one, else the first such card; refused if the hand holds none."""
        codes = [CARD_CODES[c] for c in self.hands[seat]]
        wanted = action.card
        if wanted not in codes:
            raise IllegalAction("You do not hold that card.", code="not_in_hand", card=wanted)
        index = codes.index(wanted)
        if seat == self.turn and self.phase == AFTER_DRAW and codes[-1] == wanted:
            index = len(codes) - 1
        return Play(index, action.colour, action.target)

    def _check_extras(self, seat: int, card: int, action: Play) -> None:
        """Refuse a colour or a target ``card`` cannot take (no legal action carries one).

        This comes before any rule 11 penalty: a malformed action is not a card the rules
        forbid, so it changes nothing in either ruleset.
        """
        colour = action.colour
        rank = CARD_RANK[card]
        if rank >= WILD:
            if colour is None:
                if not self.seed_program_rules:
                    raise IllegalAction(
                        "Name a colour for the wild: red, green, blue or yellow.",
                        code="bad_colour",
                    )
            elif colour not in (0, 1, 2, 3):
                raise IllegalAction(
                    "Name red, green, blue or yellow for the wild.", code="bad_colour"
                )
        elif colour is not None:
            raise IllegalAction("Only a wild card takes a colour.", code="colour_not_wild")
        target = action.target
        if self.seven_zero and rank == 7 and len(self.hands[seat]) > 1:
            if target is None:
                if not self.seed_program_rules:
                    raise IllegalAction(
                        "Choose another player to swap hands with.", code="bad_target"
                    )
            elif target == seat or not 0 <= target < self.n or not self._in(target):
                raise IllegalAction("Choose another player to swap hands with.", code="bad_target")
        elif target is not None:
            raise IllegalAction(
                "Only a 7 swaps hands (house rule seven_zero), and not as the last card.",
                code="no_swap",
            )

    def _check_unusual_play(self, seat: int, action: Play, events: list[Event]) -> bool:
        """A play outside the plain case; True when it was refused with a seed penalty."""
        hand = self.hands[seat]
        index = action.index
        if self.phase == CHOOSE_COLOUR:
            raise IllegalAction("Name the colour of the first card first.", code="name_colour")
        if not 0 <= index < len(hand):
            self._refuse(seat, "You have no card there.", "no_such_card", events)
            return True
        if self.phase == AFTER_DRAW and index != len(hand) - 1:
            raise IllegalAction(
                "After drawing you may only play the card you drew.", code="drawn_card_only"
            )
        self._check_extras(seat, hand[index], action)
        if self.pending:
            if not (self.stacking and CARD_RANK[hand[index]] == CARD_RANK[self.discard[-1]]):
                self._refuse(
                    seat,
                    f"Take the {self.pending} cards or answer with the same card.",
                    "take_pending",
                    events,
                )
                return True
        elif not self.playable(hand[index]):
            self._refuse(seat, NOT_PLAYABLE, "not_playable", events)
            return True
        return False

    def _effect(self, seat: int, rank: int, target: int | None, events: list[Event]) -> None:
        """Rule 7 (and the house rules): what the card just played does, then whose turn."""
        n = self.n
        if rank < DRAW_TWO:
            if self.seven_zero and self.hands[seat]:
                if rank == 7 and target is not None:
                    hands = self.hands
                    hands[seat], hands[target] = hands[target], hands[seat]
                    if self._unfit:  # what is known of a hand goes with it
                        unfit = self._unfit
                        unfit[seat], unfit[target] = unfit[target], unfit[seat]
                    events.append(HandsSwapped(seat, target))
                    moved: Sequence[int] = (seat, target)
                elif rank == 0:
                    step = self.direction
                    live = [i for i in range(n) if self._in(i)]
                    rotated = list(self.hands)
                    for k, i in enumerate(live):
                        rotated[i] = self.hands[live[(k - step) % len(live)]]
                    self.hands = rotated
                    if self._unfit:
                        known = list(self._unfit)
                        for k, i in enumerate(live):
                            self._unfit[i] = known[live[(k - step) % len(live)]]
                    events.append(HandsRotated(step))
                    moved = range(n)
                else:
                    moved = ()
                # A hand of one card that changed owner is announced for its new owner (it
                # was never theirs to call, so it cannot be caught either).
                events.extend(UnoAnnounced(s) for s in moved if len(self.hands[s]) == 1)
            self.turn = self._after(self.turn)
        elif rank == SKIP:
            self._skip(events)
        elif rank == REVERSE:
            if n == 2:
                self._skip(events)
            else:
                self.direction = -self.direction
                events.append(_TURNED[self.direction])
                self.turn = self._after(self.turn)
        elif rank == WILD:
            self.turn = self._after(self.turn)
        else:
            amount = 2 if rank == DRAW_TWO else 4
            finishing = not self.hands[seat] and not self.seed_program_rules
            if self.stacking or (rank == WILD_DRAW_FOUR and not self.seed_program_rules):
                # The next player answers: take, stack, or (official W+4) challenge.
                self.pending += amount
                self.turn = self._after(self.turn)
                if finishing:  # rule 10: a final +2/+4 still makes the next player draw
                    self._draw(self.turn, self.pending, events)
                    self.pending = 0
            else:
                victim = self._after(self.turn)
                self._draw(victim, amount, events)
                self._skip(events)

    def _skip(self, events: list[Event]) -> None:
        victim = self._after(self.turn)
        events.append(_SKIPPED[victim])
        self.turn = self._after(victim)

    def _next(self, steps: int) -> None:
        self.turn = self._after(self.turn, steps)

    def _in(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game (has not left it)."""
        return not (self._out and self._out[seat])

    def _after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns after ``seat`` in the direction of play, past those who left."""
        n, direction, out = self.n, self.direction, self._out
        if not out:  # nobody has left: the plain step of every playout
            return (seat + direction * steps) % n
        for _ in range(steps):
            seat = (seat + direction) % n
            while out[seat]:
                seat = (seat + direction) % n
        return seat

    def _draw(self, seat: int, count: int, events: list[Event]) -> int:
        """Rule 3: deal ``count`` cards to ``seat``, reshuffling the discard pile if needed."""
        got = self._deal(self.hands[seat], count, None, events)
        events.append(_DRAWN[seat][got] if got < _CACHED_DRAWS else CardsDrawn(seat, got))
        return got

    def _deal(self, hand: list[int], count: int, until: bytes | None, events: list[Event]) -> int:
        """Move up to ``count`` cards from the pile to ``hand`` (stopping after one that
        ``until`` marks playable); the number moved. Each card gets its Fisher-Yates step
        here, when it is drawn (see ``_unshuffled``)."""
        pile = self.pile
        got = 0
        while got < count:
            top = len(pile) - 1
            if top < 0:
                if not self._reshuffle(events):
                    break
                top = len(pile) - 1
            if top < self._unshuffled:
                other = int(self._rand() * (top + 1))  # uniform in [0, top] to float precision
                pile[top], pile[other] = pile[other], pile[top]
                self._unshuffled = top
            card = pile.pop()
            hand.append(card)
            got += 1
            if until is not None and until[card]:
                break
        return got

    def _reshuffle(self, events: list[Event]) -> bool:
        discard = self.discard
        if len(discard) <= 1:
            return False
        top = discard.pop()
        pile = self.pile
        pile += discard
        discard.clear()
        discard.append(top)
        self._unshuffled = len(pile)
        events.append(Reshuffled(len(pile)))
        return True

    def _draw_action(self, seat: int, events: list[Event]) -> None:
        if self.phase != PLAY:
            raise IllegalAction(
                "Play the card you drew or pass."
                if self.phase == AFTER_DRAW
                else "Name the colour of the first card first.",
                code="cannot_draw",
            )
        if self.uno_call or self._reveal is not None:
            self._close_windows(seat)
        if self.pending:
            # Seed rule 11: an empty input is a penalty card, on top of the pending cards
            # as after an illegal card; only the official rules take the cards alone.
            self._draw(seat, self.pending + (1 if self.seed_program_rules else 0), events)
            self.pending = 0
            events.append(Skipped(seat))
            self._next(1)
            return
        hand = self.hands[seat]
        playable = _PLAYABLE[self.colour * 15 + CARD_RANK[self.discard[-1]]]
        if self.draw_until:  # rule 16
            got = self._deal(hand, DECK_SIZE, playable, events)
        else:
            got = self._deal(hand, 1, None, events)
        events.append(_DRAWN[seat][got] if got < _CACHED_DRAWS else CardsDrawn(seat, got))
        if not got and not any(playable[c] for c in hand):
            self._idle += 1
            if self._idle >= self.n - sum(self._out):
                self._block()
                return
        elif got:
            self._idle = 0
        if got and not self.seed_program_rules and playable[hand[-1]]:
            self.phase = AFTER_DRAW  # rule 6: they may play it at once
            return
        events.append(_PASSED[seat])
        if not self.seed_program_rules:  # the seed's rules pass even on a drawn card that fits
            self._note_unfit(seat, len(hand))
        self.turn = self._after(seat)

    def _note_unfit(self, seat: int, count: int) -> None:
        """``seat`` passed without playing: ``count`` of its cards fit no play on the top."""
        if not self._unfit:
            self._unfit = [None] * self.n
        key = self.colour * 15 + CARD_RANK[self.discard[-1]]
        self._unfit[seat] = (key, count) if count > 0 else None

    def _challenge(self, seat: int, events: list[Event]) -> None:
        offender = self._offender
        self._reveal = (seat, offender, tuple(CARD_CODES[c] for c in self.hands[offender]))
        upheld = self._guilty
        events.append(ChallengeResolved(seat, offender, upheld))
        self.pending = 0
        self._offender = -1
        if upheld:
            self._draw(offender, 4, events)  # and the challenger plays on
        else:
            self._draw(seat, 6, events)
            events.append(Skipped(seat))
            self._next(1)

    # -- UNO! (rule 9) --------------------------------------------------------------------

    def _uno_action(self, seat: int, action: Action, events: list[Event]) -> None:
        if not self.uno_call:
            raise IllegalAction("UNO is announced automatically here.", code="uno_automatic")
        if isinstance(action, CallUno):
            hand = len(self.hands[seat])
            if seat == self._exposed:
                self._exposed = -1
                events.append(UnoAnnounced(seat))
            elif seat == self._declared:
                raise IllegalAction("You have already said UNO.", code="uno_said")
            elif seat == self.turn and hand == 2 and self.phase != CHOOSE_COLOUR:
                self._declared = seat
            else:
                raise IllegalAction("You can only say UNO with one card to go.", code="no_uno")
            return
        assert isinstance(action, CatchUno)
        target = action.target
        if target != self._exposed or target < 0 or target == seat:
            raise IllegalAction("Nobody is there to catch.", code="nobody_to_catch")
        self._exposed = -1
        events.append(UnoCaught(target, seat))
        self._draw(target, 2, events)

    def _close_windows(self, seat: int) -> None:
        """The player to act acts: an unsaid UNO can no longer be caught; reveals end."""
        self._reveal = None
        self._exposed = -1  # even the exposed player's own next action closes the window
        if self._declared != seat:
            self._declared = -1

    # -- the end (rule 10) -----------------------------------------------------------------

    def _finish(self, winner: int) -> None:
        points = [sum(CARD_POINTS[c] for c in hand) for hand in self.hands]
        # Rule 10: the sum of the *other* hands. The winner's own is empty when they went
        # out, but not when everyone else left (rule: a leaver's cards go under the pile).
        total = sum(p for i, p in enumerate(points) if i != winner)
        outcomes = tuple(Outcome.WIN if i == winner else Outcome.LOSE for i in range(self.n))
        scores = tuple(total if i == winner else 0 for i in range(self.n))
        ranking = (
            winner,
            *sorted((i for i in range(self.n) if i != winner), key=points.__getitem__),
        )
        self._result = Result(outcomes, scores, ranking)

    def _block(self) -> None:
        """Nobody can play or draw: the fewest hand points win (ties share a draw)."""
        points = [sum(CARD_POINTS[c] for c in hand) for hand in self.hands]
        best = min(p for i, p in enumerate(points) if self._in(i))
        best_seats = [i for i, p in enumerate(points) if p == best and self._in(i)]
        tie = len(best_seats) > 1
        total = sum(points)
        outcomes = tuple(
            (Outcome.DRAW if tie else Outcome.WIN) if i in best_seats else Outcome.LOSE
            for i in range(self.n)
        )
        scores = tuple(
            total - best * len(best_seats) if i in best_seats else 0 for i in range(self.n)
        )
        ranking = tuple(sorted(range(self.n), key=points.__getitem__))
        self._result = Result(outcomes, scores, ranking)

    # -- views and snapshots ---------------------------------------------------------------

    def view(self, seat: int | None) -> UnoView:
        """What ``seat`` sees: their own hand, everyone's card counts and the table."""
        reveal = None
        if self._reveal is not None and seat == self._reveal[0]:
            reveal = (self._reveal[1], self._reveal[2])
        over = self._result is not None
        return UnoView(
            seat=seat,
            ruleset=self.options["ruleset"],
            hand=None if seat is None else tuple(CARD_CODES[c] for c in self.hands[seat]),
            hand_counts=tuple(len(h) for h in self.hands),
            top=top_code(self.discard[-1], self.colour),
            colour=COLOUR_NAMES[self.colour],
            current_seat=None if over else self.turn,
            direction=self.direction,
            phase=PHASE_NAMES[self.phase],
            pending=self.pending,
            draw_pile=len(self.pile),
            uno_exposed=None if self._exposed < 0 else self._exposed,
            revealed=reveal,
            legal=() if seat is None else tuple(self.legal_actions(seat)),
            result=self._result,
            points=tuple(sum(CARD_POINTS[c] for c in hand) for hand in self.hands)
            if over
            else None,
            house=tuple(rule for rule in HOUSE_RULES if self.options[rule]),
            out=tuple(i for i, left in enumerate(self._out) if left),
            unfit=tuple(
                None
                if known is None
                else (COLOUR_NAMES[known[0] // 15], RANK_NAMES[known[0] % 15], known[1])
                for known in self._unfit
            )
            if any(self._unfit)
            else (),
            played=tuple([CARD_CODES[c] for c in self.discard[:-1]]),
        )

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-safe data, with the generator state and the action log."""
        return {
            "game": GAME,
            "schema": SCHEMA,
            "players": self.n,
            "options": dict(self.options),
            "rng": self.rng.getstate(),
            "hands": [list(h) for h in self.hands],
            "pile": list(self.pile),
            "unshuffled": self._unshuffled,
            "discard": list(self.discard),
            "colour": self.colour,
            "turn": self.turn,
            "direction": self.direction,
            "phase": self.phase,
            "pending": self.pending,
            "guilty": self._guilty,
            "offender": self._offender,
            "exposed": self._exposed,
            "declared": self._declared,
            "reveal": None
            if self._reveal is None
            else [self._reveal[0], self._reveal[1], list(self._reveal[2])],
            "idle": self._idle,
            "out": list(self._out),
            "unfit": [None if known is None else list(known) for known in self._unfit],
            "over": self._result is not None,
            "log": [_encode(seat, action) for seat, action in self.log],
        }


class _Forfeit(Action):
    """A seat left the game (:meth:`State.forfeit`): in the log only, never applied."""


_FORFEIT = _Forfeit()


def _encode(seat: int, action: Action) -> list[Any]:
    if isinstance(action, Play):
        return [seat, "play", action.index, action.colour, action.target]
    if isinstance(action, ChooseColour):
        return [seat, "colour", action.colour]
    if isinstance(action, CatchUno):
        return [seat, "catch", action.target]
    return [seat, _SIMPLE_NAMES[type(action)]]


_SIMPLE: dict[str, Action] = {
    "draw": _DRAW,
    "pass": _PASS,
    "challenge": _CHALLENGE,
    "uno": _CALL_UNO,
    "forfeit": _FORFEIT,
}
_SIMPLE_NAMES: dict[type, str] = {type(a): name for name, a in _SIMPLE.items()}


def _decode(entry: Sequence[Any]) -> tuple[int, Action]:
    seat, kind = int(entry[0]), entry[1]
    if kind == "play":
        return seat, Play(int(entry[2]), entry[3], entry[4])
    if kind == "colour":
        return seat, ChooseColour(int(entry[2]))
    if kind == "catch":
        return seat, CatchUno(int(entry[2]))
    return seat, _SIMPLE[kind]


def new(
    players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
) -> State:
    """Deal a game (rule 2) for 2-10 players (:func:`deal` without what the first card did).

    ``options``: ``ruleset`` (``"official"`` or ``"seed"``) and the house rules
    ``stacking``, ``draw_until_playable``, ``jump_in``, ``seven_zero``, ``uno_call``.
    """
    return deal(players, seed=seed, options=options)[0]


def deal(
    players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
) -> tuple[State, list[Event]]:
    """Deal a game as :func:`new` does, and say what happened at once: the first card
    turned (:class:`FirstCard`) and what it did to the first player (official rule 4)."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Uno is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    state = State(players, GameRandom(seed), _options(options))
    state.pile = list(range(DECK_SIZE))
    state._unshuffled = DECK_SIZE
    state.hands = [[] for _ in range(players)]
    for hand in state.hands:
        state._deal(hand, HAND_SIZE, None, [])
    state.turn = state.rng.randbelow(players)
    return state, _turn_first_card(state)


def _turn_first_card(state: State) -> list[Event]:
    pile = state.pile
    discard = state.discard
    state._deal(discard, 1, None, [])
    if not state.seed_program_rules:
        while CARD_RANK[discard[-1]] == WILD_DRAW_FOUR:  # rule 4: back in the deck, turn another
            pile.append(discard.pop())
            state._unshuffled = len(pile)
            state._deal(discard, 1, None, [])
    card = discard[-1]
    state.colour = CARD_COLOUR[card]
    first = state.turn
    rank = CARD_RANK[card]
    acts = not state.seed_program_rules and rank in (SKIP, REVERSE, DRAW_TWO, WILD)
    events: list[Event] = [FirstCard(CARD_CODES[card], first, acts)]
    if state.seed_program_rules:
        return events  # rule 14: taken as it comes
    if rank == SKIP or (rank == REVERSE and state.n == 2):
        events.append(Skipped(first))
        state.turn = (first + 1) % state.n
    elif rank == REVERSE:
        state.direction = -1
        events.append(DirectionChanged(-1))
    elif rank == DRAW_TWO:
        state._draw(first, 2, events)
        events.append(Skipped(first))
        state.turn = (first + 1) % state.n
    elif rank == WILD:
        state.phase = CHOOSE_COLOUR  # the first player names the colour, then plays
    return events


def restore(snapshot: Mapping[str, Any]) -> State:
    """Rebuild a state from :meth:`State.snapshot`; it plays on identically."""
    check_snapshot(snapshot, GAME, SCHEMA)
    try:
        state = State(
            int(snapshot["players"]),
            GameRandom.from_state(snapshot["rng"]),
            _options(snapshot["options"]),
        )
        state.hands = [[int(c) for c in h] for h in snapshot["hands"]]
        state.pile = [int(c) for c in snapshot["pile"]]
        state._unshuffled = int(snapshot["unshuffled"])
        state.discard = [int(c) for c in snapshot["discard"]]
        state.colour = int(snapshot["colour"])
        state.turn = int(snapshot["turn"])
        state.direction = int(snapshot["direction"])
        state.phase = int(snapshot["phase"])
        state.pending = int(snapshot["pending"])
        state._guilty = bool(snapshot["guilty"])
        state._offender = int(snapshot["offender"])
        state._exposed = int(snapshot["exposed"])
        state._declared = int(snapshot["declared"])
        reveal = snapshot["reveal"]
        state._reveal = None if reveal is None else (reveal[0], reveal[1], tuple(reveal[2]))
        state._idle = int(snapshot["idle"])
        state._out = [bool(left) for left in snapshot.get("out", [])]
        state._unfit = [  # absent from snapshots taken before it was kept
            None if known is None else (int(known[0]), int(known[1]))
            for known in snapshot.get("unfit", [])
        ]
        state.log = [_decode(entry) for entry in snapshot["log"]]
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise SnapshotError(f"damaged uno snapshot: {error}") from error
    cards = sorted([*state.pile, *state.discard, *(c for h in state.hands for c in h)])
    if cards != list(range(DECK_SIZE)) or len(state.hands) != state.n:
        raise SnapshotError("damaged uno snapshot: the cards do not add up to one deck")
    if state._unfit and (
        len(state._unfit) != state.n
        or not all(
            known is None or (0 <= known[0] < len(_PLAYABLE) and 0 < known[1] <= len(hand))
            for known, hand in zip(state._unfit, state.hands, strict=True)
        )
    ):
        raise SnapshotError("damaged uno snapshot: what the table saw does not fit the hands")
    if snapshot["over"]:
        _rebuild_result(state)
    return state


def _rebuild_result(state: State) -> None:
    live = [i for i in range(state.n) if state._in(i)]
    empty = [i for i in live if not state.hands[i]]
    if len(live) == 1:
        state._finish(live[0])
    elif empty:
        state._finish(empty[0])
    else:
        state._block()
