"""The VEKN report, exports and the Archon import (views.py: blueprint report)."""
