"""``python -m bot`` is the ``deckhand`` command."""

from bot.cli import main

raise SystemExit(main())
