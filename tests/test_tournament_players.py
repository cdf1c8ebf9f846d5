"""The player record (issue 12, section 1): first and last names, city, country, temporary
numbers; the migration of stored single names; editing with the change kept; bulk
registration by paste or CSV (previewed, all or nothing); check in all; check-in from a
player's phone with the venue's code; the dashboard's form and filter."""
from __future__ import annotations


import pytest

from judgekit.tournament import checkin as checkin_mod
from judgekit.tournament import store
from judgekit.tournament.players import fold, parse_vekn, split_name
from judgekit.tournament.roster import parse_roster


# --- the record ------------------------------------------------------------------------------

@pytest.mark.parametrize("name,first,last", [
    ("Ana Silva", "Ana", "Silva"),
    ("Jean-Pierre de la Tour", "Jean-Pierre", "de la Tour"),   # the first space, as the VEKN's tools
    ("  Zoë   Ünal ", "Zoë", "Ünal"),
    ("Madonna", "Madonna", ""),
])
def test_a_single_name_splits_on_its_first_space(name, first, last):
    assert split_name(name) == (first, last)


@pytest.mark.parametrize("raw,number,bad", [
    ("1234567", "1234567", False), (" #123 4567 ", "1234567", False), (1234567, "1234567", False),
    ("p123", "P123", False), ("P0042", "P0042", False), ("1234567.0", "1234567", False),
    ("", None, False), (None, None, False),
    ("12a", None, True), ("PP12", None, True), ("P", None, True), ("١٢٣", None, True), (-5, None, True),
    (True, None, True), ([1], None, True),
])
def test_vekn_numbers_and_temporary_numbers(raw, number, bad):
    got, problem = parse_vekn(raw)
    assert got == number and bool(problem) == bad


def test_a_player_has_first_and_last_name_city_country_and_the_display_name(db):
    tid = store.create_tournament(db, {"name": "Cup"})
    p = store.add_player(db, tid, {"first_name": "Jean-Pierre", "last_name": "de la Tour", "vekn": "p77",
                                   "city": "Lyon", "country": "France"})
    assert (p["name"], p["first_name"], p["last_name"], p["city"], p["country"]) == \
        ("Jean-Pierre de la Tour", "Jean-Pierre", "de la Tour", "Lyon", "France")
    assert p["vekn"] == "P77" and p["vekn_temporary"] and p["rated"]
    q = store.add_player(db, tid, {"name": "Ana Maria Silva"})
    assert (q["first_name"], q["last_name"], q["rated"], q["vekn_temporary"]) == ("Ana", "Maria Silva", False, False)
    with pytest.raises(store.TournamentError) as exc:
        store.add_player(db, tid, {"first_name": " ", "last_name": ""})
    assert exc.value.status == 400 and exc.value.field == "first_name"
    with pytest.raises(store.TournamentError) as exc:
        store.add_player(db, tid, {"name": "Other", "vekn": "P77"})
    assert exc.value.status == 409 and "Jean-Pierre de la Tour" in exc.value.message


def test_the_migration_splits_names_stored_before_the_parts_existed(tmp_path):
    """A database made before first and last names existed: adopting it splits the names
    once (tests/test_migrations.py covers the rest of the adoption)."""
    import sqlite3

    from judgekit.db import migrate, open_db
    conn = sqlite3.connect(tmp_path / "old.db")
    conn.executescript("""
        CREATE TABLE tournaments (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE tournament_players (id INTEGER PRIMARY KEY, tournament_id INTEGER, name TEXT,
            vekn TEXT, checked_in INTEGER DEFAULT 1, dropped INTEGER DEFAULT 0);
        INSERT INTO tournaments VALUES (1, 'Old');
        INSERT INTO tournament_players (tournament_id, name, vekn) VALUES
            (1, 'Jean-Pierre de la Tour', '100'), (1, 'Cher', NULL);
    """)
    conn.close()
    db = open_db(tmp_path / "old.db")
    migrate(db)
    rows = {p["name"]: (p["first_name"], p["last_name"]) for p in store.players(db, 1)}
    assert rows == {"Jean-Pierre de la Tour": ("Jean-Pierre", "de la Tour"), "Cher": ("Cher", "")}
    db.execute("update tournament_players set first_name = 'Jean-Pierre de', last_name = 'la Tour' where vekn = '100'")
    migrate(db)  # once: an edited split is not split again
    assert store.players(db, 1)[0]["first_name"] == "Jean-Pierre de"
    db.close()


