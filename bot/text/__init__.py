"""The text of each game: pure functions from engine views and events to strings.

Both the Discord cogs and the seed-faithful consoles import these modules, so a table reads
the same wherever it is drawn; nothing here talks to Discord or reads a hidden card from the
state (views and events only).
"""
