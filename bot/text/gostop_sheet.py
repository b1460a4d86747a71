"""How a game of Go-Stop ended, said on its final table: the winner and how they won, and the
end in numbers, the winner's score sheet line by line as ``deckhand gostop score`` computes it
(rules 17-26), a chongtong's or three ppuks' points, or what a nagari makes the next game.

``plain`` gives the signs of a Discord table (``x2``, ``7 x 16``: a column lines up in every
font); the console (:mod:`bot.console.gostop`) passes ``plain=False`` for the seed's ``×``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import DEFAULT, t
from bot.text.gostop_words import Glossary, dan_names, say
from bot.text.width import PHONE_COLUMNS, columns
from rules.gostop.scoring import Settlement, go_terms
from rules.gostop.state import GostopView

__all__ = ["end_lines", "result_lines", "sheet_lines"]

_SHEET_COLUMNS = 30  # where a score sheet's numbers end
_BREAKDOWN = ("bright", "animal", "ribbon", "pi", "godori", "dan")


def end_lines(
    view: GostopView, names: Sequence[str], locale: str = DEFAULT, *, said: Glossary | None = None
) -> list[str]:
    """How the game ended, said on the final table: the winner and their score sheet (signs
    that line up on every client), a chongtong or three ppuks, or the nagari that doubles the
    next game."""
    result = view.result
    assert result is not None
    said = said or Glossary(locale)
    if not result.winners:
        lines = say(t("gostop.end.nagari", locale))
    else:
        winner = result.winners[0]
        reason = view.win_reason
        head = "gostop.end.stop" if reason == "stop" else f"gostop.end.{reason}"
        text = t(head, locale, name=names[winner], loser=names[1 - winner])
        if reason in _SPECIAL_TERMS:
            text = said(_SPECIAL_TERMS[reason], text)
        lines = say(text)
    lines += result_lines(view, locale, plain=True, said=said)
    # Instant points stay paid whatever happens later (rule 16): the winner's are on the
    # sheet, anyone else's are said here.
    kept = [
        t("gostop.end.instant_entry", locale, name=names[seat], points=view.instant[seat])
        for seat in (0, 1)
        if view.instant[seat] and seat not in result.winners
    ]
    if kept:
        joined = t("gostop.list_separator", locale).join(kept)
        lines += say(t("gostop.end.instant_kept", locale, points=joined))
    return lines


_SPECIAL_TERMS = {"chongtong": "chongtong", "three-ppuk": "ppuk"}  # a win's reason: its term


def result_lines(
    view: GostopView,
    locale: str = DEFAULT,
    *,
    plain: bool = False,
    said: Glossary | None = None,
) -> list[str]:
    """The end in numbers: the winner's score sheet (after a Stop or a forfeit), a chongtong's
    or three ppuks' points, or what a nagari makes the next game. ``plain``: the signs of a
    Discord table (``x2``), else the seed's ``×2`` (the console)."""
    result = view.result
    assert result is not None
    said = said or Glossary(locale)
    if not result.winners:
        return say(t("gostop.end.next_times", locale, times=2 << view.nagari_carry))
    winner = result.winners[0]
    if view.settlement is None:
        base = result.scores[winner] - view.instant[winner]
        term = _SPECIAL_TERMS[view.win_reason]
        label = said(term, t(f"gostop.sheet.{view.win_reason}", locale))
        return _special_sheet(
            label, base, view.nagari_carry, view.instant[winner], locale, plain=plain, said=said
        )
    return sheet_lines(
        view.settlement,
        locale,
        goes=view.goes[winner],
        shakes=view.shakes[winner],
        bombs=view.bombs[winner],
        nagari_carry=view.nagari_carry,
        instant=view.instant[winner],
        dans=dan_names(view.piles[winner], locale, said),
        plain=plain,
        said=said,
    )


def _rows(rows: Sequence[tuple[str, str]]) -> list[str]:
    """Score-sheet lines: each label, then its value ending at one column for all, the 30th
    or further right when a label needs it (never past a phone's 40)."""
    width = max([_SHEET_COLUMNS, *(columns(label) + 1 + columns(value) for label, value in rows)])
    width = min(width, PHONE_COLUMNS - 1)
    return [
        f" {label}{' ' * max(1, width - columns(label) - columns(value))}{value}"
        for label, value in rows
    ]


