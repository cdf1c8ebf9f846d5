"""Instances the tests prepare once per session and copy per test.

`judgekit demo` seats three rounds of twelve players (the seating search: about 1.3 s of
CPU), and its tournament is the same at every run (seed 2024; only the sign-in codes
differ). The tests of what `demo` prints and of the commands that read its tournament
share one run per session (per xdist worker) and work on a copy of its instance folder.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner, Result

from judgekit.cli import main


@dataclass(frozen=True)
class DemoRun:
    result: Result    # `judgekit demo --instance FOLDER`: exit code and output
    folder: Path      # the instance folder it made: read it, never write it (copy it)

    def copy(self, dest: Path) -> Path:
        """A copy of the demo's instance folder at `dest`, for a test to read and write."""
        shutil.copytree(self.folder, dest)
        return dest


_RUNS: dict[Path, DemoRun] = {}


def demo_run(tmp_path_factory) -> DemoRun:
    """The session's one `judgekit demo`, given `--instance` after the subcommand as users
    type it (`judgekit demo --instance DIR`)."""
    base = tmp_path_factory.getbasetemp()
    if base not in _RUNS:
        folder = tmp_path_factory.mktemp("demo") / "inst"
        _RUNS[base] = DemoRun(CliRunner().invoke(main, ["demo", "--instance", str(folder)]), folder)
    return _RUNS[base]
