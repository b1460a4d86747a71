"""Random sources. Every game owns its generator; nothing here touches the global ``random``."""

from __future__ import annotations

import base64
import random
import secrets
import sys
from array import array
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, TypeVar

__all__ = ["GameRandom", "MsvcRand", "new_seed"]

T = TypeVar("T")

SEED_BITS = 63
_WORD = "I" if array("I").itemsize == 4 else "L"  # a 32-bit unsigned word in ``array``


def new_seed() -> int:
    """A seed from the operating system's cryptographic source, for games nobody seeded."""
    return secrets.randbits(SEED_BITS)


class GameRandom:
    """A game's own generator: seeded, fair, and saved whole in snapshots.

    ``shuffle`` is the Fisher–Yates shuffle over unbiased ``randbelow`` draws.
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int = new_seed() if seed is None else seed
        self._random = random.Random(self.seed)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return self._random.randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        """A uniform pick from a non-empty sequence."""
        return items[self._random.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates)."""
        randbelow = self._random.randrange
        for i in range(len(items) - 1, 0, -1):
            j = randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def random(self) -> float:
        """A float in ``[0, 1)``."""
        return self._random.random()

    def float_source(self) -> Callable[[], float]:
        """The generator's own ``random``: for a loop drawing many floats, one call fewer
        per draw than :meth:`random` (the Go-Stop deal's shuffle draws 50)."""
        return self._random.random

    def getstate(self) -> dict[str, Any]:
        """JSON-safe generator state: the Mersenne Twister's 625 words as base64 of
        little-endian 32-bit words (3.3 KB, where a list of numbers took 7.4 KB of every
        stored game and 625 int objects to read back)."""
        version, internal, gauss = self._random.getstate()
        words = array(_WORD, internal)
        if sys.byteorder == "big":
            words.byteswap()
        state = base64.b64encode(words.tobytes()).decode("ascii")
        return {"seed": self.seed, "version": version, "state": state, "gauss": gauss}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> GameRandom:
        """Rebuild a generator saved by :meth:`getstate` (or by its older form, the state
        as a list of numbers)."""
        rng = cls(int(data["seed"]))
        saved = data["state"]
        if isinstance(saved, str):
            words = array(_WORD)
            words.frombytes(base64.b64decode(saved))
            if sys.byteorder == "big":
                words.byteswap()
            saved = words
        rng._random.setstate((int(data["version"]), tuple(saved), data["gauss"]))
        return rng


class MsvcRand:
    """The Microsoft C runtime's ``rand()``, which the Blackjack seed program ran on.

    ``srand(seed)`` sets the state; each call steps
    ``state = state * 214013 + 2531011 (mod 2**32)`` and returns ``(state >> 16) & 0x7FFF``.
    """

    __slots__ = ("state",)

    MULTIPLIER = 214013
    INCREMENT = 2531011
    RAND_MAX = 0x7FFF

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def rand(self) -> int:
        """The next value in ``[0, 32767]``."""
        self.state = (self.state * self.MULTIPLIER + self.INCREMENT) & 0xFFFFFFFF
        return (self.state >> 16) & self.RAND_MAX
