"""VP from outcome events, the table check, GW and TP (tournament rules 3.5–3.7)."""
from __future__ import annotations

import random

import pytest

from judgekit.game.outcome import derive_vp
from judgekit.tournament.scoring import (check_table, differences, game_wins, parse_vp, score_table,
                                         tournament_points)


def ev(*items):
    """Events from a compact notation: 'o3' oust seat 3, 'w2' withdraw, 'c4' concede,
    't' time-out, 'd' intentional draw."""
    out = []
    for seq, item in enumerate(items, 1):
        kind = {"o": "oust", "w": "withdraw", "c": "concede", "t": "time-out", "d": "draw"}[item[0]]
        e = {"type": kind, "seq": seq}
        if len(item) > 1:
            e["seat"] = int(item[1:])
        out.append(e)
    return out


# --- the worked examples of 3.7.4 -------------------------------------------------------

def test_example_five_player_table():
    # Seats A B C D E. A ousts its prey B; C ousts its prey D; A, C and E survive the round.
    result = derive_vp(5, ev("o2", "o4", "t"))
    assert result.errors == []
    assert result.vps == [1.5, 0, 1.5, 0, 0.5]
    assert result.out == {2: "ousted by seat 1", 4: "ousted by seat 3"}
    assert check_table(result.vps) == []
    assert game_wins(result.vps) == [0, 0, 0, 0, 0]  # tied, and under 2 VP
    assert tournament_points(result.vps) == [54, 18, 54, 18, 36]


def test_example_four_player_table():
    # Seats A B C D. A ousts B; C and D survive along with A.
    result = derive_vp(4, ev("o2", "t"))
    assert result.vps == [1.5, 0, 0.5, 0.5]
    assert check_table(result.vps) == []
    assert game_wins(result.vps) == [0, 0, 0, 0]
    # third place is the table bye: C and D share 2nd and 4th = (48 + 24) / 2
    assert tournament_points(result.vps) == [60, 12, 36, 36]


# --- deriving VP -----------------------------------------------------------------------

DERIVE_CASES = [
    # (name, seats, events, expected VP, finished, ended_by)
    ("sweep by seat 1", 5, ["o2", "o3", "o4", "o5"], [5, 0, 0, 0, 0], True, "last-standing"),
    ("predator is the previous surviving seat", 5, ["o2", "o3"], [2, 0, 0, 0, 0], False, None),
    ("oust of seat 1 goes to the last seat", 4, ["o1", "t"], [0, 0.5, 0.5, 1.5], True, "time-out"),
    ("prey passes on after an oust", 4, ["o3", "o4", "t"], [0.5, 2.5, 0, 0], True, "time-out"),
    ("withdrawal scores a half, predator nothing", 5, ["w3", "t"], [0.5, 0.5, 0.5, 0.5, 0.5], True, "time-out"),
    ("withdrawal then the predator hunts the next prey", 4, ["w2", "o3", "o4", ], [3, 0.5, 0, 0], True, "last-standing"),
    ("last two: oust gives 1 + 1 for last standing", 4, ["o2", "o3", "o1"], [2, 0, 0, 2], True, "last-standing"),
    ("withdrawal of the second-last leaves one standing", 4, ["o2", "o3", "w4"], [3, 0, 0, 0.5], True, "last-standing"),
    ("time-out with no oust", 5, ["t"], [0.5] * 5, True, "time-out"),
    ("intentional draw scores as time-out", 4, ["o2", "d"], [1.5, 0, 0.5, 0.5], True, "draw"),
    ("concession: all but one concede, ousted in sequence", 5, ["o2", "c1", "c4", "c5"],
     [1, 0, 4, 0, 0], True, "concession"),
    ("concession of the last opponent", 4, ["o2", "o3", "c1"], [2, 0, 0, 2], True, "concession"),
    ("no events yet", 5, [], [0] * 5, False, None),
]


@pytest.mark.parametrize("name,seats,events,vps,finished,ended_by", DERIVE_CASES,
                         ids=[c[0] for c in DERIVE_CASES])
def test_derive_vp(name, seats, events, vps, finished, ended_by):
    result = derive_vp(seats, ev(*events))
    assert result.errors == []
    assert result.vps == vps
    assert result.finished is finished
    assert result.ended_by == ended_by
    if finished:
        assert check_table(result.vps, result.withdrawn) == []


