"""Seed-faithful console programs (``deckhand play <game>``)."""
