"""The error of a content file that does not follow docs/content-format.md (a rules
document, a questions file): it names the file and the line."""
from __future__ import annotations

from pathlib import Path


class ContentError(ValueError):
    """A content file that does not follow docs/content-format.md."""

    def __init__(self, path: Path | str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path = str(path)
        self.line = line
        self.reason = message
