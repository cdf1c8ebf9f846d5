"""The tournament rules' table and points (`../shared/reference/scoring.md`): how many sit
at a table, what a withdrawal and the time limit give, what makes a game win, the
tournament points by place and how many play the final. Facts only; the scoring itself is
`judgekit.tournament.scoring`.
"""
from __future__ import annotations

#: Seats at a table: a game is played by 4 or 5 players (3.1.2; the recorder's games too).
TABLE_SIZES = (4, 5)

#: Tournament points by place at the table (3.7.3). At a four-player table the third
#: place is the empty "table bye", so the four players take places 1, 2, 4 and 5.
TP_BY_PLACE: dict[int, tuple[int, ...]] = {
    5: (60, 48, 36, 24, 12),
    4: (60, 48, 24, 12),
}

#: VP for a withdrawal in a tournament (3.7.2: a half, not the full VP of the game rules).
WITHDRAW_VP = 0.5
#: VP for each player not ousted when the time limit is reached (3.7.2).
TIME_OUT_VP = 0.5
#: Game win threshold (3.7.1).
GW_MIN_VP = 2

#: Players in the final: the top five after the preliminary rounds.
FINALISTS = 5
