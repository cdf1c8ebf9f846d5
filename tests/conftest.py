"""Shared fixtures: one migrated template database and one search index per session; a
fresh app per test on its own copy of the template; one shared app for tests that only read."""
from __future__ import annotations

import gc
import itertools
import json
import os
import random
import shutil
import socket
import sqlite3
import sys

from dataclasses import dataclass
from pathlib import Path

import flask
import jinja2
import pytest
from click.testing import CliRunner, Result

from judgekit import create_app, i18n
from judgekit.cli import main as cli_main


def pytest_addoption(parser):
    parser.addoption("--reverse", action="store_true",
                     help="run the tests in the reverse of their order (a module_app module must pass both ways)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("reverse"):
        items.reverse()


def pytest_configure(config):
    """The collector's first generation runs every 50,000 allocations instead of Python's
    700. Each app, client and request allocates tens of thousands of objects, and the
    default had the collector traverse them (and a heap holding the corpus and the search
    index) about 3,000 times in a few hundred tests: a quarter of their CPU time."""
    gc.set_threshold(50_000, 10, 10)
    # Compiled code kept in __pycache__ (git-ignored) even where PYTHONDONTWRITEBYTECODE is
    # set (this sandbox sets it): otherwise every worker and each of the ~40 `judgekit`
    # processes the tests start compiles the sources again (about 0.3 s a process). Set
    # before the workers and those processes start, which inherit the environment.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


@pytest.fixture(autouse=True, scope="session")
def cheap_code_hashes():
    """Sign-in codes are hashed with a tiny scrypt cost in tests (about 80 ms less per
    tournament created). The production cost is checked in tests/test_auth_domain.py."""
    from judgekit.auth import codes
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codes, "SCRYPT_N", 2 ** 4)
        yield


class TemplateCode(jinja2.BytecodeCache):
    """Each template compiled once for the whole run, not once per app: a new app compiles
    every template it renders (about 20 ms each, more than building the app itself). Jinja's
    bytecode cache (its public API) keeps the compiled code in memory; a template whose
    source changed gets its checksum refused and is compiled again, and the key holds what
    in an environment changes the code compiled (its extensions, delimiters, options)."""

    def __init__(self):
        self.code: dict = {}

    @staticmethod
    def _key(bucket):
        env = bucket.environment
        escape = env.autoescape
        return (bucket.key, tuple(sorted(env.extensions)), getattr(env, "newstyle_gettext", None),
                getattr(escape, "__qualname__", escape), env.finalize is not None, env.optimized,
                env.is_async, env.trim_blocks, env.lstrip_blocks, env.keep_trailing_newline,
                env.newline_sequence, env.block_start_string, env.block_end_string,
                env.variable_start_string, env.variable_end_string, env.comment_start_string,
                env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix)

    def load_bytecode(self, bucket):
        code = self.code.get(self._key(bucket))
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self.code[self._key(bucket)] = bucket.bytecode_to_string()


@pytest.fixture(autouse=True, scope="session")
def templates_compiled_once():
    """Every app made in the run (`create_app` anywhere in the tests) shares `TemplateCode`,
    through Flask's `jinja_options` (the options given to each app's Jinja environment)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flask.Flask, "jinja_options", {**flask.Flask.jinja_options, "bytecode_cache": TemplateCode()})
        yield


@pytest.fixture(scope="session")
def template_db(tmp_path_factory):
    """A database migrated once for the whole run; each test gets a copy of the file
    (`copy_template`) instead of running the migrations again. Closing its only connection
    checkpoints the WAL, so the one file is the whole database."""
    from judgekit.db import migrate, open_db
    path = tmp_path_factory.mktemp("template") / "judgekit.db"
    d = open_db(path)
    migrate(d)
    d.close()
    return path


def copy_template(template, dest):
    """A copy of the template database at `dest`, private as judgekit makes its own."""
    shutil.copyfile(template, dest)
    os.chmod(dest, 0o600)
    return dest


@pytest.fixture
def db(tmp_path, template_db):
    """A migrated database of its own (no app), for the store tests."""
    from judgekit.db import migrate, open_db
    d = open_db(copy_template(template_db, tmp_path / "test.db"))
    migrate(d)  # current already: reads the ledger only
    yield d
    d.close()


@pytest.fixture(scope="session")
def shared_index(tmp_path_factory):
    """One index folder for the whole run: building it once keeps the suite fast."""
    return tmp_path_factory.mktemp("index")


@pytest.fixture
def indexed_instance(tmp_path, shared_app, shared_index):
    """An instance folder (not yet holding a database) with the session's search index
    copied in: a `judgekit` command or app on it starts without building the index (about
    5 s of CPU), for the tests of a start that is not about the first start's work."""
    instance = tmp_path / "inst"
    instance.mkdir(mode=0o700)
    shutil.copytree(shared_index, instance / "index")
    return instance


