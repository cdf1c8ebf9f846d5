#!/usr/bin/env python3
"""Regenerate `content/cards/` from the krcg wheel: `judgekit cards update` from a checkout
without installing (same options, plus --out). The code is `judgekit.cards.update`."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judgekit.cards.update import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
