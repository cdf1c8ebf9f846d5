"""The headers every response carries (no Flask here): `judgekit.views.security_headers`
sets them on the app's responses, and the search's fast path (`judgekit.rules.search_api`)
sends the same.

The pages load their own scripts and styles only (no inline script, style attribute or
event handler: tests/browser/test_security_headers.py loads every page and fails on any
violation). Constant strings: a few microseconds per response (bench/integrity.py).
"""
from __future__ import annotations

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
)
