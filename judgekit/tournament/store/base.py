"""The tournament store's common ground: table names, the error type, the readers every
write builds on, the input cleaners, and the two neighbours the store talks to (the
recorder, whose games are the tables, below it; the penalties area, which adjusts standings:
above it, asked through the hooks it registers, `PenaltyHooks`).

Pure domain code: no Flask. Bad input raises `TournamentError(status, message, field)`.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Sequence

from judgekit.db import first_row
from judgekit.errors import MAX_INT, AppError, parse_int
from judgekit.i18n import N_, Message
from judgekit.inputs import visible_text
from judgekit.recorder import store as recorder_store
from judgekit.game.clock import MIN_ROUND_MIN
from judgekit.tournament import players as players_mod
from judgekit.tournament import rating as rating_mod

MIN_TIME_LIMIT = MIN_ROUND_MIN  # minutes (3.1.1), the recorder's clock's fact
MAX_LEN = {"tournament": 200, "player": 80, "note": 500, "reason": 1000, "place": 80, "judges": 300}
MIN_REASON = 5  # characters: an override's or a correction's written reason
LEVELS = tuple(rating_mod.LEVEL_BONUS)  # the keys of `levels.LEVELS`
STATES = (N_("in-progress"), N_("finished"), N_("invalid"), N_("overridden"))   # shown as _(state)
T_TOURNAMENTS = "tournaments"
T_PLAYERS = "tournament_players"
T_ROUNDS = "tournament_rounds"
T_TABLES = "tournament_tables"
T_SEATS = "tournament_seats"
T_RESULTS = "tournament_results"
T_SEAT_CHANGES = "tournament_seat_changes"
T_TOSSES = "tournament_tosses"
T_FINAL = "tournament_final_choices"
T_PLAYER_CHANGES = "tournament_player_changes"  # edits and check-ins, with who and how


class TournamentError(AppError):
    """Bad input or a request that cannot be carried out; `status` is the HTTP status (the
    fields of `judgekit.errors.AppError`: the app answers it like any other)."""



@contextmanager
def _unique(message: str, field: str | None = None):
    """Turn a unique-index violation (two clicks racing) into a 409 with `message`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if "UNIQUE" not in str(exc):
            raise
        raise TournamentError(409, message, field)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def create_game(db, seats: list[str], **kw) -> int:
    """The recorder game of one table."""
    if kw.get("label"):
        kw["label"] = kw["label"][:200]
    try:
        return recorder_store.create_game(db, seats, **kw)
    except recorder_store.GameError as exc:  # bad arguments
        raise TournamentError(400, Message("tournament.recorder-refused-table", "the recorder refused the table: "
                                           "%(field)s: %(reason)s", field=exc.field, reason=exc.why))


def game_outcome(db, game_id: int | None) -> dict | None:
    """`{"seats", "finished", "events"}` of a recorder game, or None if there is none."""
    if game_id is None:
        return None
    try:
        return recorder_store.game_outcome(db, game_id)
    except LookupError:
        return None


@dataclass(frozen=True)
class PenaltyHooks:
    """What the store asks of the penalties area, which sits above it (it reads and writes
    tournaments through this package) and registers these at import
    (`judgekit.tournament.penalties.store`): the approved VP penalties in force, the
    disqualified players, and the catalog ids a tournament may choose."""
    standing_adjustments: Callable[[Any, int], Iterable[dict]]
    disqualified_players: Callable[[Any, int], Iterable[int]]
    catalog_ids: Callable[[], list[str]]


_penalty_hooks: PenaltyHooks | None = None


def register_penalties(hooks: PenaltyHooks) -> None:
    """The penalties area tells the store how to ask it (called once, at its import)."""
    global _penalty_hooks
    _penalty_hooks = hooks


def penalties() -> PenaltyHooks:
    """The registered hooks; the penalties area is part of every app, so none is a mistake of
    the caller (import `judgekit.tournament.penalties.store`), not "no penalties"."""
    if _penalty_hooks is None:
        raise RuntimeError("the penalties area is not registered: import judgekit.tournament.penalties.store")
    return _penalty_hooks


def standing_adjustments(db, tournament_id: int) -> list[dict]:
    """Approved VP penalties in force: `[{"player_id": id, "vp": -1, "record": id}, ...]`."""
    return list(penalties().standing_adjustments(db, tournament_id))


