"""Persistence: the GameStore contract and its SQLite and PostgreSQL implementations."""
