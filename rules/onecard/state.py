"""The One Card engine (docs/rules/onecard.md): one mutable state, verified moves, typed events.

Cards are kept as their stable indices (0..53, see :class:`rules.cards.Card`) in plain lists,
and what may be played is a 54-bit mask, so a decision costs a few integer operations. The
*main deck* of the rules is ``deck`` plus the open card: ``deck`` never holds the open card,
which is why a draw can never take it (rule 6).

Decisions where the rules are silent (each is noted under its rule):

- "With 2 players" (rules 18 and 19) counts the players still in the game: once all but two
  have gone out (bankrupt or left), a Q changes nothing and a J gives its player another turn.
- Finishing order (rule 24): the seats still playing by fewest cards, then the seats that went
  out, the last out first. Each seat scores the cards it holds at the end, or held when it
  went out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.cards import FULL_DECK, SUITS, Card, Rank, Suit
from rules.engine import (
    Event,
    GameOver,
    IllegalAction,
    Outcome,
    Result,
    SnapshotError,
    result_data,
    result_from_data,
)
from rules.engine import check_snapshot as _check_header
from rules.onecard.events import (
    Attack,
    AttackTaken,
    Bankrupt,
    CardPlayed,
    CardsTaken,
    DirectionChanged,
    EmptyDeck,
    Forfeited,
    Jump,
    OneCard,
    PlayAgain,
    PlayCard,
    ShortDeck,
    SuitChosen,
    Take,
)
from rules.rng import GameRandom

__all__ = [
    "BANKRUPT_AT",
    "GAME",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAMES",
    "SCHEMA",
    "OneCardView",
    "State",
    "attack_value",
    "new",
    "playable_mask",
    "position",
    "restore",
    "target_suits",
]

GAME: Final = "onecard"
SCHEMA: Final = 1
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
HAND_SIZE: Final = 5  # rule 3
BANKRUPT_AT: Final = 20  # rule 22
NAMES: Final = "ABCD"  # rule 2

JKB: Final = 52
JKC: Final = 53
_BLACK: Final = 4  # "suit" to match after JK B: ♠ or ♣ (rule 10)
_COLOUR: Final = 5  # after JK C: ♥ or ♦
_TARGET_SUITS: Final[tuple[tuple[Suit, ...], ...]] = (
    (Suit.SPADES,),
    (Suit.HEARTS,),
    (Suit.DIAMONDS,),
    (Suit.CLUBS,),
    (Suit.SPADES, Suit.CLUBS),
    (Suit.HEARTS, Suit.DIAMONDS),
)

# Per card index: suit position (4 and 5 for the jokers), rank (0 for jokers), attack value.
_SUIT: Final = tuple([i // 13 for i in range(52)] + [_BLACK, _COLOUR])
_RANK: Final = tuple([i % 13 + 1 for i in range(52)] + [0, 0])


def _attack(i: int) -> int:
    if i == JKB:
        return 7
    if i == JKC:
        return 10
    if i == 0:  # ♠A
        return 5
    return {1: 3, 2: 2}.get(_RANK[i], 0)


_ATTACK: Final = tuple(_attack(i) for i in range(54))  # rule 13
_JOKERS_MASK: Final = (1 << JKB) | (1 << JKC)


def _mask(indices: Sequence[int] | range) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


def _suit_cards(suit: int) -> range:
    return range(13 * suit, 13 * suit + 13)


# What matches a suit target (rules 8-10): that suit's cards and both jokers.
_SUIT_MATCH: Final = tuple(
    [_mask(_suit_cards(s)) | _JOKERS_MASK for s in range(4)]
    + [
        _mask(_suit_cards(0)) | _mask(_suit_cards(3)) | _JOKERS_MASK,
        _mask(_suit_cards(1)) | _mask(_suit_cards(2)) | _JOKERS_MASK,
    ]
)
# Same rank as the open card (jokers match no rank; they match everything anyway).
_RANK_MATCH: Final = tuple([_mask([s * 13 + i % 13 for s in range(4)]) for i in range(52)] + [0, 0])


def _defence(i: int) -> int:
    """What may answer an attack whose open card is ``i`` (rule 15)."""
    if i == JKB:
        return 1 << JKC
    if i == JKC:
        return 1 << JKB
    if _RANK[i] == 2:
        return _RANK_MATCH[i] | (1 << (_SUIT[i] * 13)) | _JOKERS_MASK
    if _RANK[i] == 1:
        return _RANK_MATCH[i] | _JOKERS_MASK
    return 0


_DEFENCE: Final = tuple(_defence(i) for i in range(54))

# Flyweight actions: legal_actions hands out shared instances instead of building new ones.
_PLAY: Final = tuple(PlayCard(card) for card in FULL_DECK)
_PLAY7: Final = tuple(
    tuple(PlayCard(Card.from_index(s * 13 + 6), suit) for suit in SUITS) for s in range(4)
)
_TAKE: Final = Take()
_SEVENS: Final = frozenset(s * 13 + 6 for s in range(4))
# Events are immutable too: one per seat and card serves every game (a play-out plays many).
_PLAYED: Final = tuple(
    tuple(CardPlayed(seat, card) for card in FULL_DECK) for seat in range(MAX_PLAYERS)
)


def attack_value(card: Card) -> int:
    """How many cards ``card`` adds to the offense point (0 for a card that does not attack)."""
    return _ATTACK[card.index]


def playable_mask(open_index: int, target: int, offense: int) -> int:
    """Bit ``i`` is set when card ``i`` may be played (rules 8-10 and 15)."""
    if offense:
        return _DEFENCE[open_index]
    return _SUIT_MATCH[target] | _RANK_MATCH[open_index]


def target_suits(target: int) -> tuple[Suit, ...]:
    """The suits a target position stands for: one suit, or a joker's two (rule 10)."""
    return _TARGET_SUITS[target]


