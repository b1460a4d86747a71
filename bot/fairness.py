"""Fair play: provably fair deals for unseeded games, and seeded deals marked as practice.

An unseeded game is dealt from a secret seed the bot draws from the operating system, with a
random salt. When the cards are dealt, the table shows a *commitment*: the SHA-256 of the
game, the seed and the salt, shortened to :data:`SHOWN` hex digits. The seed stays secret
(it is in the stored game only) until the game ends; then the final table reveals the seed
and the salt, and anyone can recompute the commitment (``deckhand verify`` or ``/game
verify``) and deal the game again from that seed: the deck was fixed before the first move
and never changed. The salt keeps a commitment from being matched against precomputed seeds.

A seed a member chose deals a reproducible game (a bug report, a "same deal for everyone"
challenge); anyone could learn it in advance, so such a game is practice: it says so in
public and never counts in ``/stats`` or ``/leaderboard``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Final

from rules import rng

__all__ = ["SHOWN", "Secret", "commitment", "new_secret"]

SHOWN: Final = 16  # hex digits of the commitment shown: 64 bits, one phone line
SALT_BYTES: Final = 8


@dataclass(frozen=True, slots=True)
class Secret:
    """The seed of a fair deal and its salt, revealed only when the game ends."""

    seed: int
    salt: str

    def to_data(self) -> list[int | str]:
        """JSON-safe form, kept in the stored game."""
        return [self.seed, self.salt]

    @classmethod
    def from_data(cls, data: list[int | str]) -> Secret:
        """Inverse of :meth:`to_data`."""
        seed, salt = data
        return cls(int(seed), str(salt))


def new_secret() -> Secret:
    """A seed and a salt from the operating system's cryptographic source."""
    return Secret(rng.new_seed(), secrets.token_hex(SALT_BYTES))


def commitment(game: str, seed: int, salt: str) -> str:
    """What the first table shows: ``sha256("deckhand:<game>:<seed>:<salt>")``, shortened."""
    text = f"deckhand:{game}:{seed}:{salt}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:SHOWN]