def disqualified_players(db, tournament_id: int) -> set[int]:
    """Ids of players an approved penalty in force removed from the event."""
    return set(penalties().disqualified_players(db, tournament_id))


def _row(db, table: str, where: str, params: Sequence[Any]) -> dict | None:
    # a plain query (every signed-in request reads its tournament): sqlite-utils' rows_where
    # looks the table up in sqlite_master first
    return first_row(db, f"SELECT * FROM [{table}] WHERE {where} LIMIT 1", params)


def _int_id(value: Any, what: str) -> int:
    """An id (`errors.parse_int`), or a 404: nothing can have a malformed or huge id."""
    n = parse_int(value)
    if n is None:
        raise TournamentError(404, _no_such(what, repr(value)))
    return n


def _no_such(what: str, shown: str) -> Message:
    """"no round '7x'": the 404 of an id that names nothing."""
    if what == "tournament":
        return Message("tournament.no-tournament", "no tournament %(id)s", id=shown)
    if what == "player":
        return Message("tournament.no-player-id", "no player %(id)s", id=shown)
    if what == "round":
        return Message("tournament.no-round-id", "no round %(id)s", id=shown)
    return Message("tournament.no-table-id", "no table %(id)s", id=shown)


def get_tournament(db, tournament_id: Any) -> dict:
    tid = _int_id(tournament_id, "tournament")
    row = _row(db, T_TOURNAMENTS, "id = ?", [tid])
    if row is None:
        raise TournamentError(404, Message("tournament.no-tournament", "no tournament %(id)s", id=tournament_id))
    row["has_final"] = bool(row["has_final"])
    row["finalists"] = json.loads(row["finalists"]) if row.get("finalists") else None
    return row


# Kept in the tournament's row for the server's own use, never sent: the check-in secret
# makes the code shown at the venue (`judgekit.tournament.checkin`).
SECRET_FIELDS = ("checkin_secret", "client_id")   # client_id: a retried create signs its sender in


def without_secrets(t: dict) -> dict:
    """The tournament's row as an answer may show it (`SECRET_FIELDS` left out)."""
    return {k: v for k, v in t.items() if k not in SECRET_FIELDS}


def list_tournaments(db) -> list[dict]:
    if not db[T_TOURNAMENTS].exists():
        return []
    return [without_secrets(t) for t in db.query(
        f"select t.*, (select count(*) from {T_PLAYERS} p where p.tournament_id = t.id) as players "
        f"from {T_TOURNAMENTS} t order by t.id desc")]


def _player(row: dict) -> dict:
    """A player row as the area shows it: flags as bools, `rated` (has a VEKN number),
    `vekn_temporary` (the number is a temporary "P…" one, to be replaced)."""
    row["checked_in"] = bool(row["checked_in"])
    row["dropped"] = bool(row["dropped"])
    row["rated"] = bool(row["vekn"])
    row["vekn_temporary"] = players_mod.is_temporary(row["vekn"])
    return row


def players(db, tournament_id: int) -> list[dict]:
    return [_player(p) for p in db[T_PLAYERS].rows_where("tournament_id = ?", [tournament_id], order_by="id")]


def get_player(db, tournament_id: int, player_id: Any) -> dict:
    pid = _int_id(player_id, "player")
    row = _row(db, T_PLAYERS, "id = ? and tournament_id = ?", [pid, tournament_id])
    if row is None:
        raise TournamentError(404, Message("tournament.no-player", "no player %(player)s in tournament %(tournament)s",
                                           player=player_id, tournament=tournament_id))
    return _player(row)


def rounds(db, tournament_id: int) -> list[dict]:
    out = []
    for r in db[T_ROUNDS].rows_where("tournament_id = ?", [tournament_id], order_by="number"):
        r["sit_outs"] = json.loads(r["sit_outs"] or "[]")
        out.append(r)
    return out


def get_round(db, tournament_id: int, number: Any) -> dict:
    n = _int_id(number, "round")
    r = _row(db, T_ROUNDS, "tournament_id = ? and number = ?", [tournament_id, n])
    if r is None:
        raise TournamentError(404, Message("tournament.no-round", "no round %(round)s in tournament %(tournament)s",
                                           round=number, tournament=tournament_id))
    r["sit_outs"] = json.loads(r["sit_outs"] or "[]")
    return r


