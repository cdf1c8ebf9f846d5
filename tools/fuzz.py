"""Fuzz every endpoint and form with bad input: no answer may be a 5xx, no traceback logged.

    python tools/fuzz.py [--requests 10000] [--seed 1] [--http]

The endpoints come from the app's url_map, so a new endpoint is covered without editing
this file (it gets generic fields until someone adds its template to JSON/FORMS/QUERY in
tools/fuzz_requests.py). Requests go round the endpoints in a shuffled order, each request
sent as one of four identities (signed out, organizer, head judge, judge — bearer tokens — and now and
then a browser session with its CSRF token), with one of these mutations of a valid
request: malformed JSON, invalid UTF-8, deep nesting (up to 50,000 levels), strings of
400 KB and 1 MB, NUL and lone surrogates, huge, negative and non-finite numbers ("0_5",
1e308, NaN, 10**400), wrong types, missing and extra fields, the wrong content type, bad
path parts and bad headers (non-ASCII CSRF token, a 10 KB bearer token, a Host no address
can be built on).

Default: in-process (Flask's test client, a fresh instance folder in a temporary
directory), tracebacks counted from the log records. `--http`: against `judgekit serve`
(uvicorn) on --port (default: a free one), tracebacks counted in the server's stderr.
A fresh tournament is set up every 500 requests (a fuzzed request may replace the codes
and so sign the identities out). Prints the counts; exit status 1 if any 5xx or traceback.

tests/test_fuzz.py runs a sample of this (every endpoint at least once, fixed seed).
"""
from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

# --- nasty values -------------------------------------------------------------------------

NASTY_TEXT = ["", " ", "\x00", "a\x00b", "\ud800", "x\udfff y", "\udc80", "é", "💥", "0_5", "1e308",
              "NaN", "Infinity", "-1", "9" * 30, "<script>alert(1)</script>", "../../etc/passwd",
              "=HYPERLINK(\"x\")", "%s%n", "\u202e", "\n\r\t", "true", "null", "[]", "1.5½", "½",
              "٣", "1,5", " 2 ", "A" * 5000]
NASTY_NUMBERS = [0, -1, 1, 2, 5, 2 ** 63, 2 ** 64, -2 ** 63 - 1, 10 ** 30, 10 ** 400, 1e308, -1e308,
                 1.5, 0.1, 1e-320, float("nan"), float("inf"), float("-inf")]
NASTY_OTHER = [None, True, False, [], {}, [None], [[]], {"a": None}, ["\ud800"], [1e308] * 4,
               [None] * 4, [float("nan")] * 4, ["0_5", "1", "1", "1"], list(range(300)), {"\ud800": 1}]
FORM_TEXT = ["", "\x00", "a\x00b", "%ED%A0%80", "%FF%FE", "é", "0_5", "1e308", "nan", "-1", "9" * 30,
             "<b>x</b>", "A" * 5000, "1_0", "½", "on", "other", "refresh"]

FIELD_POOL = ["name", "seats", "vps", "withdrawn", "reason", "note", "text", "type", "seat", "client_id",
              "label", "player", "infraction", "minutes", "a", "b", "seed", "tables", "code", "checked_in",
              "dropped", "position", "player_id", "said", "prompt", "description", "penalty", "round",
              "table", "game", "event", "finding", "approve", "judge_minutes", "line", "last_seq", "roles",
              "role", "vekn", "players", "organizer", "time_limit_min", "has_final", "tournament_id"]


def nasty(rng: random.Random) -> Any:
    pool = rng.choice((NASTY_TEXT, NASTY_NUMBERS, NASTY_OTHER))
    return rng.choice(pool)


# --- valid requests to mutate: tools/fuzz_requests.py ---------------------------------------

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_requests import FORMS, JSON, QUERY  # noqa: E402


# --- the world: a tournament in mid-event, set up through the API ----------------------------

