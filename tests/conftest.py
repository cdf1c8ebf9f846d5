"""Shared fixtures: a fresh app per test (own database), one search index per session."""
from __future__ import annotations

import pytest

from judgekit import create_app


@pytest.fixture(autouse=True, scope="session")
def cheap_code_hashes():
    """Sign-in codes are hashed with a tiny scrypt cost in tests (about 80 ms less per
    tournament created). The production cost is checked in tests/test_auth_domain.py."""
    from judgekit.auth import codes
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codes, "SCRYPT_N", 2 ** 4)
        yield


@pytest.fixture
def db(tmp_path):
    """A migrated database of its own (no app), for the store tests."""
    from judgekit.db import migrate, open_db
    d = open_db(tmp_path / "test.db")
    migrate(d)
    migrate(d)  # idempotent
    yield d
    d.close()


@pytest.fixture(scope="session")
def shared_index(tmp_path_factory):
    """One index folder for the whole run: building it once keeps the suite fast."""
    return tmp_path_factory.mktemp("index")


@pytest.fixture
def app(tmp_path, shared_index):
    app = create_app({"INSTANCE": tmp_path / "instance", "INDEX_DIR": str(shared_index),
                      "TESTING": True})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


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
