"""Rules 1–2 (the deck) and 17–24 (scoring), with the worked totals of docs/rules/gostop.md."""

import pytest

from rules.gostop.cards import (
    BONUS_SETS,
    CARDS,
    DECK,
    HwatuParseError,
    Kind,
    parse_hwatu,
)
from rules.gostop.scoring import best_breakdown, breakdown, go_terms, settle, steal_order


def ids(*codes: str) -> list[int]:
    return [parse_hwatu(c).index for c in codes]


# Plain pi in order of months; 11/12 have 쌍피.
PLAIN_PI = [c.index for c in DECK if c.kind is Kind.JUNK]


def pi_worth(value: int) -> list[int]:
    """Plain pi cards worth ``value`` (up to 22)."""
    assert value <= len(PLAIN_PI)
    return PLAIN_PI[:value]


def test_rule_1_deck_has_48_cards_four_per_month_with_codes_and_aliases() -> None:
    assert len(DECK) == 48
    assert len({c.code for c in DECK}) == 48
    for month in range(1, 13):
        assert sum(1 for c in DECK if c.month == month) == 4
    kinds = {k: sum(1 for c in DECK if c.kind is k) for k in Kind}
    assert kinds == {
        Kind.BRIGHT: 5,
        Kind.ANIMAL: 9,
        Kind.RIBBON: 10,
        Kind.JUNK: 22,
        Kind.DOUBLE: 2,
        Kind.BONUS: 0,
    }
    assert parse_hwatu("1광") is parse_hwatu("jan-bright") is CARDS[0]
    assert parse_hwatu("2열") is parse_hwatu("feb-animal")
    assert parse_hwatu("5피a") is parse_hwatu("may-junk-a")
    assert parse_hwatu("11쌍피").kind is Kind.DOUBLE
    assert parse_hwatu(" JAN-Bright ") is CARDS[0]
    assert parse_hwatu("비광") is parse_hwatu("12광")
    for card in CARDS:
        assert parse_hwatu(card.code) is card
        assert parse_hwatu(card.alias) is card


@pytest.mark.parametrize("text", ["", "13광", "1열", "5피c", "joker"])
def test_rule_1_unknown_cards_are_refused(text: str) -> None:
    with pytest.raises(HwatuParseError):
        parse_hwatu(text)


def test_rule_2_bonus_cards_are_worth_two_and_three_pi() -> None:
    assert BONUS_SETS[0] == ()
    assert [c.pi_value for c in BONUS_SETS[2]] == [2, 2]
    assert [c.pi_value for c in BONUS_SETS[3]] == [2, 2, 3]
    assert breakdown(ids("B2a", "B2b", "B3", *["1피a", "1피b", "2피a"])).pi_value == 10


@pytest.mark.parametrize(
    ("codes", "points"),
    [
        (("1광", "3광"), 0),
        (("1광", "3광", "8광"), 3),
        (("1광", "3광", "12광"), 2),
        (("1광", "3광", "8광", "12광"), 4),
        (("1광", "3광", "8광", "11광"), 4),
        (("1광", "3광", "8광", "11광", "12광"), 15),
    ],
)
def test_rule_17_brights(codes: tuple[str, ...], points: int) -> None:
    assert breakdown(ids(*codes)).bright == points


def test_rule_18_animals_and_godori() -> None:
    animals = ids("5열", "6열", "7열", "10열", "12열", "2열", "4열")
    assert breakdown(animals[:4]).animal == 0
    assert breakdown(animals[:5]).animal == 1
    assert breakdown(animals[:6]).animal == 2
    assert breakdown(animals).animal == 3
    assert breakdown(ids("2열", "4열")).godori == 0
    assert breakdown(ids("2열", "4열", "8열")).godori == 5
    assert breakdown(ids("2열", "4열", "12열")).godori == 0