class Sender:
    """Sends one request; returns (status, body bytes). `identity`: None or a bearer token,
    or "session" (in-process only: a browser session with its CSRF token)."""

    def send(self, method: str, path: str, body: bytes | None, headers: dict[str, str],
             identity: str | None) -> tuple[int, bytes]:
        raise NotImplementedError

    def json(self, method, path, data=None, identity=None):
        body = json.dumps(data).encode() if data is not None else None
        status, out = self.send(method, path, body, {"Content-Type": "application/json"}, identity)
        try:
            return status, json.loads(out)
        except ValueError:
            return status, None


def setup_world(sender: Sender, n: int) -> dict:
    status, t = sender.json("POST", "/api/tournaments", {"name": f"Fuzz Cup {n}", "organizer": "Ola",
                                                          "rounds_planned": 3})
    assert status == 201, (status, t)
    tid, org = t["id"], t["token"]
    ids = {"organizer": org}
    for role, name in (("judge", "Jo"), ("head_judge", "Hal")):
        s, tok = sender.json("POST", f"/api/tournaments/{tid}/tokens", {"name": name, "code": t["codes"][role]})
        assert s in (200, 201), (s, tok)
        ids[role] = tok["token"]
    s, p = sender.json("POST", f"/api/tournaments/{tid}/players",
                       [{"name": f"Player {k}", "vekn": str(4000000 + 100 * n + k)} for k in range(12)], org)
    assert s in (200, 201), (s, p)
    pids = [x["id"] for x in p["players"]]
    s, r1 = sender.json("POST", f"/api/tournaments/{tid}/rounds", {"seed": 1}, org)
    assert s in (200, 201), (s, r1)
    for k in range(1, len(r1["tables"]) + 1):
        sender.json("POST", f"/api/tournaments/{tid}/rounds/1/tables/{k}/result", {"vps": [0.5] * 4}, org)
    s, _ = sender.json("POST", f"/api/tournaments/{tid}/rounds/1/close", {}, org)
    assert s == 200, s
    s, r2 = sender.json("POST", f"/api/tournaments/{tid}/rounds", {"seed": 2}, org)
    game = r2["tables"][0]["game_id"]
    sender.json("POST", f"/api/games/{game}/events", [{"type": "turn.start", "seat": 1},
                                                      {"type": "note", "text": "x"}], ids["judge"])
    s, pen = sender.json("POST", f"/api/tournaments/{tid}/penalties",
                         {"player": pids[2], "infraction": "unsportsmanlike-conduct-major",
                          "description": "shouted", "round": 2, "table": 1}, ids["judge"])
    rid = pen.get("record", pen).get("id", 1) if isinstance(pen, dict) else 1
    s, c = sender.json("POST", f"/api/tournaments/{tid}/calls", {"table": 2, "reason": "time"})
    call = c["call"]["call"] if s in (200, 201) else 1
    s, g = sender.json("POST", "/api/games", {"seats": ["Ann", "Ben", "Cid", "Dee"]})
    return {"tid": tid, "pids": pids, "codes": t["codes"], "tokens": ids, "game": game,
            "practice": (g or {}).get("id", game), "rid": rid, "call": call}  # 429: practice games are rate-limited


def content_ids() -> dict:
    """A practice prompt and a trainer scenario id, from the content folder."""
    found = {"prompt": "x", "scenario": "x"}
    for key, folder, pattern in (("scenario", "content/trainer", r'^id\s*=\s*"([^"]+)"'),
                                 ("prompt", "content/trainer", r'^id\s*=\s*"([^"]+)"')):
        for path in sorted((REPO / folder).rglob("*.toml")):
            m = re.search(pattern, path.read_text(encoding="utf-8"), re.M)
            if m and (key != "prompt" or "practice" in path.name or "prompt" in path.name):
                found[key] = m.group(1)
                break
    return found


# --- one request ---------------------------------------------------------------------------------

JUNK_PARTS = ["0", "9" * 25, "abc", "%00", "%ED%A0%80", "-1", "1.5", "1_0"]


