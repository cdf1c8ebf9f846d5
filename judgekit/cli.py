"""The `judgekit` command: serve, build, search, check, export, import, demo, cards.

Every command is a thin wrapper over the same domain functions the web app uses. This module
holds `main` and the app's own commands (serve, build, search, cards, publish, check);
`cli_event` the event's data commands (export, import, codes, demo), attached here;
`cli_shared` what every command uses (the catalog `_`, `Fail`, `--instance`, the app and
the database of the instance).
"""
from __future__ import annotations

import dataclasses
import errno
import html
import json
import re
import signal
import sys
import threading
import time

import click

from judgekit import collector, logs, malloc, paths
from judgekit.cards import update
from judgekit.cards.catalog import load_catalog
from judgekit.cli_event import codes, demo, export, import_
from judgekit.cli_shared import Fail, _, instance_option, make_app
from judgekit.db import SchemaError, migrate, open_db
from judgekit.game.cards import load_cards
from judgekit.live import serving
from judgekit.netinfo import is_local_host, lan_addresses
from judgekit.offline.precache import edition_label
from judgekit.offline.publish import PublishError, check_target, normal_base, publish as publish_site, site_config
from judgekit.recorder.transcript import TranscriptError, check_transcript
from judgekit.rules.service import RulesService


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--instance", envvar="JUDGEKIT_INSTANCE", type=click.Path(file_okay=False),
              default=None, help="Instance folder (database, index, secret). Default ./instance.")
@click.version_option(package_name="judgekit")
@click.pass_context
def main(ctx: click.Context, instance: str | None) -> None:
    """judgekit — the judge's companion for VTES tournaments."""
    logs.configure()  # warnings and errors on stderr with their time (`serve --verbose`: requests)
    ctx.obj = {"instance": instance}


# the event's data commands (cli_event.py)
main.add_command(export)
main.add_command(import_)
main.add_command(codes)
main.add_command(demo)


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
    try:
        counts = update.run(wheel, None, krcg_version or update.KRCG_VERSION, rulings_dir)
    except Exception as exc:  # one line, whatever went wrong (pip, zip, csv)
        raise Fail(str(exc))
    click.echo(update.summary_line(counts))


@cards.command("show")
@click.argument("name", nargs=-1, required=True)
def cards_show(name: tuple[str, ...]) -> None:
    """Print the facts of one card as JSON, e.g. `judgekit cards show Theo Bell (ADV)`."""
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
        done = publish_site(app, target, base, progress=lambda m: click.echo(f"judgekit: {m}", err=True))
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


@main.command()
@click.argument("transcript", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--seats", default=5, show_default=True, type=click.IntRange(4, 5),
              help="Seats at the table when the transcript has no game line.")
def check(transcript: str, seats: int) -> None:
    """Replay a recorder transcript (JSON Lines) and print one JSON finding per line."""
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
