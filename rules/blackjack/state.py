"""The Blackjack engine (rules/blackjack.md): one table, one shoe, the House plays itself.

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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.blackjack.ai import HIT, STAND, decide, decide_at
from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    HandedToComputer,
    Hit,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
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
    "DECKS",
    "GAME",
    "HOUSE_STANDS_ON",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SCHEMA",
    "SEED_SWAPS",
    "SHOE_SIZE",
    "BlackjackView",
    "State",
    "hand_total",
    "judge",
    "new",
    "replay",
    "restore",
    "seed_shoe",
]

GAME: Final = "blackjack"
SCHEMA: Final = 1
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 7
DECKS: Final = 4  # rule 1
SHOE_SIZE: Final = 52 * DECKS
BLACKJACK: Final = 21
HOUSE_STANDS_ON: Final = 17  # rule 8
SEED_SWAPS: Final = 1000  # rule 11

# Card value by index (rule 5): J, Q, K count 10 and an Ace 1 here; the hand total adds 10
# for one Ace when that does not go over 21 (two Aces at 11 would be 22 anyway).
_VALUE: Final = tuple(min(i % 13 + 1, 10) for i in range(52))
_SEED_SUITS: Final = (Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES)  # rule 11

_RANK_ORDER: Final = {Outcome.WIN: 0, Outcome.DRAW: 1, Outcome.LOSE: 2}
_STAND_CODE: Final = 0
_HIT_CODE: Final = 1
_COMPUTER_CODE: Final = 2  # a log entry: the seat was handed to a computer


_SEED_SHOE: Final = tuple(
    [Card.of(suit, rank).index for rank in range(1, 14) for suit in _SEED_SUITS] * DECKS
)


def seed_shoe() -> list[int]:
    """The seed program's ordered shoe: per deck A..K, each rank as c, h, d, s (rule 11)."""
    return list(_SEED_SHOE)


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


