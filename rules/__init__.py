"""Pure game engines: no Discord, no asyncio, no I/O.

Every game is a package here (``rules/blackjack``, ``rules/onecard`` ...) following the
contract in :mod:`rules.engine`. Shared building blocks: :mod:`rules.cards` (French cards
with jokers) and :mod:`rules.rng` (the random sources).
"""
