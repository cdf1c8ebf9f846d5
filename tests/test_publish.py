"""`judgekit publish DIR`: addresses for a static host, refusals (non-empty, unwritable,
a file), a short copy under a project-page base path. The full copy, served by a plain
static server and used offline in Chromium: tests/browser/test_published_site.py."""
from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

from judgekit.cli import main as cli
from judgekit.offline.publish import (PublishError, normal_base, publish, published_url,
                                      site_config)


@pytest.mark.parametrize("url, base, expected", [
    ("/", "/", "/"),
    ("/rules/tournament-rules/3.7.2", "/", "/rules/tournament-rules/3.7.2/"),
    ("/rules/tournament-rules/3.7.2#3.7.2-p2", "/jk/", "/jk/rules/tournament-rules/3.7.2/#3.7.2-p2"),
    ("/static/app.css", "/jk/", "/jk/static/app.css"),
    ("/offline/search-index.json?v=abc", "/jk/", "/jk/offline/search-index.json?v=abc"),
    ("/search?q=vp", "/jk/", "/jk/?q=vp"),
    ("/trainer/q/x?answer=correct", "/", "/trainer/q/x/correct/"),
    ("https://www.vekn.net/x", "/jk/", "https://www.vekn.net/x"),
    ("#r1", "/jk/", "#r1"),
    ("//cdn.example/x.js", "/", "//cdn.example/x.js"),
])
def test_published_addresses(url, base, expected):
    aliases = {"/search": "/", "/trainer/q/x?answer=correct": "/trainer/q/x/correct"}
    assert published_url(url, base, aliases) == expected


@pytest.mark.parametrize("raw, base", [("", "/"), ("/", "/"), ("judgekit", "/judgekit/"),
                                       ("/judgekit/", "/judgekit/"), ("/a/b", "/a/b/")])
def test_base_paths(raw, base):
    assert normal_base(raw) == base


@pytest.mark.parametrize("raw", ["/a//b", "/../x", "/a b", "/<x>"])
def test_bad_base_paths_are_refused(raw):
    with pytest.raises(PublishError):
        normal_base(raw)


def test_publish_refuses_a_non_empty_folder_a_file_and_an_unwritable_one(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_INSTANCE", str(tmp_path / "instance"))
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    r = CliRunner().invoke(cli, ["publish", str(full)])
    assert r.exit_code == 1 and "is not empty" in r.output and "Traceback" not in r.output
    assert [p.name for p in full.iterdir()] == ["keep.txt"]
    afile = tmp_path / "a-file"
    afile.write_text("x")
    r = CliRunner().invoke(cli, ["publish", str(afile)])
    assert r.exit_code == 1 and "is a file" in r.output
    r = CliRunner().invoke(cli, ["publish", str(tmp_path / "new"), "--base", "/a//b"])
    assert r.exit_code == 1 and "--base" in r.output
    if os.geteuid() != 0:   # root writes anywhere: the permission check cannot be seen
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        r = CliRunner().invoke(cli, ["publish", str(locked / "site")])
        assert r.exit_code == 1 and "cannot write" in r.output
        locked.chmod(0o700)


def test_an_unwritable_folder_is_refused(tmp_path, monkeypatch):
    from judgekit.offline import publish as mod

    def no_write(self, data):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(mod.Path, "write_bytes", no_write)
    with pytest.raises(PublishError, match="cannot write here .Permission denied"):
        mod.check_target(tmp_path / "site")


def test_a_short_copy_under_a_project_page_path(app, tmp_path):
    app.config["STATIC_SITE"] = site_config("/judgekit/", edition="Rules 2025", cards="krcg 5.14")
    out = tmp_path / "site"
    done = publish(app, out, "/judgekit/", cards=[100518, 100545, 201362])
    assert done.pages > 500 and (out / "index.html").exists()
    assert (out / "cards" / "100518" / "index.html").exists()
    assert not (out / "cards" / "100001").exists()
    assert (out / "rules" / "tournament-rules" / "3.7.2" / "index.html").exists()
    assert (out / "trainer" / "q" / "cd-reaction-without-choices" / "misplay-not-binding" / "index.html").exists()
    # links only to pages of the copy, all under the base (the cards left out aside)
    assert done.dead_links and all("/judgekit/cards/" in link for _, link in done.dead_links)
    card = (out / "cards" / "100518" / "index.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'(?:href|src|action)="([^"#]*)', card)
    internal = [h for h in hrefs if h.startswith("/")]
    assert internal and all(h.startswith("/judgekit/") for h in internal), internal
    assert 'href="/judgekit/cards/groups/G00106/"' in card
    assert "Published copy" in card and "built " in card and "krcg 5.14" in card
    assert "/tournaments" not in card and "/games" not in card      # no server areas in the copy
    manifest = json.loads((out / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == manifest["scope"] == "/judgekit/"
    assert manifest["icons"][0]["src"].startswith("/judgekit/static/icons/")
    sw = (out / "sw.js").read_text(encoding="utf-8")
    config = json.loads(sw.split("\n", 1)[0][len("self.JUDGEKIT_OFFLINE = "):].rstrip(";"))
    assert config["base"] == "/judgekit/" and "/judgekit/" in config["precache"]
    assert "/judgekit/rules/tournament-rules/3.7.2/" in config["precache"]
    assert all(u.startswith("/judgekit/") for u in config["precache"])
    for u in config["precache"]:   # everything the worker saves is in the folder
        path = u.split("?")[0][len("/judgekit/"):]
        assert (out / path).is_file() or (out / path / "index.html").is_file(), u
    offline = (out / "offline" / "index.html").read_text(encoding="utf-8")
    assert "published " in offline and "Rules 2025" in offline
    index = json.loads((out / "offline" / "search-index.json").read_text(encoding="utf-8"))
    assert index["parts"]["rules"]["entries"] and index["parts"]["cards"]["entries"]
    # the entries' text, a file per chunk, each saved by the worker under the index's version
    texts = sorted((out / "offline" / "search-text").iterdir())
    assert len(texts) == sum(part["chunks"] for part in index["parts"].values())
    version = f"?v={index['version']}"
    assert all(f"/judgekit/offline/search-text/{f.name}{version}" in config["precache"] for f in texts)
    # the home page starts reading the index as it opens: a preload, taken by the early script
    home = (out / "index.html").read_text(encoding="utf-8")
    index_url = f"/judgekit/offline/search-index.json{version}"
    assert f'<link rel="preload" href="{index_url}" as="fetch" crossorigin>' in home
    assert f'src="/judgekit/static/offline-early.js" data-offline-index="{index_url}"></script>' in home
    assert "/judgekit/static/offline-early.js" in config["precache"]
    assert "offline-early.js" not in card                     # the other pages read it when needed
