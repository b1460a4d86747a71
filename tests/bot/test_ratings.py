"""Ratings from stored results (bot/ratings.py): only games between members rate, games
against computers are practice, Blackjack ranks by hands won from 20 hands."""

from __future__ import annotations

from bot.ratings import MIN_HOUSE_HANDS, leaderboard, practice, standings
from bot.store.base import GameRecord, SeatResult

ALICE, BOB, CAROL = 1, 2, 3


def game(name: str, *seats: tuple[int | None, str]) -> GameRecord:
    return GameRecord(
        name,
        tuple(
            SeatResult(n, member, outcome, 0, n + 1) for n, (member, outcome) in enumerate(seats)
        ),
    )


def test_only_games_between_members_rate_and_the_winner_ranks_first() -> None:
    records = [game("onecard", (ALICE, "win"), (BOB, "lose"))] * 3
    records += [game("onecard", (CAROL, "win"), (None, "lose"))] * 50  # farming
    found = standings("onecard", records)
    assert [s.member_id for s in leaderboard("onecard", found)] == [ALICE, BOB]
    assert found[ALICE].mu > 25 > found[BOB].mu and found[ALICE].versus_members == 3
    assert found[CAROL].versus_members == 0 and found[CAROL].versus_computers == 50
    assert [s.member_id for s in practice("onecard", found)] == [CAROL]
    # The same results give the same ratings: nothing is kept between computations.
    assert standings("onecard", records) == found


def test_a_three_member_game_rates_every_member_by_place() -> None:
    found = standings("uno", [game("uno", (BOB, "win"), (ALICE, "lose"), (CAROL, "lose"))])
    assert found[BOB].mu > found[ALICE].mu > found[CAROL].mu


def test_blackjack_ranks_by_hands_won_once_a_member_played_enough() -> None:
    records = [game("blackjack", (ALICE, "win"))] * (MIN_HOUSE_HANDS - 1)
    records += [game("blackjack", (BOB, "win" if n % 2 else "lose")) for n in range(40)]
    found = standings("blackjack", records)
    assert [s.member_id for s in leaderboard("blackjack", found)] == [BOB]  # alice: 19 hands
    assert found[BOB].win_share == 0.5 and practice("blackjack", found) == []


def test_a_draw_rates_as_a_draw_whatever_order_the_engine_ranked_the_seats() -> None:
    drawn = [game("gostop", (ALICE, "draw"), (BOB, "draw"))] * 10  # nagaris: seat 0 ranked 1
    found = standings("gostop", drawn)
    assert abs(found[ALICE].mu - found[BOB].mu) < 1e-9


def test_every_member_seat_is_rated_whatever_its_id() -> None:
    found = standings("uno", [game("uno", (0, "win"), (BOB, "lose"))])  # a falsy id too
    assert found[0].versus_members == 1 and found[0].mu > found[BOB].mu
