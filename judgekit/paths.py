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


def instance_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The instance folder: the explicit path, else `$JUDGEKIT_INSTANCE`, else `./instance`."""
    chosen = explicit or os.environ.get("JUDGEKIT_INSTANCE") or "instance"
    path = Path(chosen).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


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