def _defence_refusal(card: Card, open_card: Card, offense: int) -> IllegalAction:
    """The refusal of ``card`` under an attack from ``open_card``, naming what defends (rule 15).

    Each kind of attack has its own code, so a translation never assembles English words.
    """
    take = f"or take {offense} cards."
    if open_card.is_joker:
        other = FULL_DECK[JKC if open_card.index == JKB else JKB].code
        return IllegalAction(
            f"Under attack you can only defend with the {other}, {take}",
            code="must_defend_joker",
            card=card.code,
            joker=other,
            offense=offense,
        )
    if open_card.rank is Rank.TWO:
        ace = FULL_DECK[_SUIT[open_card.index] * 13].code
        return IllegalAction(
            f"Under attack you can only defend with a 2, the {ace} or a joker, {take}",
            code="must_defend",
            card=card.code,
            ace=ace,
            offense=offense,
        )
    return IllegalAction(
        f"Under attack you can only defend with an A or a joker, {take}",
        code="must_defend_ace",
        card=card.code,
        offense=offense,
    )


@dataclass(frozen=True, slots=True)
class OneCardView:
    """What one seat (or, with ``seat=None``, a spectator) may see (rules 26-27).

    ``hand`` is that seat's own hand and ``playable`` its playable cards when it is to act;
    everybody else's hand is only a count. ``order`` lists the seats still playing in turn
    order, starting with ``current``.
    """

    seat: int | None
    players: int
    phase: int
    current: int | None
    next_seat: int | None
    direction: int
    offense: int
    open_card: Card
    suits: tuple[Suit, ...]
    deck_count: int  # the main deck's cards, the open card among them (rule 5)
    counts: tuple[int, ...]
    playing: tuple[bool, ...]
    bankrupt: tuple[bool, ...]
    order: tuple[int, ...]
    hand: tuple[Card, ...] | None
    playable: tuple[Card, ...]
    result: Result | None
    # Per seat, what the table saw it lack: it took cards instead of playing, so that many
    # of the cards it holds are none of the mask's (bit ``i``: ``FULL_DECK[i]`` would have
    # played then; a joker only against an attack, since one is worth keeping); None:
    # nothing known. Empty while nobody has taken.
    unfit: tuple[tuple[int, int] | None, ...] = ()

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None


