"""The Crazy Eights engine (docs/rules/crazyeights.md): its view and state; the actions and
events it takes and reports are in :mod:`rules.crazyeights.events`.

Cards are kept as their stable indices (0..51, ``13 * suit + rank - 1``, see
:class:`rules.cards.Card`) in plain lists, and what may be played is a 52-bit mask, so a
decision costs a few integer operations (the hard player plays thousands of them). The stock
is drawn from the end of its list; the discard pile's top card is the end of its own.

The decisions the rules mark are taken here: a random first player (rule 8), drawing one card
at a time with the turn going on (rule 11), the discard pile shuffled into an empty stock (rule
12), passing only with nothing to draw and nothing that fits (rule 13), and a seat that leaves
shuffling its cards into the stock (rule 19). With the stock refilled, a game never blocks
(rule 18): nothing is left to draw only when every card but the top one is in a hand, three 8s
among them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.cards import STANDARD_DECK, SUITS, Card, Suit
from rules.crazyeights.events import (
    CardDrawn,
    CardPlayed,
    Draw,
    Forfeited,
    Pass,
    Passed,
    PlayCard,
    Reshuffled,
    SuitChosen,
)
from rules.engine import (
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
from rules.rng import GameRandom

__all__ = [
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SCHEMA",
    "CrazyEightsView",
    "State",
    "card_points",
    "hand_size",
    "legal_moves",
    "new",
    "playable_mask",
    "position",
    "restore",
]

GAME: Final = "crazyeights"
SCHEMA: Final = 1
MIN_PLAYERS: Final = 2  # rule 2
MAX_PLAYERS: Final = 6


# ----------------------------------------------------------------------------- cards

_SUIT: Final = tuple(i // 13 for i in range(52))
_RANK: Final = tuple(i % 13 + 1 for i in range(52))
_EIGHT: Final = 8
_EIGHTS: Final = sum(1 << (13 * s + _EIGHT - 1) for s in range(4))
_SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
_RANK_MASK: Final = tuple(sum(1 << (13 * s + i % 13) for s in range(4)) for i in range(52))
# Rule 16: an 8 is 50, a court card 10, an A 1, the others their face value.
_POINTS: Final = tuple(50 if r == _EIGHT else 10 if r > 10 else r for r in _RANK)

# Flyweight actions and events: legal_actions and apply hand out shared instances.
_PLAY: Final = tuple(PlayCard(card) for card in STANDARD_DECK)
_PLAY8: Final = {
    13 * s + _EIGHT - 1: tuple(PlayCard(STANDARD_DECK[13 * s + _EIGHT - 1], x) for x in SUITS)
    for s in range(4)
}
_DRAW: Final = Draw()
_PASS: Final = Pass()
_PLAYED: Final = tuple(
    tuple(CardPlayed(seat, card) for card in STANDARD_DECK) for seat in range(MAX_PLAYERS)
)
_CHOSEN: Final = tuple(tuple(SuitChosen(seat, s) for s in SUITS) for seat in range(MAX_PLAYERS))
_DRAWN: Final = tuple(tuple(CardDrawn(seat, n) for n in range(52)) for seat in range(MAX_PLAYERS))


def hand_size(players: int) -> int:
    """Cards dealt to each player: seven for two, five for more (rule 3)."""
    return 7 if players == 2 else 5


def card_points(card: Card) -> int:
    """What ``card`` counts left in a hand at the end (rule 16)."""
    return _POINTS[card.index]


def playable_mask(top: int, suit: int) -> int:
    """Bit ``i`` is set when card ``i`` may go on ``top`` with ``suit`` to follow (rules 9-10):
    the suit, the top card's rank, and every 8."""
    return _SUIT_MASK[suit] | _RANK_MASK[top] | _EIGHTS


def _moves(playable: Iterable[int], can_draw: bool) -> list[PlayCard | Draw | Pass]:
    """Every move of a player whose cards that fit are ``playable``, in that order: an 8 once
    per suit, then Draw, or Pass when nothing fits and nothing can be drawn (rules 9-13)."""
    out: list[PlayCard | Draw | Pass] = []
    for i in playable:
        if _RANK[i] == _EIGHT:
            out += _PLAY8[i]
        else:
            out.append(_PLAY[i])
    if can_draw:
        out.append(_DRAW)
    elif not out:
        out.append(_PASS)
    return out


