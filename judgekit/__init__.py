"""judgekit — the judge's companion for VTES tournaments.

`create_app()` is the app factory: it resolves the instance folder, opens and migrates the
database, loads the rules corpus and its search index (building what is missing), and
registers one blueprint per area.
"""
from __future__ import annotations

from typing import Any, Callable

from flask import Flask

from judgekit import blueprints, paths, views
from judgekit.db import migrate, open_db
from judgekit.logs import RequestLog
from judgekit.rules.search_api import SearchFastPath
from judgekit.rules.service import RulesService
from judgekit.version import VERSION as __version__  # noqa: F401 (the package's version)


def create_app(config: dict[str, Any] | None = None,
               progress: Callable[[str], None] | None = None) -> Flask:
    """Build the Flask app.

    `config` may set INSTANCE (the instance folder), CONTENT_DIR, TESTING, SEARCH_FAST_PATH
    (False: every search through Flask), and any Flask setting. `progress` receives
    one-line messages about first-start work (index build).
    """
    config = dict(config or {})
    instance = paths.instance_dir(config.pop("INSTANCE", None))
    app = Flask(__name__, instance_path=str(instance), instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY=paths.secret_key(instance),
        DATABASE=str(instance / "judgekit.db"),
        INDEX_DIR=str(instance / "index"),
        CONTENT_DIR=str(paths.content_dir()),
        MAX_CONTENT_LENGTH=512 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    app.config.update(config)
    app.json.sort_keys = False  # keep the documented key order of API answers
    say = progress or (lambda message: None)

    db = open_db(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.close()

    app.extensions["rules"] = RulesService.open(
        app.config["CONTENT_DIR"], app.config["INDEX_DIR"], progress=say)
    paths.make_private(instance, app.config["DATABASE"], app.config["INDEX_DIR"])

    views.init_app(app)
    blueprints.register(app)
    if app.config.get("SEARCH_FAST_PATH", True):
        # plain searches (a request per keystroke) are answered without Flask's per-request
        # work; everything else goes on to Flask (judgekit/rules/search_api.py)
        app.wsgi_app = SearchFastPath(app.wsgi_app, app.extensions["rules"])
    app.wsgi_app = RequestLog(app.wsgi_app)  # outermost: a line per request with --verbose
    return app
