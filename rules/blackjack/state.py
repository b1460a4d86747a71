"""The Blackjack engine (docs/rules/blackjack.md): one table, one shoe, the House plays itself.

Cards are kept as their stable indices (``rules.cards.Card.index``, 0..51) in plain lists;
four of each make the 208-card shoe (rule 1), drawn from the end of its list (rule 11).

Two random sources, chosen when the game is made:

* ``seed=N`` (the seed program, rule 11): the Microsoft C ``rand()`` seeded with ``N``
  shuffles the seed's ordered shoe with its 1000 swaps, and the computer players' coin
  tosses come from the same stream, in the order they happen.
* no seed (rule 12): a :class:`rules.rng.GameRandom` seeded from the operating system.
  The Fisher–Yates shuffle is done lazily, one step per card drawn: drawing the card at a
  uniform position among those left and moving the last card into its place is exactly the
  Fisher–Yates step for the end position, so the cards come out in a uniformly random order
  while a game touches only the ~15 cards it uses instead of shuffling all 208.

Seats the engine is told a computer holds (``options={"computers": [...]}`` or
:meth:`State.hand_to_computer`) are played automatically, as is the House, so the seat to
act (:attr:`State.current_seat`) is always a human's, and ``apply`` returns what every
automatic step did as events.

Two rulesets (option ``ruleset``). ``seed``, the default, is rules 1-15 of
docs/rules/blackjack.md: Hit or Stand, nothing staked, each seat wins, loses or draws.
``casino`` keeps that shoe, deal, card values and turn order (rules 1-3, 5, 6) and adds what
the seed does not cover, as casinos commonly play it (our choices, written down as rules
16-22):

* Every hand stakes one bet. A player's first two cards making 21 are a Blackjack, paid 3 to
  2 (1.5 bets) and not played (the seat has no turn); it beats any other 21 of the House.
* **Double**: on a hand's first two cards (after a split too), the bet doubles, the hand
  takes exactly one more card and is done, whatever it makes.
* **Split**: two first cards of the same rank (a King and a Queen are not a pair) become two
  hands of one bet each, played in turn; each is given its second card at once (a fair shoe
  makes the order of dealing them irrelevant). Split Aces take that one card each and
  stand. A split hand making 21 with two cards counts 21, not a Blackjack. One split per
  seat (no resplitting): the seed's rules have no split at all, so nothing supports more,
  and one split keeps every seat at two hands at most, which a phone's table can show.
* The House checks for Blackjack as in rule 4 ("peeks"): with one the game ends at once,
  a player's Blackjack draws and every other hand loses its one bet (nothing was doubled or
  split yet). Otherwise the House stands on soft 17 (:data:`CASINO_SOFT17`), or hits it with
  the option ``soft17="hit"``; a seed table always stands on 17 (rule 8).
* A hand's result is paid in bets (:attr:`PlayedHand.payout`); a seat wins when its hands
  together won bets, loses when they lost bets, and draws when they came out even.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.blackjack.ai import DOUBLE, HIT, SPLIT, STAND, casino_move, decide, decide_at
from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    Double,
    Doubled,
    HandedToComputer,
    Hit,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
    PairSplit,
    PlayerBlackjack,
    Split,
    Stand,
    Stood,
    TurnStarted,
)
from rules.cards import STANDARD_DECK, Card, Suit
from rules.engine import Event, GameOver, IllegalAction, Outcome, Result, SnapshotError
from rules.engine import check_snapshot as _check_header
from rules.levels import Level
from rules.rng import GameRandom, MsvcRand

__all__ = [
    "BLACKJACK",
    "CASINO",
    "CASINO_SOFT17",
    "DECKS",
    "GAME",
    "HOUSE_STANDS_ON",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULESETS",
    "SCHEMA",
    "SEED_PROGRAM_RULES",
    "SEED_PROGRAM_SWAPS",
    "SHOE_SIZE",
    "SOFT17",
    "BlackjackView",
    "PlayedHand",
    "State",
    "hand_total",
    "judge",
    "new",
    "replay",
    "restore",
    "seed_program_shoe",
    "settle",
]

GAME: Final = "blackjack"
SCHEMA: Final = 1
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 7
DECKS: Final = 4  # rule 1
SHOE_SIZE: Final = 52 * DECKS
BLACKJACK: Final = 21
HOUSE_STANDS_ON: Final = 17  # rule 8
SEED_PROGRAM_SWAPS: Final = 1000  # rule 11
SEED_PROGRAM_RULES: Final = "seed"  # the seed program's rules (rules 1-15), "classic" in Discord
CASINO: Final = "casino"  # with double, split and Blackjack paid 3 to 2 (module docstring)
RULESETS: Final = (SEED_PROGRAM_RULES, CASINO)
SOFT17: Final = ("stand", "hit")  # the ``soft17`` option: the House on a soft 17
CASINO_SOFT17: Final = "stand"  # as configured unless a table says ``soft17="hit"``
_BLACKJACK_HALVES: Final = 3  # a Blackjack pays 3 to 2: 3 half bets

# Card value by index (rule 5): J, Q, K count 10 and an Ace 1 here; the hand total adds 10
# for one Ace when that does not go over 21 (two Aces at 11 would be 22 anyway).
_VALUE: Final = tuple(min(i % 13 + 1, 10) for i in range(52))
_SEED_PROGRAM_SUITS: Final = (Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES)  # rule 11

_RANK_ORDER: Final = {Outcome.WIN: 0, Outcome.DRAW: 1, Outcome.LOSE: 2}
_STAND_CODE: Final = 0
_HIT_CODE: Final = 1
_COMPUTER_CODE: Final = 2  # a log entry: the seat was handed to a computer
_DOUBLE_CODE: Final = 3  # casino only
_SPLIT_CODE: Final = 4  # casino only
_CODES: Final = {Stand: _STAND_CODE, Hit: _HIT_CODE, Double: _DOUBLE_CODE, Split: _SPLIT_CODE}
_MOVES: Final[dict[int, Hit | Stand | Double | Split]] = {
    _STAND_CODE: STAND,
    _HIT_CODE: HIT,
    _DOUBLE_CODE: DOUBLE,
    _SPLIT_CODE: SPLIT,
}
_CASINO_KEYS: Final = ("ruleset", "soft17", "split", "doubled", "hand")  # in casino snapshots


_SEED_PROGRAM_SHOE: Final = tuple(
    [Card.of(suit, rank).index for rank in range(1, 14) for suit in _SEED_PROGRAM_SUITS] * DECKS
)


def seed_program_shoe() -> list[int]:
    """The seed program's ordered shoe: per deck A..K, each rank as c, h, d, s (rule 11)."""
    return list(_SEED_PROGRAM_SHOE)


