"""judgekit's version (the same as pyproject.toml's): the published copy says which made it."""

VERSION = "0.1.0"