def _seats_of_round(db, round_id: int) -> dict[int, dict]:
    """Tables of a round by id: {table_id: {"number", "size", "game_id", "players": [...]}}."""
    tables: dict[int, dict] = {}
    for t in db[T_TABLES].rows_where("round_id = ?", [round_id], order_by="number"):
        tables[t["id"]] = {**t, "players": []}
    if tables:
        marks = ",".join("?" * len(tables))
        for s in db.query(f"select * from {T_SEATS} where table_id in ({marks}) order by table_id, seat",
                          list(tables)):
            tables[s["table_id"]]["players"].append(s["player_id"])
    return tables


def round_tables(db, tournament_id: int, number: Any) -> list[list[int]]:
    """The seating of a round: player ids per table, in seat order."""
    r = get_round(db, tournament_id, number)
    return [t["players"] for t in _seats_of_round(db, r["id"]).values()]


def _clean_text(value: Any, field: str, *, required: bool = False, max_len: int = 200) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise TournamentError(400, Message("input.required", "%(field)s is required", field=field), field)
        return None
    if not isinstance(value, (str, int)):
        raise TournamentError(400, Message("input.not-text", "%(field)s must be text", field=field), field)
    text = visible_text(str(value))   # no direction override nor zero-width character in a name
    if not text and required:
        raise TournamentError(400, Message("input.required", "%(field)s is required", field=field), field)
    if len(text) > max_len:
        raise TournamentError(400, Message("input.too-long", "%(field)s is too long (at most %(max)s characters)",
                                           field=field, max=max_len), field)
    return text or None


def _clean_int(value: Any, field: str, lo: int, hi: int, default: int | None = None) -> int | None:
    """A whole number from `lo` to `hi` (`errors.parse_int`), `default` when not given, or a
    400 naming the field."""
    if value is None or value == "":
        return default
    n = parse_int(value, lo, hi)
    if n is None:
        raise TournamentError(400, Message("tournament.must-whole-number-from", "%(field)s must be a whole number from %(lo)s to %(hi)s", field=field, lo=lo, hi=hi), field)
    return n


def _seed(value: Any) -> int:
    """A random seed as given (0 to 2**63 - 1: it is stored), or a fresh one."""
    if value is None or value == "":
        return secrets.randbelow(2**31)
    return _clean_int(value, "seed", 0, MAX_INT)


def _clean_bool(value: Any, field: str, default: bool | None = None) -> bool:
    """A JSON true/false (`default` when not given), or a 400 naming the field: "false",
    0 or ["x"] are not booleans (the web forms turn their text into bools first)."""
    if value is None and default is not None:
        return default
    if not isinstance(value, bool):
        raise TournamentError(400, Message("tournament.must-true-or-false-not", "%(field)s must be true or false, not %(value)s", field=field, value=repr(value)), field)
    return value


def _last_round_number(db, tournament_id: int) -> int:
    row = db.execute(f"select max(number) from {T_ROUNDS} where tournament_id = ?", [tournament_id]).fetchone()
    return row[0] or 0


def _prelims_done(db, t: dict) -> bool:
    """All planned preliminary rounds are played and closed."""
    prelims = _prelim_rounds(db, t["id"])
    return len(prelims) >= t["rounds_planned"] and all(r["status"] == "closed" for r in prelims)


def _prelim_rounds(db, tournament_id: int) -> list[dict]:
    return [r for r in rounds(db, tournament_id) if r["kind"] == "prelim"]


NO_FINAL_MAX = 7  # 3.1.6: only a tournament of fewer than 8 players may omit the final


def _refuse_no_final_at(t: dict, active: int, doing: str) -> None:
    """3.1.6: a tournament without a final has fewer than 8 players in every round."""
    if not t["has_final"] and active > NO_FINAL_MAX:
        raise TournamentError(409, Message("tournament.would-make-round-players-but", "%(doing)s would make a round of %(active)s players, but this tournament is played without a final: only a tournament of fewer than 8 players may omit the final (3.1.6)", doing=doing, active=active), rule="3.1.6")


def _final_started(db, t: dict) -> bool:
    return bool(t.get("finalists"))


def _final_round(db, tournament_id: int) -> dict | None:
    return next((r for r in rounds(db, tournament_id) if r["kind"] == "final"), None)