def hand_total(cards: Iterable[int]) -> int:
    """The best total of card indices: ≤ 21 if any choice of Ace values is (rule 5)."""
    total = 0
    ace = False
    for i in cards:
        value = _VALUE[i]
        total += value
        if value == 1:
            ace = True
    if ace and total <= BLACKJACK - 10:
        return total + 10
    return total


def judge(hands: Sequence[Sequence[int]], house: Sequence[int]) -> Result:
    """Each player against the House (rules 4, 9, 10); scores are the hands' totals.

    The ranking puts winners first, then draws, then losers, higher unbusted totals first.
    """
    house_total = hand_total(house)
    house_blackjack = len(house) == 2 and house_total == BLACKJACK
    outcomes: list[Outcome] = []
    scores: list[int] = []
    for hand in hands:
        total = hand_total(hand)
        scores.append(total)
        if house_blackjack or total > BLACKJACK:
            outcomes.append(Outcome.LOSE)
        elif house_total > BLACKJACK or total > house_total:
            outcomes.append(Outcome.WIN)
        elif total == house_total:
            outcomes.append(Outcome.DRAW)
        else:
            outcomes.append(Outcome.LOSE)
    ranking = sorted(
        range(len(hands)),
        key=lambda s: (_RANK_ORDER[outcomes[s]], -scores[s] if scores[s] <= BLACKJACK else 0),
    )
    return Result(tuple(outcomes), tuple(scores), tuple(ranking))


def _natural(hands: Sequence[Sequence[int]]) -> bool:
    """Whether a seat's hands are one Blackjack: two first cards making 21, never split."""
    return len(hands) == 1 and len(hands[0]) == 2 and hand_total(hands[0]) == BLACKJACK


def _soft(cards: Sequence[int], total: int) -> bool:
    """Whether ``total`` counts an Ace as 11."""
    return total != sum(_VALUE[i] for i in cards)