def fill_path(rule: str, w: dict, rng: random.Random) -> str:
    def part(m: re.Match) -> str:
        name = m.group(1).split(":")[-1]
        if rng.random() < 0.07:
            return rng.choice(JUNK_PARTS)
        return {
            "tid": str(w["tid"]), "n": rng.choice(["1", "2", "2", "3"]), "table": rng.choice(["1", "2", "3"]),
            "pid": str(rng.choice(w["pids"])), "rid": str(w["rid"]),
            "game_id": str(rng.choice([w["game"], w["practice"]])),
            "doc_id": rng.choice(["tournament-rules", "announcements", "nope"]),
            "section_id": rng.choice(["3.7.2", "forbidden-shortcuts", "9.9"]),
            "fmt": rng.choice(["csv", "json", "xml"]), "filename": "app.css",
            "prompt_id": w["prompt"], "scenario_id": w["scenario"], "cid": str(w.get("call", 1)),
        }.get(name, "1")
    return re.sub(r"<([^>]+)>", part, rule)


def _set_nested(rng: random.Random, value: Any, new: Any) -> Any:
    """`value` with one field (or list item), anywhere in it, replaced by `new`."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        out = dict(value)
        out[key] = _set_nested(rng, value[key], new) if rng.random() < 0.3 else new
        return out
    if isinstance(value, list) and value:
        k = rng.randrange(len(value))
        out = list(value)
        out[k] = _set_nested(rng, value[k], new) if rng.random() < 0.3 else new
        return out
    return new


def _map_text(value: Any, fn: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_map_text(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _map_text(v, fn) for k, v in value.items()}
    return value


def _map_number(value: Any, rng: random.Random, pool: list) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return rng.choice(pool) if rng.random() < 0.6 else value
    if isinstance(value, list):
        return [_map_number(v, rng, pool) for v in value]
    if isinstance(value, dict):
        return {k: _map_number(v, rng, pool) for k, v in value.items()}
    return value


def json_mutation(rng: random.Random, valid: Any) -> tuple[str, bytes, str]:
    """(mutation name, body, content type)."""
    kind = rng.choice(["valid", "field", "field", "field", "drop", "extra", "top", "deep", "malformed",
                       "utf8", "big", "huge-string", "type", "surrogate-key", "text", "text", "number"])
    ct = "application/json"
    if kind == "valid":
        data = valid
    elif kind == "text":  # every text of the body spoilt the same way: a lone surrogate, a NUL
        spoil = rng.choice(["\ud800", "\udfff", "\x00", "\ud83d"])
        data = _map_text(valid, lambda t: t + spoil if rng.random() < 0.7 else t)
    elif kind == "number":  # a number of the body replaced by one that is no valid value
        data = _map_number(valid, rng, [1e308, -1e308, float("nan"), float("inf"), 10 ** 30, -1,
                                        2 ** 63, 0.25, "0_5", "1e3", None, True])
    elif kind == "field":
        data = _set_nested(rng, valid, nasty(rng))
    elif kind == "drop" and isinstance(valid, dict) and valid:
        data = dict(valid)
        data.pop(rng.choice(list(data)))
    elif kind == "extra":
        data = dict(valid) if isinstance(valid, dict) else {"items": valid}
        data[rng.choice(FIELD_POOL + ["__proto__", "\ud800x", "x" * 300])] = nasty(rng)
    elif kind == "top":
        data = nasty(rng)
    elif kind == "deep":
        depth = rng.choice([33, 100, 1000, 5000, 50000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        inner = "1" if opener == "[" else "1"
        return kind, (opener * depth + inner + closer * depth).encode(), ct
    elif kind == "malformed":
        text = json.dumps(valid)
        return kind, rng.choice([text[: max(1, len(text) // 2)], text + "}", "{'a': 1}", "",
                                 "[1,]", '{"a" 1}', "\ufeff" + text, "nul", '"\\ud800"', '"\\u12"',
                                 "1" * 5000]).encode("utf-8", "surrogatepass"), ct
    elif kind == "utf8":
        return kind, rng.choice([b'{"name": "\xff\xfe"}', b'\xed\xa0\x80', b'{"a": "\xc0\xaf"}',
                                 b"\x00\x00\x00{"]), ct
    elif kind == "big":
        size = rng.choice([400_000, 1_100_000])
        data = _set_nested(rng, valid, "B" * size)
    elif kind == "huge-string":
        data = _set_nested(rng, valid, rng.choice(["\x00" * 1000, "\ud800" * 50, "é" * 100_000]))
    elif kind == "type":
        ct = rng.choice(["application/x-www-form-urlencoded", "text/plain", "application/json; charset=latin-1",
                         "multipart/form-data; boundary=x", "application/jsonx"])
        data = valid
    else:  # surrogate-key, or a drop with nothing to drop
        data = {"\ud800": 1, **(valid if isinstance(valid, dict) else {})}
    body = json.dumps(data).encode("utf-8", "surrogatepass")  # NaN, Infinity written as such
    return kind, body, ct


def form_mutation(rng: random.Random, valid: dict) -> tuple[str, bytes, str]:
    kind = rng.choice(["valid", "field", "field", "field", "drop", "extra", "big", "repeat", "json"])
    pairs = [(k, urllib.parse.quote(v, safe="")) for k, v in valid.items()]
    if kind == "field" and pairs:
        k = rng.randrange(len(pairs))
        raw = rng.choice(FORM_TEXT)
        value = raw if raw.startswith("%") else urllib.parse.quote(raw, safe="")
        pairs[k] = (pairs[k][0], value)
    elif kind == "drop" and pairs:
        pairs.pop(rng.randrange(len(pairs)))
    elif kind == "extra":
        pairs.append((rng.choice(FIELD_POOL + ["%00", "%ED%A0%80"]), urllib.parse.quote(rng.choice(FORM_TEXT))))
    elif kind == "big":
        pairs.append(("note", "C" * rng.choice([400_000, 1_100_000])))
    elif kind == "repeat" and pairs:
        pairs.append(rng.choice(pairs))
    elif kind == "json":
        return kind, json.dumps(valid).encode(), "application/json"
    body = "&".join(f"{k}={v}" for k, v in pairs).encode("ascii")
    return kind, body, "application/x-www-form-urlencoded"


def query_mutation(rng: random.Random, valid: dict) -> str:
    pairs = [(k, urllib.parse.quote(v, safe="")) for k, v in valid.items()]
    if rng.random() < 0.6:
        if pairs and rng.random() < 0.7:
            k = rng.randrange(len(pairs))
            raw = rng.choice(FORM_TEXT)
            pairs[k] = (pairs[k][0], raw if raw.startswith("%") else urllib.parse.quote(raw, safe=""))
        else:
            pairs.append((rng.choice(FIELD_POOL + ["q", "limit", "after", "next", "r"]),
                          urllib.parse.quote(rng.choice(FORM_TEXT), safe="%")))
    return "&".join(f"{k}={v}" for k, v in pairs)


def bad_headers(rng: random.Random) -> dict[str, str]:
    if rng.random() > 0.06:
        return {}
    return rng.choice([{"X-CSRF-Token": "é\x01"}, {"X-CSRF-Token": "x" * 5000},
                       {"Authorization": "Bearer jk_" + "a" * 10_000}, {"Authorization": "Bearer é"},
                       {"Authorization": "Basic Zm9vOmJhcg=="}, {"Accept": "application/json;q=x"},
                       {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"},
                       {"Host": "a..b"}, {"Host": "h" * 64 + ".lan"}])


# --- the run -----------------------------------------------------------------------------------------

def endpoints(app) -> list[tuple[str, str, str]]:
    """(endpoint, method, rule) for every route of the app, static files left out."""
    out = []
    for r in app.url_map.iter_rules():
        if r.endpoint == "static":
            continue
        for m in sorted((r.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((r.endpoint, m, r.rule))
    return sorted(out)


def run(sender: Sender, routes: list[tuple[str, str, str]], requests: int, seed: int,
        sessions: Callable[[dict], str | None] | None = None, log: Callable[[str], None] = print) -> dict:
    rng = random.Random(seed)
    statuses: Counter = Counter()
    failures: list[str] = []
    hit: set[tuple[str, str]] = set()
    ids = content_ids()
    world: dict = {}
    order: list = []
    started = time.perf_counter()
    for i in range(requests):
        if i % 500 == 0:
            world = {**setup_world(sender, i // 500), **ids}
            if sessions:
                world["session"] = sessions(world)
        if not order:
            order = list(routes)
            rng.shuffle(order)
        endpoint, method, rule = order.pop()
        who = rng.choice([None, "organizer", "head_judge", "judge", "judge", "session"])
        identity = world["tokens"].get(who) if who not in (None, "session") else (
            "session" if who == "session" and world.get("session") else None)
        headers: dict[str, str] = {}
        if who == "session" and world.get("session") and rng.random() < 0.9:
            headers["X-CSRF-Token"] = world["session"]
        path = fill_path(rule, world, rng)
        query = QUERY.get(endpoint, lambda w: {})(world)
        qs = query_mutation(rng, query) if (query or rng.random() < 0.3) else ""
        body, mutation = None, "none"
        if method in ("POST", "PUT", "PATCH", "DELETE"):
            if endpoint in FORMS or (endpoint not in JSON and not rule.startswith("/api/")):
                valid = FORMS.get(endpoint, lambda w: {k: "1" for k in rng.sample(FIELD_POOL, 3)})(world)
                if who == "session" and world.get("session"):
                    valid = {**valid, "csrf_token": world["session"]}
                mutation, body, ct = form_mutation(rng, valid)
            else:
                valid = JSON.get(endpoint, lambda w: {k: nasty(rng) for k in rng.sample(FIELD_POOL, 3)})(world)
                mutation, body, ct = json_mutation(rng, valid)
            headers["Content-Type"] = ct
        headers.update(bad_headers(rng))
        url = path + ("?" + qs if qs else "")
        try:
            status, out = sender.send(method, url, body, headers, identity)
        except Exception as exc:  # the server went away: a failure too
            status, out = 599, repr(exc).encode()
        statuses[status] += 1
        hit.add((endpoint, method))
        if status >= 500:
            failures.append(f"{status} {method} {url[:120]} [{who}, {mutation}] "
                            f"{(body or b'')[:120]!r} -> {out[:200]!r}")
            if len(failures) <= 20:
                log("  5xx: " + failures[-1])
    return {"requests": requests, "statuses": statuses, "failures": failures, "endpoints_hit": hit,
            "seconds": time.perf_counter() - started}


class InProcess(Sender):
    """Flask's test client on an app made here; log records with a traceback are counted."""

    def __init__(self, app):
        self.app = app
        self.clients: dict[str | None, Any] = {}
        self.tracebacks: list[str] = []
        sink = self

        class Catch(logging.Handler):
            def emit(self, record):
                if record.exc_info:
                    sink.tracebacks.append(self.format(record))
        self.handler = Catch(level=logging.ERROR)
        self.handler.setFormatter(logging.Formatter("%(message)s"))
        logging.getLogger().addHandler(self.handler)
        logging.getLogger("judgekit").propagate = True

    def close(self):
        logging.getLogger().removeHandler(self.handler)

    def send(self, method, path, body, headers, identity):
        key = identity if identity == "session" else None
        client = self.clients.get(key)
        if client is None:  # signed out and bearer requests: no cookie jar to pick a session up in
            client = self.clients[key] = self.app.test_client(use_cookies=key is not None)
        h = dict(headers)
        if identity and identity != "session":
            h.setdefault("Authorization", f"Bearer {identity}")
        r = client.open(path, method=method, data=body, headers=h)
        return r.status_code, r.get_data()

    def session_for(self, world: dict) -> str:
        """Sign a browser session in (organizer) and return its CSRF token."""
        client = self.clients.get("session") or self.app.test_client()
        self.clients["session"] = client
        with client.session_transaction() as s:
            s["csrf"] = s.get("csrf") or "fuzz-csrf-token"
            token = s["csrf"]
        page = client.get(f"/tournaments/{world['tid']}/sign-in")
        assert page.status_code == 200, page.status_code
        r = client.post(f"/tournaments/{world['tid']}/sign-in",
                        data={"name": "Sue", "code": world["codes"]["organizer"], "csrf_token": token})
        assert r.status_code in (200, 302, 303), r.status_code
        return token


