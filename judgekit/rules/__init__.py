"""The rules reference: corpus, search, rendering, history."""