class State:
    """A game of One Card. Create with :func:`new` or :func:`restore`."""

    __slots__ = (
        "_bankrupt",
        "_current",
        "_deck",
        "_direction",
        "_forfeited",
        "_hands",
        "_log",
        "_offense",
        "_open",
        "_out_cards",
        "_out_order",
        "_phase",
        "_playing",
        "_result",
        "_rng",
        "_target",
        "_unfit",
        "players",
    )

    def __init__(self, players: int, rng: GameRandom) -> None:
        self.players = players
        self._rng = rng
        self._hands: list[list[int]] = [[] for _ in range(players)]
        self._deck: list[int] = []
        self._open = 0
        self._target = 0
        self._offense = 0
        self._direction = 1
        self._current = 0
        self._phase = 1
        self._playing = [True] * players
        self._bankrupt = [False] * players
        self._forfeited = [False] * players
        self._out_order: list[int] = []  # seats that left, first out first
        self._out_cards = [0] * players  # what each seat held when it went out (its score)
        self._result: Result | None = None
        # (seat, kind, arg): kind 0 Take, 1 PlayCard with arg = card index * 4 + chosen suit,
        # 2 forfeit. Plain ints keep apply cheap; snapshots store them as they are.
        self._log: list[tuple[int, int, int]] = []
        # Per seat (empty until someone takes): the playable mask it took on and how many of
        # its cards are known to be none of it (see OneCardView.unfit).
        self._unfit: list[tuple[int, int] | None] = []

    # ----------------------------------------------------------------- properties

    @property
    def current_seat(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return None if self._result is not None else self._current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (rule 24)."""
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """Outcomes, cards left per seat and the finishing order, once over."""
        return self._result

    @property
    def offense(self) -> int:
        """The pending offense point (0: no attack)."""
        return self._offense

    @property
    def direction(self) -> int:
        """``1`` for ``--->`` (A → B → C), ``-1`` for ``<---``."""
        return self._direction

    @property
    def open_card(self) -> Card:
        """The card on top of the table."""
        return FULL_DECK[self._open]

    @property
    def phase(self) -> int:
        """The turn counter shown on the table, from 1."""
        return self._phase

    def next_seat(self) -> int | None:
        """Who plays after the current seat in the current direction."""
        if self._result is not None:
            return None
        return self._next(self._current)

    def turn_order(self) -> tuple[int, ...]:
        """The seats still playing, in turn order from the current one."""
        order = [self._current] if self._playing[self._current] else []
        seat = self._next(self._current)
        while seat not in order:
            order.append(seat)
            seat = self._next(seat)
        return tuple(order)

    # These two show hidden cards: for the seed's console debug dump and for tests only.
    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand in the order the cards came. Hidden information."""
        return tuple(FULL_DECK[i] for i in self._hands[seat])

    def main_deck(self) -> tuple[Card, ...]:
        """The main deck (rule 5): the open card first, then the latest cards first."""
        return (FULL_DECK[self._open], *(FULL_DECK[i] for i in reversed(self._deck)))

    # ----------------------------------------------------------------- moves

    def legal_actions(self, seat: int) -> list[PlayCard | Take]:
        """What ``seat`` may do now: playable cards (a 7 once per suit) and Take."""
        if self._result is not None or seat != self._current:
            return []
        mask = playable_mask(self._open, self._target, self._offense)
        out: list[PlayCard | Take] = []
        for i in self._hands[seat]:
            if (mask >> i) & 1:
                if i in _SEVENS:
                    out.extend(_PLAY7[i // 13])
                else:
                    out.append(_PLAY[i])
        out.append(_TAKE)
        return out

    def playable_hand(self, seat: int) -> tuple[Sequence[int], int]:
        """``seat``'s hand as card indices, in the order the cards came (the engine's own
        list, to read only), and a mask with the bit of each card it may play now (cards it
        does not hold may be set too; none unless it is to act). Hidden information, for the
        hard player's play-outs, which decide off the ints without building a view."""
        if self._result is not None or seat != self._current:
            return self._hands[seat], 0
        return self._hands[seat], playable_mask(self._open, self._target, self._offense)

    def apply(self, seat: int, action: PlayCard | Take) -> list[Event]:
        """Verify and apply ``action`` for ``seat``; refused actions change nothing."""
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if seat != self._current:
            raise IllegalAction(
                f"It is not your turn: Player {NAMES[self._current]} is playing.",
                code="not_your_turn",
                current=self._current,
            )
        if type(action) is PlayCard:
            index = self._verify_play(seat, action)
            self._log.append(
                (seat, 1, index * 4 + (SUITS.index(action.suit) if action.suit else 0))
            )
            return self._play(seat, index, action.suit)
        if type(action) is Take:
            self._log.append((seat, 0, 0))
            return self._take(seat)
        raise IllegalAction("That is not a One Card move.", code="not_a_onecard_move")

    def forfeit(self, seat: int) -> list[Event]:
        """``seat`` leaves: their cards go back to the main deck and they leave the rotation.

        If it was their turn, any pending attack ends with them (as with a bankruptcy, rule
        22) and the next player moves.
        """
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if 0 <= seat < self.players and self._bankrupt[seat]:
            raise IllegalAction(
                "You went bankrupt: you are already out of this game.", code="already_bankrupt"
            )
        if not 0 <= seat < self.players or not self._playing[seat]:
            raise IllegalAction("That seat is already out of the game.", code="not_playing")
        self._log.append((seat, 2, 0))
        returned = self._leave(seat)
        self._forfeited[seat] = True
        events: list[Event] = [Forfeited(seat, returned)]
        if seat == self._current:
            self._offense = 0
            self._current = self._next(seat)
        return self._check_survivor(events)

    # ----------------------------------------------------------------- internals

    def _verify_play(self, seat: int, action: PlayCard) -> int:
        card = action.card
        index = card.index
        if index not in self._hands[seat]:
            raise IllegalAction(f"You don't have {card.code}.", code="not_in_hand", card=card.code)
        if not (playable_mask(self._open, self._target, self._offense) >> index) & 1:
            raise self._refusal(card)
        if index in _SEVENS:
            if action.suit not in SUITS:
                raise IllegalAction(
                    "Choose the suit to match after your 7: ♠, ♥, ♦ or ♣.", code="choose_suit"
                )
        elif action.suit is not None:
            raise IllegalAction("Only a 7 lets you choose the suit.", code="suit_without_seven")
        return index

    def _refusal(self, card: Card) -> IllegalAction:
        open_card = FULL_DECK[self._open]
        if self._offense:
            return _defence_refusal(card, open_card, self._offense)
        suits = _TARGET_SUITS[self._target]
        if open_card.is_joker:  # rule 10: the joker's two suits, no rank
            first, second = (s.value for s in suits)
            return IllegalAction(
                f"{card.code} does not match: play a {first} or {second} card or a joker, "
                "or take a card.",
                code="no_match_joker",
                card=card.code,
                first=first,
                second=second,
            )
        # "another 8", not "a 8": no article to get wrong before A or 8.
        rank = open_card.rank.label
        return IllegalAction(
            f"{card.code} does not match: play a {suits[0].value} card, another {rank} "
            "or a joker, or take a card.",
            code="no_match",
            card=card.code,
            suit=suits[0].value,
            rank=rank,
        )

    def _next(self, seat: int) -> int:
        step = self._direction
        n = self.players
        seat = (seat + step) % n
        while not self._playing[seat]:
            seat = (seat + step) % n
        return seat

    def _alive(self) -> int:
        return sum(self._playing)

    def _play(self, seat: int, index: int, suit: Suit | None) -> list[Event]:
        hand = self._hands[seat]
        hand.remove(index)
        if self._unfit:
            known = self._unfit[seat]
            if known is not None:
                # A card of the mask was taken since; any other may have been one of those
                # known to be none of it (counted so: never more than it holds).
                left = min(known[1] - (not (known[0] >> index) & 1), len(hand))
                # A seat that played its last card lacks nothing any more: no record.
                self._unfit[seat] = (known[0], left) if left > 0 else None
        self._deck.append(self._open)
        self._open = index
        self._phase += 1
        events: list[Event] = [_PLAYED[seat][index]]
        if not hand:
            return self._finish(events, seat)
        if len(hand) == 1:
            events.append(OneCard(seat))
        value = _ATTACK[index]
        if value:  # rule 14
            target = self._next(seat)
            events.append(Attack(seat, target, self._offense, value))
            self._offense += value
            self._target = _SUIT[index]
            self._current = target
            return events
        self._target = _SUIT[index]
        rank = _RANK[index]
        if rank == 11:  # J, rule 18
            skipped = self._next(seat)
            target = self._next(skipped)
            events.append(Jump(seat, skipped, target))
            self._current = target
        elif rank == 12:  # Q, rule 19: with 2 players (still in the game) nothing changes
            if self._alive() > 2:
                self._direction = -self._direction
                target = self._next(seat)
                events.append(DirectionChanged(seat, self._direction, target))
            self._current = self._next(seat)
        elif rank == 13:  # K, rule 20
            events.append(PlayAgain(seat))
        else:
            if rank == 7 and suit is not None:  # rule 9
                self._target = SUITS.index(suit)
                events.append(SuitChosen(seat, suit))
            self._current = self._next(seat)
        return events

    def _draw(self, hand: list[int], count: int) -> int:
        deck = self._deck
        count = min(count, len(deck))
        randbelow = self._rng.randbelow
        for _ in range(count):
            j = randbelow(len(deck))
            deck[j], deck[-1] = deck[-1], deck[j]
            hand.append(deck.pop())
        return count

    def _take(self, seat: int) -> list[Event]:
        hand = self._hands[seat]
        if hand:
            # Taking is taken to mean nothing played: the cards held fit none of the mask.
            # But for a joker, outside an attack: a joker is worth keeping for defence.
            if not self._unfit:
                self._unfit = [None] * self.players
            mask = playable_mask(self._open, self._target, self._offense)
            if not self._offense:
                mask &= ~_JOKERS_MASK
            self._unfit[seat] = (mask, len(hand))
        self._phase += 1
        events: list[Event]
        wanted = self._offense
        if wanted:  # rule 16
            received = self._draw(hand, wanted)
            events = [AttackTaken(seat, wanted, received)]
            if received < wanted:
                events.append(ShortDeck(seat, wanted, received) if received else EmptyDeck(seat))
            self._offense = 0
        elif self._deck:
            events = [CardsTaken(seat, self._draw(hand, 1))]
        else:  # rule 12
            events = [EmptyDeck(seat)]
        self._current = self._next(seat)
        if len(hand) >= BANKRUPT_AT:  # rule 22
            events.append(Bankrupt(seat, self._leave(seat)))
            self._bankrupt[seat] = True
            self._offense = 0
            return self._check_survivor(events)
        return events

    def _leave(self, seat: int) -> int:
        hand = self._hands[seat]
        returned = len(hand)
        if self._unfit:
            self._unfit[seat] = None
        self._out_cards[seat] = returned
        self._deck.extend(hand)
        hand.clear()
        self._playing[seat] = False
        self._out_order.append(seat)
        return returned

    def _check_survivor(self, events: list[Event]) -> list[Event]:
        if self._alive() == 1:
            return self._finish(events, self._playing.index(True))
        return events

    def _finish(self, events: list[Event], winner: int) -> list[Event]:
        """Rule 24: the winner, then the others by fewest cards, then those out, last out first.

        A seat's score is the cards it holds at the end, or held when it went out (bankrupt
        or left), so a seat that is out never scores like the winner's empty hand.
        """
        playing = [s for s in range(self.players) if self._playing[s] and s != winner]
        playing.sort(key=lambda s: (len(self._hands[s]), (s - winner) % self.players))
        ranking = (winner, *playing, *reversed(self._out_order))
        outcomes = tuple(Outcome.WIN if s == winner else Outcome.LOSE for s in range(self.players))
        scores = tuple(
            len(self._hands[s]) if self._playing[s] else self._out_cards[s]
            for s in range(self.players)
        )
        self._result = Result(outcomes, scores, ranking)
        events.append(GameOver(self._result))
        return events

    # ----------------------------------------------------------------- views & snapshots

    def view(self, seat: int | None) -> OneCardView:
        """What ``seat`` may see; other hands only as counts (rule 27)."""
        over = self._result is not None
        hand = None if seat is None else self.hand(seat)
        playable: tuple[Card, ...] = ()
        if seat is not None and not over and seat == self._current:
            mask = playable_mask(self._open, self._target, self._offense)
            playable = tuple(FULL_DECK[i] for i in self._hands[seat] if (mask >> i) & 1)
        return OneCardView(
            seat=seat,
            players=self.players,
            phase=self._phase,
            current=None if over else self._current,
            next_seat=self.next_seat(),
            direction=self._direction,
            offense=self._offense,
            open_card=FULL_DECK[self._open],
            suits=_TARGET_SUITS[self._target],
            deck_count=len(self._deck) + 1,
            counts=tuple(len(h) for h in self._hands),
            playing=tuple(self._playing),
            bankrupt=tuple(self._bankrupt),
            order=() if over else self.turn_order(),
            hand=hand,
            playable=playable,
            result=self._result,
            unfit=tuple(self._unfit) if any(self._unfit) else (),
        )

    def snapshot(self) -> dict[str, Any]:
        """JSON-safe state: cards as codes, the generator's state, and the action log."""
        return {
            "game": GAME,
            "schema": SCHEMA,
            "players": self.players,
            "seed": self._rng.seed,
            "rng": self._rng.getstate(),
            "hands": [[FULL_DECK[i].code for i in h] for h in self._hands],
            "deck": [FULL_DECK[i].code for i in self._deck],
            "open": FULL_DECK[self._open].code,
            "target": self._target,
            "offense": self._offense,
            "direction": self._direction,
            "current": self._current,
            "phase": self._phase,
            "bankrupt": list(self._bankrupt),
            "forfeited": list(self._forfeited),
            "out_order": list(self._out_order),
            "out_cards": list(self._out_cards),
            "log": [list(entry) for entry in self._log],
            "unfit": [None if known is None else list(known) for known in self._unfit],
            "result": result_data(self._result),
        }


_BY_CODE: Final = {card.code: card.index for card in FULL_DECK}


def new(
    players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
) -> State:
    """Shuffle 54 cards, deal 5 to each of 2-4 players and open one (rules 1-4)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            f"One Card needs between {MIN_PLAYERS} and {MAX_PLAYERS} players, not {players}.",
            code="players",
            players=players,
        )
    if options:
        raise IllegalAction(
            f"Unknown One Card options: {', '.join(sorted(options))}.", code="options"
        )
    rng = GameRandom(seed)
    state = State(players, rng)
    cards = list(range(54))
    rng.shuffle(cards)
    for seat in range(players):
        state._hands[seat] = cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]
    state._open = cards[players * HAND_SIZE]
    state._deck = cards[players * HAND_SIZE + 1 :]
    state._target = _SUIT[state._open]
    return state


def position(
    hands: Sequence[Sequence[Card]],
    open_card: Card,
    *,
    deck: Sequence[Card] | None = None,
    suit: Suit | None = None,
    offense: int = 0,
    current: int = 0,
    direction: int = 1,
    out: Sequence[int] = (),
    phase: int = 1,
    seed: int = 0,
) -> State:
    """A game set up at a given position, for tests and the seed's worked examples.

    ``deck`` defaults to every card not in a hand and not open; ``suit`` is the suit chosen
    after an open 7; seats in ``out`` are bankrupt (their hands must be empty; each scores
    ``BANKRUPT_AT``, the least it can have held).
    """
    state = State(len(hands), GameRandom(seed))
    state._hands = [[c.index for c in h] for h in hands]
    state._open = open_card.index
    used = {open_card.index, *(i for h in state._hands for i in h)}
    state._deck = (
        [c.index for c in deck] if deck is not None else [i for i in range(54) if i not in used]
    )
    state._target = SUITS.index(suit) if suit is not None else _SUIT[open_card.index]
    state._offense = offense
    state._current = current
    state._direction = direction
    state._phase = phase
    for seat in out:
        if state._hands[seat]:
            raise ValueError("a seat that is out holds no cards")
        state._playing[seat] = False
        state._bankrupt[seat] = True
        state._out_order.append(seat)
        state._out_cards[seat] = BANKRUPT_AT  # at least this many went back when it went out
    cards = sorted([*state._deck, state._open, *(i for h in state._hands for i in h)])
    if cards != list(range(54)):
        raise ValueError("a position must hold each of the 54 cards exactly once")
    return state


def restore(snapshot: Mapping[str, Any]) -> State:
    """Rebuild a state from :meth:`State.snapshot`; damaged data raises ``SnapshotError``."""
    _check_header(snapshot, GAME, SCHEMA)
    try:
        players = int(snapshot["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SnapshotError(f"bad player count {players}")
        state = State(players, GameRandom.from_state(snapshot["rng"]))
        state._hands = [[_BY_CODE[c] for c in h] for h in snapshot["hands"]]
        state._deck = [_BY_CODE[c] for c in snapshot["deck"]]
        state._open = _BY_CODE[snapshot["open"]]
        state._target = int(snapshot["target"])
        state._offense = int(snapshot["offense"])
        state._direction = int(snapshot["direction"])
        state._current = int(snapshot["current"])
        state._phase = int(snapshot["phase"])
        state._bankrupt = [bool(b) for b in snapshot["bankrupt"]]
        state._forfeited = [bool(b) for b in snapshot["forfeited"]]
        state._out_order = [int(s) for s in snapshot["out_order"]]
        # Snapshots saved before scores of seats that went out were kept have none: 0 each.
        state._out_cards = [int(n) for n in snapshot.get("out_cards", [0] * players)]
        state._playing = [s not in state._out_order for s in range(players)]
        state._log = [(int(a), int(b), int(c)) for a, b, c in snapshot["log"]]
        state._unfit = [  # absent from snapshots taken before it was kept
            None if known is None else (int(known[0]), int(known[1]))
            for known in snapshot.get("unfit", [])
        ]
        state._result = result_from_data(snapshot["result"])
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise SnapshotError(f"damaged onecard snapshot: {error!r}") from error
    cards = sorted([*state._deck, state._open, *(i for h in state._hands for i in h)])
    if (
        cards != list(range(54))
        or len(state._hands) != players
        or len(state._out_cards) != players
        or not 0 <= state._target < len(_TARGET_SUITS)
        or state._direction not in (1, -1)
        or not 0 <= state._current < players
    ):
        raise SnapshotError("damaged onecard snapshot: the cards or the turn do not add up")
    if state._unfit and (
        len(state._unfit) != players
        or not all(
            known is None or (0 <= known[0] < 1 << 54 and 0 < known[1] <= len(hand))
            for known, hand in zip(state._unfit, state._hands, strict=True)
        )
    ):
        raise SnapshotError("damaged onecard snapshot: what the table saw does not fit the hands")
    return state