def settle(
    hands: Sequence[Sequence[Sequence[int]]],
    house: Sequence[int],
    doubled: Collection[tuple[int, int]] = (),
) -> tuple[Result, tuple[tuple[int, ...], ...]]:
    """Casino results: ``hands[seat]`` are a seat's hands (two after a split), ``doubled``
    the ``(seat, hand)`` pairs that doubled. Returns the result and what each hand won, in
    half bets (a bet is 2, a Blackjack's 3 to 2 is 3, a doubled loss -4).

    A seat wins when its hands together won, loses when they lost, draws when even; its score
    is its best total (the highest not over 21), and the ranking puts more bets won first.
    """
    house_total = hand_total(house)
    house_blackjack = len(house) == 2 and house_total == BLACKJACK
    payouts: list[tuple[int, ...]] = []
    scores: list[int] = []
    for seat, seat_hands in enumerate(hands):
        natural = _natural(seat_hands)
        paid: list[int] = []
        for part, hand in enumerate(seat_hands):
            stake = 4 if (seat, part) in doubled else 2
            total = hand_total(hand)
            if house_blackjack:
                paid.append(0 if natural else -2)  # nothing was doubled before the peek
            elif natural:
                paid.append(_BLACKJACK_HALVES)
            elif total > BLACKJACK:
                paid.append(-stake)
            elif house_total > BLACKJACK or total > house_total:
                paid.append(stake)
            else:
                paid.append(0 if total == house_total else -stake)
        payouts.append(tuple(paid))
        totals = [hand_total(hand) for hand in seat_hands]
        scores.append(max((t for t in totals if t <= BLACKJACK), default=totals[0]))
    nets = [sum(paid) for paid in payouts]
    outcomes = tuple(
        Outcome.WIN if net > 0 else Outcome.LOSE if net < 0 else Outcome.DRAW for net in nets
    )
    ranking = sorted(
        range(len(hands)),
        key=lambda s: (-nets[s], -scores[s] if scores[s] <= BLACKJACK else 0),
    )
    return Result(outcomes, tuple(scores), tuple(ranking)), tuple(payouts)


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand of a seat as everyone sees it (a seat has two after a split).

    ``payout`` is what the hand won in bets once the game is over (``-2.0`` a doubled loss,
    ``1.5`` a Blackjack); ``None`` before, and at a seed table, where nothing is staked.
    """

    cards: tuple[Card, ...]
    total: int
    doubled: bool = False
    blackjack: bool = False
    done: bool = False
    payout: float | None = None

    @property
    def busted(self) -> bool:
        """Whether the hand went over 21."""
        return self.total > BLACKJACK


@dataclass(frozen=True, slots=True)
class BlackjackView:
    """What a seat (or, with ``seat=None``, a spectator) sees: everything but the hole card.

    Every player's hand is public (rule 15). ``house`` holds the House's cards that are face
    up; while ``house_hidden`` its first card is face down and left out (rule 3), and
    ``house_total`` counts only the face-up cards. ``finished[i]`` is true once seat ``i``
    stood or went bust.

    ``hands``/``totals`` hold each seat's first hand. ``seat_hands`` holds all of them, as
    :class:`PlayedHand` (a casino seat that split has two); ``playing`` is which of the seat
    to act's hands is in play, and ``may_double``/``may_split`` whether it may double or
    split now. ``payouts`` is each seat's bets won, once a casino game is over.
    """

    seat: int | None
    players: int
    current: int | None
    hands: tuple[tuple[Card, ...], ...]
    totals: tuple[int, ...]
    finished: tuple[bool, ...]
    computers: tuple[bool, ...]
    house: tuple[Card, ...]
    house_hidden: bool
    house_total: int
    shoe: int
    result: Result | None
    ruleset: str = SEED_PROGRAM_RULES
    house_hits_soft17: bool = False
    seat_hands: tuple[tuple[PlayedHand, ...], ...] = ()
    playing: int = 0
    may_double: bool = False
    may_split: bool = False
    payouts: tuple[float, ...] | None = None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    @property
    def casino(self) -> bool:
        """Whether the table plays the casino rules (double, split, 3 to 2)."""
        return self.ruleset == CASINO

    def busted(self, seat: int) -> bool:
        """Whether ``seat`` went over 21."""
        return self.totals[seat] > BLACKJACK

    @property
    def house_busted(self) -> bool:
        """Whether the House went over 21 (only ever true once its cards are shown)."""
        return not self.house_hidden and self.house_total > BLACKJACK


class State:
    """A game of Blackjack. Create with :func:`new` or :func:`restore`."""

    __slots__ = (
        "_coin",
        "_computers",
        "_current",
        "_dealt_computers",
        "_doubled",
        "_draw",
        "_hands",
        "_hits_soft17",
        "_house",
        "_level",
        "_log",
        "_msvc",
        "_opening",
        "_part",
        "_payouts",
        "_result",
        "_revealed",
        "_rng",
        "_ruleset",
        "_second",
        "_shoe",
        "players",
        "seed",
    )

    def __init__(
        self, players: int, seed: int, msvc: MsvcRand | None, rng: GameRandom | None
    ) -> None:
        self.players = players
        self.seed = seed
        self._msvc = msvc
        self._rng = rng
        self._shoe: list[int] = []
        self._hands: list[list[int]] = [[] for _ in range(players)]  # each seat's first hand
        self._house: list[int] = []
        self._current = 0  # == players once every player is done
        self._computers = [False] * players
        self._level = Level.NORMAL  # how the computer seats play (option ``computer_level``)
        self._dealt_computers: tuple[int, ...] = ()  # computer seats when the cards were dealt
        self._revealed = False
        self._result: Result | None = None
        self._log: list[tuple[int, int]] = []  # (seat, code): the inputs, never the automatic steps
        self._opening: tuple[Event, ...] = ()
        # Casino only (option ``ruleset``): a split seat's second hand, the (seat, hand) pairs
        # that doubled, which hand of the seat to act is in play, and each hand's half bets.
        self._ruleset = SEED_PROGRAM_RULES
        self._hits_soft17 = False
        self._second: dict[int, list[int]] = {}
        self._doubled: set[tuple[int, int]] = set()
        self._part = 0
        self._payouts: tuple[tuple[int, ...], ...] = ()
        self._draw: Callable[[], int]
        self._coin: Callable[[], int]
        if msvc is not None:
            rand = msvc.rand
            self._draw = self._shoe.pop
            self._coin = lambda: rand() % 2  # the seed's ``int is_hit = rand() % 2``
        else:
            assert rng is not None
            shoe = self._shoe
            randbelow = rng.randbelow

            def fair_draw() -> int:
                j = randbelow(len(shoe))
                card = shoe[j]
                shoe[j] = shoe[-1]
                shoe.pop()
                return card

            self._draw = fair_draw
            self._coin = lambda: randbelow(2)

    # ----------------------------------------------------------------- properties

    @property
    def current_seat(self) -> int | None:
        """The seat to act (always a human's), ``None`` once the game is over."""
        return None if self._result is not None else self._current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """Each seat's outcome against the House and its total, once over."""
        return self._result

    @property
    def faithful(self) -> bool:
        """Whether this game replays the seed program (``seed=`` given, rule 11)."""
        return self._msvc is not None

    @property
    def ruleset(self) -> str:
        """``seed`` (rules 1-15) or ``casino`` (double, split, 3 to 2)."""
        return self._ruleset

    @property
    def opening_events(self) -> tuple[Event, ...]:
        """What :func:`new` did before the first decision: the deal, then any automatic play.

        A restored game has none (its table is drawn from the view).
        """
        return self._opening

    def is_computer(self, seat: int) -> bool:
        """Whether a computer plays ``seat``."""
        return self._computers[seat]

    # These show the hole card and the shoe, which no player may see: for tests only (the
    # console and the bot draw from views and events).
    def house_cards(self) -> tuple[Card, ...]:
        """The House's cards, face-down one included. Hidden information."""
        return tuple(STANDARD_DECK[i] for i in self._house)

    def shoe_cards(self) -> tuple[Card, ...]:
        """The undrawn cards in the shoe's current order. Hidden information."""
        return tuple(STANDARD_DECK[i] for i in self._shoe)

    # ----------------------------------------------------------------- moves

    def legal_actions(self, seat: int) -> tuple[Hit | Stand | Double | Split, ...]:
        """Hit or Stand for the seat to act, and at a casino table Double and Split when the
        hand in play allows them; nothing for anyone else."""
        if self._result is not None or seat != self._current:
            return ()
        if self._ruleset != CASINO:
            return (HIT, STAND)
        extra = (DOUBLE,) if self._may_double() else ()
        return (HIT, STAND, *extra, *((SPLIT,) if self._may_split() else ()))

    def apply(self, seat: int, action: Hit | Stand | Double | Split) -> list[Event]:
        """Verify and apply ``seat``'s move, then every automatic step after it."""
        self._verify(seat, action)
        code = _CODES[type(action)]
        self._log.append((seat, code))
        events: list[Event] = []
        self._act(seat, code, events)
        self._play_on(events)
        return events

    def hand_to_computer(self, seat: int) -> list[Event]:
        """A computer plays ``seat`` from now on; if it is that seat's turn it plays at once.

        Handing over a seat a computer already holds, or after the game, changes nothing.
        """
        if not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat + 1}.", code="no_such_seat", seat=seat)
        if self._computers[seat] or self._result is not None:
            return []
        self._computers[seat] = True
        self._log.append((seat, _COMPUTER_CODE))
        events: list[Event] = [HandedToComputer(seat)]
        self._play_on(events)
        return events

    def deal_again(self) -> State:
        """The next game at this table (rule 14): same seats, computers and rules, a fresh
        fair shoe."""
        computers = [s for s in range(self.players) if self._computers[s]]
        return _start(
            self.players,
            None,
            faithful=False,
            computers=computers,
            level=self._level,
            ruleset=self._ruleset,
            hits_soft17=self._hits_soft17,
        )

    def view(self, seat: int | None = None) -> BlackjackView:
        """What ``seat`` sees (``None``: a spectator); only the hole card is kept back."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat + 1}.", code="no_such_seat", seat=seat)
        shown = self._house if self._revealed else self._house[1:]
        playing = self._result is None and self._current < self.players
        return BlackjackView(
            seat=seat,
            players=self.players,
            current=self.current_seat,
            hands=tuple(tuple(STANDARD_DECK[i] for i in hand) for hand in self._hands),
            totals=tuple(hand_total(hand) for hand in self._hands),
            finished=tuple(s < self._current for s in range(self.players)),
            computers=tuple(self._computers),
            house=tuple(STANDARD_DECK[i] for i in shown),
            house_hidden=not self._revealed,
            house_total=hand_total(shown),
            shoe=len(self._shoe),
            result=self._result,
            ruleset=self._ruleset,
            house_hits_soft17=self._hits_soft17,
            seat_hands=tuple(self._played(s) for s in range(self.players)),
            playing=self._part,
            may_double=playing and self._may_double(),
            may_split=playing and self._may_split(),
            payouts=tuple(sum(p) / 2 for p in self._payouts) if self._payouts else None,
        )

    # ----------------------------------------------------------------- internals

    def _seat_hands(self, seat: int) -> list[list[int]]:
        """A seat's hands: its first, and its second after a split."""
        second = self._second.get(seat)
        return [self._hands[seat]] if second is None else [self._hands[seat], second]

    def _played(self, seat: int) -> tuple[PlayedHand, ...]:
        hands = self._seat_hands(seat)
        casino = self._ruleset == CASINO
        natural = casino and _natural(hands)
        payouts = self._payouts[seat] if self._payouts else None
        return tuple(
            PlayedHand(
                cards=tuple(STANDARD_DECK[i] for i in hand),
                total=hand_total(hand),
                doubled=(seat, part) in self._doubled,
                blackjack=natural,
                done=seat < self._current or (seat == self._current and part < self._part),
                payout=None if payouts is None else payouts[part] / 2,
            )
            for part, hand in enumerate(hands)
        )

    def _in_play(self) -> list[int]:
        """The hand in play of the seat to act."""
        return self._second[self._current] if self._part else self._hands[self._current]

    def _may_double(self) -> bool:
        """Casino: the hand in play has its first two cards (split Aces never get here)."""
        return self._ruleset == CASINO and len(self._in_play()) == 2

    def _may_split(self) -> bool:
        """Casino: the seat to act has not split and holds two cards of one rank."""
        if self._ruleset != CASINO or self._current in self._second:
            return False
        hand = self._hands[self._current]
        return len(hand) == 2 and hand[0] % 13 == hand[1] % 13

    def _verify(self, seat: int, action: object) -> None:
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        kind = type(action)
        if kind not in _CODES:
            raise IllegalAction("In Blackjack you can only Hit or Stand.", code="unknown_action")
        if seat != self._current:
            raise IllegalAction(
                f"It is not your turn: Player{self._current + 1} is playing.",
                code="not_your_turn",
                current=self._current,
            )
        if kind is Double or kind is Split:
            if self._ruleset != CASINO:
                raise IllegalAction(
                    "Double and Split are casino rules: this table plays the seed's rules, "
                    "Hit or Stand.",
                    code="casino_only",
                )
            if kind is Double and not self._may_double():
                raise IllegalAction(
                    "You can double only on a hand's first two cards.", code="double_two_cards"
                )
            if kind is Split and seat in self._second:
                raise IllegalAction("You have split once already.", code="split_once")
            if kind is Split and not self._may_split():
                raise IllegalAction(
                    "You can split only your first two cards, and only two of one rank.",
                    code="split_pair",
                )

    def _act(self, seat: int, code: int, events: list[Event]) -> None:
        """Play ``code`` on the hand in play of ``seat`` (the seat to act); pass the turn on
        once the seat's last hand is done."""
        split = seat in self._second
        part = self._part
        hand = self._second[seat] if part else self._hands[seat]
        label = part if split else None
        if code == _HIT_CODE:
            card = self._draw()
            hand.append(card)
            total = hand_total(hand)
            events.append(CardDrawn(seat, STANDARD_DECK[card], total, label))
            if total <= BLACKJACK:
                return  # still this hand's turn
        elif code == _STAND_CODE:
            events.append(Stood(seat, hand_total(hand), label))
        elif code == _DOUBLE_CODE:
            self._doubled.add((seat, part))
            card = self._draw()
            hand.append(card)
            events.append(Doubled(seat, STANDARD_DECK[card], hand_total(hand), label))
        else:
            second = [hand.pop()]
            self._second[seat] = second
            hand.append(self._draw())
            second.append(self._draw())
            aces = _VALUE[hand[0]] == 1
            events.append(
                PairSplit(
                    seat,
                    tuple(STANDARD_DECK[i] for i in hand),
                    tuple(STANDARD_DECK[i] for i in second),
                    (hand_total(hand), hand_total(second)),
                    aces,
                )
            )
            if not aces:
                return  # the first hand is played now
            split, part = False, 1  # split Aces stand: both hands are done
        if split and part == 0:
            self._part = 1  # on to the second hand
            return
        self._part = 0
        self._turn_to(seat + 1, events)

    def _turn_to(self, seat: int, events: list[Event]) -> None:
        """Make ``seat`` the seat to act; at a casino table a Blackjack has no turn."""
        self._current = seat
        if self._ruleset == CASINO:
            while self._current < self.players and _natural([self._hands[self._current]]):
                events.append(PlayerBlackjack(self._current))
                self._current += 1
        if self._current < self.players:
            events.append(TurnStarted(self._current))

    def _play_on(self, events: list[Event]) -> None:
        """Play the computer seats whose turn it is, then the House once everyone is done."""
        players = self.players
        while self._current < players and self._computers[self._current]:
            seat = self._current
            if self._ruleset == CASINO:
                code = self._casino_move()
            else:
                hand = self._hands[seat]
                total = hand_total(hand)
                if self._level is Level.NORMAL:  # the seed's rule, draw for draw
                    action = decide(total, self._coin)
                else:
                    up = _VALUE[self._house[1]]
                    action = decide_at(self._level, total, _soft(hand, total), up, self._coin)
                code = _HIT_CODE if action is HIT else _STAND_CODE
            self._act(seat, code, events)
        if self._current == players and self._result is None:
            self._house_turn(events)

    def _casino_move(self) -> int:
        """The computer's move for the hand in play (:func:`rules.blackjack.ai.casino_move`)."""
        hand = self._in_play()
        total = hand_total(hand)
        action = casino_move(
            self._level,
            total,
            _soft(hand, total),
            _VALUE[self._house[1]],
            self._coin,
            pair=_VALUE[hand[0]] if self._may_split() else None,
            may_double=self._may_double(),
            hits_soft17=self._hits_soft17,
        )
        return _CODES[type(action)]

    def _house_stands(self, total: int) -> bool:
        """Rule 8, and at a casino table hitting soft 17 with ``soft17="hit"``."""
        if total != HOUSE_STANDS_ON or not self._hits_soft17:
            return total >= HOUSE_STANDS_ON
        return not _soft(self._house, total)

    def _house_turn(self, events: list[Event]) -> None:
        house = self._house
        self._revealed = True
        total = hand_total(house)
        events.append(HouseTurn(STANDARD_DECK[house[0]], total))
        while not self._house_stands(total):
            card = self._draw()
            house.append(card)
            total = hand_total(house)
            events.append(HouseDrew(STANDARD_DECK[card], total))
        events.append(HouseBusted(total) if total > BLACKJACK else HouseStood(total))
        self._finish(events)

    def _judge(self) -> None:
        if self._ruleset != CASINO:
            self._result = judge(self._hands, self._house)
            return
        hands = [self._seat_hands(s) for s in range(self.players)]
        self._result, self._payouts = settle(hands, self._house, self._doubled)

    def _finish(self, events: list[Event]) -> None:
        self._judge()
        assert self._result is not None
        events.append(GameOver(self._result))

    def _deal(self) -> list[Event]:
        draw = self._draw
        for _ in range(2):  # rule 2: one card each in seat order, the House last, twice
            for hand in self._hands:
                hand.append(draw())
            self._house.append(draw())
        events: list[Event] = [
            Dealt(
                tuple(tuple(STANDARD_DECK[i] for i in hand) for hand in self._hands),
                STANDARD_DECK[self._house[1]],
            )
        ]
        if hand_total(self._house) == BLACKJACK:  # rule 4
            self._revealed = True
            self._current = self.players
            events.append(HouseBlackjack(STANDARD_DECK[self._house[0]]))
            self._finish(events)
        else:
            self._turn_to(0, events)
            self._play_on(events)
        return events

    # ----------------------------------------------------------------- snapshots

    def snapshot(self) -> dict[str, Any]:
        """A JSON-safe copy: random state, shoe, hands, whose turn, computers and the log.

        ``log`` lists the inputs as ``[seat, code]`` (0 Stand, 1 Hit, 2 handed to a
        computer, 3 Double, 4 Split); the computer seats' and the House's moves follow from
        the seed, so ``seed`` + ``dealt_computers`` + ``log`` replay the game
        (:func:`replay`). A casino game adds ``ruleset``, ``soft17``, ``split`` (``[seat,
        second hand]``), ``doubled`` (``[seat, hand]``) and ``hand`` (the hand in play); a
        seed game's snapshot is as it always was.
        """
        data: dict[str, Any] = {
            "game": GAME,
            "schema": SCHEMA,
            "players": self.players,
            "seed": self.seed,
            "shuffle": "seed" if self._msvc is not None else "fair",
            "rng": self._msvc.state if self._msvc is not None else self._rng_state(),
            "shoe": list(self._shoe),
            "hands": [list(hand) for hand in self._hands],
            "house": list(self._house),
            "current": self._current,
            "revealed": self._revealed,
            "computers": [s for s in range(self.players) if self._computers[s]],
            "dealt_computers": list(self._dealt_computers),
            "computer_level": self._level.value,
            "log": [list(entry) for entry in self._log],
        }
        if self._ruleset == CASINO:
            data["ruleset"] = CASINO
            data["soft17"] = SOFT17[self._hits_soft17]
            data["split"] = [[seat, list(hand)] for seat, hand in sorted(self._second.items())]
            data["doubled"] = [list(pair) for pair in sorted(self._doubled)]
            data["hand"] = self._part
        return data

    def _rng_state(self) -> dict[str, Any]:
        assert self._rng is not None
        return self._rng.getstate()