def test_rule_19_ribbons_and_the_three_dan() -> None:
    assert breakdown(ids("1띠", "2띠", "4띠", "5띠")).ribbon == 0
    assert breakdown(ids("1띠", "2띠", "4띠", "5띠", "12띠")).ribbon == 1
    assert breakdown(ids("1띠", "2띠", "3띠")).dan == 3
    assert breakdown(ids("6띠", "9띠", "10띠")).dan == 3
    assert breakdown(ids("4띠", "5띠", "7띠")).dan == 3
    # The December ribbon is in no 단.
    assert breakdown(ids("1띠", "2띠", "12띠")).dan == 0
    all_dan = breakdown(ids("1띠", "2띠", "3띠", "6띠", "9띠", "10띠", "4띠", "5띠", "7띠"))
    assert (all_dan.dan, all_dan.ribbon) == (9, 5)


def test_rule_20_pi_value_9_scores_nothing_and_10_scores_one() -> None:
    assert breakdown(pi_worth(9)).pi == 0
    assert breakdown(pi_worth(10)).pi == 1
    assert breakdown(pi_worth(12)).pi == 3
    # 쌍피 count 2 each.
    assert breakdown([*pi_worth(6), *ids("11쌍피", "12쌍피")]).pi == 1


def test_rule_21_gukjin_counts_where_it_scores_higher_tie_animal() -> None:
    # 9 plain pi: as 쌍피 the 국진 makes 11 → 2 points; as an animal it adds nothing.
    pile = [*pi_worth(9), *ids("9열")]
    best = best_breakdown(pile)
    assert best.gukjin_as_double and best.pi == 2 and best.animals == 0
    # Four other animals: as an animal it makes 5 → 1 point; as 쌍피 pi 2 → 0. Animal wins.
    pile = ids("9열", "5열", "6열", "7열", "10열")
    best = best_breakdown(pile)
    assert not best.gukjin_as_double and best.animal == 1
    # Nothing either way: a tie, so it stays an animal.
    assert not best_breakdown(ids("9열")).gukjin_as_double


def test_rule_15_steal_order_lowest_value_first_and_animal_gukjin_never() -> None:
    pile = ids("B3", "B2a", "11쌍피", "1피a", "9열", "3피b")
    order = steal_order(pile, gukjin_as_double=False)
    assert [CARDS[i].code for i in order] == ["1피a", "3피b", "11쌍피", "B2a", "B3"]
    order = steal_order(pile, gukjin_as_double=True)
    assert [CARDS[i].code for i in order] == ["1피a", "3피b", "11쌍피", "9열", "B2a", "B3"]
    assert steal_order(ids("1광", "9열"), gukjin_as_double=False) == []


def test_rule_23_go_bonus_and_doubling_from_the_third_go() -> None:
    assert go_terms(0) == (0, 1)
    assert go_terms(1) == (1, 1)
    assert go_terms(2) == (2, 1)
    assert go_terms(3) == (3, 2)
    assert go_terms(4) == (4, 4)
    assert go_terms(5) == (5, 8)


def test_worked_total_pi_16_stop_is_7() -> None:
    sheet = settle(pi_worth(16), [])
    assert (sheet.base, sheet.total, sheet.baks) == (7, 7, ())


def test_worked_total_same_with_loser_holding_7_pi_is_14() -> None:
    winner = pi_worth(16)
    loser = [*PLAIN_PI[16:21], *ids("11쌍피")]  # 5 plain pi and a 쌍피
    assert breakdown(loser).pi_value == 7
    sheet = settle(winner, loser)
    assert (sheet.total, sheet.baks) == (14, ("pi-bak",))


@pytest.mark.parametrize(("loser_pi", "bak"), [(0, False), (1, True), (7, True), (8, False)])
def test_rule_24_pi_bak_boundaries(loser_pi: int, bak: bool) -> None:
    winner = pi_worth(12)
    loser = PLAIN_PI[12 : 12 + loser_pi]
    sheet = settle(winner, loser)
    assert ("pi-bak" in sheet.baks) is bak
    assert sheet.total == 3 * (2 if bak else 1)


def test_rule_24_pi_bak_needs_winner_pi_points() -> None:
    winner = ids("1광", "3광", "8광", "11광")
    sheet = settle(winner, PLAIN_PI[:3] + ids("12광"))
    assert sheet.baks == ()


