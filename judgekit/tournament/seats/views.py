"""Players see their seat (no sign-in: opened from the QR code poster at the venue).

Public pages (thin: read the store, ask `seat_lookup`, render):
- `/tournaments/<id>/seats` — "Find your table" for the round seated last (the poster's
  address: one poster serves the whole day);
- `/tournaments/<id>/rounds/<n>/seats` — the same for round n (`?q=` looks a name up; with
  `part=results` only the answer's HTML, which seats.js asks for as the player types);
- `/tournaments/<id>/rounds/<n>/seats/list` — every player by name → table and seat, printable
  for the wall.
For the organizer (signed in): `/tournaments/<id>/seats/poster` and its QR code
`/tournaments/<id>/seats/qr.svg`.

These pages show names, tables and seats only: no VEKN number, no VP, no status, no code.
"""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request, url_for

from judgekit import qr
from judgekit.auth.views import requires
from judgekit.tournament import seat_lookup
from judgekit.tournament import store
from judgekit.views import get_db, venue_url

bp = Blueprint("seats", __name__)


def _rounds(db, tid: int) -> list[dict]:
    return [store.public_round(r) for r in store.rounds(db, tid)]


def _render(t: dict, number: int | None, *, current: bool):
    """The lookup page (or only its answer, `part=results`) for round `number`."""
    db = get_db()
    query, _ = seat_lookup.read_query(request.args.get("q"))   # as read: 80 characters at most
    r, room, lookup = None, None, None
    if number is not None:
        unseated = store.unseated_round(db, t["id"], number)
        if unseated is not None:
            r = unseated
        else:
            r, room = store.round_seating(db, t["id"], number)
            lookup = seat_lookup.find(room, query)
    action = url_for("seats.current", tid=t["id"]) if current else \
        url_for("seats.lookup", tid=t["id"], n=number)
    context = dict(t=t, r=r, room=room, lookup=lookup, query=query, action=action, current=current)
    if request.args.get("part") == "results":
        body = render_template("tournament/_seat_results.html", **context)
        return Response(body, mimetype="text/html", headers={"Cache-Control": "no-store"})
    latest = store.latest_round(db, t["id"])
    return render_template("tournament/seats.html", rounds=_rounds(db, t["id"]), latest=latest, **context)


@bp.get("/tournaments/<id:tid>/seats")
def current(tid):
    """Find your table in the round seated last (a readable message before round 1)."""
    db = get_db()
    t = store.get_tournament(db, tid)
    return _render(t, store.latest_round(db, t["id"]), current=True)


@bp.get("/tournaments/<id:tid>/rounds/<id:n>/seats")
def lookup(tid, n):
    """Find your table in round n; a round still to come says so, an unknown one is a 404."""
    t = store.get_tournament(get_db(), tid)
    return _render(t, n, current=False)


@bp.get("/tournaments/<id:tid>/rounds/<id:n>/seats/list")
def by_name(tid, n):
    """Every player of round n by name, with table and seat: the sheet for the wall."""
    db = get_db()
    t = store.get_tournament(db, tid)
    unseated = store.unseated_round(db, t["id"], n)
    if unseated is not None:
        return render_template("tournament/seats_list.html", t=t, r=unseated, groups=[], count=0)
    r, room = store.round_seating(db, t["id"], n)
    return render_template("tournament/seats_list.html", t=t, r=r, groups=seat_lookup.alphabetical(room),
                           count=len(room.places()))


@bp.get("/tournaments/<id:tid>/seats/poster")
@requires("tournament.view")
def poster(tid):
    """A page to print and put up: the QR code of the lookup page (the round seated last)."""
    t = store.get_tournament(get_db(), tid)
    return render_template("tournament/seats_poster.html", t=t, share=venue_url("seats.current", tid=t["id"]))


@bp.get("/tournaments/<id:tid>/seats/qr.svg")
@requires("tournament.view")
def poster_qr(tid):
    """The QR code of the lookup page's venue address (a grey square when phones could not
    reach it: `venue_url` says why, on the poster page)."""
    t = store.get_tournament(get_db(), tid)
    share = venue_url("seats.current", tid=t["id"])
    body = qr.svg(share["url"], title="Find your table") if share["url"] else qr.placeholder("No venue address")
    return Response(body, mimetype="image/svg+xml", headers={"Cache-Control": "private, no-cache"})