@dataclass(frozen=True, slots=True)
class _Options:
    """What the options set: the computer seats, how they play, and the rules."""

    computers: list[int]
    level: Level = Level.NORMAL
    ruleset: str = SEED_PROGRAM_RULES
    hits_soft17: bool = False


def _options(options: Mapping[str, Any] | None, players: int) -> _Options:
    computers: list[int] = []
    level = Level.NORMAL
    ruleset = SEED_PROGRAM_RULES
    soft17 = None
    for key, value in (options or {}).items():
        if key == "computer_level":
            level = _level(value)
            continue
        if key == "ruleset":
            if value not in RULESETS:
                raise IllegalAction(
                    "The rules must be seed or casino.", code="unknown_ruleset", ruleset=str(value)
                )
            ruleset = value
            continue
        if key == "soft17":
            if value not in SOFT17:
                raise IllegalAction(
                    "On a soft 17 the House must stand or hit.", code="unknown_soft17"
                )
            soft17 = value
            continue
        if key != "computers":
            raise IllegalAction(f"Unknown Blackjack option {key!r}.", code="unknown_option")
        for seat in value:
            if type(seat) is not int or not 0 <= seat < players:
                raise IllegalAction(
                    f"A computer seat must be from 1 to {players}.", code="no_such_seat"
                )
            computers.append(seat)
    if soft17 == "hit" and ruleset != CASINO:
        raise IllegalAction(
            "At a seed table the House stands on every 17 (rule 8): hitting a soft 17 is a "
            "casino option.",
            code="soft17_seed",
        )
    return _Options(computers, level, ruleset, (soft17 or CASINO_SOFT17) == "hit")