class OverHttp(Sender):
    def __init__(self, port: int):
        self.port = port
        self.conn = None

    def send(self, method, path, body, headers, identity):
        h = dict(headers)
        if identity and identity != "session":
            h.setdefault("Authorization", f"Bearer {identity}")
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.putrequest(method, path, skip_accept_encoding=True)
                for k, v in h.items():
                    self.conn.putheader(k, v.encode("utf-8"))
                self.conn.putheader("Content-Length", str(len(body or b"")))
                self.conn.endheaders(body)
                r = self.conn.getresponse()
                if r.getheader("Content-Type", "").startswith("text/event-stream"):
                    out = r.read1(65536)   # a live stream goes on: its first answer, then let go
                    self.conn.close()
                    self.conn = None
                    return r.status, out
                out = r.read()
                if r.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                    self.conn = None
                return r.status, out
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--http", action="store_true", help="fuzz `judgekit serve` over HTTP")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    from judgekit import create_app
    from judgekit.auth import codes
    with tempfile.TemporaryDirectory(prefix="judgekit-fuzz-") as tmp:
        app = create_app({"INSTANCE": Path(tmp) / "instance"})
        routes = endpoints(app)
        print(f"{len({(e, m) for e, m, _ in routes})} endpoint/method pairs from the url_map; "
              f"{args.requests} requests, seed {args.seed}"
              f"{' over HTTP' if args.http else ' in-process'}")
        if not args.http:
            codes.SCRYPT_N = 2 ** 4  # sign-in codes are hashed cheaply here: the run sets up many
            sender = InProcess(app)
            result = run(sender, routes, args.requests, args.seed, sessions=sender.session_for)
            sender.close()
            tracebacks = len(sender.tracebacks)
            for t in sender.tracebacks[:5]:
                print("  traceback:", t.splitlines()[-1][:200])
        else:
            port = args.port or free_port()
            log_path = Path(tmp) / "serve.log"
            env = dict(os.environ, JUDGEKIT_INSTANCE=str(Path(tmp) / "instance"))
            with open(log_path, "wb") as log:
                server = subprocess.Popen([sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port)],
                                          cwd=str(REPO), env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                deadline = time.time() + 120
                sender = OverHttp(port)
                while True:
                    try:
                        if sender.send("GET", "/api/games", None, {}, None)[0] == 200:
                            break
                    except OSError:
                        pass
                    if server.poll() is not None or time.time() > deadline:
                        raise SystemExit("judgekit serve did not start:\n" + log_path.read_text()[-2000:])
                    time.sleep(0.3)
                result = run(sender, routes, args.requests, args.seed)
            finally:
                server.terminate()
                server.wait(20)
            text = log_path.read_text(errors="replace")
            tracebacks = text.count("Traceback (most recent call last)")
            for line in [ln for ln in text.splitlines() if "Error" in ln][:5]:
                print("  log:", line[:200])
    s = result["statuses"]
    fives = sum(v for k, v in s.items() if k >= 500)
    pairs = {(e, m) for e, m, _ in routes}
    missed = sorted(pairs - result["endpoints_hit"])
    print(f"{result['requests']} requests in {result['seconds']:.0f} s to {len(result['endpoints_hit'])} of "
          f"{len(pairs)} endpoint/method pairs{' (missed: ' + str(missed) + ')' if missed else ''}: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(s.items())))
    print(f"5xx answers: {fives}; tracebacks in the log: {tracebacks}  [target 0 and 0]")
    return 1 if fives or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
