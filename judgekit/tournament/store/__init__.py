"""The tournament's records in SQLite: tournaments, players, rounds, tables, results.

Every write is one function here (`create_tournament`, `add_player`, `set_checked_in`,
`drop_player`, `start_round`, `swap_seats`, `enter_result`, `override_result`,
`correct_result`, `close_round`, `record_toss`, `start_final`, `place_final_card`,
`reset_final_choices`, `seat_final`, `undo_final`) so that the views can put one permission check in
front of each. Reads return plain dicts and the pure domain objects of `scoring`,
`standings`, `final`.

Append-only where it matters: a table's result is never updated; a correction is a new row
in `tournament_results`, the latest row counts, and an override is a row of kind `override`
that carries the head judge's written reason (as does a `correction`: the head judge's
change to a table of a closed round). Seat-choice placements for the final are rows too
(a reset is a row). Closing a round writes the VP derived from each recorded game
as a row of kind `recorded`, so the standings read only this table.

Bad input raises `TournamentError(status, message, field)`; nothing is written then.

The store is a package split by concern. This module re-exports its parts for callers outside
the package written before the split; none of its parts imports it, and new code imports
the part it needs (`from judgekit.tournament.store import tables`). The parts:
`base` (tables, errors, readers, cleaners, the recorder and penalties neighbours),
`registration` (tournaments, players), `tables` (table states, results),
`round_flow` (seating a round, swaps, closing), `ranking` (standings, toss), `finals` (the final and the
event's result), `summary` (dashboard, export rows), `adjusted` (which game each Standings
Adjustment applies to, and the tables' adjusted VP: the one place adjusted figures come from),
`roster` (editing a player, bulk registration, check in all, a player's history), `checkin`
(players checking in from their phones), `report` (the VEKN results string, the Archon
workbook, per-round results), `archon_import` (an event from an Archon workbook), `seats`
(a round's seating for the public pages: names, tables, seats only).
"""
from __future__ import annotations

from judgekit.tournament.store.base import (
                                            LEVELS,
                                            MAX_LEN,
                                            MIN_REASON,
                                            MIN_TIME_LIMIT,
                                            STATES,
                                            T_FINAL,
                                            T_PLAYERS,
                                            T_RESULTS,
                                            T_ROUNDS,
                                            T_SEAT_CHANGES,
                                            T_SEATS,
                                            T_TABLES,
                                            T_TOSSES,
                                            T_TOURNAMENTS,
                                            TournamentError,
                                            create_game,
                                            disqualified_players,
                                            game_outcome,
                                            get_player,
                                            get_round,
                                            get_tournament,
                                            list_tournaments,
                                            now,
                                            players,
                                            round_tables,
                                            rounds,
                                            standing_adjustments,
                                            without_secrets,
)
from judgekit.tournament.store.adjusted import (
                                            player_games,
                                            resolve_records,
                                            sa_phase,
                                            sa_targets,
                                            table_adjustments,
)
from judgekit.tournament.store.finals import (
                                            final_state,
                                            place_final_card,
                                            reset_final_choices,
                                            results,
                                            seat_final,
                                            start_final,
                                            undo_final,
)
from judgekit.tournament.store.ranking import record_toss, standings, tosses
from judgekit.tournament.store.registration import (
                                            EVENT_FIELDS,
                                            add_player,
                                            clean_level,
                                            clean_vekn,
                                            create_tournament,
                                            drop_player,
                                            event_by_client_id,
                                            set_checked_in,
                                            update_event,
)
from judgekit.tournament.store.roster import (
                                            check_in_all,
                                            edit_player,
                                            player_history,
                                            preview_roster,
                                            register_roster,
)
from judgekit.tournament.store.checkin import (
                                            checkin_state,
                                            close_checkin,
                                            open_checkin,
                                            phone_check_ins,
                                            self_check_in,
)
from judgekit.tournament.store.report import (
                                            RESULTS_COLUMNS,
                                            archon_event,
                                            archon_workbook,
                                            results_rows,
                                            vekn_report,
)
from judgekit.tournament.store.archon_import import import_workbook
from judgekit.tournament.store.result_guard import NOT_GIVEN
from judgekit.tournament.store.round_flow import close_round, start_round, swap_seats
from judgekit.tournament.store.seats import latest_round, public_round, round_seating, unseated_round
from judgekit.tournament.store.summary import (
                                            SEATING_COLUMNS,
                                            STANDINGS_COLUMNS,
                                            criteria_page,
                                            dashboard,
                                            export_criteria,
                                            round_criteria,
                                            seating_rows,
                                            standings_rows,
)
from judgekit.tournament.store.tables import (
                                            correct_result,
                                            enter_result,
                                            override_result,
                                            result_history,
                                            round_detail,
                                            table_detail,
                                            table_status,
)

__all__ = [
    "LEVELS", "MAX_LEN", "MIN_REASON", "MIN_TIME_LIMIT", "STATES", "T_FINAL", "T_PLAYERS",
    "T_RESULTS", "T_ROUNDS", "T_SEAT_CHANGES", "T_SEATS", "T_TABLES", "T_TOSSES",
    "T_TOURNAMENTS", "TournamentError", "add_player", "clean_vekn", "close_round",
    "correct_result", "create_game", "create_tournament", "dashboard", "disqualified_players",
    "drop_player", "enter_result", "final_state", "game_outcome", "get_player", "get_round",
    "get_tournament", "list_tournaments", "now", "override_result",
    "place_final_card", "players", "record_toss", "reset_final_choices", "result_history",
    "results", "round_detail", "round_tables", "rounds", "seat_final", "seating_rows",
    "set_checked_in", "standing_adjustments", "standings", "standings_rows", "start_final",
    "start_round", "swap_seats", "table_detail", "table_status", "tosses",
    "player_games", "resolve_records", "sa_phase", "sa_targets", "table_adjustments", "undo_final",
    "latest_round", "public_round", "round_seating", "unseated_round",
    "EVENT_FIELDS", "clean_level", "update_event", "check_in_all", "edit_player", "player_history",
    "preview_roster", "register_roster", "checkin_state", "close_checkin", "open_checkin", "self_check_in",
    "RESULTS_COLUMNS", "archon_event", "archon_workbook", "results_rows", "vekn_report", "import_workbook",
    "SEATING_COLUMNS", "STANDINGS_COLUMNS", "NOT_GIVEN", "round_criteria",
    "criteria_page", "export_criteria", "without_secrets", "event_by_client_id", "phone_check_ins",
]