def _level(value: object) -> Level:
    """The ``computer_level`` option: ``easy``, ``normal`` or ``hard``."""
    try:
        return Level(value)
    except ValueError:
        raise IllegalAction(
            "The computer level must be easy, normal or hard.",
            code="unknown_level",
            level=str(value),
        ) from None


def new(
    players: int,
    *,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    fair: bool | None = None,
) -> State:
    """Deal a game for ``players`` (1–7) seats and the House.

    With ``seed`` the game is the seed program's (rule 11); without, a fair one (rule 12).
    ``fair=True`` with a seed deals the fair game from that seed (the bot's own committed
    seed, which must deal a fair shuffle, not the seed program's).
    ``options={"computers": [seat, ...]}`` names the seats a computer plays from the start;
    ``"computer_level"`` (``easy``, ``normal`` – the seed's rule, the default – or ``hard``)
    is how they play (see :mod:`rules.blackjack.ai`). ``"ruleset"``: ``seed`` (the default)
    or ``casino`` (see the module's docstring); ``"soft17"``: ``stand`` (the default,
    :data:`CASINO_SOFT17`) or, at a casino table, ``hit``.
    """
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            f"Blackjack is for {MIN_PLAYERS} to {MAX_PLAYERS} players.",
            code="players",
            players=players,
        )
    faithful = seed is not None if fair is None else not fair
    table = _options(options, players)
    return _start(
        players,
        seed,
        faithful=faithful,
        computers=table.computers,
        level=table.level,
        ruleset=table.ruleset,
        hits_soft17=table.hits_soft17,
    )