@dataclass(frozen=True)
class DemoRun:
    result: Result    # `judgekit demo --instance FOLDER`: exit code and output
    folder: Path      # the instance folder it made: read it, never write it (copy it)

    def copy(self, dest: Path) -> Path:
        """A copy of the demo's instance folder at `dest`, for a test to read and write."""
        shutil.copytree(self.folder, dest)
        return dest


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> DemoRun:
    """The session's one `judgekit demo`, given `--instance` after the subcommand as users
    type it (`judgekit demo --instance DIR`). It seats three rounds of twelve players (the
    seating search: about 1.3 s of CPU) and its tournament is the same at every run (seed
    2024; only the sign-in codes differ): the tests of what it prints and of the commands
    that read its tournament share it, each on a copy of its folder."""
    folder = tmp_path_factory.mktemp("demo") / "inst"
    return DemoRun(CliRunner().invoke(cli_main, ["demo", "--instance", str(folder)]), folder)


def _new_app(instance, template, index):
    instance.mkdir(mode=0o700, parents=True)
    copy_template(template, instance / "judgekit.db")
    return create_app({"INSTANCE": instance, "INDEX_DIR": str(index), "TESTING": True})


@pytest.fixture
def app(request):
    """An app of its own (its instance folder and database); in a module marked
    `pytestmark = pytest.mark.shared_app` (tests that only read), the session's one app; in
    a module marked `module_app`, the module's one app; a test marked `own_app` in either
    gets an app of its own all the same."""
    if request.node.get_closest_marker("own_app"):
        yield request.getfixturevalue("fresh_app")
    elif request.node.get_closest_marker("shared_app"):
        yield request.getfixturevalue("read_only_app")
    elif request.node.get_closest_marker("module_app"):
        shared = request.getfixturevalue("module_app")
        config = dict(shared.config)
        yield shared
        assert dict(shared.config) == config, "a test changed its module's app config: mark it own_app"
    else:
        yield request.getfixturevalue("fresh_app")


@pytest.fixture(scope="module")
def module_app(tmp_path_factory, shared_index, template_db):
    """One app for a module marked `pytestmark = pytest.mark.module_app`: its tests each
    create what they work on (their own game, tournament, players) and read only that, so
    they need no database of their own (building an app costs about 0.1 s, most of it Flask
    compiling its URL rules). Such a module's tests pass in any order; a test that reads
    the whole database (a list, a count, the first id) or changes the config does not
    belong in one."""
    return _new_app(tmp_path_factory.mktemp("module") / "instance", template_db, shared_index)


@pytest.fixture
def fresh_app(tmp_path, shared_index, template_db):
    """An app of its own, for the one test that writes in a module marked `shared_app`."""
    return _new_app(tmp_path / "instance", template_db, shared_index)


@pytest.fixture(scope="session")
def shared_app(tmp_path_factory, shared_index, template_db):
    return _new_app(tmp_path_factory.mktemp("shared") / "instance", template_db, shared_index)


