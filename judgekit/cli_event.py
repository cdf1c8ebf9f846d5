"""The event's data commands: `export` (standings, seating, penalties, the VEKN string,
the Archon workbook, results), `import` (an Archon workbook, a list of players), `codes` and
`demo`. `judgekit.cli` attaches them to `main`.
"""
from __future__ import annotations

import json

import click

from judgekit.auth import store as auth_store
from judgekit.auth.roles import ROLES
from judgekit.cli_shared import Fail, _, instance_option, on_db, open_migrated
from judgekit.netinfo import lan_addresses
from judgekit.tournament import store
from judgekit.tournament.archon_file import MAX_BYTES
from judgekit.tournament.demo import create_demo
from judgekit.tournament.penalties import store as pstore
from judgekit.tournament.penalties.export import csv_text


#: The options several commands share (click's option decorators, each usable on any command).
tournament_option = click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
round_option = click.option("--round", "round_no", type=int, default=None, help="One round (default: every round).")
format_option = click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)


@click.group()
def export() -> None:
    """Export a tournament's data: standings, seating, results, penalties (CSV or JSON), the
    VEKN results string, the Archon workbook."""


def _export_rows(ctx: click.Context, tournament: int, fmt: str, columns, rows_of) -> None:
    rows = on_db(ctx, rows_of)
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
    else:  # the web's writer: spreadsheet-safe cells, the header even when there is no row
        click.echo(csv_text(columns, rows), nl=False)


@export.command("standings")
@tournament_option
@format_option
@instance_option
@click.pass_context
def export_standings(ctx: click.Context, tournament: int, fmt: str) -> None:
    """Standings (after the final: the final ranking, with rating points)."""
    _export_rows(ctx, tournament, fmt, store.STANDINGS_COLUMNS, lambda db: store.standings_rows(db, tournament))


@export.command("seating")
@tournament_option
@round_option
@format_option
@instance_option
@click.pass_context
def export_seating(ctx: click.Context, tournament: int, round_no: int | None, fmt: str) -> None:
    """Seating: round, table, seat, player, VEKN number."""

    def rows_of(db):
        store.get_tournament(db, tournament)
        numbers = [round_no] if round_no else [r["number"] for r in store.rounds(db, tournament)]
        return [row for n in numbers for row in store.seating_rows(db, tournament, n)]
    _export_rows(ctx, tournament, fmt, store.SEATING_COLUMNS, rows_of)


@export.command("penalties")
@tournament_option
@format_option
@click.option("--excel", is_flag=True, help="CSV with a byte-order mark, for Excel.")
@instance_option
@click.pass_context
def export_penalties(ctx: click.Context, tournament: int, fmt: str, excel: bool) -> None:
    """Penalty records: one row per record (issue, amend, lift, approve), spreadsheet-safe."""
    if fmt == "csv":
        text = on_db(ctx, lambda db: pstore.export_csv(db, tournament, bom=excel))
    else:
        text = json.dumps(on_db(ctx, lambda db: pstore.export_json(db, tournament)), ensure_ascii=False, indent=1) + "\n"
    click.echo(text, nl=False)


@export.command("vekn")
@tournament_option
@instance_option
@click.pass_context
def export_vekn(ctx: click.Context, tournament: int) -> None:
    """The VEKN results string ("archondata"), refused while a player lacks a VEKN number."""
    rep = on_db(ctx, lambda db: store.vekn_report(db, tournament))
    if rep.refusal:
        raise Fail(_(rep.refusal))
    if rep.problems:
        raise Fail(_("the VEKN refuses a report unless every player has a VEKN number: %(players)s",
                     players="; ".join(f"{p['name']} ({p['problem']})" for p in rep.problems)))
    click.echo(rep.text)


@export.command("archon")
@tournament_option
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, writable=True),
              help="The .xlsx file to write.")