def test_editing_a_player_keeps_the_change_and_renames_their_tables(db):
    tid = store.create_tournament(db, {"name": "Cup"})
    ids = [store.add_player(db, tid, {"name": f"P{k} X", "vekn": str(100 + k)})["id"] for k in range(4)]
    r = store.start_round(db, tid, seed=1)
    after = store.edit_player(db, tid, ids[0], {"first_name": "Ana", "vekn": "P5", "city": "Porto"}, by="Olga")
    assert (after["name"], after["first_name"], after["last_name"], after["vekn"]) == ("Ana X", "Ana", "X", "P5")
    history = store.player_history(db, tid, ids[0])
    edits = [h for h in history if h["kind"] == "edit"]
    assert edits[0]["by"] == "Olga"
    assert edits[0]["changes"] == {"name": ["P0 X", "Ana X"], "first_name": ["P0", "Ana"], "vekn": ["100", "P5"],
                                   "city": [None, "Porto"]}
    # the table's recorder game shows the new name
    from judgekit.recorder import store as rec_store
    game = rec_store.get_game(db, r["tables"][0]["game_id"])
    assert "Ana X" in game["seats"]
    # a number taken by someone else changes nothing
    with pytest.raises(store.TournamentError) as exc:
        store.edit_player(db, tid, ids[0], {"vekn": "101", "city": "Lisbon"})
    assert exc.value.status == 409 and "P1 X" in exc.value.message
    assert store.get_player(db, tid, ids[0])["city"] == "Porto"
    with pytest.raises(store.TournamentError) as exc:
        store.edit_player(db, tid, ids[0], {"checked_in": True})
    assert exc.value.status == 400
    assert store.edit_player(db, tid, ids[0], {"city": "Porto"}) and \
        len(store.player_history(db, tid, ids[0])) == len(history)  # no change, no row


# --- bulk registration -------------------------------------------------------------------------

def test_paste_without_header_semicolons_and_single_names():
    r = parse_roster("Ana;Silva;1234567;Lyon;France\nBruno Costa\n\nCarla;Dias;;Porto\n")
    assert r.ok and r.columns == ["first_name", "last_name", "vekn", "city", "country"]
    assert [(x.line, x.first_name, x.last_name, x.vekn, x.city, x.country) for x in r.rows] == [
        (1, "Ana", "Silva", "1234567", "Lyon", "France"), (2, "Bruno", "Costa", None, None, None),
        (4, "Carla", "Dias", None, "Porto", None)]


def test_csv_with_a_header_a_bom_commas_and_quotes():
    data = "\ufeffNom,Prénom,V:EKN Num,Ville,Pays,Deck\n\"Silva, Jr\",Ana,1234567,Lyon,FR,Toreador\n".encode()
    r = parse_roster(data)
    # beside a first name ("Prénom"), a name column ("Nom") is the last name
    assert r.ok and r.header and r.columns == ["last_name", "first_name", "vekn", "city", "country", ""]
    assert "Column 6 (Deck) is not read." in r.notes
    assert (r.rows[0].first_name, r.rows[0].last_name, r.rows[0].vekn) == ("Ana", "Silva, Jr", "1234567")
    r = parse_roster("Name;VEKN\nJean-Pierre de la Tour;7\n")   # alone, a name splits on its first space
    assert (r.rows[0].first_name, r.rows[0].last_name) == ("Jean-Pierre", "de la Tour")


def test_tab_separated_and_utf16_as_excel_saves_unicode_text():
    text = "First name\tLast name\tVEKN\nZoë\tÜnal\t42\n"
    r = parse_roster(text.encode("utf-16"))
    assert r.ok and (r.rows[0].first_name, r.rows[0].last_name, r.rows[0].vekn) == ("Zoë", "Ünal", "42")


def test_every_row_problem_is_named_before_anything_is_stored():
    r = parse_roster("Ana Silva;100\nBruno;100\n;101\nCarla;12a\nDario;102\n=HYPERLINK(\"x\");P9\nEli;103",
                     existing={"103": "Old Timer"})
    assert not r.ok
    by_line = {x.line: x for x in r.rows}
    assert by_line[1].problems == ["VEKN number 100 is also on line 2 (Bruno)"]
    assert by_line[2].problems == ["VEKN number 100 is also on line 1 (Ana Silva)"]
    assert by_line[3].problems == ["no name"]
    assert "not '12a'" in by_line[4].problems[0]
    assert by_line[5].problems == []
    assert by_line[6].problems == [] and any("starts with '='" in n for n in by_line[6].notes) \
        and any("temporary number P9" in n for n in by_line[6].notes)
    assert by_line[7].problems == ["VEKN number 103 is already registered here (Old Timer)"]
    assert r.summary().startswith("5 of 7 rows have a problem")


