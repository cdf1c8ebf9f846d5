"""The live hall: the event's message stream, the room display, judge calls and the head
judge's notifications (docs/live.md).

- `journal`: the append-only `live_events` table every write path publishes to (no Flask).
- `messages`: the kinds of message and what each audience may read of them (no Flask).
- `hub`: fans new journal rows out to the open streams, with keep-alive pings (no Flask).
- `serving`: `judgekit serve`'s server (uvicorn, the Flask app through a2wsgi): a stream is
  a coroutine fed by the hub, so an open page holds no worker thread.
- `calls`: judge calls (no Flask); `hall`: the room's and the floor's state, the head
  judge's notifications (no Flask); `feed`: what the recorder's appends tell the hall.
- `views`: the stream endpoint, the pages and the JSON API.
"""