@dataclass(frozen=True, slots=True)
class BlackjackView:
    """What a seat (or, with ``seat=None``, a spectator) sees: everything but the hole card.

    Every player's hand is public (rule 15). ``house`` holds the House's cards that are face
    up; while ``house_hidden`` its first card is face down and left out (rule 3), and
    ``house_total`` counts only the face-up cards. ``finished[i]`` is true once seat ``i``
    stood or went bust.
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

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

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
        "_draw",
        "_hands",
        "_house",
        "_level",
        "_log",
        "_msvc",
        "_opening",
        "_result",
        "_revealed",
        "_rng",
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
        self._hands: list[list[int]] = [[] for _ in range(players)]
        self._house: list[int] = []
        self._current = 0  # == players once every player is done
        self._computers = [False] * players
        self._level = Level.NORMAL  # how the computer seats play (option ``computer_level``)
        self._dealt_computers: tuple[int, ...] = ()  # computer seats when the cards were dealt
        self._revealed = False
        self._result: Result | None = None
        self._log: list[tuple[int, int]] = []  # (seat, code): the inputs, never the automatic steps
        self._opening: tuple[Event, ...] = ()
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

    def legal_actions(self, seat: int) -> tuple[Hit, Stand] | tuple[()]:
        """Hit or Stand for the seat to act; nothing for anyone else."""
        if self._result is not None or seat != self._current:
            return ()
        return (HIT, STAND)

    def apply(self, seat: int, action: Hit | Stand) -> list[Event]:
        """Verify and apply ``seat``'s move, then every automatic step after it."""
        self._verify(seat, action)
        self._log.append((seat, _HIT_CODE if type(action) is Hit else _STAND_CODE))
        events: list[Event] = []
        self._act(seat, type(action) is Hit, events)
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
        """The next game at this table (rule 14): same seats and computers, a fresh fair shoe."""
        computers = [s for s in range(self.players) if self._computers[s]]
        return _start(self.players, None, faithful=False, computers=computers, level=self._level)

    def view(self, seat: int | None = None) -> BlackjackView:
        """What ``seat`` sees (``None``: a spectator); only the hole card is kept back."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat + 1}.", code="no_such_seat", seat=seat)
        shown = self._house if self._revealed else self._house[1:]
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
        )

    # ----------------------------------------------------------------- internals

    def _verify(self, seat: int, action: object) -> None:
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if type(action) is not Hit and type(action) is not Stand:
            raise IllegalAction("In Blackjack you can only Hit or Stand.", code="unknown_action")
        if seat != self._current:
            raise IllegalAction(
                f"It is not your turn: Player{self._current + 1} is playing.",
                code="not_your_turn",
                current=self._current,
            )

    def _act(self, seat: int, hit: bool, events: list[Event]) -> None:
        hand = self._hands[seat]
        if hit:
            card = self._draw()
            hand.append(card)
            total = hand_total(hand)
            events.append(CardDrawn(seat, STANDARD_DECK[card], total))
            if total <= BLACKJACK:
                return  # still this seat's turn
        else:
            events.append(Stood(seat, hand_total(hand)))
        self._current = seat + 1
        if self._current < self.players:
            events.append(TurnStarted(self._current))

    def _play_on(self, events: list[Event]) -> None:
        """Play the computer seats whose turn it is, then the House once everyone is done."""
        players = self.players
        while self._current < players and self._computers[self._current]:
            seat = self._current
            hand = self._hands[seat]
            total = hand_total(hand)
            if self._level is Level.NORMAL:  # the seed's rule, draw for draw
                action = decide(total, self._coin)
            else:
                soft = total != sum(_VALUE[i] for i in hand)
                action = decide_at(self._level, total, soft, _VALUE[self._house[1]], self._coin)
            self._act(seat, action is HIT, events)
        if self._current == players and self._result is None:
            self._house_turn(events)

    def _house_turn(self, events: list[Event]) -> None:
        house = self._house
        self._revealed = True
        total = hand_total(house)
        events.append(HouseTurn(STANDARD_DECK[house[0]], total))
        while total < HOUSE_STANDS_ON:
            card = self._draw()
            house.append(card)
            total = hand_total(house)
            events.append(HouseDrew(STANDARD_DECK[card], total))
        events.append(HouseBusted(total) if total > BLACKJACK else HouseStood(total))
        self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        self._result = judge(self._hands, self._house)
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
            events.append(TurnStarted(0))
            self._play_on(events)
        return events

    # ----------------------------------------------------------------- snapshots

    def snapshot(self) -> dict[str, Any]:
        """A JSON-safe copy: random state, shoe, hands, whose turn, computers and the log.

        ``log`` lists the inputs as ``[seat, code]`` (0 Stand, 1 Hit, 2 handed to a
        computer); the computer seats' and the House's moves follow from the seed, so
        ``seed`` + ``dealt_computers`` + ``log`` replay the game (:func:`replay`).
        """
        return {
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

    def _rng_state(self) -> dict[str, Any]:
        assert self._rng is not None
        return self._rng.getstate()


def _options(options: Mapping[str, Any] | None, players: int) -> tuple[list[int], Level]:
    computers: list[int] = []
    level = Level.NORMAL
    for key, value in (options or {}).items():
        if key == "computer_level":
            level = _level(value)
            continue
        if key != "computers":
            raise IllegalAction(f"Unknown Blackjack option {key!r}.", code="unknown_option")
        for seat in value:
            if type(seat) is not int or not 0 <= seat < players:
                raise IllegalAction(
                    f"A computer seat must be from 1 to {players}.", code="no_such_seat"
                )
            computers.append(seat)
    return computers, level


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
    is how they play (see :mod:`rules.blackjack.ai`).
    """
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            f"Blackjack is for {MIN_PLAYERS} to {MAX_PLAYERS} players.",
            code="players",
            players=players,
        )
    faithful = seed is not None if fair is None else not fair
    computers, level = _options(options, players)
    return _start(players, seed, faithful=faithful, computers=computers, level=level)


