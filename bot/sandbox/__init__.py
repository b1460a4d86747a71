"""Try Deckhand without Discord: a local imitation of Discord and a web page to play in it.

:mod:`.run` is ``deckhand sandbox``; :mod:`.server` the page's API over the imitation;
``static/`` the page itself (plain HTML, CSS and JavaScript, nothing fetched from the
internet).
"""
