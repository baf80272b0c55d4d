"""Live events: what changed, told to open pages at once (docs/live.md).

``publish`` sends, after the commit, "match M is at version V" and "these people's badges
changed" to Redis pub/sub from whichever process changed them; ``hub`` holds one subscription a
web process and hands each message to that process's streams; ``stream`` is the server-sent
events view a page listens to. Events carry numbers only: the page fetches its partial as a poll
does, so what a person may see is decided in one place.
"""
