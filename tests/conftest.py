"""Shared fixtures: a fresh app per test (own database), one search index per session."""
from __future__ import annotations

import pytest

from judgekit import create_app


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
