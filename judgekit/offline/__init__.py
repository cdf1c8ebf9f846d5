"""Works in the hall: what the browser keeps for offline use.

- `precache`: the list of URLs the service worker saves, and its version (content hash of
  the rules plus a fingerprint of the templates and static files).
- `search_index`: the compact rules index the browser searches when the server cannot be
  reached (`judgekit/static/offline-search.js`), generated from the server's `SearchIndex`.
- `compare`: the overlap of offline and server search results (bench and tests).

Only `views.py` imports Flask.
"""