def _hand_points(hand: Iterable[int]) -> int:
    return sum(_POINTS[i] for i in hand)


# ----------------------------------------------------------------------------- the view


@dataclass(frozen=True, slots=True)
class CrazyEightsView:
    """What one seat (or, with ``seat=None``, a spectator) may see (rule 7).

    ``hand`` is that seat's own hand in the order the cards came (drawn cards last), and
    ``playable`` its cards that fit when it is to act; every other hand is only a count.
    ``pile`` is the discard pile under the top card, oldest first. ``drawn`` counts the cards
    the player to act has drawn this turn.
    """

    seat: int | None
    players: int
    turn: int
    current: int | None
    next_seat: int | None
    top: Card
    suit: Suit
    stock: int
    pile: tuple[Card, ...]
    counts: tuple[int, ...]
    playing: tuple[bool, ...]
    hand: tuple[Card, ...] | None
    playable: tuple[Card, ...]
    drawn: int
    buried: int
    result: Result | None
    points: tuple[int, ...] | None  # each hand's points (rule 16), once the game is over

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    @property
    def can_draw(self) -> bool:
        """Whether a card can be drawn: from the stock, or from the discard pile shuffled
        into it (rule 12)."""
        return self.stock > 0 or bool(self.pile)


def legal_moves(view: CrazyEightsView) -> list[PlayCard | Draw | Pass]:
    """Every move ``view`` allows its seat, as the engine lists them (none unless it is to
    act)."""
    if view.seat is None or view.current != view.seat:
        return []
    return _moves((card.index for card in view.playable), view.can_draw)


# ----------------------------------------------------------------------------- the state


