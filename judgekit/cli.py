"""The `judgekit` command: serve, build, search, check, export, import, demo, cards.

Every command is a thin wrapper over the same domain functions the web app uses. Errors
end with one line on stderr and a non-zero exit. What a person reads (errors, summaries,
notes) goes through the catalog (`_`), in the language of the environment's locale
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when a catalog has it, else English; what a program
reads (JSON, CSV, codes, addresses) is not translated.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import sys
import threading
import time
from typing import Any, Mapping

import click

from judgekit import collector, i18n, paths
from judgekit.i18n import Message
from judgekit.netinfo import is_local_host, lan_addresses


def locale_preferences(environ: Mapping[str, str]) -> list[tuple[str, float]]:
    """The languages the environment asks for, best first, as `i18n.negotiate` takes them:
    GNU's LANGUAGE list (`fr:de`), then the first of LC_ALL, LC_MESSAGES, LANG that is set
    (`fr_FR.UTF-8` → `fr_FR`); the C and POSIX locales ask for none (English)."""
    wanted: list[str] = []
    locale = next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)), "")
    if locale and locale.split(".")[0] not in ("C", "POSIX"):
        wanted += [tag for tag in environ.get("LANGUAGE", "").split(":") if tag]
    wanted.append(locale)
    tags = [tag.split(".")[0].split("@")[0] for tag in wanted]
    tags = [tag for tag in tags if tag and tag not in ("C", "POSIX")]
    return [(tag, 1.0 - i / 100) for i, tag in enumerate(tags)]


def catalog() -> i18n.Catalog:
    """The catalog of the environment's language (English when it has none)."""
    found = i18n.catalogs()
    return found[i18n.negotiate(locale_preferences(os.environ), found)]


def _(msgid: str | Message, **params: Any) -> str:
    """A line for people in the environment's language: a catalog id (the English text,
    `%(name)s` placeholders filled from `params`) or a `Message` the domain returned (a
    domain's plain English text is looked up as its own id, as the web's error pages do)."""
    if isinstance(msgid, Message):
        return msgid.render(catalog())
    return catalog().render(msgid, **params)


class Fail(click.ClickException):
    """One-line error, exit status 1."""

    def show(self, file=None):
        click.echo(f"judgekit: {self.format_message()}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--instance", envvar="JUDGEKIT_INSTANCE", type=click.Path(file_okay=False),
              default=None, help="Instance folder (database, index, secret). Default ./instance.")
@click.version_option(package_name="judgekit")
@click.pass_context
def main(ctx: click.Context, instance: str | None) -> None:
    """judgekit — the judge's companion for VTES tournaments."""
    from judgekit import logs

    logs.configure()  # warnings and errors on stderr with their time (`serve --verbose`: requests)
    ctx.obj = {"instance": instance}


def _instance_after(ctx: click.Context, _param, value: str | None) -> None:
    if value is not None:
        ctx.obj["instance"] = value


def instance_option(command):
    """`--instance DIR` accepted after the subcommand too (`judgekit serve --instance DIR`),
    as well as before it; the one given last wins."""
    return click.option("--instance", type=click.Path(file_okay=False), default=None, expose_value=False,
                        callback=_instance_after, is_eager=True,
                        help="Instance folder (as `judgekit --instance DIR …`).")(command)


def make_app(ctx: click.Context, quiet: bool = False):
    from judgekit import create_app

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"judgekit: {message}", err=True)

    from judgekit.db import SchemaError

    try:
        return create_app({"INSTANCE": ctx.obj["instance"]}, progress=progress)
    except SchemaError as exc:
        raise Fail(str(exc))


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on: 0.0.0.0, every network of this machine, so that phones at the venue "
                   "connect; 127.0.0.1 for this machine only.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64),
              help="Worker threads answering requests (a live page's open stream holds none).")
@click.option("--connections", default=None, type=click.IntRange(50, 10000),
              help="Most requests open at once, live pages' streams included (default 1000).")
