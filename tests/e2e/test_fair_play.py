"""Fair play through the real bot: a fair deal's commitment at the deal, its seed revealed
only at the end and checked with ``/game verify``; a seeded deal marked as practice.

Every game offered in Discord is covered by being listed in ``GAMES_PLAYED``.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import pytest

from bot.fairness import commitment
from bot.fakediscord import FakeDiscord
from bot.i18n import t
from bot.verify import options_code
from rules.onecard import PlayCard, State
from rules.onecard.ai import choose_action
from tests.e2e.deckhand_tables import settled, whose_turn

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

SECRET_SEED = 7270349581932761301  # the operating system's "random" seed, fixed for the test


async def test_a_fair_deal_is_committed_revealed_at_the_end_and_verifies(
    deckhand: Deckhand,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import rules.rng

    monkeypatch.setattr(rules.rng, "new_seed", lambda: SECRET_SEED)
    caplog.set_level(logging.INFO)
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        opened = await fake.slash(alice, fake.channel, "onecard start", players=2, bots=1)
        assert not opened.ephemeral, opened.text
        first = await settled(fake, bot, fake.channel)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.secret is not None
        salt = session.secret.salt
        shown = commitment("onecard", SECRET_SEED, salt)
        assert t("fair.commit", "en", commitment=shown) in first.text
        hand = await fake.click(alice, first, "Hand")
        first_hand = hand.text
        for _ in range(300):  # Alice plays as the computer would, by commands
            session = bot.sessions.get(fake.channel.id)
            if session is None:
                break
            assert isinstance(session.state, State)
            if whose_turn(bot, fake.channel) != alice.id:
                await settled(fake, bot, fake.channel)
                continue
            action = choose_action(session.state.view(0))
            if isinstance(action, PlayCard):
                options = {"card": action.card.code}
                if action.suit is not None:
                    options["suit"] = action.suit.value
                played = await fake.slash(alice, fake.channel, "onecard play", **options)
            else:
                played = await fake.slash(alice, fake.channel, "onecard take")
            assert not played.ephemeral, played.text
        else:
            raise AssertionError("the game did not end")
        final = fake.public_messages(fake.channel)[-1]
        command = f"/game verify game:One Card seed:{SECRET_SEED} salt:{salt} players:2"
        revealed = t("fair.reveal", "en", seed=SECRET_SEED, salt=salt, command=command)
        assert final.text.endswith(f"```\n{revealed}")  # read last, under the final table
        # Nothing before the end showed the seed or the salt: no message, public or private,
        # no log line.
        for message in fake.messages.values():
            if message.id != final.id:
                assert str(SECRET_SEED) not in message.text and salt not in message.text
        assert str(SECRET_SEED) not in caplog.text and salt not in caplog.text
        # /game verify with what the end revealed: the same commitment, the same first hand.
        checked = await fake.slash(
            alice, fake.channel, "game verify", game="onecard", seed=str(SECRET_SEED),
            salt=salt, players=2,
        )  # fmt: skip
        assert checked.ephemeral
        assert t("verify.result", "en", commitment=shown) in checked.text
        dealt = re.findall(r"\d+:(?:[♠♥♦♣]\w+|\w+ joker)", first_hand)  # 1:♠10 2:Black joker
        assert dealt and all(card in checked.text for card in dealt)
        changed = await fake.slash(
            alice, fake.channel, "game verify", game="onecard", seed=str(SECRET_SEED + 1),
            salt=salt, players=2,
        )  # fmt: skip
        assert t("verify.result", "en", commitment=shown) not in changed.text
        refused = await fake.slash(
            alice, fake.channel, "game verify", game="onecard", seed="-1", salt=salt
        )
        assert refused.ephemeral and refused.text.startswith("That is no deal to check")
        # A fair game counts.
        stats = await bot.store.member_stats(fake.guild.id, alice.id)
        assert stats.games["onecard"]["played"] == 1 and stats.practice == {}


async def test_a_seeded_table_says_practice_and_commits_to_nothing(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice", locale="ko")
    fake.guild.locale = "ko"
    async with deckhand.run() as bot:
        opened = await fake.slash(alice, fake.channel, "onecard start", players=2, bots=1, seed=9)
        assert t("fair.seeded", "ko", seed=9) in opened.text
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.secret is None  # nothing to commit to
        ended = await fake.slash(alice, fake.channel, "game end")
        assert ended.ephemeral  # not a moderator
        assert bot.sessions.get(fake.channel.id) is not None


async def test_an_uno_tables_revealed_options_fit_game_verify(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """The options a final table reveals are typed back into /game verify as a short code
    in the reader's words. While the table still plays that deal, /game verify refuses it
    (it would show every hand); once ended, it says in words whether the commitment the
    first table showed matches."""
    fake = fake_discord
    alice = fake.add_member("alice")
    mod = fake.add_member("mod", moderator=True)
    async with deckhand.run() as bot:
        opened = await fake.slash(
            alice, fake.channel, "uno start", players=2, bots=1, stacking=True, jump_in=True
        )
        assert not opened.ephemeral, opened.text
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.secret is not None
        revealed = options_code("uno", session.options, "en")
        assert revealed == "jump_in,ruleset=official,stacking"
        secret = session.secret
        shown = commitment("uno", secret.seed, secret.salt)
        asked = {
            "game": "uno", "seed": str(secret.seed), "salt": secret.salt, "players": 2,
            "options": revealed,
        }  # fmt: skip
        early = await fake.slash(alice, fake.channel, "game verify", **asked)
        reason = t("verify.running", "en")
        assert early.ephemeral and early.text == t("verify.refused", "en", reason=reason)
        ended = await fake.slash(mod, fake.channel, "game end")
        assert not ended.ephemeral, ended.text
        assert ended.text.endswith(f" options:{revealed}`")
        checked = await fake.slash(
            alice, fake.channel, "game verify", **asked, commitment=f"`{shown}`"
        )
        assert checked.ephemeral and t("verify.result", "en", commitment=shown) in checked.text
        assert t("verify.match", "en") in checked.text
        wrong = await fake.slash(
            alice, fake.channel, "game verify", **asked, commitment="0123456789abcdef"
        )
        assert t("verify.no_match", "en", given="0123456789abcdef") in wrong.text