@pytest.mark.parametrize("data,words", [
    (b"", "empty"), (b"   \n\n", "empty"), ("", "nothing to register"),
    (b"PK\x03\x04rest-of-a-zip", "spreadsheet"), (b"\xd0\xcf\x11\xe0old", ".xls"), (b"%PDF-1.7", "PDF"),
    (b"Ana;1\nBruno \xe9;2\n", "Line 2 is not UTF-8"), (b"Ana;1\x00\n", "not a text file"),
    ("Ana;Silva\nBruno;Costa\n", "add a header line"),
    ("1234567;Ana\n7654321;Bo\n", "column 1"),
    ("City;Country\nx;y\n", "no name column"),
    ("name;name\nAna;Bo\n", "names the name twice"),
    ("name;vekn\n", "no player under it"),
    ('Ana;"unclosed\n', "cannot be read"),
])
def test_files_that_are_not_lists_of_players_say_why(data, words):
    r = parse_roster(data)
    assert not r.ok and words in r.summary(), r.summary()


def test_too_many_rows_and_a_long_name():
    r = parse_roster("\n".join(f"P{k};{k}" for k in range(2002)))
    assert not r.ok and "More than 2000 lines" in r.summary()
    r = parse_roster("A" * 81 + ";1")
    assert "81 characters long (at most 80)" in r.rows[0].problems[0]


def test_register_roster_is_all_or_nothing(db):
    tid = store.create_tournament(db, {"name": "Cup"})
    store.add_player(db, tid, {"name": "Old Timer", "vekn": "103"})
    with pytest.raises(store.TournamentError) as exc:
        store.register_roster(db, tid, "Ana;100\nBruno;103\nCarla;101")
    assert exc.value.status == 400
    assert exc.value.extra["problems"] == [{"line": 2, "message": "VEKN number 103 is already registered here (Old Timer)"}]
    assert [p["name"] for p in store.players(db, tid)] == ["Old Timer"]
    added = store.register_roster(db, tid, "Ana Silva;100;Lyon;FR\nCarla;101", by="Olga")
    assert [(p["name"], p["checked_in"], p["city"]) for p in added] == [("Ana Silva", False, "Lyon"), ("Carla", False, None)]
    added = store.register_roster(db, tid, "Dario;102", checked_in=True)
    assert added[0]["checked_in"]
    with pytest.raises(store.TournamentError):
        store.register_roster(db, tid, "Eli;104", checked_in="yes")


def test_check_in_all_and_the_history_of_how(db):
    tid = store.create_tournament(db, {"name": "Cup"})
    store.register_roster(db, tid, "\n".join(f"P{k} X;{200 + k}" for k in range(6)))
    ps = store.players(db, tid)
    store.drop_player(db, tid, ps[5]["id"])
    done = store.check_in_all(db, tid, by="Olga")
    assert sorted(p["id"] for p in done) == sorted(p["id"] for p in ps[:5])
    assert store.check_in_all(db, tid) == []
    assert not store.get_player(db, tid, ps[5]["id"])["checked_in"]
    assert [(h["kind"], h["how"], h["by"]) for h in store.player_history(db, tid, ps[0]["id"])] == \
        [("check-in", "all", "Olga")]
    store.set_checked_in(db, tid, ps[0]["id"], False, by="Olga")
    assert store.player_history(db, tid, ps[0]["id"])[-1]["kind"] == "absent"


# --- check-in from a phone ---------------------------------------------------------------------