def stored_rows(path) -> int:
    """Rows in the database's tables (the migrations' ledger aside): 0 for a template copy."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name NOT IN ('schema_migrations', 'sqlite_sequence')")]
        return sum(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)
    finally:
        conn.close()


@pytest.fixture
def read_only_app(shared_app):
    """The session's one app, for a module whose tests only read (building an app costs
    ~0.4 s, mostly Flask compiling its URL rules). A module opts in with
    `pytestmark = pytest.mark.shared_app`. Checked after each test: the database is still empty and the
    config unchanged; a test that writes must use its own app (`fresh_app`)."""
    config = dict(shared_app.config)
    yield shared_app
    assert dict(shared_app.config) == config, "a test changed the shared app's config: give it its own app"
    assert stored_rows(shared_app.config["DATABASE"]) == 0, \
        "a test wrote to the shared app's database: give it its own app"


_devices = itertools.count(1)


@pytest.fixture
def client(app, request):
    """The app's test client. In a `module_app` module each test's client comes from an
    address of its own (127.0.0.N), as a device of its own would: the per-device limits
    (practice games started, sign-in and check-in attempts) then count each test apart,
    as they do on an app of its own."""
    c = app.test_client()
    if request.node.get_closest_marker("module_app"):
        n = next(_devices)
        c.environ_base["REMOTE_ADDR"] = f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
    return c


def sign_in_client(app, client, tournament, role="judge", name=None, how="token"):
    """Sign a test client in to `tournament` as `role` ("judge", "head_judge", "organizer").

    how="token": a bearer token on every later request (JSON API and pages; no CSRF needed).
    how="session": the signed session cookie a browser gets; returns its CSRF token (forms
    send it as `csrf_token`, JSON as the `X-CSRF-Token` header). Codes are issued for the
    tournament first when it has none.
    """
    from judgekit.auth import store as auth_store
    from judgekit.db import open_db

    name = name or {"judge": "Jo Judge", "head_judge": "Hal Head", "organizer": "Ola Org"}[role]
    db = open_db(app.config["DATABASE"])
    try:
        if not auth_store.has_codes(db, tournament):
            auth_store.issue_codes(db, tournament)
        if how == "token":
            token = auth_store.issue_token(db, tournament, role, name)
            client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
            return token
        gen = auth_store.generation(db, tournament, role)
    finally:
        db.close()
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    with client.session_transaction() as s:
        entries = dict(s.get("auth") or {})
        entries[str(tournament)] = {"role": role, "name": name, "gen": gen}
        s["auth"] = entries
        s["csrf"] = s.get("csrf") or "test-csrf-token"
        return s["csrf"]


@pytest.fixture
def signed_in(app):
    """`signed_in(client, tournament_id, role, name=None, how="token")`: see sign_in_client."""
    def sign(client, tournament, role="judge", name=None, how="token"):
        return sign_in_client(app, client, tournament, role, name, how)
    return sign


def catalogs_with(folder, messages: dict, lang: str = "xx"):
    """A catalogs folder holding the package's English and `messages` as the fake language
    `lang` (the translation tests' second language); returns the folder."""
    folder.mkdir(exist_ok=True)
    shutil.copy(i18n.CATALOG_DIR / "en.json", folder / "en.json")
    (folder / f"{lang}.json").write_text(json.dumps(messages), encoding="utf-8")
    return folder


def app_with_language(tmp_path, template_db, shared_index, messages: dict, lang: str = "xx"):
    """An app on a copy of the template database whose catalogs are English and `messages`
    as the fake language `lang`."""
    folder = catalogs_with(tmp_path / "translations", messages, lang)
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o700)
    copy_template(template_db, instance / "judgekit.db")
    return create_app({"INSTANCE": instance, "INDEX_DIR": str(shared_index), "TESTING": True,
                       "TRANSLATIONS": str(folder)})


#: Ports a test's server may take: below every system's range of ephemeral ports (Linux
#: 32768-60999, Windows and macOS 49152-65535), from which the machine gives its client
#: sockets their local port.
TEST_PORTS = range(20000, 32768)


def pick_free_port() -> int:
    """A port free now that no client socket of the machine will take before a server binds
    it. A port found with bind(0) is an ephemeral one: a connection made meanwhile (the
    browser tests make thousands) may get it as its own: the likeliest cause of the one run
    of the suite where `judgekit serve` ended before its first answer (not reproduced)."""
    for _ in range(200):
        port = random.choice(TEST_PORTS)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port below the ephemeral range")


@pytest.fixture(scope="session")
def free_port():
    """`pick_free_port`, for a test that starts a server on a port of its own."""
    return pick_free_port
