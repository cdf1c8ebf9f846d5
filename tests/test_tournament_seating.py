"""Seating of preliminary rounds (3.1.2): table sizes, sit-outs, no repeated predator→prey."""
from __future__ import annotations

from collections import Counter

import pytest

from judgekit.tournament.seating import (History, predator_prey_pairs, seat_round,
                                         staggered_plan, swap_seats, swap_warnings,
                                         table_sizes)

SIZE_CASES = [
    (3, None), (4, [4]), (5, [5]), (6, None), (7, None), (8, [4, 4]), (9, [5, 4]),
    (10, [5, 5]), (11, None), (12, [4, 4, 4]), (13, [5, 4, 4]), (14, [5, 5, 4]),
    (15, [5, 5, 5]), (16, [4, 4, 4, 4]), (17, [5, 4, 4, 4]), (300, [5] * 60), (301, [5] * 57 + [4] * 4),
]


@pytest.mark.parametrize("players,sizes", SIZE_CASES)
def test_table_sizes_as_many_fives_as_possible(players, sizes):
    assert table_sizes(players) == sizes


STAGGER_CASES = [
    # players, rounds, players seated per round, games each
    (6, 3, [4, 4, 4], 2),
    (6, 4, [5, 5, 4, 4], 3),
    (7, 3, [5, 5, 4], 2),
    (7, 5, [5, 4, 4, 4, 4], 3),
    (11, 4, [9, 8, 8, 8], 3),
]


@pytest.mark.parametrize("players,rounds,plan,games", STAGGER_CASES)
def test_staggered_plan_everyone_plays_the_same_number_of_games(players, rounds, plan, games):
    got = staggered_plan(players, rounds)
    assert got == plan
    assert sum(got) == players * games
    assert all(table_sizes(k) for k in got)


def test_staggered_plan_impossible():
    # 7 players over 4 rounds: 4 rounds seat 16 to 20, never a multiple of 7
    assert staggered_plan(7, 4) is None


@pytest.mark.parametrize("players,rounds", [(6, 3), (6, 4), (7, 3), (11, 3), (11, 4)])
def test_sit_outs_balance_over_the_event(players, rounds):
    ids = list(range(1, players + 1))
    plan = staggered_plan(players, rounds)
    sat_out: Counter = Counter()
    played: Counter = Counter()
    history = History()
    for r, seated in enumerate(plan, 1):
        s = seat_round(ids, history, seed=r, sit_out=players - seated, sat_out=dict(sat_out))
        assert not s.problems
        assert sorted(len(t) for t in s.tables) == sorted(table_sizes(seated))
        assert set(s.sit_outs).isdisjoint(p for t in s.tables for p in t)
        sat_out.update(s.sit_outs)
        played.update(p for t in s.tables for p in t)
        history.add_round(s.tables)
    assert len(set(played.values())) == 1, played  # every player played as often


def test_cannot_seat_six_without_sit_outs():
    s = seat_round(range(1, 7), seed=1)
    assert s.tables == [] and s.problems[0].code == "cannot-seat"
    assert "sit out" in s.problems[0].message


def test_cannot_seat_three():
    s = seat_round([1, 2, 3], seed=1)
    assert s.problems[0].code == "cannot-seat"


def test_duplicate_player_is_a_problem():
    s = seat_round([1, 2, 3, 4, 4], seed=1)
    assert s.problems[0].code == "duplicate-player"


def test_same_seed_same_seating_regardless_of_input_order():
    a = seat_round(list(range(1, 21)), seed=42)
    b = seat_round(list(reversed(range(1, 21))), seed=42)
    c = seat_round(list(range(1, 21)), seed=43)
    assert a.tables == b.tables
    assert a.tables != c.tables


def test_everyone_seated_once():
    s = seat_round(list(range(1, 24)), seed=5)
    seated = [p for t in s.tables for p in t]
    assert sorted(seated) == list(range(1, 24))
    assert [len(t) for t in s.tables] == [5, 5, 5, 4, 4]


@pytest.mark.parametrize("players", [8, 9, 10, 12, 13, 17, 20, 25, 40])
def test_no_predator_prey_pair_repeats_over_three_rounds(players):
    ids = list(range(1, players + 1))
    history = History()
    seen = set()
    for r in range(1, 4):
        s = seat_round(ids, history, seed=100 + r)
        assert s.repeated_pp == []
        pairs = {p for t in s.tables for p in predator_prey_pairs(t)}
        assert not pairs & seen
        seen |= pairs
        history.add_round(s.tables)


def test_table_mates_kept_apart_when_there_is_room():
    ids = list(range(1, 41))
    history = History()
    for r in range(1, 4):
        s = seat_round(ids, history, seed=r)
        assert s.repeated_mates == 0
        history.add_round(s.tables)


def test_predator_prey_pairs_wrap_around():
    assert predator_prey_pairs(["a", "b", "c", "d"]) == [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]


def test_swap_warns_when_it_repeats_a_predator_prey_pair():
    history = History.of([[[1, 2, 3, 4], [5, 6, 7, 8]]])
    round2 = [[1, 5, 3, 7], [2, 6, 4, 8]]
    assert swap_warnings(round2, history) == []
    swapped = swap_seats(round2, 5, 2)   # 1 → 2 again
    assert swapped == [[1, 2, 3, 7], [5, 6, 4, 8]]
    assert (1, 2) in swap_warnings(swapped, history)


def test_swap_in_a_player_who_sat_out():
    assert swap_seats([[1, 2, 3, 4]], 3, 9) == [[1, 2, 9, 4]]


# --- sit-outs between rounds (drops, late arrivals) ------------------------------------------

from judgekit.tournament.seating import remaining_plan, round_sit_outs  # noqa: E402


def test_remaining_plan_keeps_the_first_rounds_plan_when_nobody_changes():
    # 6 players, 4 rounds: after a first round of 5, the plan goes on with everyone at 3 games
    played = {p: 1 for p in "abcde"} | {"f": 0}
    counts, need = remaining_plan(played, 3)
    assert sorted(counts, reverse=True) == [5, 4, 4]
    assert need == {p: 2 for p in "abcde"} | {"f": 3}
    sit_out, priority, equal = round_sit_outs(played, 3)
    assert (sit_out, equal) == (1, True)
    assert min(priority, key=priority.get) != "f"  # f must play every remaining round


def test_a_drop_leaving_eleven_seats_as_many_as_possible():
    # 12 played round 1, one dropped: 11 with two rounds left cannot end equal; seat 10, not 5
    played = {p: 1 for p in range(11)}
    assert remaining_plan(played, 2) is None
    sit_out, priority, equal = round_sit_outs(played, 2)
    assert (sit_out, equal) == (1, False)
    # next round: the one who sat out plays; one of those with most games sits out
    played = {p: 2 for p in range(10)} | {10: 1}
    sit_out, priority, equal = round_sit_outs(played, 1)
    assert sit_out == 1 and priority[10] > priority[0]


def test_seatable_counts_need_no_sit_out():
    assert round_sit_outs({p: 0 for p in range(9)}, 3) == (0, {}, True)
