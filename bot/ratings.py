"""Ratings from the stored results: what ``/leaderboard`` ranks and ``/stats`` shows.

A table of one member and computers proves nothing about that member against people, and
a count of wins rewards whoever plays most: so a game counts towards a rating only when at
least two members played it, and the rating is a skill estimate (``openskill``'s
Plackett-Luce model: a mean and its uncertainty, ranked by ``mean - 3 × uncertainty``), not
a sum. Games against computers are counted apart, as practice. Blackjack is played against
the House, not against the table: it is ranked by the share of hands won, once a member has
played :data:`MIN_HOUSE_HANDS`.

Everything here is computed from the stored results (:meth:`GameStore.game_results`), in
the order the games ended: nothing is kept of it, so it survives restarts and is the same
whenever it is recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.games import GameCatalog, Scores
from bot.store.base import GameRecord, SeatResult

__all__ = [
    "HOUSE_GAMES",
    "MIN_HOUSE_HANDS",
    "Standing",
    "leaderboard",
    "practice",
    "standings",
]

# Played against the House (Blackjack), as each game's adapter says: ranked by hands won.
HOUSE_GAMES = frozenset(game.name for game in GameCatalog.discover() if game.scores is Scores.HOUSE)
MIN_HOUSE_HANDS = 20  # hands a member plays before a win share is ranked


@dataclass(frozen=True, slots=True)
class Standing:
    """One member's standing in one game."""

    member_id: int
    mu: float  # the skill estimate (openskill starts everyone at 25)
    sigma: float  # its uncertainty (8.33 at first, smaller with every rated game)
    versus_members: int  # games with at least two members: the rated ones
    versus_computers: int  # games with one member: practice, shown apart
    wins: int  # every game counted (a House game's hands won)
    played: int

    @property
    def ordinal(self) -> float:
        """What ranks members: the skill one can be sure of (mean less three deviations)."""
        return self.mu - 3 * self.sigma

    @property
    def win_share(self) -> float:
        """Share of games (Blackjack: hands) won."""
        return self.wins / self.played if self.played else 0.0


def standings(game: str, records: Iterable[GameRecord]) -> dict[int, Standing]:
    """Every member's standing in ``game`` from its results, oldest first."""
    model = PlackettLuce()
    ratings: dict[int, PlackettLuceRating] = {}
    members_games: dict[int, int] = {}
    computer_games: dict[int, int] = {}
    wins: dict[int, int] = {}
    played: dict[int, int] = {}
    for record in records:
        seated = [seat for seat in record.seats if seat.member_id is not None]
        members = {seat.member_id for seat in seated}
        for seat in seated:
            member = seat.member_id
            assert member is not None
            played[member] = played.get(member, 0) + 1
            wins[member] = wins.get(member, 0) + (seat.outcome == "win")
            counted = members_games if len(members) >= 2 else computer_games
            counted[member] = counted.get(member, 0) + 1
        if game in HOUSE_GAMES or len(members) < 2:
            continue
        teams = [[ratings.setdefault(member, model.rating())] for member in _members(seated)]
        rated = model.rate(teams, ranks=_places(seated))
        for seat, [rating] in zip(seated, rated, strict=True):
            assert seat.member_id is not None
            ratings[seat.member_id] = rating
    fresh = model.rating()
    return {
        member: Standing(
            member,
            ratings.get(member, fresh).mu,
            ratings.get(member, fresh).sigma,
            members_games.get(member, 0),
            computer_games.get(member, 0),
            wins.get(member, 0),
            played[member],
        )
        for member in played
    }


def _members(seats: Sequence[SeatResult]) -> list[int]:
    return [seat.member_id for seat in seats if seat.member_id is not None]


def _places(seats: Sequence[SeatResult]) -> list[float]:
    """Each seat's place for the rating: the stored rank, except that the winners share the
    first place and drawn seats share one place (engines order tied seats by seat number,
    and a tie must not rate as a win)."""
    drawn = min((s.rank for s in seats if s.outcome == "draw"), default=0)
    return [
        1.0 if s.outcome == "win" else float(drawn) if s.outcome == "draw" else float(s.rank)
        for s in seats
    ]


def leaderboard(game: str, found: dict[int, Standing], limit: int = 10) -> list[Standing]:
    """The ranked members: by rating over games between members (best sure skill first),
    or for a House game by the share of hands won among those with enough hands."""
    if game in HOUSE_GAMES:
        ranked = [s for s in found.values() if s.played >= MIN_HOUSE_HANDS]
        ranked.sort(key=lambda s: (-s.win_share, -s.played, s.member_id))
    else:
        ranked = [s for s in found.values() if s.versus_members]
        ranked.sort(key=lambda s: (-s.ordinal, -s.versus_members, s.member_id))
    return ranked[:limit]


def practice(game: str, found: dict[int, Standing], limit: int = 10) -> Sequence[Standing]:
    """Members whose games of ``game`` were all against computers, most games first: shown
    apart from the ranking (nothing for a House game, whose every hand is ranked)."""
    if game in HOUSE_GAMES:
        return []
    alone = [s for s in found.values() if not s.versus_members and s.versus_computers]
    alone.sort(key=lambda s: (-s.versus_computers, s.member_id))
    return alone[:limit]