def test_events_are_ordered_by_seq_not_by_list_order():
    events = [{"type": "oust", "seat": 1, "seq": 2}, {"type": "oust", "seat": 2, "seq": 1}]
    # seat 1 ousts 2 first (+1), then seat 4 (predator of 1) ousts 1
    assert derive_vp(4, events).vps == [1, 0, 0, 1]


ERROR_CASES = [
    ("oust of a seat already out", 5, ["o2", "o2", "t"], "seat-already-out", [1.5, 0, 0.5, 0.5, 0.5]),
    ("seat outside the table", 4, ["o7", "t"], "seat-unknown", [0.5] * 4),
    ("event after the end", 4, ["t", "o2"], "event-after-end", [0.5] * 4),
    ("concession not joined by all but one", 5, ["c3", "t"], "concession-incomplete", [0.5] * 5),
    ("table of six", 6, ["t"], "table-size", [0.5] * 6),
]


@pytest.mark.parametrize("name,seats,events,code,vps", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_derive_vp_reports_nonsense_and_scores_the_rest(name, seats, events, code, vps):
    result = derive_vp(seats, ev(*events))
    assert [e.code for e in result.errors] == [code]
    assert result.vps == vps


def test_unknown_event_type_is_reported():
    result = derive_vp(4, [{"type": "explode", "seat": 1}])
    assert result.errors[0].code == "event-unknown"


def test_derived_vp_always_pass_the_table_check():
    """Property: every finished random game scores to numbers the table check accepts."""
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.choice([4, 5])
        alive = list(range(1, n + 1))
        events = []
        while len(alive) > 1:
            roll = rng.random()
            if roll < 0.15:
                events.append({"type": rng.choice(["time-out", "draw"])})
                break
            seat = rng.choice(alive)
            kind = "withdraw" if roll < 0.25 else "oust"
            events.append({"type": kind, "seat": seat})
            alive.remove(seat)
        result = derive_vp(n, events)
        assert result.finished and not result.errors
        assert check_table(result.vps, result.withdrawn) == [], (events, result.vps)
        # and without marking withdrawals, the ½ of a withdrawal still adds up
        assert sum(-(-v // 1) for v in result.vps) == n


# --- the table check ---------------------------------------------------------------------

CHECK_CASES = [
    # (name, vps, withdrawn, expected error codes)
    ("3.7.4 five-player", [1.5, 0, 1.5, 0, 0.5], [], []),
    ("3.7.4 four-player", [1.5, 0, 0.5, 0.5], [], []),
    ("everyone times out", [0.5] * 5, [], []),
    ("sweep", [0, 0, 5, 0, 0], [], []),
    ("two ousts then last two time out", [2.5, 0, 0, 0.5], [], []),
    ("table of three", [1, 1, 1], [], ["table-size"]),
    ("table of six", [1, 1, 1, 1, 1, 1], [], ["table-size"]),
    ("negative VP", [-1, 2, 1, 1, 1], [], ["vp-negative"]),
    ("VP not in halves", [1.25, 0, 1.5, 0, 0.5], [], ["vp-not-half"]),
    ("not a number", ["x", 0, 1, 1, 2], [], ["vp-not-number"]),
    ("unfinished: survivors' halves missing", [1, 0, 1, 0, 0], [], ["vp-unfinished"]),
    ("all zero", [0, 0, 0, 0], [], ["vp-unfinished"]),
    ("too many VP", [2, 2, 1, 1, 0], [], ["vp-too-many"]),
    ("more VP than the table has", [6, 0, 0, 0, 0], [], ["vp-too-many"]),
    ("lone half: a single survivor scores 1", [3, 0, 0, 0.5], [], ["vp-lone-half"]),
    ("lone half is fine when that seat withdrew", [3, 0, 0, 0.5], [4], []),
    # seat 2 has 1 VP but its prey (seat 3) has 1 as well and seat 4 survived: the only way
    # seat 2 scores is by ousting seat 3, which needs seat 3 out; then seat 3's VP must have
    # come from ousting seat 4, yet seat 4 is a survivor.
    ("whole VP that is not an oust of the next prey", [0.5, 1, 1, 0.5], [], ["vp-oust-order"]),
    # seats 2 and 3 survived (their ½); seat 5 has 2 whole VP, so it was ousted after
    # ousting twice, but its preys in turn are seat 1 and then seat 2, a survivor.
    ("two ousts where only one prey fell", [1, 0.5, 0.5, 0, 2], [], ["vp-oust-order"]),
    ("withdrawn seat outside the table", [0.5] * 4, [9], ["seat-unknown"]),
]


@pytest.mark.parametrize("name,vps,withdrawn,codes", CHECK_CASES, ids=[c[0] for c in CHECK_CASES])
def test_check_table(name, vps, withdrawn, codes):
    errors = check_table(vps, withdrawn)
    assert [e.code for e in errors] == codes
    for e in errors:
        assert e.message and e.rule


def test_check_table_names_the_seat():
    errors = check_table([1.5, -0.5, 1.5, 0, 0.5])
    assert errors[0].seat == 2 and "seat 2" in errors[0].message


def test_check_accepts_exactly_the_outcomes_of_real_games():
    """Every VP vector a 4-seat game can end with (no withdrawals) passes; nothing else does."""
    import itertools

    halves = [x / 2 for x in range(0, 9)]
    accepted = {v for v in itertools.product(halves, repeat=4) if not check_table(list(v))}
    reachable = set()

    def play(alive, vps):
        if len(alive) == 1:
            v = list(vps); v[alive[0] - 1] += 1; reachable.add(tuple(v)); return
        v = list(vps)
        for s in alive:
            v[s - 1] += 0.5
        reachable.add(tuple(v))
        for i, s in enumerate(alive):
            v = list(vps); v[alive[i - 1] - 1] += 1
            play(alive[:i] + alive[i + 1:], v)

    play([1, 2, 3, 4], [0.0] * 4)
    assert accepted == reachable
    assert (0.5, 0.5, 0.5, 0.5) in accepted and (3.0, 0.0, 0.0, 0.5) not in accepted


# --- GW, TP ---------------------------------------------------------------------------------

GW_CASES = [
    ([2, 0, 1.5, 0, 0.5], [1, 0, 0, 0, 0]),       # 2 VP and more than anyone: a game win
    ([1.5, 0, 0.5, 0.5], [0, 0, 0, 0]),           # most VP but fewer than 2
    ([2, 0, 2, 0, 0], [0, 0, 0, 0, 0]),           # tie at 2: no game win
    ([0, 0, 5, 0, 0], [0, 0, 1, 0, 0]),
    ([2.5, 0, 0, 0.5], [1, 0, 0, 0]),
]


@pytest.mark.parametrize("vps,gws", GW_CASES)
def test_game_wins(vps, gws):
    assert game_wins(vps) == gws


TP_CASES = [
    ([5, 0, 0, 0, 0], [60, 30, 30, 30, 30]),      # four tied for 2nd-5th: (48+36+24+12)/4
    ([0.5] * 5, [36] * 5),                        # all tied: (60+48+36+24+12)/5
    ([0.5] * 4, [36] * 4),                        # (60+48+24+12)/4
    ([3, 1, 0, 0], [60, 48, 18, 18]),
    ([2, 0, 0, 2], [54, 18, 18, 54]),             # tie for 1st at a four: (60+48)/2
    ([1, 1, 1, 1, 0], [42, 42, 42, 42, 12]),
    ([4, 0, 0, 0], [60, 28, 28, 28]),             # (48+24+12)/3
]


@pytest.mark.parametrize("vps,tps", TP_CASES)
def test_tournament_points(vps, tps):
    assert tournament_points(vps) == tps


def test_tournament_points_refuse_other_table_sizes():
    with pytest.raises(ValueError):
        tournament_points([1, 1, 1])


def test_score_table_places():
    scores = score_table([1.5, 0, 1.5, 0, 0.5])
    assert [s.place for s in scores] == [1.5, 4.5, 1.5, 4.5, 3]
    assert [s.tp for s in scores] == [54, 18, 54, 18, 36]


@pytest.mark.parametrize("raw,value", [("1.5", 1.5), ("1,5", 1.5), ("½", 0.5), ("2½", 2.5),
                                       (2, 2.0), ("", None), ("abc", None), (True, None),
                                       ("nan", None), (None, None)])
def test_parse_vp(raw, value):
    assert parse_vp(raw) == value


def test_differences_between_recorded_and_reported():
    assert differences([1.5, 0, 0.5, 0.5], [1.5, "0", 1, 0]) == [3, 4]