@click.option("--verbose", "-v", is_flag=True, help="Log one line per request (time, method, path, status).")
@instance_option
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, threads: int, connections: int | None,
          verbose: bool) -> None:
    """Start the app on a production server (uvicorn). Ctrl-C stops it."""
    from judgekit import logs, malloc
    from judgekit.live import serving

    if verbose:
        logs.configure(verbose=True)
    malloc.tune()  # before any thread: sign-ins' scrypt blocks are given back (judgekit/malloc.py)
    started = time.perf_counter()
    app = make_app(ctx)
    collector.settle()  # the rules, the cards and their index, kept to the end: out of the collector's walks
    app.config["LISTEN_HOST"] = host  # the pages' share links say when phones cannot connect

    def ready(server) -> None:   # the address is bound: only now is there something to open
        bound = server.port
        click.echo("judgekit: " + _("ready in %(seconds)ss (instance %(instance)s)",
                                    seconds=f"{time.perf_counter() - started:.2f}", instance=app.instance_path),
                   err=True)
        for line in start_lines(host, bound):
            click.echo(f"judgekit: {line}", err=True)

    if threading.current_thread() is threading.main_thread():   # (signals reach the main thread only)
        signal.signal(signal.SIGTERM, _stop)
    try:
        # live streams (the room display, judges' pages) are coroutines fed by the hub: no
        # worker thread each (judgekit/live/serving.py, docs/live.md)
        serving.serve(app, host=host, port=port, threads=threads, connections=connections, ready=ready)
    except OSError as exc:
        raise Fail(listen_failure(host, port, exc))
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then passes the signal on
        pass
    click.echo("judgekit: " + _("stopped"), err=True)  # Ctrl-C, or SIGTERM from a service manager


def _stop(signum, frame) -> None:
    """SIGTERM (a service manager's stop) ends `serve` as Ctrl-C does: quietly, exit 0."""
    raise KeyboardInterrupt


def start_lines(host: str, port: int, addresses: list[str] | None = None) -> list[str]:
    """What `judgekit serve` says once it listens: the address to open on this machine and
    the one phones at the venue use (this machine's venue-network address), or why phones
    cannot connect and what to do."""
    everywhere = host in ("0.0.0.0", "::", "")
    local = f"http://{'127.0.0.1' if everywhere or is_local_host(host) else host}:{port}/"
    lines = [_("open %(address)s on this machine", address=local)]
    if is_local_host(host):
        lines.append(_("only this machine can connect (--host 127.0.0.1): table cards, the check-in QR code and the "
                       "seat poster have no address phones can open; start without --host for the venue network"))
        return lines
    if not everywhere:
        lines.append(_("phones on the venue network: %(address)s", address=f"http://{host}:{port}/"))
    else:
        found = lan_addresses() if addresses is None else addresses
        for address in found:
            lines.append(_("phones on the venue network: %(address)s — the table cards, the check-in QR code and "
                           "the seat poster carry it", address=f"http://{address}:{port}/"))
        if not found:
            lines.append(_("no venue network found: connect this machine to the venue's Wi-Fi; the pages show the "
                           "address phones use once it is connected (reload them)"))
    lines.append(_("a phone keeps an offline copy only over https:// (or on this machine); recorder entries made "
                   "offline are kept either way (docs/offline.md)"))
    return lines


def listen_failure(host: str, port: int, exc: OSError) -> str:
    """The one line `judgekit serve` ends with when it cannot listen."""
    where = f"{host}:{port}"
    if exc.errno == errno.EADDRINUSE:
        return _("cannot listen on %(where)s: the port is in use (another judgekit, or another program): "
                 "stop it, or start on another port with --port %(port)s",
                 where=where, port=port + 1 if port < 65535 else 5000)
    if exc.errno == errno.EACCES:
        return _("cannot listen on %(where)s: not allowed on this port: start on another one with --port 5000",
                 where=where)
    return _("cannot listen on %(where)s: %(why)s: check --host (an address of this machine, or 0.0.0.0) and "
             "--port", where=where, why=exc.strerror or exc)


@main.command()
@click.option("--force", is_flag=True, help="Rebuild the search index even if content did not change.")
@instance_option
@click.pass_context
def build(ctx: click.Context, force: bool) -> None:
    """Create the database and (re)build the search index from content/."""
    from judgekit.db import SchemaError, migrate, open_db
    from judgekit.rules.service import RulesService

    instance = paths.instance_dir(ctx.obj["instance"])
    db = open_db(instance / "judgekit.db")
    try:
        migrate(db)
    except SchemaError as exc:
        raise Fail(str(exc))
    finally:
        db.close()
    started = time.perf_counter()
    service = RulesService.open(paths.content_dir(), instance / "index", force=force,
                                progress=lambda m: click.echo(f"judgekit: {m}", err=True))
    click.echo("judgekit: " + _("%(documents)s documents, %(entries)s index entries, ready in %(seconds)ss",
                                documents=len(service.corpus.documents), entries=service.search.doc_count(),
                                seconds=f"{time.perf_counter() - started:.2f}"))