@instance_option
@click.pass_context
def export_archon(ctx: click.Context, tournament: int, output: str) -> None:
    """The Archon workbook (v1.5 layout, .xlsx) of a tournament."""
    data = on_db(ctx, lambda db: store.archon_workbook(db, tournament))
    try:
        with open(output, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise Fail(_("cannot write %(file)s: %(why)s", file=output, why=exc.strerror or exc))
    click.echo("judgekit: " + _("wrote %(file)s (%(kilobytes)s KB)", file=output, kilobytes=f"{len(data) / 1024:.0f}"),
               err=True)


@export.command("results")
@tournament_option
@round_option
@format_option
@instance_option
@click.pass_context
def export_results(ctx: click.Context, tournament: int, round_no: int | None, fmt: str) -> None:
    """Results per round: round, table, seat, player, VEKN, VP, GW, TP (one row per seat)."""
    _export_rows(ctx, tournament, fmt, store.RESULTS_COLUMNS, lambda db: store.results_rows(db, tournament, round_no))


@click.group("import")
def import_() -> None:
    """Bring data in: an Archon workbook as a new event, a list of players into an event."""


@import_.command("archon")
@click.argument("workbook", type=click.Path(exists=True, dir_okay=False))
@click.option("--organizer", default=None, help="The organizer's name (signs in with the organizer code).")
@instance_option
@click.pass_context
def import_archon(ctx: click.Context, workbook: str, organizer: str | None) -> None:
    """Create an event from an Archon workbook (.xlsx, v1.5 layout); prints its id and codes."""
    with open(workbook, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    db = open_migrated(ctx)
    try:
        # the event and its codes in one transaction: a crash leaves both or neither
        out = store.import_workbook(db, data, organizer=organizer, then=lambda tid: auth_store.issue_codes(db, tid))
        issued = out["then"]
    except store.TournamentError as exc:
        problems = exc.extra.get("problems") or []
        for line in problems[1:]:
            click.echo(f"judgekit: {_(line)}", err=True)
        raise Fail(_(exc.msg))
    finally:
        db.close()
    for note in out["notes"]:
        click.echo("judgekit: " + _("note: %(note)s", note=_(note)), err=True)
    click.echo("judgekit: " + _("tournament %(tournament)s imported — open %(address)s", tournament=out["tournament"],
                                address=f"/tournaments/{out['tournament']}"))
    click.echo(_("sign-in codes: %(codes)s", codes=", ".join(f"{role} {code}" for role, code in issued.items())))


@import_.command("players")
@click.argument("listing", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@tournament_option
@click.option("--check-in", "check_in", is_flag=True, help="Check them in as well (they are here).")
@instance_option
@click.pass_context
def import_players(ctx: click.Context, listing: str, tournament: int, check_in: bool) -> None:
    """Register a list of players (CSV or one per line; all or nothing)."""
    with click.open_file(listing, "rb") as fh:
        data = fh.read(5 * 1024 * 1024 + 1)
    if len(data) > 5 * 1024 * 1024:
        raise Fail(_("%(file)s is larger than 5 MB: that is not a list of players", file=listing))
    db = open_migrated(ctx)
    try:
        added = store.register_roster(db, tournament, data, checked_in=check_in, by="command line")
    except store.TournamentError as exc:
        for p in exc.extra.get("problems") or []:
            problem = _(p["message"])
            click.echo("judgekit: " + (_("line %(line)s: %(problem)s", line=p["line"], problem=problem) if p["line"]
                                       else problem), err=True)
        raise Fail(_(exc.msg))
    finally:
        db.close()
    click.echo("judgekit: " + (_("%(count)s players registered in tournament %(tournament)s and checked in",
                                 count=len(added), tournament=tournament) if check_in else
                               _("%(count)s players registered in tournament %(tournament)s",
                                 count=len(added), tournament=tournament)))


@click.command()
@tournament_option
@click.option("--role", type=click.Choice(["all", "judge", "head_judge", "organizer"]), default="all",
              show_default=True)
@instance_option
@click.pass_context
def codes(ctx: click.Context, tournament: int, role: str) -> None:
    """Issue new sign-in codes for a tournament and print them (the old ones stop working)."""
    issued = on_db(ctx, lambda db: auth_store.issue_codes(db, store.get_tournament(db, tournament)["id"],
                                                          ROLES if role == "all" else (role,)))
    for r, code in issued.items():
        click.echo(f"{r:<11} {code}")
    click.echo(_("sign in at %(address)s", address=f"/tournaments/{tournament}/sign-in"), err=True)


@click.command()
@click.option("--seed", default=2024, show_default=True, type=int, help="Seed of the random results.")
@instance_option
@click.pass_context
def demo(ctx: click.Context, seed: int) -> None:
    """Create a small demo tournament (12 players, 3 rounds played, final ready)."""
    db = open_migrated(ctx)
    try:
        tid = create_demo(db, seed=seed)
        issued = auth_store.issue_codes(db, tid)
    finally:
        db.close()
    address = f"http://127.0.0.1:5000/tournaments/{tid}"
    click.echo("judgekit: " + _("demo tournament %(tournament)s created — start `judgekit serve`, then open "
                                "%(address)s", tournament=tid, address=address))
    for lan in lan_addresses()[:1]:
        click.echo("judgekit: " + _("from a phone on the same network: %(address)s",
                                    address=f"http://{lan}:5000/tournaments/{tid}"))
    click.echo(_("sign-in codes: %(codes)s", codes=", ".join(f"{role} {code}" for role, code in issued.items())))
    if issued.get("organizer"):
        click.echo(_("organizer: open %(address)s and sign in with %(code)s", address=address, code=issued["organizer"]))
