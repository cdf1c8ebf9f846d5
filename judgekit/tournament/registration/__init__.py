"""Registering players in bulk, editing them, check-in by phone (views.py: blueprint players)."""
