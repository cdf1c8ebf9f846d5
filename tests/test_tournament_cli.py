"""`judgekit demo` and `judgekit export standings|seating`."""
from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from judgekit.cli import main


def test_demo_then_exports(tmp_path, demo):
    runner = CliRunner()
    inst = str(demo.copy(tmp_path / "inst"))
    r = demo.result
    assert r.exit_code == 0, r.output
    assert "demo tournament 1" in r.output

    r = runner.invoke(main, ["--instance", inst, "export", "standings", "--tournament", "1"])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert len(rows) == 12
    assert [row["rank"] for row in rows[:5]] == ["1", "2", "3", "4", "5"]  # ties tossed by the demo
    assert sum(1 for row in rows if row["vekn"] == "") == 1                 # one unrated player

    r = runner.invoke(main, ["--instance", inst, "export", "seating", "--tournament", "1",
                             "--round", "2", "--format", "json"])
    assert r.exit_code == 0, r.output
    seats = json.loads(r.output)
    assert len(seats) == 12 and {s["round"] for s in seats} == {2}
    assert sorted(s["table"] for s in seats) == [1] * 4 + [2] * 4 + [3] * 4


def test_export_unknown_tournament_fails_cleanly(tmp_path):
    r = CliRunner().invoke(main, ["--instance", str(tmp_path / "i"), "export", "standings", "--tournament", "7"])
    assert r.exit_code == 1
    assert "no tournament 7" in r.output


def test_instance_after_the_subcommand(tmp_path, demo):
    """`judgekit demo --instance DIR` (users type it after the subcommand) works as
    `judgekit --instance DIR demo`, for nested commands too; the last one given wins."""
    runner = CliRunner()
    r = demo.result
    assert r.exit_code == 0, r.output
    assert (demo.folder / "judgekit.db").exists()
    inst, other = str(demo.copy(tmp_path / "after")), str(tmp_path / "other")
    r = runner.invoke(main, ["export", "standings", "--tournament", "1", "--instance", inst])
    assert r.exit_code == 0, r.output
    assert len(list(csv.DictReader(io.StringIO(r.output)))) == 12
    r = runner.invoke(main, ["--instance", other, "codes", "--instance", inst, "--tournament", "1", "--role", "judge"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("judge ")
    r = runner.invoke(main, ["--instance", inst, "export", "standings", "--tournament", "1", "--instance", other])
    assert r.exit_code == 1 and "no tournament 1" in r.output       # the one after the subcommand wins


def test_every_command_that_reads_the_instance_takes_instance_after_it():
    import inspect

    import click

    def leaves(group, path=()):
        for name, cmd in group.commands.items():
            if isinstance(cmd, click.Group):
                yield from leaves(cmd, path + (name,))
            else:
                yield " ".join(path + (name,)), cmd
    for name, cmd in leaves(main):
        source = inspect.getsource(inspect.unwrap(cmd.callback))
        reads = 'ctx.obj["instance"]' in source or "(ctx" in source   # itself, or a helper given its context
        takes = any("--instance" in p.opts for p in cmd.params)
        assert takes == reads, f"judgekit {name}: reads the instance {reads}, takes --instance {takes}"