@main.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option("--json", "as_json", is_flag=True, help="Print the same JSON as GET /api/search.")
@instance_option
@click.pass_context
def search(ctx: click.Context, query: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Search the rules, e.g. `judgekit search vp withdraw`."""
    from judgekit.rules.service import RulesService

    instance = paths.instance_dir(ctx.obj["instance"])
    service = RulesService.open(paths.content_dir(), instance / "index",
                                progress=lambda m: click.echo(f"judgekit: {m}", err=True))
    text = " ".join(query)
    try:
        payload = service.search_payload(text, limit=limit)
    except ValueError as exc:
        raise Fail(str(exc))
    if as_json:
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    if not payload["results"]:
        click.echo(_("no section or card answers this: say what it is about, or type a section number"))
    elif payload["match"] == "weak":
        click.echo(_("No section matches all of your words — closest:"))
    for p in payload["parts"]:
        best = p["results"][0]["title"] if p["results"] else _("no answer found")
        click.echo(f"? {p['question']}\n    -> {best}")
    for r in payload["results"]:
        click.echo(f"{r['doc']} {r['section']}  {r['title']}\n    {r['url']}\n    {strip_marks(r['snippet'])}")
    if payload["suggestions"]:
        click.echo(_("In the rules' words: %(words)s", words=" · ".join(payload["suggestions"])))


def strip_marks(snippet: str) -> str:
    """Plain text of a search snippet (highlights shown as *word*)."""
    import html
    import re
    return html.unescape(re.sub(r"</?mark>", "*", snippet))


@main.group()
def cards() -> None:
    """Cards and their rulings (content/cards): the card pages, the search, the recorder's checks."""


@cards.command("update")
@click.option("--wheel", type=click.Path(exists=True, dir_okay=False),
              help="A krcg wheel already downloaded (otherwise `pip download` fetches it).")
@click.option("--version", "krcg_version", default=None, help="krcg version to download (default: the tool's).")
@click.option("--rulings", "rulings_dir", type=click.Path(file_okay=False),
              help="A folder with rulings.yaml, groups.yaml and references.yaml to use instead of the wheel's.")
def cards_update(wheel: str | None, krcg_version: str | None, rulings_dir: str | None) -> None:
    """Regenerate content/cards (cards, texts, rulings) from the krcg wheel; the content in
    place is kept when anything is missing or malformed."""
    from judgekit.cards import update

    try:
        counts = update.run(wheel, None, krcg_version or update.KRCG_VERSION, rulings_dir)
    except Exception as exc:  # one line, whatever went wrong (pip, zip, csv)
        raise Fail(str(exc))
    click.echo(update.summary_line(counts))


@cards.command("show")
@click.argument("name", nargs=-1, required=True)
def cards_show(name: tuple[str, ...]) -> None:
    """Print the facts of one card as JSON, e.g. `judgekit cards show Theo Bell (ADV)`."""
    import dataclasses

    from judgekit.game.cards import load_cards

    index = load_cards()
    text = " ".join(name)
    card = index.find(text)
    if card is None:
        hint = index.suggest(text)
        raise Fail(_("no card named %(name)s; did you mean: %(hint)s?", name=repr(text), hint=", ".join(hint))
                   if hint else _("no card named %(name)s", name=repr(text)))
    click.echo(json.dumps(dataclasses.asdict(card), ensure_ascii=False))


@main.command()
@click.argument("target", type=click.Path(file_okay=True, dir_okay=True))
@click.option("--base", default="/", show_default=True,
              help="Path the copy is served under: / for a site of its own, /NAME/ for a project page "
                   "(https://user.github.io/NAME/).")
@instance_option
@click.pass_context
def publish(ctx: click.Context, target: str, base: str) -> None:
    """Write a static, installable copy (rules, search, cards and rulings, trainer) into TARGET,
    a new or empty folder, for any static https host."""
    from judgekit.cards.catalog import load_catalog
    from judgekit.offline.precache import edition_label
    from judgekit.offline.publish import PublishError, check_target, normal_base, publish as write, site_config

    started = time.perf_counter()
    try:
        base = normal_base(base)
        check_target(target)   # refuse a non-empty or unwritable folder before any work
    except PublishError as exc:
        raise Fail(str(exc))
    app = make_app(ctx)
    corpus = app.extensions["rules"].corpus
    cards_source = load_catalog(paths.content_dir()).source
    app.config["STATIC_SITE"] = site_config(
        base, edition=edition_label(corpus),
        cards=f"krcg {cards_source.get('version', '?')}")
    try:
        done = write(app, target, base, progress=lambda m: click.echo(f"judgekit: {m}", err=True))
    except PublishError as exc:
        raise Fail(str(exc))
    for page, link in done.dead_links[:10]:
        click.echo("judgekit: " + _("warning: %(page)s links %(link)s, which is not in the copy", page=page, link=link),
                   err=True)
    click.echo("judgekit: " + _("published %(pages)s pages and %(files)s files (%(megabytes)s MB) into %(target)s in "
                                "%(seconds)ss — %(edition)s, built %(built)s; %(precached)s addresses saved for "
                                "offline use on install. Serve the folder from any static https host at %(base)s",
                                pages=done.pages, files=done.files, megabytes=f"{done.bytes / 1e6:.1f}",
                                target=done.target, seconds=f"{time.perf_counter() - started:.1f}",
                                edition=done.edition, built=done.built, precached=done.precached, base=base))


def _open_migrated(ctx: click.Context):
    from judgekit.db import SchemaError, migrate, open_db

    db = open_db(paths.instance_dir(ctx.obj["instance"]) / "judgekit.db")
    try:
        migrate(db)
    except SchemaError as exc:
        db.close()
        raise Fail(str(exc))
    return db


def _on_db(ctx: click.Context, work):
    """`work(db)` on the instance's database (closed after); a TournamentError (no such
    tournament, ...) is a Fail: one line, a non-zero exit."""
    from judgekit.tournament.store import TournamentError

    db = _open_migrated(ctx)
    try:
        return work(db)
    except TournamentError as exc:
        raise Fail(_(exc.msg))
    finally:
        db.close()


@main.group()
def export() -> None:
    """Export a tournament's data: standings, seating, results, penalties (CSV or JSON), the
    VEKN results string, the Archon workbook."""


def _export_rows(ctx: click.Context, tournament: int, fmt: str, columns, rows_of) -> None:
    from judgekit.tournament.penalties.export import csv_text

    rows = _on_db(ctx, rows_of)
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
    else:  # the web's writer: spreadsheet-safe cells, the header even when there is no row
        click.echo(csv_text(columns, rows), nl=False)


@export.command("standings")
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@instance_option
@click.pass_context
def export_standings(ctx: click.Context, tournament: int, fmt: str) -> None:
    """Standings (after the final: the final ranking, with rating points)."""
    from judgekit.tournament import store
    _export_rows(ctx, tournament, fmt, store.STANDINGS_COLUMNS, lambda db: store.standings_rows(db, tournament))


@export.command("seating")
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--round", "round_no", type=int, default=None, help="One round (default: every round).")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@instance_option
@click.pass_context
def export_seating(ctx: click.Context, tournament: int, round_no: int | None, fmt: str) -> None:
    """Seating: round, table, seat, player, VEKN number."""
    from judgekit.tournament import store

    def rows_of(db):
        store.get_tournament(db, tournament)
        numbers = [round_no] if round_no else [r["number"] for r in store.rounds(db, tournament)]
        return [row for n in numbers for row in store.seating_rows(db, tournament, n)]
    _export_rows(ctx, tournament, fmt, store.SEATING_COLUMNS, rows_of)


@export.command("penalties")
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--excel", is_flag=True, help="CSV with a byte-order mark, for Excel.")
@instance_option
@click.pass_context
def export_penalties(ctx: click.Context, tournament: int, fmt: str, excel: bool) -> None:
    """Penalty records: one row per record (issue, amend, lift, approve), spreadsheet-safe."""
    from judgekit.tournament.penalties import store as pstore

    if fmt == "csv":
        text = _on_db(ctx, lambda db: pstore.export_csv(db, tournament, bom=excel))
    else:
        text = json.dumps(_on_db(ctx, lambda db: pstore.export_json(db, tournament)), ensure_ascii=False, indent=1) + "\n"
    click.echo(text, nl=False)


@export.command("vekn")
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@instance_option
@click.pass_context
def export_vekn(ctx: click.Context, tournament: int) -> None:
    """The VEKN results string ("archondata"), refused while a player lacks a VEKN number."""
    from judgekit.tournament import store

    rep = _on_db(ctx, lambda db: store.vekn_report(db, tournament))
    if rep.refusal:
        raise Fail(_(rep.refusal))
    if rep.problems:
        raise Fail(_("the VEKN refuses a report unless every player has a VEKN number: %(players)s",
                     players="; ".join(f"{p['name']} ({p['problem']})" for p in rep.problems)))
    click.echo(rep.text)


@export.command("archon")
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, writable=True),
              help="The .xlsx file to write.")
