"""One Card on Discord: the cog comes later; :mod:`cogs.onecard.render` holds the pure text."""
