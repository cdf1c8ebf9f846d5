"""What every `judgekit` command uses: the catalog of the environment's language (`_`),
the one-line error (`Fail`), `--instance` after a subcommand, the app and the migrated
database of the instance.

What a person reads (errors, summaries, notes) goes through the catalog (`_`), in the
language of the environment's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when a catalog
has it, else English; what a program reads (JSON, CSV, codes, addresses) is not translated.
Errors end with one line on stderr and a non-zero exit.
"""
from __future__ import annotations

import os
from typing import Any, Mapping

import click

from judgekit import create_app, i18n, paths
from judgekit.db import SchemaError, migrate, open_db
from judgekit.i18n import Message
from judgekit.tournament.store import TournamentError


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
    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"judgekit: {message}", err=True)

    try:
        return create_app({"INSTANCE": ctx.obj["instance"]}, progress=progress)
    except SchemaError as exc:
        raise Fail(str(exc))


def open_migrated(ctx: click.Context):
    db = open_db(paths.instance_dir(ctx.obj["instance"]) / "judgekit.db")
    try:
        migrate(db)
    except SchemaError as exc:
        db.close()
        raise Fail(str(exc))
    return db


def on_db(ctx: click.Context, work):
    """`work(db)` on the instance's database (closed after); a TournamentError (no such
    tournament, ...) is a Fail: one line, a non-zero exit."""

    db = open_migrated(ctx)
    try:
        return work(db)
    except TournamentError as exc:
        raise Fail(_(exc.msg))
    finally:
        db.close()
