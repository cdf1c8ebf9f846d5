"""Sign-in codes and API tokens of each tournament, stored hashed (tables `auth_codes`,
`auth_tokens`).

- A tournament has one code per role (judge, head judge, organizer). Issuing codes again
  replaces the old ones: the role's `generation` goes up, which signs out every session
  and revokes every token made with an older code of that role.
- A token is made at sign-in through the API (name + code) and carries the tournament,
  role, name and generation; only its SHA-256 is kept.

Pure domain code over the database: no Flask. Bad input returns None/False, never raises.
"""
from __future__ import annotations

from datetime import datetime, timezone


from judgekit.auth import codes as codes_mod
from judgekit.auth.roles import ROLES
from judgekit.db import first_row, transaction

T_CODES = "auth_codes"
T_TOKENS = "auth_tokens"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _code_row(db, tournament_id: int, role: str) -> dict | None:
    """The role's code row (read on every signed-in request: a plain query, without
    sqlite-utils' table lookups)."""
    return first_row(db, f"SELECT * FROM {T_CODES} WHERE tournament_id = ? AND role = ? LIMIT 1",
                     [tournament_id, role])


def issue_codes(db, tournament_id: int, roles=ROLES) -> dict[str, str]:
    """New codes for `roles` (all three by default): {role: plain code}. Shown once; any
    earlier code of those roles stops working and its sessions and tokens with it."""
    out: dict[str, str] = {}
    with transaction(db):
        for role in roles:
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}")
            code = codes_mod.new_code(role)
            row = _code_row(db, tournament_id, role)
            if row is None:
                db[T_CODES].insert({"tournament_id": tournament_id, "role": role,
                                    "code_hash": codes_mod.hash_code(code), "generation": 1,
                                    "created_at": now()})
            else:
                db[T_CODES].update(row["id"], {"code_hash": codes_mod.hash_code(code),
                                               "generation": row["generation"] + 1,
                                               "created_at": now()})
                db.execute(f"update {T_TOKENS} set revoked_at = ? where tournament_id = ? and role = ? "
                           "and revoked_at is null", [now(), tournament_id, role])
            out[role] = code
    return out


def has_codes(db, tournament_id: int) -> bool:
    return _code_row(db, tournament_id, ROLES[0]) is not None


def check_code(db, tournament_id: int, code: str | None) -> tuple[str, int] | None:
    """(role, generation) when `code` is this tournament's code for some role, else None."""
    role = codes_mod.role_of(code)
    if role is None:
        return None
    row = _code_row(db, tournament_id, role)
    if row is None or not codes_mod.verify_code(code, row["code_hash"]):
        return None
    return role, row["generation"]


def generation(db, tournament_id: int, role: str) -> int | None:
    row = _code_row(db, tournament_id, role)
    return row["generation"] if row else None


def issue_token(db, tournament_id: int, role: str, name: str, gen: int | None = None) -> str:
    """A new bearer token for `name` with `role` in the tournament (plain text, shown once)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    gen = gen if gen is not None else (generation(db, tournament_id, role) or 0)
    token = codes_mod.new_token()
    db[T_TOKENS].insert({"tournament_id": tournament_id, "role": role, "name": name,
                         "token_hash": codes_mod.hash_token(token), "generation": gen,
                         "created_at": now()})
    return token


def identify_token(db, token: str | None) -> dict | None:
    """{"tournament", "role", "name", "token_id"} for a valid token; None when unknown,
    revoked, or made with a code that has since been replaced."""
    if not token or not str(token).startswith(codes_mod.TOKEN_PREFIX):
        return None
    rows = list(db[T_TOKENS].rows_where("token_hash = ?", [codes_mod.hash_token(token)], limit=1))
    if not rows or rows[0]["revoked_at"]:
        return None
    row = rows[0]
    current = generation(db, row["tournament_id"], row["role"])
    if current is None or row["generation"] != current:
        return None
    return {"tournament": row["tournament_id"], "role": row["role"], "name": row["name"],
            "token_id": row["id"]}


def revoke_token(db, token: str | None) -> bool:
    """Revoke one token (sign out of the API). False when it was not a valid token."""
    who = identify_token(db, token)
    if who is None:
        return False
    db[T_TOKENS].update(who["token_id"], {"revoked_at": now()})
    return True


def session_valid(db, tournament_id: int, role: str, gen: int | None) -> bool:
    """Whether a signed-in session made with generation `gen` of the role's code still holds."""
    current = generation(db, tournament_id, role)
    return current is not None and gen == current