def _times(times: int, locale: str, plain: bool) -> str:
    """A multiplier's value: ``x2`` (``2배``) where a table must line up everywhere, the
    seed's ``×2`` in the console."""
    return t("gostop.sheet.times", locale, n=times) if plain else f"×{times}"


def _product(points: str, times: int, locale: str, plain: bool) -> str:
    if plain:
        return t("gostop.sheet.product", locale, points=points, times=times)
    return f"{points} × {times}"


def sheet_lines(
    sheet: Settlement,
    locale: str = DEFAULT,
    *,
    goes: int = 0,
    shakes: int = 0,
    bombs: int = 0,
    nagari_carry: int = 0,
    instant: int = 0,
    dans: Sequence[str] = (),
    plain: bool = False,
    said: Glossary | None = None,
) -> list[str]:
    """The winner's score sheet, line by line as ``deckhand gostop score`` computes it (rules
    17-26): points by kind (``dans``: the 단 made, by name), the base, the Go bonus, each
    multiplier and bak by name, the product, instant points and the total. ``plain``: ``x2``
    and ``7 x 16`` (a Discord table), else the seed's ``×``; ``said``: the terms the message
    has explained already (the rest are, in English, where the sheet first names them)."""
    said = said or Glossary(locale)
    pts = "gostop.sheet.pts"
    breakdown = sheet.breakdown.as_dict()
    named = ", ".join(dans)
    rows = []
    for kind in _BREAKDOWN:
        if breakdown[kind]:
            label = t(f"gostop.sheet.{kind}", locale, names=named)
            if kind == "godori":
                label = said("godori", label)
            rows.append((label, t(pts, locale, n=breakdown[kind])))
    rows.append((t("gostop.sheet.base", locale), t(pts, locale, n=sheet.base)))
    if sheet.go_bonus:
        label = t("gostop.sheet.go_bonus", locale, n=goes)
        rows.append((label, "+" + t(pts, locale, n=sheet.go_bonus)))
    _, go_times = go_terms(goes)
    factors: list[tuple[str, int]] = []
    if go_times > 1:
        factors.append((t("gostop.sheet.go_times", locale, n=goes), go_times))
    if shakes:
        factors.append((said("shake", t("gostop.sheet.shakes", locale, n=shakes)), 1 << shakes))
    if bombs:
        factors.append((said("bomb", t("gostop.sheet.bombs", locale, n=bombs)), 1 << bombs))
    factors += [(said(bak, t(f"gostop.bak.{bak}", locale)), 2) for bak in sheet.baks]
    if nagari_carry:
        label = said("nagari", t("gostop.sheet.nagari", locale, n=nagari_carry))
        factors.append((label, 1 << nagari_carry))
    rows += [(label, _times(times, locale, plain)) for label, times in factors]
    if sheet.multiplier > 1:
        points = f"({sheet.base} + {sheet.go_bonus})" if sheet.go_bonus else str(sheet.base)
        product = _product(points, sheet.multiplier, locale, plain)
        rows.append((product, "= " + t(pts, locale, n=sheet.total)))
    if instant:
        rows.append((t("gostop.sheet.instant", locale), "+" + t(pts, locale, n=instant)))
    rows.append((t("gostop.sheet.total", locale), t(pts, locale, n=sheet.total + instant)))
    return _rows(rows)


def _special_sheet(
    label: str,
    base: int,
    nagari_carry: int,
    instant: int,
    locale: str,
    *,
    plain: bool,
    said: Glossary,
) -> list[str]:
    """A chongtong's 10 or three ppuks' 7 (``label``): no in-game multiplier, but a carried
    nagari doubles them."""
    pts = "gostop.sheet.pts"
    points = base >> nagari_carry
    rows = [(label, t(pts, locale, n=points))]
    if nagari_carry:
        nagari = said("nagari", t("gostop.sheet.nagari", locale, n=nagari_carry))
        rows.append((nagari, _times(1 << nagari_carry, locale, plain)))
    if instant:
        rows.append((t("gostop.sheet.instant", locale), "+" + t(pts, locale, n=instant)))
    rows.append((t("gostop.sheet.total", locale), t(pts, locale, n=base + instant)))
    return _rows(rows)