def _start(
    players: int,
    seed: int | None,
    *,
    faithful: bool,
    computers: Sequence[int],
    level: Level = Level.NORMAL,
    ruleset: str = SEED_PROGRAM_RULES,
    hits_soft17: bool = False,
) -> State:
    if not faithful:
        rng = GameRandom(seed)
        state = State(players, rng.seed, None, rng)
        state._shoe.extend(_SEED_PROGRAM_SHOE)
    else:
        assert seed is not None
        msvc = MsvcRand(seed)
        state = State(players, seed, msvc, None)
        shoe = state._shoe
        shoe.extend(_SEED_PROGRAM_SHOE)
        # ``swap(rand() % size, rand() % size)`` 1000 times; a swap is symmetric, so the
        # order the compiler evaluated the two arguments in cannot matter. MsvcRand's step
        # is inlined on a local int: 2000 method calls would be most of a game's time.
        size = len(shoe)
        mul, inc, rand_max = MsvcRand.MULTIPLIER, MsvcRand.INCREMENT, MsvcRand.RAND_MAX
        x = msvc.state
        for _ in range(SEED_PROGRAM_SWAPS):
            x = (x * mul + inc) & 0xFFFFFFFF
            i = ((x >> 16) & rand_max) % size
            x = (x * mul + inc) & 0xFFFFFFFF
            j = ((x >> 16) & rand_max) % size
            shoe[i], shoe[j] = shoe[j], shoe[i]
        msvc.state = x
    state._level = level
    state._ruleset = ruleset
    state._hits_soft17 = hits_soft17
    for seat in computers:
        state._computers[seat] = True
    state._dealt_computers = tuple(sorted(set(computers)))
    state._opening = tuple(state._deal())
    return state


