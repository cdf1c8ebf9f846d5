"""The auth domain without the web: codes, hashing, tokens, the roles table, the store."""
from __future__ import annotations

import pytest

from judgekit.auth import codes, roles
from judgekit.auth import store as auth_store
from judgekit.tournament import store as tstore


# --- codes ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("role,prefix", [("judge", "J"), ("head_judge", "H"), ("organizer", "O")])
def test_codes_say_their_role_and_avoid_look_alikes(role, prefix):
    made = {codes.new_code(role) for _ in range(50)}
    assert len(made) == 50
    for code in made:
        head, *groups = code.split("-")
        assert head == prefix and [len(g) for g in groups] == [4, 4, 4]
        assert not set("".join(groups)) & set("01OIL")
        assert codes.role_of(code) == role
        assert codes.role_of(code.lower().replace("-", " ")) == role


def test_unknown_role_has_no_code():
    with pytest.raises(ValueError):
        codes.new_code("player")


@pytest.mark.parametrize("text", ["", None, "J-1234", "X-ABCD-EFGH-JKMN", "J-ABCD-EFGH-JKM0",
                                  "J-ABCD-EFGH-JKMNP"])
def test_malformed_codes_have_no_role(text):
    assert codes.role_of(text) is None


def test_code_hash_is_salted_and_verifies_typed_variants():
    code = codes.new_code("judge")
    h1, h2 = codes.hash_code(code), codes.hash_code(code)
    assert h1 != h2 and code not in h1 and codes.normalise(code) not in h1
    assert h1.startswith("scrypt$")
    assert codes.verify_code(code, h1) and codes.verify_code(code, h2)
    assert codes.verify_code(" " + code.lower().replace("-", "") + " ", h1)
    other = codes.new_code("judge")
    assert not codes.verify_code(other, h1)
    assert not codes.verify_code(code, "garbage") and not codes.verify_code(None, h1)
    assert not codes.verify_code(code, "bcrypt$1$2$3$aa$bb")


def test_production_scrypt_cost(monkeypatch):
    """The suite hashes with a tiny cost (tests/conftest.py); production uses N=2^14, r=8, p=1."""
    assert codes.PRODUCTION_SCRYPT == (2 ** 14, 8, 1)
    n, r, p = codes.PRODUCTION_SCRYPT
    monkeypatch.setattr(codes, "SCRYPT_N", n)
    monkeypatch.setattr(codes, "SCRYPT_R", r)
    monkeypatch.setattr(codes, "SCRYPT_P", p)
    code = codes.new_code("judge")
    stored = codes.hash_code(code)
    assert stored.startswith("scrypt$16384$8$1$")
    assert codes.verify_code(code, stored) and not codes.verify_code(codes.new_code("judge"), stored)


def test_the_module_default_is_the_production_cost():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", "from judgekit.auth import codes; "
                          "print((codes.SCRYPT_N, codes.SCRYPT_R, codes.SCRYPT_P) == codes.PRODUCTION_SCRYPT)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_tokens_are_random_and_hashed():
    a, b = codes.new_token(), codes.new_token()
    assert a != b and a.startswith("jk_") and len(a) > 40
    assert codes.hash_token(a) == codes.hash_token(a) != codes.hash_token(b)
    assert a not in codes.hash_token(a)


@pytest.mark.parametrize("name,clean", [("  Ana   Souza ", "Ana Souza"), ("", None), ("x" * 61, None),
                                         ("Bob\x00\x07", "Bob"), (None, None)])
def test_names(name, clean):
    assert codes.clean_name(name) == clean


# --- roles table ------------------------------------------------------------------------------------

def test_roles_are_ordered_and_each_includes_the_one_below():
    for action in roles.ACTIONS.values():
        allowed = [r for r in (None,) + roles.ROLES if roles.allows(r, action.name)]
        # once a role may, every higher role may too
        assert allowed == [r for r in (None,) + roles.ROLES][len((None,) + roles.ROLES) - len(allowed):]


