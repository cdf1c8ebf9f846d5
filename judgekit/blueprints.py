"""Registers every area's blueprint on the app (called by `create_app` after
`views.init_app`). The one module that imports the areas' views, at its top: `judgekit.views`
is the plumbing they all import, so it must not import them back, and the app factory imports
this module when it builds an app (the package `judgekit` is what every area's module imports
first)."""
from __future__ import annotations

from flask import Flask

from judgekit.auth.views import bp as auth_bp
from judgekit.cards.views import bp as cards_bp
from judgekit.decks.views import bp as decks_bp
from judgekit.live.report_views import bp as reports_bp
from judgekit.live.views import bp as live_bp
from judgekit.offline.views import bp as offline_bp
from judgekit.recorder.views import bp as recorder_bp
from judgekit.rules.views import bp as rules_bp
from judgekit.tournament.api.views import bp as tournament_api_bp
from judgekit.tournament.penalties.views import bp as penalties_bp
from judgekit.tournament.registration.views import bp as players_bp
from judgekit.tournament.reporting.views import bp as report_bp
from judgekit.tournament.seats.views import bp as seats_bp
from judgekit.tournament.views import bp as tournament_bp
from judgekit.trainer.views import bp as trainer_bp


def register(app: Flask) -> None:
    for bp in (rules_bp, recorder_bp, tournament_bp, trainer_bp, offline_bp,
               auth_bp,        # sign-in and roles
               penalties_bp,   # penalties and time extensions
               cards_bp,       # cards and their rulings
               players_bp,     # bulk registration, editing players, check-in by phone
               report_bp,      # the VEKN report, the Archon workbook, results per round
               live_bp,        # the live hall: stream, room display, judge calls
               seats_bp,       # players find their seat (public), the QR code poster
               reports_bp,     # tables report their own result from the players' own links
               decks_bp,       # decklists: registration, checks, publication
               tournament_api_bp):  # the tournament's JSON API
        app.register_blueprint(bp)