def _rules_of(snapshot: Mapping[str, Any]) -> tuple[str, bool]:
    """A snapshot's ruleset and whether its House hits soft 17; one saved before casino
    tables existed (no ``ruleset``) plays the seed's rules."""
    ruleset = snapshot.get("ruleset", SEED_PROGRAM_RULES)
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    if ruleset == SEED_PROGRAM_RULES:
        if any(key in snapshot for key in _CASINO_KEYS[1:]):
            raise ValueError("a seed game with casino hands")
        return ruleset, False
    soft17 = snapshot["soft17"]
    if soft17 not in SOFT17:
        raise ValueError(f"unknown soft17 {soft17!r}")
    return ruleset, soft17 == "hit"


def restore(snapshot: Mapping[str, Any]) -> State:
    """Continue a game from :meth:`State.snapshot`; damaged data raises ``SnapshotError``."""
    _check_header(snapshot, GAME, SCHEMA)
    try:
        players = int(snapshot["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"bad player count {players}")
        seed = int(snapshot["seed"])
        if snapshot["shuffle"] == "seed":
            msvc = MsvcRand(0)
            msvc.state = int(snapshot["rng"]) & 0xFFFFFFFF
            state = State(players, seed, msvc, None)
        elif snapshot["shuffle"] == "fair":
            state = State(players, seed, None, GameRandom.from_state(dict(snapshot["rng"])))
        else:
            raise ValueError(f"unknown shuffle {snapshot['shuffle']!r}")
        state._ruleset, state._hits_soft17 = _rules_of(snapshot)
        state._shoe.extend(_indices(snapshot["shoe"]))
        hands = snapshot["hands"]
        if len(hands) != players:
            raise ValueError("one hand per player expected")
        for hand, cards in zip(state._hands, hands, strict=True):
            hand.extend(_indices(cards))
        state._house.extend(_indices(snapshot["house"]))
        state._current = int(snapshot["current"])
        state._revealed = bool(snapshot["revealed"])
        for seat in _seats(snapshot["computers"], players):
            state._computers[seat] = True
        casino = state._ruleset == CASINO
        state._log = [(seat, int(code)) for seat, code in _log(snapshot["log"], players, casino)]
        state._dealt_computers = tuple(_seats(snapshot["dealt_computers"], players))
        state._level = Level(snapshot.get("computer_level", Level.NORMAL.value))
        if casino:
            for seat_value, cards in snapshot["split"]:
                [seat] = _seats([seat_value], players)
                if seat in state._second:
                    raise ValueError(f"Player{seat + 1} split twice")
                state._second[seat] = _indices(cards)
            for seat_value, part in snapshot["doubled"]:
                [seat] = _seats([seat_value], players)
                if part not in (0, 1):
                    raise ValueError(f"there is no hand {part}")
                state._doubled.add((seat, int(part)))
            state._part = int(snapshot["hand"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"damaged blackjack snapshot: {exc}") from exc
    _check_consistent(state)
    if state._current == players:
        state._judge()
    return state


def replay(snapshot: Mapping[str, Any]) -> State:
    """Deal a snapshot's game again from its seed and play its log: the same game, rebuilt.

    This checks a saved game against its own record (the seed and the inputs decide
    everything else); a log the rules refuse raises ``SnapshotError``.
    """
    _check_header(snapshot, GAME, SCHEMA)
    try:
        players = int(snapshot["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"bad player count {players}")
        if snapshot["shuffle"] not in ("seed", "fair"):
            raise ValueError(f"unknown shuffle {snapshot['shuffle']!r}")
        computers = _seats(snapshot["dealt_computers"], players)
        ruleset, hits_soft17 = _rules_of(snapshot)
        state = _start(
            players,
            int(snapshot["seed"]),
            faithful=snapshot["shuffle"] == "seed",
            computers=computers,
            level=Level(snapshot.get("computer_level", Level.NORMAL.value)),
            ruleset=ruleset,
            hits_soft17=hits_soft17,
        )
        for seat, code in _log(snapshot["log"], players, ruleset == CASINO):
            if code == _COMPUTER_CODE:
                state.hand_to_computer(seat)
            else:
                state.apply(seat, _MOVES[code])
    except (KeyError, TypeError, ValueError, IllegalAction) as exc:
        raise SnapshotError(f"blackjack snapshot does not replay: {exc}") from exc
    return state


def _indices(values: Iterable[Any]) -> list[int]:
    out = [int(v) for v in values]
    if any(not 0 <= v < 52 for v in out):
        raise ValueError("card index out of range")
    return out


def _seats(values: Iterable[Any], players: int) -> list[int]:
    seats = [int(v) for v in values]
    for seat in seats:
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} at a table of {players}")
    return seats


def _log(entries: Iterable[Any], players: int, casino: bool = False) -> list[tuple[int, int]]:
    """The log's ``[seat, code]`` entries, each a real seat and a code the rules know."""
    log = [(int(seat), int(code)) for seat, code in entries]
    _seats((seat for seat, _ in log), players)
    known = (*_MOVES, _COMPUTER_CODE) if casino else (_STAND_CODE, _HIT_CODE, _COMPUTER_CODE)
    for _, code in log:
        if code not in known:
            raise ValueError(f"unknown log entry {code}")
    return log


def _check_consistent(state: State) -> None:
    """Refuse a position no game can reach, naming what is wrong."""

    def damaged(reason: str) -> SnapshotError:
        return SnapshotError(f"damaged blackjack snapshot: {reason}")

    players = state.players
    hands = [state._seat_hands(seat) for seat in range(players)]
    counts = [0] * 52
    for i in (*state._shoe, *state._house, *(i for seat in hands for h in seat for i in h)):
        counts[i] += 1
    if any(c != DECKS for c in counts):
        raise damaged("the shoe and hands are not 4 decks")
    current = state._current
    if not 0 <= current <= players or len(state._house) < 2:
        raise damaged("impossible turn")
    if any(len(hand) < 2 for seat in hands for hand in seat):
        raise damaged("a player has fewer than two cards")
    _check_casino(state, hands, damaged)
    if current == players:  # the game is over: the House showed its card and played
        if not state._revealed:
            raise damaged("the game is over but the House's first card is still face down")
        house = state._house
        blackjack = len(house) == 2 and hand_total(house) == BLACKJACK
        if not blackjack and not state._house_stands(hand_total(house)):
            raise damaged("the House stopped below 17")
        return
    if state._revealed or state._computers[current]:
        raise damaged("impossible turn")
    if len(state._house) != 2:
        raise damaged("the House drew before the players were done")
    if hand_total(state._in_play()) > BLACKJACK:
        raise damaged(f"Player{current + 1} is bust but still to play")
    for seat in range(current + 1, players):
        if len(state._hands[seat]) != 2 or len(hands[seat]) != 1:
            raise damaged(f"Player{seat + 1} drew before their turn")


def _check_casino(state: State, hands: list[list[list[int]]], damaged: Any) -> None:
    """The casino hands: splits of a pair, doubles of two cards, a hand in play that is."""
    current, part = state._current, state._part
    if state._ruleset != CASINO:
        return
    if part not in (0, 1) or (part == 1 and current not in state._second):
        raise damaged("impossible hand in play")
    for seat, second in state._second.items():
        first = state._hands[seat]
        if seat > current or first[0] % 13 != second[0] % 13:
            raise damaged(f"Player{seat + 1} split what is no pair")
    for seat, hand_part in state._doubled:
        played = hands[seat]
        if hand_part >= len(played) or len(played[hand_part]) != 3:
            raise damaged(f"Player{seat + 1} doubled what is no hand of two cards")
        if seat > current or (seat == current and hand_part >= part):
            raise damaged(f"Player{seat + 1} doubled a hand still in play")
    playing = current < state.players
    if playing and current not in state._second and _natural([state._hands[current]]):
        raise damaged(f"Player{current + 1} has Blackjack but still to play")
