"""The message catalogs and the command translator."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import (
    ECHO_LIMIT,
    LANGUAGES,
    catalog,
    counted,
    echo,
    language,
    placeholders,
    refusal,
    t,
)
from bot.translator import DeckhandTranslator
from rules.engine import IllegalAction


def test_every_key_exists_in_every_language_with_the_same_placeholders() -> None:
    english = catalog("en")
    assert english, "the English catalog is empty"
    for lang in LANGUAGES:
        other = catalog(lang)
        assert sorted(other) == sorted(english), lang
        for key, text in english.items():
            assert placeholders(other[key]) == placeholders(text), (lang, key)
            assert other[key].strip(), (lang, key)


def test_korean_is_really_translated() -> None:
    english, korean = catalog("en"), catalog("ko")
    same = [
        key
        for key in english
        if english[key] == korean[key] and any(c.isalpha() for c in english[key])
    ]
    # Only names that read the same in both (none today) may be left as they are.
    assert len(same) <= len(english) // 20, same


@pytest.mark.parametrize(
    ("locales", "expected"),
    [
        (("ko",), "ko"),
        ((discord.Locale.korean,), "ko"),
        ((discord.Locale.american_english,), "en"),
        ((discord.Locale.french, discord.Locale.korean), "ko"),  # member's, then the guild's
        ((None, "ko"), "ko"),
        ((discord.Locale.french, None), "en"),
        ((), "en"),
    ],
)
def test_language_is_the_members_then_the_guilds_then_english(
    locales: tuple[object, ...], expected: str
) -> None:
    assert language(*locales) == expected


def test_t_fills_placeholders_in_the_chosen_language() -> None:
    assert t("turn.ping", "en-US", member="<@1>", seconds=30) == (
        "<@1>, it is your turn: 30 seconds left."
    )
    assert t("turn.ping", discord.Locale.korean, member="<@1>", seconds=30) == (
        "<@1> 님 차례예요. 30초 남았어요."
    )
    assert t("no.such.key", "ko") == "no.such.key"


def test_an_engine_refusal_is_translated_by_its_code_or_falls_back_to_its_reason() -> None:
    known = IllegalAction("Nope.", code="illegal")
    assert refusal(known, "ko") == catalog("ko")["illegal.illegal"]
    unknown = IllegalAction("You don't have ♠7.", code="no_such_code", card="♠7")
    assert refusal(unknown, "ko") == "You don't have ♠7."


def test_a_refusal_looks_for_its_games_words_first() -> None:
    # Blackjack's and Rummikub's engines both say "unknown_action", meaning different things.
    blackjack = IllegalAction("In Blackjack you can only Hit or Stand.", code="unknown_action")
    assert (
        refusal(blackjack, "ko", "blackjack") == catalog("ko")["illegal.blackjack.unknown_action"]
    )
    other = IllegalAction("Not a Rummikub operation.", code="unknown_action")
    assert refusal(other, "ko", "rummikub") == catalog("ko")["illegal.rummikub.unknown_action"]
    assert refusal(other, "ko") == "Not a Rummikub operation."
    shared = IllegalAction("Over.", code="game_over")
    assert refusal(shared, "ko", "uno") == catalog("ko")["illegal.game_over"]


def test_a_refusal_names_a_card_the_way_its_games_catalog_does() -> None:
    # Go-Stop's catalog names its cards (gostop.card.<code>); a code in a parameter is said so.
    missing = IllegalAction("You don't have 5피a.", code="not_in_hand", card="5피a")
    assert refusal(missing, "en", "gostop") == "You don't have May junk."
    assert refusal(missing, "ko", "gostop") == "5피 패가 손에 없어요."
    # A game whose catalog names no cards keeps the parameter as the engine gave it.
    onecard = IllegalAction("You don't have ♠7.", code="not_in_hand", card="♠7")
    assert refusal(onecard, "en", "onecard") == "You don't have ♠7."


def test_each_language_is_one_file_per_part_with_the_same_parts() -> None:
    from importlib import resources

    folders = {lang: resources.files("bot").joinpath("locales", lang) for lang in LANGUAGES}
    parts = {
        lang: sorted(e.name for e in folder.iterdir() if e.name.endswith(".json"))
        for lang, folder in folders.items()
    }
    assert parts["en"] == parts["ko"]
    assert {"core.json", "blackjack.json", "onecard.json"} <= set(parts["en"])


def test_a_key_in_two_files_of_one_language_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.i18n

    folder = tmp_path / "locales" / "en"
    folder.mkdir(parents=True)
    (folder / "core.json").write_text('{"a": "A", "b": "B"}', "utf-8")
    (folder / "uno.json").write_text('{"b": "Uno B"}', "utf-8")
    monkeypatch.setattr(bot.i18n.resources, "files", lambda package: tmp_path)
    bot.i18n.catalog.cache_clear()
    try:
        with pytest.raises(RuntimeError, match=r"'b' is in both core\.json and uno\.json"):
            bot.i18n.catalog("en")
    finally:
        monkeypatch.undo()
        bot.i18n.catalog.cache_clear()


async def test_the_translator_uses_catalog_keys() -> None:
    translator = DeckhandTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    keyed = app_commands.locale_str("Your hand", key="hand.title")
    assert await translator.translate(keyed, discord.Locale.korean, context) == "내 패"
    assert await translator.translate(keyed, discord.Locale.american_english, context) is None
    plain = app_commands.locale_str("hand")
    assert await translator.translate(plain, discord.Locale.korean, context) is None


async def test_the_translator_names_commands_and_options_from_name_keys() -> None:
    translator = DeckhandTranslator()
    location = app_commands.TranslationContextLocation
    for where in (location.command_name, location.group_name, location.parameter_name):
        context = app_commands.TranslationContext(where, None)
        name = app_commands.locale_str("settings")
        assert await translator.translate(name, discord.Locale.korean, context) == "설정"
        assert await translator.translate(name, discord.Locale.british_english, context) is None
        unknown = app_commands.locale_str("no_such_name")
        assert await translator.translate(unknown, discord.Locale.korean, context) is None
    # A description or a choice is never looked up by its text, only by its key.
    context = app_commands.TranslationContext(location.command_description, None)
    text = app_commands.locale_str("settings")
    assert await translator.translate(text, discord.Locale.korean, context) is None


def test_name_keys_are_the_english_name_and_a_name_discord_accepts() -> None:
    from bot.fakediscord.limits import check_commands

    names = {key: text for key, text in catalog("en").items() if key.startswith("name.")}
    assert names, "no command names in the catalog"
    for key, english in names.items():
        assert key == f"name.{english}"
        korean = catalog("ko")[key]
        command = {"name": english, "description": "d", "name_localizations": {"ko": korean}}
        assert check_commands([command]) == [], key


def test_what_a_member_typed_is_repeated_short_on_one_line_without_direction_tricks() -> None:
    typed = "\u202egnp.exe" + "x" * 500 + "\n\t@everyone\x00"
    shown = echo(typed)
    assert len(shown) == ECHO_LIMIT and shown.endswith("…")
    assert "\u202e" not in shown and "\n" not in shown and "\x00" not in shown
    assert echo("  ♠7  ") == "♠7"
    error = IllegalAction("Unknown card.", code="unknown_card", text=typed)
    refused = refusal(error, "ko", "onecard")
    assert shown in refused and "x" * ECHO_LIMIT not in refused
    # An engine's own sentence (no catalog entry) quoting the typed text is cut too.
    fallback = refusal(IllegalAction(f"Unknown '{typed}'.", code="nope"), "en")
    assert len(fallback) <= 300 and "\u202e" not in fallback


def test_what_a_member_typed_comes_back_as_written_not_as_markdown() -> None:
    from bot.i18n import echo

    for typed in ("[free nitro](https://x.y)", "# BIG", "**b** <@&1>", "-# tiny"):
        shown = echo(typed)
        unescaped = re.sub(r"\\.", "", shown)  # what markdown would still read
        assert "](" not in unescaped and not unescaped.startswith(("#", "-#"))
        assert "<@" not in unescaped and "**" not in unescaped
    error = IllegalAction("Unknown card.", code="unknown_card", text="[a](https://b.c)")
    assert "\\[a\\](https://b.c)" in refusal(error, "en", "gostop")
    assert echo("`x`", markdown=False) == "'x'"  # for inside inline code


_MENTION = re.compile(r"(?:^|[\s`(])/(\w+)(?: (\w+))?")


def command_mentions(lang: str) -> list[tuple[str, str, str]]:
    """(key, command, subcommand or "") of each slash command a ``lang`` text names."""
    found = []
    for key, text in catalog(lang).items():
        if key.startswith("name."):
            continue
        for command, sub in _MENTION.findall(text):
            found.append((key, command, sub))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_name_commands_as_the_reader_sees_them(lang: str) -> None:
    """A Korean client shows /game status as /게임 상태: a Korean text that says
    `/game status` names a command the reader cannot find."""
    names = {text for key, text in catalog(lang).items() if key.startswith("name.")}
    mentions = command_mentions(lang)
    assert len(mentions) >= 5, "the check finds the commands texts name"
    wrong = [
        (key, f"/{command} {sub}".strip())
        for key, command, sub in mentions
        if command not in names or (sub and sub.isascii() != command.isascii())
    ]
    assert wrong == []


def test_a_count_of_one_reads_in_the_singular_where_the_catalog_has_it() -> None:
    assert counted("uno.more_cards", 1, "en") == t("uno.more_cards.one", "en", n=1)
    assert counted("uno.more_cards", 3, "en") == t("uno.more_cards", "en", n=3)
    assert "1 cards" not in counted("uno.more_cards", 1, "en")
    assert counted("gostop.hand.count", 1, "ko") == "손패 1장"
    assert counted("error.storage", 1, "en") == t("error.storage", "en")  # no singular form
