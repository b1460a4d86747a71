"""Rummikub: the engine for rules/rummikub.md.

Tiles and their parser (:mod:`rules.rummikub.tiles`), set checking with reasons
(:mod:`rules.rummikub.sets`) and the exact solver (:mod:`rules.rummikub.solver`).
"""