class State:
    """A game of Crazy Eights. Create with :func:`new` or :func:`restore`."""

    __slots__ = (
        "_buried",
        "_current",
        "_discard",
        "_drawn",
        "_hands",
        "_log",
        "_out",
        "_out_order",
        "_result",
        "_rng",
        "_stock",
        "_suit",
        "_turn",
        "players",
    )

    def __init__(self, players: int, rng: GameRandom) -> None:
        self.players = players
        self._rng = rng
        self._hands: list[list[int]] = [[] for _ in range(players)]
        self._stock: list[int] = []
        self._discard: list[int] = []
        self._suit = 0  # the suit to follow: the top card's, or the one named with an 8
        self._current = 0
        self._drawn = 0  # cards the seat to act has drawn this turn
        self._turn = 1
        self._buried = 0  # 8s turned up at the deal and buried (rule 6)
        self._out = [False] * players  # seats that left (rule 19)
        self._out_order: list[int] = []
        self._result: Result | None = None
        # (seat, kind, arg): kind 0 PlayCard with arg = card index * 4 + named suit, 1 Draw,
        # 2 Pass, 3 a forfeit. Plain ints keep apply cheap; snapshots store them as they are.
        self._log: list[tuple[int, int, int]] = []

    # ------------------------------------------------------------------- properties

    @property
    def current_seat(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return None if self._result is not None else self._current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (rules 15 and 19)."""
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """Outcomes, scores and ranking, once over (rules 17 and 19)."""
        return self._result

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return STANDARD_DECK[self._discard[-1]]

    @property
    def suit(self) -> Suit:
        """The suit to follow (rules 9-10)."""
        return SUITS[self._suit]

    def next_seat(self) -> int | None:
        """Who moves after the seat to act, ``None`` once the game is over."""
        return None if self._result is not None else self._next(self._current)

    # These show hidden cards: for tests and the hard player's sampled worlds only.
    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand in the order the cards came. Hidden information."""
        return tuple(STANDARD_DECK[i] for i in self._hands[seat])

    def stock(self) -> tuple[Card, ...]:
        """The stock, the next card to draw first. Hidden information."""
        return tuple(STANDARD_DECK[i] for i in reversed(self._stock))

    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, oldest first: the top card is last."""
        return tuple(STANDARD_DECK[i] for i in self._discard)

    # ------------------------------------------------------------------- moves

    def legal_actions(self, seat: int) -> list[PlayCard | Draw | Pass]:
        """What ``seat`` may do now: cards that fit (an 8 once per suit), then Draw, or Pass
        when nothing fits and nothing can be drawn; empty unless it is ``seat``'s turn."""
        if self._result is not None or seat != self._current:
            return []
        mask = playable_mask(self._discard[-1], self._suit)
        return _moves((i for i in self._hands[seat] if (mask >> i) & 1), self._can_draw())

    def apply(self, seat: int, action: PlayCard | Draw | Pass) -> list[Event]:
        """Verify and apply ``action`` for ``seat``; a refused action changes nothing."""
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if seat != self._current:
            raise IllegalAction("It is not your turn.", code="not_your_turn", current=self._current)
        if type(action) is PlayCard:
            index, suit = self._verify_play(seat, action)
            self._log.append((seat, 0, index * 4 + suit))
            return self._play(seat, index, suit)
        if type(action) is Draw:
            if not self._can_draw():
                raise IllegalAction(
                    "Nothing is left to draw: play a card that fits, or pass.", code="no_draw"
                )
            self._log.append((seat, 1, 0))
            return self._draw(seat)
        if type(action) is Pass:
            self._verify_pass(seat)
            self._log.append((seat, 2, 0))
            self._end_turn(seat)
            return [Passed(seat)]
        raise IllegalAction("That is not a Crazy Eights move.", code="not_a_crazyeights_move")

    def forfeit(self, seat: int) -> list[Event]:
        """``seat`` leaves: its cards are shuffled into the stock and it leaves the turn
        order; on its turn the next seat moves; the last seat left wins (rule 19)."""
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if not 0 <= seat < self.players or self._out[seat]:
            raise IllegalAction("That seat is already out of the game.", code="not_playing")
        self._log.append((seat, 3, 0))
        hand = self._hands[seat]
        returned = len(hand)
        self._stock += hand
        hand.clear()
        self._rng.shuffle(self._stock)
        self._out[seat] = True
        self._out_order.append(seat)
        events: list[Event] = [Forfeited(seat, returned)]
        if seat == self._current:
            self._end_turn(seat)
        if self._out.count(False) == 1:
            return self._finish(events, self._out.index(False))
        return events

    # ------------------------------------------------------------------- internals

    def _can_draw(self) -> bool:
        return bool(self._stock) or len(self._discard) > 1

    def _verify_play(self, seat: int, action: PlayCard) -> tuple[int, int]:
        """The card's index and the suit to follow after it; refused, nothing changes."""
        card = action.card
        if not isinstance(card, Card):
            raise IllegalAction("That is not a card.", code="not_a_card")
        index = card.index
        if card.is_joker or index not in self._hands[seat]:
            raise IllegalAction(f"You don't have {card.code}.", code="not_in_hand", card=card.code)
        if not (playable_mask(self._discard[-1], self._suit) >> index) & 1:
            raise self._refusal(card)
        if _RANK[index] == _EIGHT:
            if action.suit not in SUITS:
                raise IllegalAction(
                    "Name the suit to follow after your 8: ♠, ♥, ♦ or ♣.", code="choose_suit"
                )
            return index, SUITS.index(action.suit)
        if action.suit is not None:
            raise IllegalAction("Only an 8 lets you name a suit.", code="suit_without_eight")
        return index, _SUIT[index]

    def _refusal(self, card: Card) -> IllegalAction:
        """Why ``card`` does not fit (rules 9-10), each case with its own code, so a
        translation never assembles English words."""
        suit = SUITS[self._suit].value
        top = self._discard[-1]
        if _RANK[top] == _EIGHT:
            return IllegalAction(
                f"{card.code} does not fit: after the 8 play a {suit} card or another 8, or draw.",
                code="no_match_eight",
                card=card.code,
                suit=suit,
            )
        rank = STANDARD_DECK[top].rank.label
        return IllegalAction(
            f"{card.code} does not fit: play a {suit} card, another {rank} or an 8, or draw.",
            code="no_match",
            card=card.code,
            suit=suit,
            rank=rank,
        )

    def _verify_pass(self, seat: int) -> None:
        if self._can_draw():
            raise IllegalAction(
                "You can only pass when nothing is left to draw: draw a card instead.",
                code="must_draw",
            )
        mask = playable_mask(self._discard[-1], self._suit)
        if any((mask >> i) & 1 for i in self._hands[seat]):
            raise IllegalAction(
                "Nothing is left to draw and a card of yours fits: play it.", code="must_play"
            )

    def _next(self, seat: int) -> int:
        n = self.players
        seat = (seat + 1) % n
        while self._out[seat]:
            seat = (seat + 1) % n
        return seat

    def _end_turn(self, seat: int) -> None:
        self._current = self._next(seat)
        self._drawn = 0
        self._turn += 1

    def _play(self, seat: int, index: int, suit: int) -> list[Event]:
        hand = self._hands[seat]
        hand.remove(index)
        self._discard.append(index)
        self._suit = suit
        events: list[Event] = [_PLAYED[seat][index]]
        if _RANK[index] == _EIGHT:
            events.append(_CHOSEN[seat][suit])
        if not hand:  # rule 15
            return self._finish(events, seat)
        self._end_turn(seat)
        return events

    def _draw(self, seat: int) -> list[Event]:
        events: list[Event] = []
        stock = self._stock
        if not stock:  # rule 12
            discard = self._discard
            stock += discard[:-1]
            del discard[:-1]
            self._rng.shuffle(stock)
            events.append(Reshuffled(len(stock)))
        self._hands[seat].append(stock.pop())
        self._drawn += 1
        events.append(_DRAWN[seat][len(stock)])
        return events

    def _finish(self, events: list[Event], winner: int) -> list[Event]:
        """Rule 17: the winner scores the other hands' points; the rest rank by fewest
        points (then in turn order), then the seats that left, the last to leave first
        (rule 19)."""
        points = [_hand_points(h) for h in self._hands]
        others = [s for s in range(self.players) if s != winner and not self._out[s]]
        others.sort(key=lambda s: (points[s], (s - winner) % self.players))
        ranking = (winner, *others, *reversed(self._out_order))
        total = sum(points[s] for s in others)
        outcomes = tuple(Outcome.WIN if s == winner else Outcome.LOSE for s in range(self.players))
        scores = tuple(total if s == winner else 0 for s in range(self.players))
        self._result = Result(outcomes, scores, tuple(ranking))
        events.append(GameOver(self._result))
        return events

    # ------------------------------------------------------------------- views, snapshots

    def view(self, seat: int | None) -> CrazyEightsView:
        """What ``seat`` may see: its own hand, every other hand as a count (rule 7)."""
        over = self._result is not None
        playable: tuple[Card, ...] = ()
        if seat is not None and not over and seat == self._current:
            mask = playable_mask(self._discard[-1], self._suit)
            playable = tuple(STANDARD_DECK[i] for i in self._hands[seat] if (mask >> i) & 1)
        return CrazyEightsView(
            seat=seat,
            players=self.players,
            turn=self._turn,
            current=None if over else self._current,
            next_seat=self.next_seat(),
            top=STANDARD_DECK[self._discard[-1]],
            suit=SUITS[self._suit],
            stock=len(self._stock),
            pile=tuple(STANDARD_DECK[i] for i in self._discard[:-1]),
            counts=tuple(len(h) for h in self._hands),
            playing=tuple(not out for out in self._out),
            hand=None if seat is None else self.hand(seat),
            playable=playable,
            drawn=0 if over else self._drawn,
            buried=self._buried,
            result=self._result,
            points=tuple(_hand_points(h) for h in self._hands) if over else None,
        )

    def snapshot(self) -> dict[str, Any]:
        """JSON-safe state: cards as codes, the generator's state and the action log."""
        return {
            "game": GAME,
            "schema": SCHEMA,
            "players": self.players,
            "rng": self._rng.getstate(),
            "hands": [[STANDARD_DECK[i].code for i in h] for h in self._hands],
            "stock": [STANDARD_DECK[i].code for i in self._stock],
            "discard": [STANDARD_DECK[i].code for i in self._discard],
            "suit": self._suit,
            "current": self._current,
            "drawn": self._drawn,
            "turn": self._turn,
            "buried": self._buried,
            "out_order": list(self._out_order),
            "log": [list(entry) for entry in self._log],
            "result": result_data(self._result),
        }


# ----------------------------------------------------------------------------- dealing

_BY_CODE: Final = {card.code: card.index for card in STANDARD_DECK}


def new(
    players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
) -> State:
    """Shuffle the 52 cards, deal 7 each to 2 players or 5 each to 3-6, turn up a card that
    is not an 8 (burying any 8), and pick who begins (rules 1-8)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            f"Crazy Eights needs between {MIN_PLAYERS} and {MAX_PLAYERS} players, not {players}.",
            code="players",
            players=players,
        )
    if options:
        raise IllegalAction(
            f"Unknown Crazy Eights options: {', '.join(sorted(options))}.", code="options"
        )
    rng = GameRandom(seed)
    state = State(players, rng)
    cards = list(range(52))
    rng.shuffle(cards)
    size = hand_size(players)
    for seat in range(players):
        state._hands[seat] = cards[seat * size : (seat + 1) * size]
    stock = cards[players * size :]
    stock.reverse()  # drawn from the end: the card after the hands comes first
    turned = []
    while _RANK[stock[-1]] == _EIGHT:  # rule 6
        turned.append(stock.pop())
    state._discard = [stock.pop()]
    for eight in turned:
        stock.insert(rng.randbelow(len(stock) + 1), eight)
    state._buried = len(turned)
    state._stock = stock
    state._suit = _SUIT[state._discard[0]]
    state._current = rng.randbelow(players)  # rule 8
    return state


def position(
    hands: Sequence[Sequence[Card]],
    top: Card,
    *,
    stock: Sequence[Card] = (),
    pile: Sequence[Card] = (),
    suit: Suit | None = None,
    current: int = 0,
    out: Sequence[int] = (),
    seed: int = 0,
) -> State:
    """A game set up at a given position, for tests and worked examples.

    ``stock`` lists the next cards to draw, the next first; every card in no hand and not on
    the discard pile lies under them. ``pile`` is the discard pile under ``top``, oldest
    first; ``suit``
    the suit named with an 8 on top (the top card's own otherwise); seats in ``out`` have
    left (their hands must be empty).
    """
    state = State(len(hands), GameRandom(seed))
    state._hands = [[c.index for c in h] for h in hands]
    state._discard = [*(c.index for c in pile), top.index]
    used = {*state._discard, *(i for h in state._hands for i in h), *(c.index for c in stock)}
    under = [i for i in range(52) if i not in used]
    state._stock = [*under, *(c.index for c in reversed(stock))]
    state._suit = SUITS.index(suit) if suit is not None else _SUIT[top.index]
    state._current = current
    for seat in out:
        if state._hands[seat]:
            raise ValueError("a seat that left holds no cards")
        state._out[seat] = True
        state._out_order.append(seat)
    _check_cards(state, ValueError)
    return state


def _check_cards(state: State, error: type[Exception]) -> None:
    """Each of the 52 cards once, a top card, and a seat to act that is in the game."""
    cards = sorted([*state._stock, *state._discard, *(i for h in state._hands for i in h)])
    if (
        cards != list(range(52))
        or not state._discard
        or len(state._hands) != state.players
        or not 0 <= state._suit < 4
        or not 0 <= state._current < state.players
        or state._out[state._current]
    ):
        raise error("the cards or the turn do not add up")


def restore(snapshot: Mapping[str, Any]) -> State:
    """Rebuild a state from :meth:`State.snapshot`; damaged data raises ``SnapshotError``."""
    check_snapshot(snapshot, GAME, SCHEMA)
    try:
        players = int(snapshot["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SnapshotError(f"bad player count {players}")
        state = State(players, GameRandom.from_state(snapshot["rng"]))
        state._hands = [[_BY_CODE[c] for c in h] for h in snapshot["hands"]]
        state._stock = [_BY_CODE[c] for c in snapshot["stock"]]
        state._discard = [_BY_CODE[c] for c in snapshot["discard"]]
        state._suit = int(snapshot["suit"])
        state._current = int(snapshot["current"])
        state._drawn = int(snapshot["drawn"])
        state._turn = int(snapshot["turn"])
        state._buried = int(snapshot["buried"])
        state._out_order = [int(s) for s in snapshot["out_order"]]
        state._out = [s in state._out_order for s in range(players)]
        state._log = [(int(a), int(b), int(c)) for a, b, c in snapshot["log"]]
        state._result = result_from_data(snapshot["result"])
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise SnapshotError(f"damaged {GAME} snapshot: {error!r}") from error
    try:
        _check_cards(state, SnapshotError)
    except SnapshotError as error:
        raise SnapshotError(f"damaged {GAME} snapshot: {error}") from None
    if (
        sorted(set(state._out_order)) != sorted(state._out_order)
        or not all(0 <= s < players for s in state._out_order)
        or state._drawn < 0
        or not 0 <= state._buried <= 4
    ):
        raise SnapshotError(f"damaged {GAME} snapshot: who left or what was drawn")
    return state
