"""The tournament's JSON API (views.py: blueprint tournament_api)."""
