"""Kill test: acknowledged writes survive `judgekit serve` being killed (SIGKILL) under load,
and each was fsynced before it was acknowledged (what a power cut needs).

    python tools/kill_test.py [--kills 5] [--tables 60] [--rate 2] [--port 0] [--no-trace]
                              [--control] [--dir DIR]

Local only, bounded (about 10 s per kill). A 300-player tournament, round 1 seated (60
tables of 5, each with its recorder game). One client thread per table posts recorder
events (each with a client id) at --rate per second, and now and then a penalty (with a
client id) and the table's result (with a client id, based on the result it saw last). The
server is killed with SIGKILL at a random moment --kills times and restarted; a request
whose answer was lost is retried after the restart with the same client id (events,
penalties, results: the server stores it once), as the recorder's offline queue does. At
the end the database is read directly and the test prints:

- acknowledged writes lost: answered 2xx but not in the database (target 0);
- writes stored twice: a client id stored more than once (target 0);
- `PRAGMA integrity_check` (target "ok").

A SIGKILL loses no data the process had handed to the kernel (the page cache survives
it), so a clean result above does not prove a power cut would be survived. For that the
server runs under `strace` (unless --no-trace, or strace is missing): in every server
thread, each write to the WAL file must be followed by an fsync/fdatasync of the WAL before
the thread hands a response to the network (a worker thread passes its answer to the
server's event loop, waking it through a socket). A write that broke that order could be
acknowledged and then lost in a power cut; the test prints how many (target 0). --control
runs the recorder at WAL's NORMAL level (JUDGEKIT_RECORDER_DURABLE=0) to show the check
catches it (expect many). What strace cannot see: a disk that acknowledges an fsync it has
only cached (some consumer drives, and virtual disks set to ignore flushes).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, folder: Path, port: int, trace: bool, control: bool):
        self.folder, self.port, self.trace, self.control = folder, port, trace, control
        self.proc: subprocess.Popen | None = None
        self.runs = 0

    def start(self) -> None:
        self.runs += 1
        env = dict(os.environ, JUDGEKIT_INSTANCE=str(self.folder / "instance"))
        if self.control:
            env["JUDGEKIT_RECORDER_DURABLE"] = "0"
        argv = [sys.executable, "-m", "judgekit.cli", "serve", "--port", str(self.port), "--threads", "16"]
        if self.trace:
            argv = ["strace", "-f", "--seccomp-bpf", "-qq", "-y", "-e", "signal=none",
                    "-e", "trace=write,pwrite64,writev,pwritev,sendto,sendmsg,fsync,fdatasync",
                    "-o", str(self.folder / f"strace-{self.runs}.log"), "--"] + argv
        self.log = open(self.folder / f"serve-{self.runs}.log", "wb")
        self.proc = subprocess.Popen(argv, cwd=str(REPO), env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 180
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/api/games?limit=1")
                if c.getresponse().status == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                raise SystemExit("judgekit serve did not start: "
                                 + (self.folder / f"serve-{self.runs}.log").read_text()[-2000:])
            time.sleep(0.2)

    def python_pid(self) -> int:
        """The server's own process (strace's child when traced)."""
        if not self.trace:
            return self.proc.pid
        for _ in range(100):
            for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
                kids = (task / "children").read_text().split()
                if kids:
                    return int(kids[0])
            time.sleep(0.05)
        raise RuntimeError("no server process under strace")

    def kill(self) -> None:
        os.kill(self.python_pid(), signal.SIGKILL)
        self.proc.wait(30)
        self.log.close()

    def stop(self) -> None:
        os.kill(self.python_pid(), signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.kill()
        self.log.close()


class Load:
    """The client side: what was sent, what was acknowledged."""

    def __init__(self, port: int, tid: int, tables: list[dict], judge: str, organizer: str,
                 pids: list[int], rate: float, seed: int):
        self.port, self.tid, self.tables = port, tid, tables
        self.judge, self.organizer, self.pids, self.rate = judge, organizer, pids, rate
        self.up = threading.Event()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acked_events: dict[int, set[str]] = defaultdict(set)     # game id -> client ids
        self.acked_penalties: set[str] = set()
        self.acked_results: dict[int, set[str]] = defaultdict(set)    # table no -> client ids
        self.counts: Counter = Counter()
        self.seed = seed

    def post(self, conn_box: list, path: str, body, token: str) -> tuple[int | None, dict]:
        """(the status, the JSON answer); status None when the answer was lost (the server
        died), -1 when nothing was sent (the server is down)."""
        try:
            if conn_box[0] is None:
                conn_box[0] = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
            conn_box[0].request("POST", path, json.dumps(body),
                                {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            r = conn_box[0].getresponse()
            raw = r.read()
            try:
                answer = json.loads(raw)
            except ValueError:
                answer = {}
            return r.status, answer if isinstance(answer, dict) else {}
        except ConnectionRefusedError:  # nothing was sent: the server is down
            conn_box[0] = None
            return -1, {}
        except (OSError, http.client.HTTPException):
            if conn_box[0] is not None:
                conn_box[0].close()
            conn_box[0] = None
            return None, {}

    def table(self, k: int) -> None:
        rng = random.Random(self.seed * 1000 + k)
        t = self.tables[k]
        box: list = [None]
        pending: list[tuple[str, str, dict, str]] = []  # (kind, path, body, key) to resend
        seen_result = None  # the table's result row this client last saw (`based_on`)
        results = 0
        outcomes = ([0.5] * len(t["players"]), [0.0] * (len(t["players"]) - 1) + [float(len(t["players"]))])
        i = 0
        while not self.stop.is_set():
            self.up.wait()
            if self.stop.is_set():
                break
            if pending:
                kind, path, body, key = pending[0]
            else:
                i += 1
                roll = rng.random()
                if roll < 0.06:
                    key = f"pen-{k}-{i}"
                    kind, path = "penalty", f"/api/tournaments/{self.tid}/penalties"
                    body = {"player": rng.choice(t["players"]), "infraction": "game-rule-violation",
                            "description": "kill test", "round": 1, "table": t["number"], "client_id": key}
                elif roll < 0.10:
                    key = f"res-{k}-{i}"
                    kind, path = "result", f"/api/tournaments/{self.tid}/rounds/1/tables/{t['number']}/result"
                    # a time-out (all ½) or the last seat ousting everyone, in turn: each post
                    # replaces the result it saw (the same numbers again would store nothing)
                    results += 1
                    body = {"vps": outcomes[results % 2], "note": key, "client_id": key, "based_on": seen_result}
                else:
                    key = f"ev-{k}-{i}"
                    kind, path = "event", f"/api/games/{t['game']}/events"
                    body = {"type": "note", "text": f"kill test {i}", "client_id": key}
            token = self.organizer if kind == "result" else self.judge
            status, answer = self.post(box, path, body, token)
            if status == -1:  # refused: not sent at all; wait for the restart
                time.sleep(0.2)
                continue
            with self.lock:
                self.counts[(kind, status)] += 1
            if status is None:  # lost answer: stored or not, nobody knows; the client id
                if not pending:  # makes the resend safe
                    pending.append((kind, path, body, key))
                time.sleep(0.2)
                continue
            if pending:
                pending.pop(0)
            if kind == "result":
                if "result_id" in answer:
                    seen_result = answer["result_id"]
                elif isinstance(answer.get("stored"), dict):  # 409: another result came first
                    seen_result = answer["stored"].get("id", seen_result)
            if 200 <= status < 300:
                with self.lock:
                    if kind == "event":
                        self.acked_events[t["game"]].add(key)
                    elif kind == "penalty":
                        self.acked_penalties.add(key)
                    else:
                        self.acked_results[t["number"]].add(key)
            time.sleep(rng.expovariate(self.rate))
        if box[0] is not None:
            box[0].close()


def api(port: int, method: str, path: str, body=None, token: str | None = None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    c.request(method, path, json.dumps(body) if body is not None else None, headers)
    r = c.getresponse()
    out = json.loads(r.read() or b"null")
    c.close()
    if r.status >= 300:
        raise SystemExit(f"{method} {path}: {r.status} {out}")
    return out


def setup(port: int, tables: int) -> dict:
    t = api(port, "POST", "/api/tournaments", {"name": "Kill Test Open", "organizer": "Ola", "rounds_planned": 3})
    org = t["token"]
    judge = api(port, "POST", f"/api/tournaments/{t['id']}/tokens", {"name": "Jo", "code": t["codes"]["judge"]})["token"]
    players = api(port, "POST", f"/api/tournaments/{t['id']}/players",
                  [{"name": f"Player {k}", "vekn": str(5000000 + k)} for k in range(5 * tables)], org)["players"]
    rnd = api(port, "POST", f"/api/tournaments/{t['id']}/rounds", {"seed": 7}, org)
    seated = [{"number": tb["number"], "game": tb["game_id"], "players": [s["player_id"] for s in tb["seats"]]}
              for tb in rnd["tables"]]
    return {"tid": t["id"], "org": org, "judge": judge, "pids": [p["id"] for p in players], "tables": seated}


# --- the power-cut check: every WAL write fsynced before the thread answers --------------------

LINE = re.compile(r"^(\d+)\s+(\w+)\((\d+)<([^>]*)>")
RESUMED = re.compile(r"^(\d+)\s+<\.\.\. (fsync|fdatasync) resumed>")


def fsync_order(log: Path) -> dict:
    """Per thread: WAL writes not followed by a WAL fsync before the thread's next output to
    a socket or pipe (how an answer leaves a worker thread)."""
    dirty: dict[str, int] = {}
    syncing: set[str] = set()  # threads inside an fsync of the WAL that strace split in two
    out = Counter()
    for line in log.read_text(errors="replace").splitlines():
        r = RESUMED.match(line)
        if r:
            if r.group(1) in syncing:  # the fsync returns here
                syncing.discard(r.group(1))
                dirty.pop(r.group(1), None)
                out["wal fsyncs"] += 1
            continue
        m = LINE.match(line)
        if not m:
            continue
        tid, call, _, target = m.groups()
        if call in ("fsync", "fdatasync") and "unfinished" in line:
            if target.endswith("-wal"):
                syncing.add(tid)
            continue
        if call in ("pwrite64", "write", "writev", "pwritev") and target.endswith("-wal"):
            dirty[tid] = dirty.get(tid, 0) + 1
            out["wal writes"] += 1
        elif call in ("fsync", "fdatasync") and target.endswith("-wal"):
            dirty.pop(tid, None)
            out["wal fsyncs"] += 1
        elif target.startswith(("socket:", "pipe:", "TCP:")) and call in ("write", "sendto", "sendmsg", "writev"):
            if dirty.pop(tid, None):
                out["answers after an unsynced WAL write"] += 1
    return out


def read_back(db_path: Path) -> dict:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        events = Counter(r[0] for r in con.execute("select client_id from events where client_id is not null"))
        penalties = Counter(r[0] for r in con.execute(
            "select client_id from penalty_records where client_id is not null"))
        results = Counter(r[0] for r in con.execute(
            "select client_id from tournament_results where client_id is not null"))
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()
    return {"events": events, "penalties": penalties, "results": results, "integrity": integrity}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--rate", type=float, default=2.0, help="requests per second per table")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-trace", action="store_true", help="skip the strace fsync-order check")
    ap.add_argument("--control", action="store_true",
                    help="recorder at WAL's NORMAL level: the fsync check must catch it")
    ap.add_argument("--dir", default=None, help="where the instance goes (default: beside this script)")
    args = ap.parse_args()
    trace = not args.no_trace and shutil.which("strace") is not None
    if not args.no_trace and not trace:
        print("strace not found: the fsync-order (power cut) check is skipped")
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="kill-test-", dir=args.dir or Path(__file__).parent))
    server = Server(folder, args.port or free_port(), trace, args.control)
    started = time.time()
    try:
        server.start()
        world = setup(server.port, args.tables)
        load = Load(server.port, world["tid"], world["tables"], world["judge"], world["org"], world["pids"],
                    args.rate, args.seed)
        threads = [threading.Thread(target=load.table, args=(k,), daemon=True) for k in range(len(world["tables"]))]
        load.up.set()
        for th in threads:
            th.start()
        for k in range(args.kills):
            time.sleep(rng.uniform(1.5, 6.0))
            load.up.clear()  # the clients notice the dead server by themselves; this only holds them
            server.kill()
            print(f"kill {k + 1}: SIGKILL after {time.time() - started:.0f} s; restarting", flush=True)
            load.up.set()
            server.start()
        time.sleep(3)  # resends of the answers lost in the last kill
        load.stop.set()
        for th in threads:
            th.join(60)
        server.stop()
        stored = read_back(folder / "instance" / "judgekit.db")
        lost = dup = 0
        acked = 0
        for game, keys in load.acked_events.items():
            acked += len(keys)
            lost += sum(1 for key in keys if stored["events"][key] == 0)
        acked += len(load.acked_penalties)
        lost += sum(1 for key in load.acked_penalties if stored["penalties"][key] == 0)
        for table, keys in load.acked_results.items():
            acked += len(keys)
            lost += sum(1 for key in keys if stored["results"][key] == 0)
        dup = sum(n - 1 for counter in (stored["events"], stored["penalties"], stored["results"])
                  for n in counter.values() if n > 1)
        sent = sum(load.counts.values())
        lost_answers = sum(v for (kind, status), v in load.counts.items() if status is None)
        print(f"{args.tables} tables, {args.kills} kills (SIGKILL), {time.time() - started:.0f} s: {sent} requests, "
              f"{acked} writes acknowledged (events {sum(len(v) for v in load.acked_events.values())}, "
              f"penalties {len(load.acked_penalties)}, results {sum(len(v) for v in load.acked_results.values())}), "
              f"{lost_answers} answers lost in the kills")
        refused = Counter(f"{kind} {status}" for (kind, status), v in load.counts.items()
                          for _ in range(v) if status is not None and status >= 300)
        if refused:
            print(f"  refused: {dict(refused)}")
        print(f"acknowledged writes lost: {lost}  [target 0]")
        print(f"writes stored twice: {dup}  [target 0]")
        print(f"PRAGMA integrity_check: {stored['integrity']}  [target ok]")
        bad = lost or dup or stored["integrity"] != "ok"
        if trace:
            total = Counter()
            for run in range(1, server.runs + 1):
                total.update(fsync_order(folder / f"strace-{run}.log"))
            print(f"power cut (strace, {server.runs} server runs): {total['wal writes']} WAL writes, "
                  f"{total['wal fsyncs']} WAL fsyncs; answers sent after a WAL write that was not yet "
                  f"fsynced: {total['answers after an unsynced WAL write']}  "
                  f"[target 0{'; --control expects many' if args.control else ''}]")
            bad = bad or (total["answers after an unsynced WAL write"] > 0) != args.control
            if not total["wal fsyncs"] and not args.control:
                bad = True
        print("SIGKILL keeps the page cache, so the counts above are what a crash of the app does; "
              "the strace line is the power-cut check." if trace else
              "SIGKILL keeps the page cache: the counts above do not model a power cut (run with strace).")
        return 1 if bad else 0
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
