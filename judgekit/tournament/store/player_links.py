"""A player's own link: the address only that player holds, from which they report and
confirm their table's result (`self_report`).

A link carries a random token (`secrets.token_urlsafe`, 128 bits: it cannot be guessed).
Only the token's SHA-256 is stored, one row per link given (`tournament_player_links`,
append-only), with how it was given (`check-in`: the player's own phone at check-in;
`desk`: a judge or the organizer gave it) and by whom. A player's newest link is the one
that works: giving a new one (a lost phone) makes every older link of theirs "replaced".

`resolve` answers a token with the player, or says plainly why not (unknown, replaced, the
player dropped or disqualified). Pure domain code: no Flask.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any

from judgekit.errors import parse_int
from judgekit.i18n import Message
from judgekit.tournament.store import base
from judgekit.tournament.store.base import TournamentError, get_tournament, now

T_LINKS = "tournament_player_links"
TOKEN_BYTES = 16
MAX_TOKEN = 100
HOWS = ("check-in", "desk")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def path_for(tournament_id: int, token: str) -> str:
    """The link's path (the page a player opens)."""
    return f"/tournaments/{tournament_id}/me/{token}"


def issue(db, tournament_id: Any, player_id: Any, *, how: str = "desk", by: str | None = None) -> dict:
    """A new link for a player (their older links stop working). Returns `{"token",
    "path", "player_id", "name"}`: the token is shown once, here; only its hash is kept."""
    t = get_tournament(db, tournament_id)
    pid = parse_int(player_id, 1)
    if pid is None:
        raise TournamentError(400, Message("links.bad-player-id", "player_id must be a player's id"), "player_id")
    player = base.get_player(db, t["id"], pid)   # 404 when not of this event
    if how not in HOWS:
        raise TournamentError(400, Message("links.bad-how", "how must be one of %(hows)s", hows=", ".join(HOWS)), "how")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    db[T_LINKS].insert({"tournament_id": t["id"], "player_id": player["id"], "token_hash": _hash(token),
                        "how": how, "by": by, "created_at": now()})
    return {"token": token, "path": path_for(t["id"], token), "player_id": player["id"], "name": player["name"]}


def resolve(db, tournament_id: Any, token: Any) -> dict:
    """The player a link belongs to (`base.players`' row, plus `link_id`), or a
    TournamentError: 404 for a link that was never given (a guess, a typo), 410 for a link
    replaced by a newer one, 409 for a player who no longer plays in the event."""
    t = get_tournament(db, tournament_id)
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN or not token.isascii():
        raise TournamentError(404, Message("links.unknown", "This player link is not known here: check the address, "
                                           "or ask at the desk for your link."), "token", reason="unknown")
    row = db.execute(f"select id, player_id from {T_LINKS} where tournament_id = ? and token_hash = ?",
                     [t["id"], _hash(token)]).fetchone()
    if row is None:
        raise TournamentError(404, Message("links.unknown", "This player link is not known here: check the address, "
                                           "or ask at the desk for your link."), "token", reason="unknown")
    newest = db.execute(f"select max(id) from {T_LINKS} where tournament_id = ? and player_id = ?",
                        [t["id"], row[1]]).fetchone()[0]
    if newest != row[0]:
        raise TournamentError(410, Message("links.replaced", "This player link was replaced by a newer one: use the "
                                           "link you were given last, or ask at the desk."), "token", reason="replaced")
    player = base.get_player(db, t["id"], row[1])
    if player["dropped"] or player["id"] in base.disqualified_players(db, t["id"]):
        raise TournamentError(409, Message("links.not-playing", "%(player)s is not playing on in this event: ask at "
                                           "the desk.", player=player["name"]), "token", reason="not-playing")
    return dict(player, link_id=row[0])


def links_given(db, tournament_id: Any) -> dict[int, dict]:
    """{player id: `{"at", "how", "by", "count"}` of their newest link} (for the desk)."""
    t = get_tournament(db, tournament_id)
    out: dict[int, dict] = {}
    for r in db.query(f"select player_id, how, \"by\", created_at from {T_LINKS} where tournament_id = ? "
                      "order by id", [t["id"]]):
        count = out.get(r["player_id"], {}).get("count", 0) + 1
        out[r["player_id"]] = {"at": r["created_at"], "how": r["how"], "by": r["by"], "count": count}
    return out