@instance_option
@click.pass_context
def export_archon(ctx: click.Context, tournament: int, output: str) -> None:
    """The Archon workbook (v1.5 layout, .xlsx) of a tournament."""
    from judgekit.tournament import store

    data = _on_db(ctx, lambda db: store.archon_workbook(db, tournament))
    try:
        with open(output, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise Fail(_("cannot write %(file)s: %(why)s", file=output, why=exc.strerror or exc))
    click.echo("judgekit: " + _("wrote %(file)s (%(kilobytes)s KB)", file=output, kilobytes=f"{len(data) / 1024:.0f}"),
               err=True)


@export.command("results")
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--round", "round_no", type=int, default=None, help="One round (default: every round).")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@instance_option
@click.pass_context
def export_results(ctx: click.Context, tournament: int, round_no: int | None, fmt: str) -> None:
    """Results per round: round, table, seat, player, VEKN, VP, GW, TP (one row per seat)."""
    from judgekit.tournament import store
    _export_rows(ctx, tournament, fmt, store.RESULTS_COLUMNS, lambda db: store.results_rows(db, tournament, round_no))


@main.group("import")
def import_() -> None:
    """Bring data in: an Archon workbook as a new event, a list of players into an event."""


@import_.command("archon")
@click.argument("workbook", type=click.Path(exists=True, dir_okay=False))
@click.option("--organizer", default=None, help="The organizer's name (signs in with the organizer code).")
@instance_option
@click.pass_context
def import_archon(ctx: click.Context, workbook: str, organizer: str | None) -> None:
    """Create an event from an Archon workbook (.xlsx, v1.5 layout); prints its id and codes."""
    from judgekit.auth.store import issue_codes
    from judgekit.tournament import store
    from judgekit.tournament.archon_file import MAX_BYTES

    with open(workbook, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    db = _open_migrated(ctx)
    try:
        # the event and its codes in one transaction: a crash leaves both or neither
        out = store.import_workbook(db, data, organizer=organizer, then=lambda tid: issue_codes(db, tid))
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
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--check-in", "check_in", is_flag=True, help="Check them in as well (they are here).")
@instance_option
@click.pass_context
def import_players(ctx: click.Context, listing: str, tournament: int, check_in: bool) -> None:
    """Register a list of players (CSV or one per line; all or nothing)."""
    from judgekit.tournament import store

    with click.open_file(listing, "rb") as fh:
        data = fh.read(5 * 1024 * 1024 + 1)
    if len(data) > 5 * 1024 * 1024:
        raise Fail(_("%(file)s is larger than 5 MB: that is not a list of players", file=listing))
    db = _open_migrated(ctx)
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


@main.command()
@click.option("--tournament", "tournament", required=True, type=int, help="Tournament id.")
@click.option("--role", type=click.Choice(["all", "judge", "head_judge", "organizer"]), default="all",
              show_default=True)
@instance_option
@click.pass_context
def codes(ctx: click.Context, tournament: int, role: str) -> None:
    """Issue new sign-in codes for a tournament and print them (the old ones stop working)."""
    from judgekit.auth import store as auth_store
    from judgekit.auth.roles import ROLES
    from judgekit.tournament.store import get_tournament

    issued = _on_db(ctx, lambda db: auth_store.issue_codes(db, get_tournament(db, tournament)["id"],
                                                          ROLES if role == "all" else (role,)))
    for r, code in issued.items():
        click.echo(f"{r:<11} {code}")
    click.echo(_("sign in at %(address)s", address=f"/tournaments/{tournament}/sign-in"), err=True)


@main.command()
@click.option("--seed", default=2024, show_default=True, type=int, help="Seed of the random results.")
@instance_option
@click.pass_context
def demo(ctx: click.Context, seed: int) -> None:
    """Create a small demo tournament (12 players, 3 rounds played, final ready)."""
    from judgekit.tournament.demo import create_demo

    db = _open_migrated(ctx)
    try:
        tid = create_demo(db, seed=seed)
        from judgekit.auth.store import issue_codes
        issued = issue_codes(db, tid)
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


@main.command()
@click.argument("transcript", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--seats", default=5, show_default=True, type=click.IntRange(4, 5),
              help="Seats at the table when the transcript has no game line.")
def check(transcript: str, seats: int) -> None:
    """Replay a recorder transcript (JSON Lines) and print one JSON finding per line."""
    from judgekit.game.cards import load_cards
    from judgekit.recorder.transcript import TranscriptError, check_transcript

    with click.open_file(transcript, encoding="utf-8") as fh:
        try:
            result = check_transcript(fh, cards=load_cards(), seats=seats)
        except UnicodeDecodeError:
            raise Fail(_("%(file)s: not a UTF-8 text file", file=transcript))
    if isinstance(result, TranscriptError):
        raise Fail(f"{transcript}: {result}")
    for finding in result:
        click.echo(json.dumps(finding, ensure_ascii=False))


def run() -> None:  # pragma: no cover
    main(prog_name="judgekit")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
