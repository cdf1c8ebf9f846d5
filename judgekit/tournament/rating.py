"""VEKN rating points of one event (tournament rules, Appendix A).

Per tournament a player earns 5 RtP for attending, 4 per VP scored, 8 per game won (a
preliminary GW or the victory in the final), and finalists a bonus of 90 (winner) or 30
(other finalists) times a coefficient that grows with the number of players:

    coef = log15(players²) − 1   (+ the level's bonus: 0.25 for a national championship and,
                                  as Archon has it, a continental qualifier; 1.0 for a
                                  continental championship — `levels.LEVELS`)

A player's rating sums their best 8 events of the last 18 months (`rating`).
Pure functions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Iterable

from judgekit.tournament import levels as levels_mod

ATTENDANCE = 5
PER_VP = 4
PER_GW = 8
FINALIST_POINTS = {"winner": 90, "finalist": 30}
LEVEL_BONUS = {lv.key: lv.bonus for lv in levels_mod.LEVELS}  # the one table: levels.py
BEST_EVENTS = 8
WINDOW_MONTHS = 18


def coefficient(players: int, level: str = "standard") -> float:
    """log15(players²) − 1, plus the bonus of `level` (a key of `levels.LEVELS`)."""
    if players < 1:
        raise ValueError("a tournament has at least one player")
    if level not in LEVEL_BONUS:
        raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVEL_BONUS)}")
    return math.log(players ** 2, 15) - 1 + LEVEL_BONUS[level]


def finalist_bonus(players: int, finish: str | None, level: str = "standard") -> int:
    """The finalist bonus, rounded to the nearest whole point (halves up)."""
    if finish not in FINALIST_POINTS:
        return 0
    return math.floor(FINALIST_POINTS[finish] * coefficient(players, level) + 0.5)


@dataclass(frozen=True)
class EventRating:
    attendance: int
    vp_points: float
    gw_points: int
    finalist_bonus: int
    total: float

    def to_dict(self) -> dict:
        return dict(vars(self))


def event_rating(vp: float, gw: int, players: int, finish: str | None = None,
                 level: str = "standard") -> EventRating:
    """Rating points of one player for one event.

    `vp` and `gw` are the player's totals for the event (the final included; the final's
    winner counts a GW), `finish` is "winner", "finalist" or None.
    """
    bonus = finalist_bonus(players, finish, level)
    vp_points = PER_VP * vp
    gw_points = PER_GW * gw
    total = ATTENDANCE + vp_points + gw_points + bonus
    return EventRating(ATTENDANCE, vp_points, gw_points, bonus, total)


def rating(events: Iterable[tuple[date, float]], today: date) -> float:
    """A player's rating: the sum of the best 8 event totals of the last 18 months."""
    start = _months_before(today, WINDOW_MONTHS)
    recent = sorted((pts for when, pts in events if start <= when <= today), reverse=True)
    return sum(recent[:BEST_EVENTS])


def _months_before(day: date, months: int) -> date:
    y, m = divmod(day.year * 12 + day.month - 1 - months, 12)
    m += 1
    last = [31, 29 if y % 4 == 0 and (y % 100 or y % 400 == 0) else 28, 31, 30, 31, 30,
            31, 31, 30, 31, 30, 31][m - 1]
    return date(y, m, min(day.day, last))