def test_worked_total_three_brights_with_rain_and_pi_15_vs_empty_loser_is_16() -> None:
    winner = [*ids("1광", "3광", "12광"), *pi_worth(15)]
    sheet = settle(winner, [])
    assert sheet.breakdown.bright == 2 and sheet.breakdown.pi == 6
    assert sheet.baks == ("gwang-bak",)
    assert sheet.total == 16


def test_rule_24_gwang_bak_only_when_loser_has_no_bright() -> None:
    winner = ids("1광", "3광", "8광")
    assert settle(winner, ids("11광")).total == 3
    assert settle(winner, []).total == 6


def test_worked_total_seven_animals_with_godori_is_16() -> None:
    winner = ids("2열", "4열", "8열", "5열", "6열", "7열", "10열")
    sheet = settle(winner, [])
    assert sheet.breakdown.animal == 3 and sheet.breakdown.godori == 5
    assert sheet.baks == ("meong-tta",)
    assert sheet.total == 16


def test_rule_24_meong_tta_6_vs_7_animals() -> None:
    six = ids("2열", "4열", "8열", "5열", "6열", "7열")
    assert "meong-tta" not in settle(six, []).baks
    assert "meong-tta" in settle([*six, *ids("10열")], []).baks


def test_worked_total_three_goes_is_20() -> None:
    sheet = settle(pi_worth(16), [], winner_go=3)
    assert (sheet.base, sheet.go_bonus, sheet.multiplier, sheet.total) == (7, 3, 2, 20)


def test_worked_total_three_goes_with_go_bak_is_52() -> None:
    winner = pi_worth(19)
    sheet = settle(winner, [], winner_go=3, loser_go=1)
    assert sheet.base == 10
    assert sheet.baks == ("go-bak",)
    assert sheet.total == (10 + 3) * 2 * 2 == 52


def test_rule_24_shakes_bombs_and_nagari_carry_double() -> None:
    winner = pi_worth(16)
    assert settle(winner, [], shakes=1).total == 14
    assert settle(winner, [], shakes=1, bombs=1).total == 28
    assert settle(winner, [], nagari_carry=2).total == 28


def test_rule_21_loser_gukjin_placed_for_the_loser_not_for_a_smaller_payment() -> None:
    # Loser: 6 plain pi and the 국진. Both places score the loser 0: a tie, so it stays an
    # animal, their pi value is 6 and pi-bak applies (as 쌍피 it would have escaped at 8).
    winner = pi_worth(12)
    loser = [*PLAIN_PI[12:18], *ids("9열")]
    sheet = settle(winner, loser)
    assert sheet.baks == ("pi-bak",) and sheet.total == 3 * 2
    # Four more animals: as an animal the 국진 scores its owner 1 point (as 쌍피, 0), so it is
    # an animal even though that costs the loser pi-bak.
    loser = [*ids("2열", "4열", "5열", "6열", "9열"), *PLAIN_PI[12:18]]
    sheet = settle(pi_worth(16), loser)
    assert sheet.baks == ("pi-bak",) and sheet.total == 7 * 2
    # Loser holding only the 국진: as an animal they have no pi at all (exempt).
    assert settle(winner, ids("9열")).baks == ()


def test_rule_21_loser_gukjin_as_double_when_that_scores_them_more() -> None:
    # 9 plain pi and the 국진: as 쌍피 the loser scores 2 (pi value 11), so no pi-bak.
    loser = [*PLAIN_PI[10:19], *ids("9열")]
    assert settle(pi_worth(10), loser).baks == ()


def test_rule_21_winner_gukjin_placed_for_the_higher_score() -> None:
    # Six animals + 국진: as an animal it makes 7 animals (3 points, and meong-tta ×2).
    winner = ids("5열", "6열", "7열", "10열", "12열", "2열", "9열")
    sheet = settle(winner, [])
    assert not sheet.breakdown.gukjin_as_double
    assert sheet.total == 3 * 2
    # With 9 plain pi as well, as 쌍피 it scores 4 (2 animal + 2 pi) against 3 as an animal:
    # the score (rule 22's base score) decides, not the multipliers it would have brought.
    sheet = settle([*winner, *pi_worth(9)], [])
    assert sheet.breakdown.gukjin_as_double
    assert (sheet.base, sheet.baks, sheet.total) == (4, (), 4)
