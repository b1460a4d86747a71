"""Random sources: the fair seeded shuffle and the Microsoft C runtime's rand()."""

import json
from collections import Counter

from rules.rng import GameRandom, MsvcRand, new_seed


def test_msvc_rand_matches_the_c_runtime() -> None:
    # srand(1) on the Microsoft C runtime, as documented and as the Blackjack seed ran.
    rng = MsvcRand(1)
    assert [rng.rand() for _ in range(5)] == [41, 18467, 6334, 26500, 19169]


def test_msvc_rand_stays_in_range() -> None:
    rng = MsvcRand(100)
    assert all(0 <= rng.rand() <= MsvcRand.RAND_MAX for _ in range(10_000))


def test_same_seed_same_shuffle_and_different_seed_differs() -> None:
    deck_a, deck_b, deck_c = list(range(52)), list(range(52)), list(range(52))
    GameRandom(7).shuffle(deck_a)
    GameRandom(7).shuffle(deck_b)
    GameRandom(8).shuffle(deck_c)
    assert deck_a == deck_b
    assert deck_a != deck_c
    assert sorted(deck_a) == list(range(52))


def test_shuffle_is_fair_over_many_runs() -> None:
    # Each of the 6 orders of 3 items should come up about 1/6 of the time.
    rng = GameRandom(2024)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(12_000):
        items = [0, 1, 2]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 6
    assert all(1_700 < n < 2_300 for n in counts.values())


def test_state_survives_json_and_continues_identically() -> None:
    rng = GameRandom(99)
    rng.randbelow(10)
    saved = json.loads(json.dumps(rng.getstate()))
    expected = [rng.randbelow(1000) for _ in range(20)]
    again = GameRandom.from_state(saved)
    assert [again.randbelow(1000) for _ in range(20)] == expected
    assert again.seed == 99


def test_state_is_stored_compactly_and_older_saves_still_load() -> None:
    rng = GameRandom(7)
    rng.shuffle(list(range(52)))
    saved = rng.getstate()
    assert isinstance(saved["state"], str) and len(json.dumps(saved)) < 3_500
    version, words, gauss = rng._random.getstate()
    older = {"seed": 7, "version": version, "state": list(words), "gauss": gauss}
    expected = [rng.randbelow(1000) for _ in range(20)]
    for form in (saved, older):
        again = GameRandom.from_state(json.loads(json.dumps(form)))
        assert [again.randbelow(1000) for _ in range(20)] == expected


def test_unseeded_generators_get_distinct_secret_seeds() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100
    assert GameRandom().seed != GameRandom().seed