def test_codes_change_every_ten_minutes_and_old_links_expire():
    now = 1_800_000_000.0
    w = checkin_mod.window(now)
    code = checkin_mod.code_for("s3cret", 7, w)
    assert len(code) == 5 and set(code) <= set(checkin_mod.ALPHABET)
    assert checkin_mod.check("s3cret", 7, code, now, w) == "ok"
    assert checkin_mod.check("s3cret", 7, code.lower()[:2] + "-" + code.lower()[2:], now) == "ok"  # typed
    assert checkin_mod.check("s3cret", 7, code, now + 600, w) == "ok"          # the next window still takes it
    assert checkin_mod.check("s3cret", 7, code, now + 1200, w) == "expired"    # a link opened again later
    assert checkin_mod.check("s3cret", 7, code, now + 1200) == "expired"       # typed late
    assert checkin_mod.check("s3cret", 8, code, now, w) == "wrong"             # another event's
    assert checkin_mod.check("other", 7, code, now, w) == "wrong"              # after close and reopen
    assert checkin_mod.check("s3cret", 7, code, now, w + 1) == "wrong"         # a window not shown yet
    assert checkin_mod.check("s3cret", 7, "ABC", now) == "wrong"
    assert checkin_mod.check("s3cret", 7, None, now) == "wrong"


def test_self_check_in_answers_every_case(db):
    tid = store.create_tournament(db, {"name": "Cup"})
    store.register_roster(db, tid, "Ana Silva;100\nAna Costa;101\nBruno Dias;102\nCarla Zoë;103")
    now = 1_800_000_000.0
    with pytest.raises(store.TournamentError) as exc:
        store.self_check_in(db, tid, "ABCDE", who="100", now=now)
    assert exc.value.status == 409 and "not open" in exc.value.message
    state = store.checkin_state(db, store.open_checkin(db, tid) and tid, now=now)
    code, w = state["code"], state["window"]
    assert state["path"] == f"/tournaments/{tid}/check-in?code={code}&w={w}"
    out = store.self_check_in(db, tid, code, w=w, who="#100", now=now)
    assert out["status"] == "checked-in" and out["player"]["name"] == "Ana Silva"
    assert store.player_history(db, tid, out["player"]["id"])[-1]["how"] == "phone"
    again = store.self_check_in(db, tid, code, w=w, who="100", now=now + 5)
    assert again["status"] == "already" and again["since"]
    store.add_player(db, tid, {"name": "Kira Tanaka", "vekn": "104", "checked_in": False})
    choose = store.self_check_in(db, tid, code, w=w, who="ana", now=now)   # a word's start: not Tanaka
    assert choose["status"] == "choose" and [p["name"] for p in choose["candidates"]] == ["Ana Silva", "Ana Costa"]
    assert [p["name"] for p in store.self_check_in(db, tid, code, w=w, who="an co", now=now)["candidates"]] == \
        ["Ana Costa"]
    picked = store.self_check_in(db, tid, code, w=w, player_id=choose["candidates"][1]["id"], now=now)
    assert picked["status"] == "checked-in" and picked["player"]["name"] == "Ana Costa"
    one = store.self_check_in(db, tid, code, w=w, who="zoe", now=now)  # a name is confirmed before check-in
    assert one["status"] == "choose" and not one["candidates"][0]["checked_in"]
    for args, status, words in [
        (dict(code="ZZZZZ", w=w, who="102"), 403, "not the check-in code"),
        (dict(code=code, w=w, who="102", now=now + 1300), 403, "expired"),
        (dict(code=code, w="x", who="102"), 403, "not right"),
        (dict(code=code, w=w, who="999"), 404, "Nobody registered here matches '999'"),
        (dict(code=code, w=w, who="a"), 400, "at least two letters"),
        (dict(code=code, w=w, who=""), 400, "VEKN number or your name"),
        (dict(code=code, w=w, player_id="999999"), 404, "not registered here"),
    ]:
        kw = {"now": now, **args}
        with pytest.raises(store.TournamentError) as exc:
            store.self_check_in(db, tid, **kw)
        assert exc.value.status == status and words in exc.value.message, (args, exc.value.message)
    bruno = next(p for p in store.players(db, tid) if p["vekn"] == "102")
    store.drop_player(db, tid, bruno["id"])
    with pytest.raises(store.TournamentError) as exc:
        store.self_check_in(db, tid, code, w=w, who="102", now=now)
    assert exc.value.status == 409 and "ask at the desk" in exc.value.message
    store.close_checkin(db, tid)
    store.open_checkin(db, tid)
    with pytest.raises(store.TournamentError) as exc:  # a new secret: the old link is wrong now
        store.self_check_in(db, tid, code, w=w, who="103", now=now)
    assert exc.value.extra["reason"] == "wrong"


def test_fold_matches_names_without_accents_or_case():
    assert fold("  ZOË  Ünal ") == "zoe unal"
