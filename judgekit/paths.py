"""Where judgekit finds its content and keeps its local state.

Pure functions, no Flask: the CLI, the app factory and the tests all resolve paths here.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent


def content_dir() -> Path:
    """The `content/` folder: `$JUDGEKIT_CONTENT`, else the one next to the package."""
    env = os.environ.get("JUDGEKIT_CONTENT")
    return Path(env).resolve() if env else REPO_DIR / "content"


PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600  # the owner only: codes' hashes, penalties, the key


def instance_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The instance folder: the explicit path, else `$JUDGEKIT_INSTANCE`, else `./instance`.
    Created for the owner only (0700)."""
    chosen = explicit or os.environ.get("JUDGEKIT_INSTANCE") or "instance"
    path = Path(chosen).expanduser().resolve()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=PRIVATE_DIR, exist_ok=True)
    path.mkdir(parents=True, exist_ok=True)
    return path


def make_private(instance: Path, database: str | os.PathLike, index: str | os.PathLike) -> None:
    """Owner-only permissions on judgekit's files: the database with its WAL and SHM files,
    the secret key (0600), the index folder and the instance folder (0700).

    New files are created so (`secret_key`, `judgekit.db.open_db`; SQLite gives the WAL and
    SHM files the database's mode); this also tightens an instance made by an older
    version. A file or folder judgekit may not change is left as it is."""
    db = Path(database)
    files = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), instance / "secret_key"]
    for path, mode in [(f, PRIVATE_FILE) for f in files] + [(Path(index), PRIVATE_DIR), (instance, PRIVATE_DIR)]:
        _tighten(path, mode)


def _tighten(path: Path, mode: int) -> None:
    try:
        if path.exists() and path.stat().st_mode & 0o777 & ~mode:
            os.chmod(path, mode)
    except OSError:  # not ours to change (another owner, a read-only mount): leave it
        pass


def secret_key(instance: Path) -> str:
    """The app's secret key, generated into the instance folder on first use (never committed)."""
    key_file = instance / "secret_key"
    if key_file.exists():
        key = key_file.read_text().strip()
        if key:
            return key
    key = secrets.token_hex(32)
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key
