"""Full Uno states consistent with one seat's view, for the ``hard`` player's search.

Only :class:`rules.uno.state.UnoView` goes in: the seat's own hand, the discard pile (every
card of it was seen as it was played), every card count and the table. The cards that seat
cannot see (other hands, the draw pile) are dealt at random from the rest of the deck, with
one thing the table saw: a player who drew and passed held nothing that played
(``view.unfit``). A hand shown to the seat by a challenge (``view.revealed``) stays where it
was seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rules.engine import Action, Outcome
from rules.montecarlo import MAX_ROLLOUT_MOVES, clone, play_out_counted
from rules.rng import GameRandom
from rules.uno.cards import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_POINTS,
    CARD_RANK,
    COLOUR_NAMES,
    DRAW_TWO,
    NONE,
    RANK_NAMES,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from rules.uno.events import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from rules.uno.state import (
    _PLAYABLE,
    _SINGLE_PLAYS,
    _WILD_PLAYS,
    AFTER_DRAW,
    CHOOSE_COLOUR,
    HOUSE_RULES,
    PHASE_NAMES,
    PLAY,
    State,
    UnoView,
    _options,
)

__all__ = ["normal_move", "play_out", "quick_move", "sample_snapshot", "sample_world"]

_BY_CODE: dict[str, tuple[int, ...]] = {}
for _card, _code in enumerate(CARD_CODES):
    _BY_CODE[_code] = (*_BY_CODE.get(_code, ()), _card)
_WILD_RANKS = frozenset(RANK_NAMES[WILD:])


def _card_of_top(top: str) -> str:
    """The canonical code of the top card: a wild is shown in the colour named for it."""
    _, _, rank = top.partition("_")
    return f"none_{rank}" if rank in _WILD_RANKS else top


def sample_world(view: UnoView, rng: random.Random) -> Callable[[], State]:
    """A factory of fresh copies of one world sampled for ``view``: each copy draws the same
    cards, from its own generator seeded by ``rng``."""
    world = _sample(view, rng, _WORLDS_RNG)
    seed = rng.getrandbits(63)
    return lambda: clone(world, seed)


def sample_snapshot(view: UnoView, rng: random.Random) -> dict[str, Any]:
    """A snapshot (for :func:`rules.uno.state.restore`) of a game whose ``view(view.seat)``
    shows what ``view`` shows, the unseen cards dealt at random by ``rng``: the world
    :func:`sample_world` copies, as data."""
    return _sample(view, rng, GameRandom(0)).snapshot()


# The generator of every world :func:`sample_world` keeps: never drawn from, since only its
# copies play, each with a generator of its own. A world so costs no generator to build
# (restoring one from a snapshot was most of a world's cost).
_WORLDS_RNG = GameRandom(0)
_OPTIONS: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}


def _sample(view: UnoView, rng: random.Random, generator: GameRandom) -> State:
    """The state of a game whose ``view(view.seat)`` shows what ``view`` shows, the unseen
    cards dealt at random by ``rng``, drawing from ``generator``."""
    seat = view.seat
    if seat is None or view.hand is None or view.current_seat is None:
        raise ValueError("a world is sampled for a seated player of a game in progress")
    free = {code: list(cards) for code, cards in _BY_CODE.items()}
    n = len(view.hand_counts)
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = [free[code].pop() for code in view.hand]
    top = free[_card_of_top(view.top)].pop()
    discard = [*(free[code].pop() for code in view.played), top]
    if view.revealed is not None:
        shown, codes = view.revealed
        if len(codes) <= view.hand_counts[shown]:
            hands[shown] = [free[code].pop() for code in codes]
    unseen = [card for cards in free.values() for card in cards]
    missing = [
        count - len(hands[other]) if other != seat else 0
        for other, count in enumerate(view.hand_counts)
    ]
    draw = rng.random
    if any(view.unfit):
        unseen = _deal_unfit(view, unseen, hands, missing, draw)
    # Only which unseen cards the hands hold is drawn here, not the pile's order: the pile is
    # shuffled as it is drawn (State._unshuffled). So the hands' cards are picked one by
    # one (the first steps of a Fisher-Yates shuffle) and the rest is the pile.
    dealt = sum(missing)
    size = len(unseen)
    for i in range(dealt):
        j = i + int(draw() * (size - i))
        unseen[i], unseen[j] = unseen[j], unseen[i]
    start = 0
    for other, count in enumerate(missing):
        if count:
            hands[other] += unseen[start : start + count]
            start += count
    pile = unseen[dealt:]
    if len(pile) != view.draw_pile:
        raise ValueError("the view's cards do not add up to one deck")
    key = (view.ruleset, view.house)
    options = _OPTIONS.get(key)
    if options is None:
        options = _OPTIONS[key] = _options(
            {"ruleset": view.ruleset, **{r: r in view.house for r in HOUSE_RULES}}
        )
    state = State(n, generator, options)
    state.hands = hands
    state.pile = pile
    state._unshuffled = len(pile)
    state.discard = discard
    state.colour = COLOUR_NAMES.index(view.colour)
    state.turn = view.current_seat
    state.direction = view.direction
    state.phase = PHASE_NAMES.index(view.phase)
    state.pending = view.pending
    # Whether a pending Wild Draw Four was a bluff is not in the view: the world says it
    # was not (the hard player never challenges, so it never matters).
    if any(isinstance(a, Challenge) for a in view.legal):
        state._offender = _offender(view)
    state._exposed = -1 if view.uno_exposed is None else view.uno_exposed
    if (
        "uno_call" in view.house
        and view.current_seat == seat
        and len(view.hand) == 2
        and not any(isinstance(a, CallUno) for a in view.legal)
    ):
        state._declared = seat
    if view.out:
        state._out = [i in view.out for i in range(n)]
    if any(view.unfit):
        state._unfit = [
            None
            if known is None
            else (COLOUR_NAMES.index(known[0]) * 15 + RANK_NAMES.index(known[1]), known[2])
            for known in view.unfit
        ]
    return state


def _deal_unfit(
    view: UnoView,
    unseen: list[int],
    hands: list[list[int]],
    missing: list[int],
    draw: Callable[[], float],
) -> list[int]:
    """Deal each seat that drew and passed its cards known not to fit what it passed on
    (``view.unfit``), at random among the unseen cards that do not; the unseen cards left.

    A player who draws is taken to have held nothing that plays. The table cannot tell a
    player who chose to draw: the normal player never does, but the easy one sometimes does,
    and so may a human, whose worlds then lack a card it held back. Seat after seat, so with
    two such seats the second's odds lean a little on the first's cards: close enough. A
    hand the seat was shown (``view.revealed``) is known already: only cards drawn since are
    missing, and those are not the ones known not to fit.
    """
    taken: set[int] = set()
    for other, known in enumerate(view.unfit):
        if known is None or not missing[other] or hands[other]:
            continue
        colour, rank, count = known
        fits = _PLAYABLE[COLOUR_NAMES.index(colour) * 15 + RANK_NAMES.index(rank)]
        pool = [i for i, card in enumerate(unseen) if not fits[card] and i not in taken]
        count = min(count, missing[other], len(pool))
        size = len(pool)
        for i in range(count):
            j = i + int(draw() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
        hands[other] += [unseen[i] for i in pool[:count]]
        taken.update(pool[:count])
        missing[other] -= count
    return [card for i, card in enumerate(unseen) if i not in taken]


def _offender(view: UnoView) -> int:
    """Who played the Wild Draw Four pending for the seat to act: the seat before it."""
    assert view.current_seat is not None
    n = len(view.hand_counts)
    seat = (view.current_seat - view.direction) % n
    while seat in view.out:
        seat = (seat - view.direction) % n
    return seat


def quick_move(state: State, seat: int) -> Action:
    """A cruder cousin of :func:`normal_move` on the engine's ints (the hard player's first
    rollout policy, before the play-outs modelled the normal player exactly): the normal
    player's main rules of thumb. It says UNO and catches, plays the colour it holds most
    (the costliest card among equals), a wild only when nothing else plays (naming that
    colour), stacks rather than takes, and never challenges."""
    legal = state.legal_actions(seat)
    hand = state.hands[seat]
    held = [0, 0, 0, 0, 0]
    for card in hand:
        held[CARD_COLOUR[card]] += 1
    favourite = max(range(4), key=held.__getitem__)
    best = legal[-1]
    best_score = -1
    for action in legal:
        cls = action.__class__
        if cls is CallUno or cls is CatchUno:
            return action
        if cls is Play:
            card = hand[action.index]  # type: ignore[attr-defined]
            colour = CARD_COLOUR[card]
            if colour == NONE:
                if action.colour != favourite:  # type: ignore[attr-defined]
                    continue
                score = 1
            else:
                score = 2 + held[colour] * 64 + CARD_POINTS[card]
        elif cls is ChooseColour:
            score = held[action.colour]  # type: ignore[attr-defined]
        elif cls is Draw or cls is Pass:
            score = 0
        else:
            continue
        if score > best_score:
            best, best_score = action, score
    return best


_DRAW = Draw()
_THREAT = 2  # as the normal player's: the next player with this many cards is about to win
# By card: whether it is one of the normal player's attacks (+2, reverse, skip, W+4), and
# its rank's weight among equals (the number, 10 for a symbol).
_ATTACK = tuple(rank >= 10 and rank != WILD for rank in CARD_RANK)
_WEIGHT = tuple(min(rank, 10) for rank in CARD_RANK)


def normal_move(state: State, seat: int) -> Action:
    """The normal player's decision (``rules.uno.ai._normal``) read off the engine's ints:
    the same action it takes from ``state.view(seat)``, without building the view, so a
    rollout's players are the very player the hard one meets at the table.

    Its scores are ``_normal``'s tuples packed into one int (the same order): first
    whether the play attacks the player about to win (or, -1, is a wild or -2 a 7 aimed at
    the wrong seat), then whether an attack is kept for later (or the wild names the
    colour held most), then the colour held most and the card's weight (or W before W+4).
    """
    if (
        seat == state.turn
        and state.phase == PLAY
        and not state.pending
        and not (state.seed_program_rules or state.uno_call or state.seven_zero)
    ):
        return _normal_turn(state, seat)
    legal = state.legal_actions(seat)
    for action in legal:
        cls = action.__class__
        if cls is CallUno or cls is CatchUno:
            return action
    hand = state.hands[seat]
    held, favourite = _colours_held(hand)
    no_bluff = not state.seed_program_rules and held[state.colour]
    hands = state.hands
    n = state.n
    threat = len(hands[(seat + state.direction) % n]) <= _THREAT
    fewest = -1
    best: Play | None = None
    best_score = 0
    for action in legal:
        if not isinstance(action, Play):
            continue
        card = hand[action.index]
        if CARD_COLOUR[card] == NONE:
            rank = CARD_RANK[card]
            if rank == WILD_DRAW_FOUR:
                if no_bluff:
                    continue
                score = (1 if threat else -1) * 1_000_000 + (2 if threat else 1)
            else:
                score = -1_000_000 + (1 if threat else 2)
            if action.colour != favourite:
                score -= 100_000
        else:
            target = action.target
            if target is not None:
                if fewest < 0:
                    fewest = min(
                        (s for s in range(n) if s != seat), key=lambda s: (len(hands[s]), s)
                    )
                if target != fewest:
                    score = -2_000_000
                    if best is None or score > best_score:
                        best, best_score = action, score
                    continue
            attack = _ATTACK[card]
            score = held[CARD_COLOUR[card]] * 20 + _WEIGHT[card]
            if attack:
                score += 1_000_000 if threat else -100_000
        if best is None or score > best_score:
            best, best_score = action, score
    if best is None:
        for action in legal:
            if isinstance(action, ChooseColour) and action.colour == favourite:
                return action
        for action in legal:
            if isinstance(action, (Draw, Pass)):
                return action
        return legal[0]
    if state.phase == AFTER_DRAW and not threat and CARD_COLOUR[hand[best.index]] == NONE:
        for action in legal:
            if action.__class__ is Pass:
                return action
    return best


def _colours_held(hand: Sequence[int]) -> tuple[list[int], int]:
    """How many cards of each colour (wilds last) the hand holds, and the colour held most
    (the first on a tie): what the normal player names for a wild."""
    held = [0, 0, 0, 0, 0]
    for card in hand:
        held[CARD_COLOUR[card]] += 1
    favourite = 0
    for colour in (1, 2, 3):
        if held[colour] > held[favourite]:
            favourite = colour
    return held, favourite


def _normal_turn(state: State, seat: int) -> Action:
    """:func:`normal_move` on an ordinary official turn (nothing pending, no UNO to say, no
    7 to aim), the hot path of every play-out: the same choice straight off the hand, without
    listing the legal actions."""
    hand = state.hands[seat]
    best, favourite = _normal_card(
        hand,
        state.colour,
        state.discard[-1],
        len(state.hands[(seat + state.direction) % state.n]) <= _THREAT,
    )
    if best < 0:
        return _DRAW
    return _WILD_PLAYS[best][favourite] if CARD_COLOUR[hand[best]] == NONE else _SINGLE_PLAYS[best]


def _normal_card(hand: list[int], colour: int, top: int, threat: bool) -> tuple[int, int]:
    """The card the normal player plays on an ordinary official turn (its index, or -1 to
    draw) on ``top`` in ``colour``, and the colour held most (what it names for a wild; 0
    when that card is not one); ``threat``: the next player is about to win. Of a wild's
    four plays the one naming the colour held most scores best, so each card is scored
    once."""
    playable = _PLAYABLE[colour * 15 + CARD_RANK[top]]
    fits = [index for index, card in enumerate(hand) if playable[card]]
    if not fits:
        return -1, 0
    if len(fits) == 1 and CARD_COLOUR[hand[fits[0]]] != NONE:
        return fits[0], 0  # nothing to weigh, and no wild to name a colour for
    held, favourite = _colours_held(hand)
    no_bluff = held[colour]
    best = -1
    best_score = 0
    for index in fits:
        card = hand[index]
        card_colour = CARD_COLOUR[card]
        if card_colour == NONE:
            if CARD_RANK[card] == WILD_DRAW_FOUR:
                if no_bluff:
                    continue
                score = 1_000_002 if threat else -999_999
            else:
                score = -999_999 if threat else -999_998
        else:
            score = held[card_colour] * 20 + _WEIGHT[card]
            if _ATTACK[card]:
                score += 1_000_000 if threat else -100_000
        if best < 0 or score > best_score:
            best, best_score = index, score
    return best, favourite


# What a play-out's move through the engine costs, in moves of :func:`_play_out_plain`
# (measured: 2.5 to 3.5 times as much under the house rules, most with ``uno_call``).
ENGINE_MOVE = 3


def play_out(state: State, seat: int) -> tuple[float, int]:
    """``seat``'s result of playing ``state`` to its end with the normal player in every
    seat (1 a win, 0.5 a shared result or an endless game, 0 a loss), and what that cost,
    in moves of the plain play-out: the hard player's play-out (a
    :data:`rules.montecarlo.Rollout`).

    The official game without house rules, nobody gone, runs in :func:`_play_out_plain`;
    any other game moves through the engine with :func:`normal_move`, each move counted
    as ``ENGINE_MOVE`` plain ones, so a decision under house rules takes about as long.
    """
    if (
        state.seed_program_rules
        or state.stacking
        or state.draw_until
        or state.jump_in
        or state.seven_zero
        or state.uno_call
        or state._out
        or state._reveal is not None
        or state.phase == CHOOSE_COLOUR
    ):
        result, made = play_out_counted(state, seat, normal_move)
        return result, made * ENGINE_MOVE
    return _play_out_plain(state, seat)


def _play_out_plain(state: State, seat: int) -> tuple[float, int]:
    """:func:`play_out` of an official game without house rules, nobody gone: the engine's
    moves (``State.apply``) and the normal player's choices (:func:`normal_move`) in one
    loop on the state's lists, without actions, events or a log. The same cards come from
    the same generator in the same order, so the game ends as the engine's would, move for
    move (a test plays both); only what those rules reach is here.

    A rollout is most of the hard player's time: this runs it about three times as fast.
    It uses ``state`` up: its cards move, but its turn, colour and result are left behind.
    """
    if state._result is not None:
        return _outcome(state._result.outcomes[seat]), 0
    hands = state.hands
    pile = state.pile
    discard = state.discard
    rand = state._rand
    n = state.n
    colour = state.colour
    turn = state.turn
    direction = state.direction
    phase = state.phase
    pending = state.pending
    unshuffled = state._unshuffled

    def deal(hand: list[int], count: int) -> int:
        # State._deal and _reshuffle: each card's Fisher-Yates step when it is drawn.
        nonlocal unshuffled
        got = 0
        while got < count:
            top = len(pile) - 1
            if top < 0:
                if len(discard) <= 1:
                    break
                last = discard.pop()
                pile.extend(discard)
                discard.clear()
                discard.append(last)
                unshuffled = len(pile)
                top = unshuffled - 1
            if top < unshuffled:
                other = int(rand() * (top + 1))
                pile[top], pile[other] = pile[other], pile[top]
                unshuffled = top
            hand.append(pile.pop())
            got += 1
        return got

    for made in range(MAX_ROLLOUT_MOVES):
        hand = hands[turn]
        if pending:  # an official W+4: the normal player never challenges, it takes them
            deal(hand, pending)
            pending = 0
            turn = (turn + direction) % n
            continue
        threat = len(hands[(turn + direction) % n]) <= _THREAT
        if phase == AFTER_DRAW:
            card = hand[-1]
            phase = PLAY
            favourite = 0  # named only for a wild
            if CARD_COLOUR[card] == NONE:
                held, favourite = _colours_held(hand)
                if not threat or (CARD_RANK[card] == WILD_DRAW_FOUR and held[colour]):
                    turn = (turn + direction) % n  # keeps the wild for later: passes
                    continue
            best = len(hand) - 1
        else:
            best, favourite = _normal_card(hand, colour, discard[-1], threat)
            if best < 0:
                # Never a blocked game (the engine's ``_block``): with the whole deck in
                # play, someone holds a wild, a wild always fits, and the normal player
                # never draws holding one it may play, so it plays it within the round.
                if deal(hand, 1) and _PLAYABLE[colour * 15 + CARD_RANK[discard[-1]]][hand[-1]]:
                    phase = AFTER_DRAW
                    continue
                turn = (turn + direction) % n
                continue
        # The play (State._play and _effect).
        card = hand.pop(best)
        discard.append(card)
        rank = CARD_RANK[card]
        colour = favourite if rank >= WILD else CARD_COLOUR[card]
        if not hand:
            return (1.0 if turn == seat else 0.0), made + 1
        if rank < DRAW_TWO or rank == WILD:
            turn = (turn + direction) % n
        elif rank == WILD_DRAW_FOUR:
            pending = 4
            turn = (turn + direction) % n
        elif rank == DRAW_TWO:
            deal(hands[(turn + direction) % n], 2)
            turn = (turn + 2 * direction) % n
        elif rank == SKIP or n == 2:
            turn = (turn + 2 * direction) % n
        else:  # a reverse
            direction = -direction
            turn = (turn + direction) % n
    return 0.5, MAX_ROLLOUT_MOVES


def _outcome(outcome: Outcome) -> float:
    return 1.0 if outcome is Outcome.WIN else 0.5 if outcome is Outcome.DRAW else 0.0
