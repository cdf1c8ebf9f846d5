"""The players' public seat pages and the QR poster (views.py: blueprint seats)."""