def _start(
    players: int,
    seed: int | None,
    *,
    faithful: bool,
    computers: Sequence[int],
    level: Level = Level.NORMAL,
) -> State:
    if not faithful:
        rng = GameRandom(seed)
        state = State(players, rng.seed, None, rng)
        state._shoe.extend(_SEED_SHOE)
    else:
        assert seed is not None
        msvc = MsvcRand(seed)
        state = State(players, seed, msvc, None)
        shoe = state._shoe
        shoe.extend(_SEED_SHOE)
        # ``swap(rand() % size, rand() % size)`` 1000 times; a swap is symmetric, so the
        # order the compiler evaluated the two arguments in cannot matter. MsvcRand's step
        # is inlined on a local int: 2000 method calls would be most of a game's time.
        size = len(shoe)
        mul, inc, rand_max = MsvcRand.MULTIPLIER, MsvcRand.INCREMENT, MsvcRand.RAND_MAX
        x = msvc.state
        for _ in range(SEED_SWAPS):
            x = (x * mul + inc) & 0xFFFFFFFF
            i = ((x >> 16) & rand_max) % size
            x = (x * mul + inc) & 0xFFFFFFFF
            j = ((x >> 16) & rand_max) % size
            shoe[i], shoe[j] = shoe[j], shoe[i]
        msvc.state = x
    state._level = level
    for seat in computers:
        state._computers[seat] = True
    state._dealt_computers = tuple(sorted(set(computers)))
    state._opening = tuple(state._deal())
    return state


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
        state._log = [(seat, int(code)) for seat, code in _log(snapshot["log"], players)]
        state._dealt_computers = tuple(_seats(snapshot["dealt_computers"], players))
        state._level = Level(snapshot.get("computer_level", Level.NORMAL.value))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"damaged blackjack snapshot: {exc}") from exc
    _check_consistent(state)
    if state._current == players:
        state._result = judge(state._hands, state._house)
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
        state = _start(
            players,
            int(snapshot["seed"]),
            faithful=snapshot["shuffle"] == "seed",
            computers=computers,
            level=Level(snapshot.get("computer_level", Level.NORMAL.value)),
        )
        for seat, code in _log(snapshot["log"], players):
            if code == _COMPUTER_CODE:
                state.hand_to_computer(seat)
            else:
                state.apply(seat, HIT if code == _HIT_CODE else STAND)
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


def _log(entries: Iterable[Any], players: int) -> list[tuple[int, int]]:
    """The log's ``[seat, code]`` entries, each a real seat and a known code."""
    log = [(int(seat), int(code)) for seat, code in entries]
    _seats((seat for seat, _ in log), players)
    for _, code in log:
        if code not in (_STAND_CODE, _HIT_CODE, _COMPUTER_CODE):
            raise ValueError(f"unknown log entry {code}")
    return log


def _check_consistent(state: State) -> None:
    """Refuse a position no game can reach, naming what is wrong."""

    def damaged(reason: str) -> SnapshotError:
        return SnapshotError(f"damaged blackjack snapshot: {reason}")

    counts = [0] * 52
    for i in (*state._shoe, *state._house, *(i for hand in state._hands for i in hand)):
        counts[i] += 1
    if any(c != DECKS for c in counts):
        raise damaged("the shoe and hands are not 4 decks")
    current, players = state._current, state.players
    if not 0 <= current <= players or len(state._house) < 2:
        raise damaged("impossible turn")
    if any(len(hand) < 2 for hand in state._hands):
        raise damaged("a player has fewer than two cards")
    if current == players:  # the game is over: the House showed its card and played
        if not state._revealed:
            raise damaged("the game is over but the House's first card is still face down")
        if hand_total(state._house) < HOUSE_STANDS_ON:
            raise damaged("the House stopped below 17")
        return
    if state._revealed or state._computers[current]:
        raise damaged("impossible turn")
    if len(state._house) != 2:
        raise damaged("the House drew before the players were done")
    if hand_total(state._hands[current]) > BLACKJACK:
        raise damaged(f"Player{current + 1} is bust but still to play")
    for seat in range(current + 1, players):
        if len(state._hands[seat]) != 2:
            raise damaged(f"Player{seat + 1} drew before their turn")
