"""Sign-in codes and API tokens: making them, and hashing them for storage.

A sign-in code is what the organizer hands out: `J-7KQ3-M9XP-4TRW`. The first letter says
the role (J judge, H head judge, O organizer) so that a code is checked against one stored
hash only, and a person reading it aloud knows which one it is; the twelve characters after
it come from an alphabet without look-alikes (no 0/O, 1/I/L), about 59 bits. Case, spaces
and dashes do not matter when it is typed in.

Codes are stored as salted scrypt hashes (slow on purpose: a stolen database does not give
the codes away). API tokens are 256-bit random strings; a fast SHA-256 is enough for those
and lets the store find a token by its hash.

Pure: no Flask, no database.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading

from judgekit.auth.roles import HEAD_JUDGE, JUDGE, ORGANIZER

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
GROUPS, GROUP_LEN = 3, 4
PREFIX = {JUDGE: "J", HEAD_JUDGE: "H", ORGANIZER: "O"}
ROLE_OF_PREFIX = {v: k for k, v in PREFIX.items()}
TOKEN_PREFIX = "jk_"

# scrypt cost in production: ~16 MB and a few tens of milliseconds per check.
PRODUCTION_SCRYPT = (2 ** 14, 8, 1)
# The cost of new hashes (N, r, p): module settings, so that the test suite can make hashing
# cheap (tests/conftest.py). A stored hash names its own cost, so `verify_code` checks any.
SCRYPT_N, SCRYPT_R, SCRYPT_P = PRODUCTION_SCRYPT
# scrypt checks running at once: each holds 128 * N * r bytes (16 MB) while it runs, and more
# checks than cores are no faster, so 8 judges signing in together wait their turn instead
# of holding 128 MB at once.
_scrypt_slots = threading.BoundedSemaphore(2)


def _scrypt(key: bytes, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
    with _scrypt_slots:
        return hashlib.scrypt(key, salt=salt, n=n, r=r, p=p, dklen=dklen)


def new_code(role: str) -> str:
    """A fresh code for `role`, formatted for reading aloud: `H-ABCD-EFGH-JKMN`."""
    if role not in PREFIX:
        raise ValueError(f"no codes for role {role!r}")
    body = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP_LEN))
    return PREFIX[role] + "-" + "-".join(body[k:k + GROUP_LEN] for k in range(0, len(body), GROUP_LEN))


def normalise(code: str | None) -> str:
    """Upper case, without spaces, dashes and dots: what is hashed."""
    return "".join(ch for ch in str(code or "").upper() if ch not in " -._\t\n\r")


def role_of(code: str | None) -> str | None:
    """The role a code is for (from its first letter), or None when it cannot be a code."""
    key = normalise(code)
    if len(key) != 1 + GROUPS * GROUP_LEN or key[0] not in ROLE_OF_PREFIX:
        return None
    if any(ch not in ALPHABET for ch in key[1:]):
        return None
    return ROLE_OF_PREFIX[key[0]]


def hash_code(code: str, *, salt: bytes | None = None) -> str:
    """`scrypt$N$r$p$salt$hash` of the normalised code."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = _scrypt(normalise(code).encode(), salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, 32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_code(code: str | None, stored: str | None) -> bool:
    """Whether `code` matches a `hash_code` value (constant-time comparison)."""
    if not code or not stored:
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = _scrypt(normalise(code).encode(), bytes.fromhex(salt), int(n), int(r), int(p),
                      len(digest) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def new_token() -> str:
    """A bearer token for the JSON API (shown once; only its hash is stored)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(str(token).encode()).hexdigest()


MAX_NAME = 60  # a judge's display name (the sign-in form's maxlength reads it)


def clean_name(name: str | None, max_len: int = MAX_NAME) -> str | None:
    """A judge's display name: spaces collapsed, control characters dropped; None if empty
    or too long."""
    text = " ".join("".join(ch for ch in str(name or "") if ch.isprintable()).split())
    if not text or len(text) > max_len:
        return None
    return text