@pytest.mark.parametrize("action,lowest", [
    ("rules.read", None), ("standings.public", None), ("tournament.create", None),
    ("events.record", "judge"), ("penalties.issue", "judge"), ("time.extend", "judge"),
    ("penalties.approve", "head_judge"), ("results.override", "head_judge"), ("export", "head_judge"),
    ("penalties.list", "head_judge"), ("rounds.close", "head_judge"), ("final.run", "head_judge"),
    ("players.manage", "organizer"), ("rounds.start", "organizer"), ("codes.manage", "organizer"),
])
def test_the_table_says_who_may(action, lowest):
    order = [None] + list(roles.ROLES)
    k = order.index(lowest)
    assert [roles.allows(r, action) for r in order] == [False] * k + [True] * (len(order) - k)


def test_unknown_roles_and_actions():
    assert not roles.allows("player", "rules.read")
    with pytest.raises(KeyError):
        roles.allows("judge", "penalties.eat")
    assert roles.parse_role("Head Judge") == "head_judge" and roles.parse_role("HJ") == "head_judge"
    assert roles.parse_role("organiser") == "organizer" and roles.parse_role("player") is None
    assert {r["action"] for r in roles.table_rows()} == set(roles.ACTIONS)


# --- store ---------------------------------------------------------------------------------------------

def test_codes_are_stored_hashed_and_checked(db):
    tid = tstore.create_tournament(db, {"name": "T"})
    assert not auth_store.has_codes(db, tid)
    issued = auth_store.issue_codes(db, tid)
    assert set(issued) == set(roles.ROLES) and auth_store.has_codes(db, tid)
    dump = "\n".join(str(r) for r in db["auth_codes"].rows)
    for role, code in issued.items():
        assert code not in dump and codes.normalise(code) not in dump
        assert auth_store.check_code(db, tid, code) == (role, 1)
    assert auth_store.check_code(db, tid, codes.new_code("judge")) is None
    other = tstore.create_tournament(db, {"name": "U"})
    auth_store.issue_codes(db, other)
    assert auth_store.check_code(db, other, issued["judge"]) is None  # codes are per tournament


def test_new_codes_replace_old_ones_and_revoke_their_tokens(db):
    tid = tstore.create_tournament(db, {"name": "T"})
    first = auth_store.issue_codes(db, tid)
    judge_token = auth_store.issue_token(db, tid, "judge", "Ana")
    hj_token = auth_store.issue_token(db, tid, "head_judge", "Hal")
    assert auth_store.identify_token(db, judge_token) == {"tournament": tid, "role": "judge",
                                                          "name": "Ana", "token_id": 1}
    assert auth_store.session_valid(db, tid, "judge", 1)
    second = auth_store.issue_codes(db, tid, ["judge"])
    assert auth_store.check_code(db, tid, first["judge"]) is None
    assert auth_store.check_code(db, tid, second["judge"]) == ("judge", 2)
    assert auth_store.check_code(db, tid, first["head_judge"]) == ("head_judge", 1)  # untouched
    assert auth_store.identify_token(db, judge_token) is None
    assert auth_store.identify_token(db, hj_token)["role"] == "head_judge"
    assert not auth_store.session_valid(db, tid, "judge", 1)
    assert auth_store.session_valid(db, tid, "judge", 2)


def test_tokens_are_stored_hashed_and_can_be_revoked(db):
    tid = tstore.create_tournament(db, {"name": "T"})
    auth_store.issue_codes(db, tid)
    token = auth_store.issue_token(db, tid, "judge", "Ana")
    assert token not in "\n".join(str(r) for r in db["auth_tokens"].rows)
    assert auth_store.revoke_token(db, token) is True
    assert auth_store.identify_token(db, token) is None
    assert auth_store.revoke_token(db, token) is False
    for bad in (None, "", "jk_nope", "Bearer x"):
        assert auth_store.identify_token(db, bad) is None


def test_a_tournament_without_codes_accepts_no_token(db):
    tid = tstore.create_tournament(db, {"name": "T"})
    token = auth_store.issue_token(db, tid, "judge", "Ana")
    assert auth_store.identify_token(db, token) is None
    assert not auth_store.session_valid(db, tid, "judge", None)
