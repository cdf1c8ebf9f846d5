"""The app factory, the instance folder and `judgekit serve`/`build` on a fresh folder."""
from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from judgekit import create_app
from judgekit.cli import main as cli


def test_instance_folder_holds_database_index_and_secret(tmp_path, shared_index):
    app = create_app({"INSTANCE": tmp_path / "inst", "INDEX_DIR": str(shared_index)})
    inst = Path(app.instance_path)
    assert inst == (tmp_path / "inst").resolve()
    assert (inst / "judgekit.db").exists()
    key = inst / "secret_key"
    assert key.exists() and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert app.config["SECRET_KEY"] == key.read_text().strip()
    again = create_app({"INSTANCE": tmp_path / "inst", "INDEX_DIR": str(shared_index)})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]  # generated once, then reused


def test_environment_variable_chooses_the_instance(tmp_path, shared_index, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_INSTANCE", str(tmp_path / "from-env"))
    app = create_app({"INDEX_DIR": str(shared_index)})
    assert Path(app.instance_path) == (tmp_path / "from-env").resolve()


def test_build_creates_database_and_index_and_says_so(tmp_path):
    res = CliRunner().invoke(cli, ["--instance", str(tmp_path / "i"), "build"])
    assert res.exit_code == 0, res.output
    assert "index entries" in res.stdout
    assert "search index built" in res.stderr
    assert (tmp_path / "i" / "index" / "content_hash").exists()
    again = CliRunner().invoke(cli, ["--instance", str(tmp_path / "i"), "build"])
    assert "search index built" not in again.stderr  # unchanged content: not rebuilt


def test_serve_starts_on_a_fresh_instance_and_answers(tmp_path, free_port):
    port = free_port()
    env = dict(os.environ, JUDGEKIT_INSTANCE=str(tmp_path / "inst"))
    proc = subprocess.Popen([sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        body = None
        deadline = time.time() + 60
        while time.time() < deadline and body is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/search?q=proxy", timeout=2) as r:
                    body = r.read().decode()
            except OSError:
                time.sleep(0.05)
        assert body and '"section":"4.5"' in body.replace(" ", "")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "building the search index" in err  # the visible first-start progress line
    assert f"http://127.0.0.1:{port}/" in err


def test_serve_on_a_busy_port_fails_with_one_line(indexed_instance):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        env = dict(os.environ, JUDGEKIT_INSTANCE=str(indexed_instance))
        proc = subprocess.run([sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port)],
                              env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("judgekit: cannot listen on") and "Traceback" not in proc.stderr


def test_local_hosts_are_told_apart_from_venue_addresses():
    import ipaddress

    from judgekit.netinfo import is_local_host, lan_addresses
    for host in ("127.0.0.1:5000", "localhost", "localhost:5000", "[::1]:5000", "127.1.2.3"):
        assert is_local_host(host), host
    for host in ("192.168.1.5:5000", "judge-laptop.local:5000", "10.0.0.2"):
        assert not is_local_host(host), host
    for address in lan_addresses():
        assert not ipaddress.ip_address(address).is_loopback


def test_json_object_takes_objects_and_says_what_to_send_otherwise(app):
    from judgekit.views import ApiError, json_object
    with app.test_request_context(json={"a": 1}):
        assert json_object('{"a": n}') == {"a": 1}
    with app.test_request_context(data=b""):
        assert json_object("{}", required=False) == {}
    for body in ([], [1], "x", 3):      # `[]` used to pass as {} where the body was optional
        with app.test_request_context(json=body):
            with pytest.raises(ApiError) as err:
                json_object('{"seed": n}', required=False)
            assert err.value.status == 400 and err.value.message == 'send {"seed": n}'


@pytest.mark.parametrize("host", ["a..b", "a" * 64 + ".example", "x" * 70 + ".com"])
@pytest.mark.parametrize("method, path", [("GET", "/"), ("GET", "/rules"), ("GET", "/tournaments"),
                                          ("POST", "/tournaments"), ("GET", "/static/app.css")])
def test_a_host_header_no_address_can_be_built_on_gets_a_400_not_a_500(app, host, method, path):
    """A Host header with an empty label or one over 63 letters: werkzeug cannot build the
    page's links on it, and the error page (which links to the stylesheet) crashed with a
    500 for anyone on the venue's network. Now a 400 with the message as plain text (a form
    sent so is refused by its CSRF check first, with its own message)."""
    response = app.test_client().open(path, method=method, headers={"Host": host})
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True).startswith("400: ")      # what went wrong, readable
