"""Web push, in one room (docs/notifications.md, "Web push"): what tells a person's devices that
a match waits for their move, and what makes the site an installable app.

- ``vapid``: the site's VAPID key pair, which signs every push (read by the settings, before
  Django is set up: it imports no Django);
- ``delivery``: sending one push to each of a person's devices, removing the devices gone;
- ``turn``: the turn push, what it says and when it is still due (``games.tasks.turn_push``,
  registered as ``"accounts.turn_push"``, calls it);
- ``app_shell``: the web app manifest and the service worker, served from the site's root.

The person's devices (subscribing, listing, removing) are the person's own, in ``accounts``
(``accounts/services/push_devices.py``, ``accounts/views/push.py``). This package imports
nothing on its own: the settings import ``games.push.vapid`` without Django being set up.
"""
