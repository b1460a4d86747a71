"""The chaos soak's harness: the real bot process, the fake Discord, a real store, and
everything going wrong at once while simulated members play every game.

``python -m benchmarks.soak`` runs it (``make soak``); the tests of its checks
(``tests/soak/``) and other harnesses (``benchmarks/ceiling.py``, the PostgreSQL store tests)
import its pieces. By subject:

- :mod:`soak.process`: the bot as a child process (``python -m bot run`` pointed at the fake
  with ``DISCORD_API_URL``), killed with SIGKILL and started again, and its log read for errors;
- :mod:`soak.faults`: the seeded fault schedule and the faults themselves (Discord failing
  or slow, the gateway dropped, the store locked, the way to PostgreSQL cut by a :class:`Relay`);
- :mod:`soak.store`: the stored games read from outside, with the bot dead, and a
  PostgreSQL schema of the run's own;
- :mod:`soak.witness`: every message the bot posts, watched for leaks and double applies;
- :mod:`soak.members`: the members of each channel, playing each game as its adapter's
  :class:`~bot.games.SoakStrategy` says;
- :mod:`soak.run`: one run, its kills and the checks made at each;
- :mod:`soak.report`: the tally and the run's summary, with the counts that must be 0.

The counts that must be 0 (:data:`soak.report.COUNTS`):

- ``moves lost``: checked at every kill, with the bot dead: each channel's stored game is at
  least at the newest version the bot showed in public (a table's buttons carry its version),
  or it was ended (a public notice followed that table);
- ``double applies``: one button (one version) acknowledged in public twice, or two different
  public tables posted for one version;
- ``leaks``: a public message with the bot's token, an interaction token or a stack trace, or
  a public table naming a card that a hand menu offered at the same game version (one version
  is one position: a card cannot be both in a hand and on the table);
- ``limit violations``: what the fake says Discord would have refused (interactions the kill
  caught in flight excused: the member saw "interaction failed", which no bot can prevent);
- ``unhandled errors``: ERROR or CRITICAL lines and tracebacks in the bot's log;
- ``games stuck``: after the last restart, stored games the bot did not restore;
- ``refused yet written``: a save the bot reported failed ("nothing changed") that the store
  holds all the same, seen as the bot's next save of that channel meeting a version conflict
  (one process writes each channel under its lock, so nothing else can cause one; a kill
  cannot either: the new process reads what the store holds);
- ``global 429s``: requests over Discord's 50 a second for the bot (the fake's global limit
  is on unless ``--no-rate-limits``): each process keeps to its share, so none may reach it.
  The per-route 429s are reported by bucket beside them (``429s by bucket``): discord.py
  waits those out as Discord asks, so they are no failure;
- ``hidden replies``: public messages of the bot that Discord draws as a reply to a message
  other members cannot open (an interaction answered in private carrying a public post);
- ``tables stalled over 5 s``: tables the bot took over 5 s to send (the poster logs each),
  as a table waiting out a webhook's 429 would.

Reported beside them: the webhook 429s by kind (a token's bucket, a channel's webhook
messages; after a kill the new process cannot know what the old one spent, so it may meet
one and post another way) and the most invalid requests (401, 403, 429) any 10 minutes held,
which Discord bans at 10,000.

Nothing here names a game: a game's buttons and hand menus are played without more code.
"""
