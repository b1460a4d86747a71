"""Engine tools on the command line (``deckhand gostop ...``, ``deckhand rummikub ...``)."""
