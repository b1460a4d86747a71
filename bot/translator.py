"""Slash commands in the member's language: Discord asks the bot for each name, description
and choice in every locale at the command sync (discord.py's ``app_commands.Translator``).

Kept apart from :mod:`bot.i18n`, which knows nothing of Discord: the text layer
(``bot/text/``) renders through the catalogs alone.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT, catalog, language

__all__ = ["NAME_LOCATIONS", "DeckhandTranslator"]

# Where Discord shows a name: a command, a group or an option.
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class DeckhandTranslator(app_commands.Translator):
    """Translates what carries a catalog ``key``, and names through ``name.<english name>``.

    Names need no key at each command: one catalog entry per word (``name.start``) names
    that word in every game's commands, so a new command only needs its catalog line.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalog text for ``string``'s key in ``locale``, if Deckhand has it."""
        key = string.extras.get("key")
        if key is None and context.location in NAME_LOCATIONS:
            key = f"name.{string.message}"
        lang = language(locale)
        if key is None or lang == DEFAULT:
            return None  # the English text is the command's own
        return catalog(lang).get(key)
