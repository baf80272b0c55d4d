"""Pages: parse input, call a service or selector, render. One module a page family:
``matches`` (home, lobby, creating and joining), ``table`` (a match's table, its poll and
moves), ``replay`` (the replay viewer), ``records`` (``record.json``), ``history`` (a person's
matches), ``pages`` (the rules). ``common`` holds the sign-in gate and the visible-match read.

HTMX requests get partials; everything else gets whole pages, so every control also works
without JavaScript.
"""
