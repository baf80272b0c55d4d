"""The words the site's JavaScript writes, in the reader's language (docs/translation.md,
"The words JavaScript writes").

Every script reads them from one place: ``/words.js`` (``games.views.js_words``) serves this
table for one language as a script (``words_script``), ``{% js_words %}`` links it from
``base.html`` with a digest of its words (``words_digest``), and ``static/js/words.js`` reads it
(``parlourWords.say(key, values)``). A word's ``{name}`` is filled in by the script. A count's
words come as two entries, ``key:one`` and ``key:other`` (the forms for 1 and for 2): the
scripts count only from 1, where English, German and French agree on which form to use.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override


def js_words() -> dict[str, str]:
    """Each key a script asks for, worded in the active language."""
    words = {
        # turn_title.js (the tab's title) and announce.js (said when a move is awaited)
        "your_turn": _("Your turn"),
        "your_turn_said": _("Your turn."),
        # copy.js
        "copied": _("Copied"),
        "copy_by_hand": _("Selected: press Ctrl+C (⌘C) to copy"),
        # move_confirm.js
        "confirm_bar": _("Confirm your move"),
        "confirm_question": _("{move}?"),
        "confirm": _("Confirm"),
        "cancel": _("Cancel"),
        # keys.js: the keys panel and text mode's answers (the commands stay English)
        "keys_on": _("Keyboard shortcuts are on."),
        "keys_off": _("Keyboard shortcuts are off."),
        "text_unknown": _(
            "“{command}” is not a move you can make now, nor a command (type help for them)."
        ),
        "text_offers": _("Card {number} offers: {commands}."),
        "text_moves_none": _("No moves for you now."),
        "text_moves": _("Your moves:"),
        "text_hand_none": _("You hold no cards here."),
        "text_sent": _("Sent: {move}."),
        "text_empty": _("Nothing to say yet."),
        # replay.js
        "replay_play": _("Play"),
        "replay_pause": _("Pause"),
        # lessons.js (progress kept in the browser while signed out)
        "lesson_not_finished": _("not finished yet"),
        "lessons_done": _("{done} of {total} lessons"),
        # match_new.js
        "form_kept": _(
            "This is the form as you filled it before signing in: check it and press "
            "“Create match”. Nothing was created yet."
        ),
        # request_errors.js
        "request_403": _(
            "This page has expired (or you were signed out). Reload it and try again; "
            "nothing was changed."
        ),
        "request_429": _(
            "Too many requests just now. Wait a moment and try again; nothing was changed."
        ),
        "request_503": _(
            "Parlour is briefly unavailable; nothing was changed. It will be back in a few seconds."
        ),
        "request_failed": _(
            "Something went wrong on our side; nothing was changed. Reload the page and try again."
        ),
        "request_signed_out": _(
            "You are signed out: nothing here was changed. Sign in again to come back to this page."
        ),
        "request_offline": _(
            "Parlour cannot be reached. Check your connection; the page keeps trying."
        ),
        # time_zone.js
        "zone_browser": _("Your browser’s zone"),
        "zone_find": _("Find: a city, country or region"),
        "zone_find_label": _("Find a zone by city, country or region"),
        "zone_none": _("No zone matches “{typed}”: try a city or country nearby."),
        # push_devices.js
        "push_unsupported": _("This browser cannot show notifications from Parlour."),
        "push_blocked": _(
            "This browser blocks notifications from Parlour: allow them in its site settings."
        ),
        "push_on": _("This device gets your turn notifications."),
        "push_off": _("This device gets no notifications."),
        "push_asking": _("Asking this browser…"),
        "push_not_kept": _("Parlour could not keep this device: try again."),
        "push_refused": _("This browser could not subscribe: {reason}"),
    }
    for count, form in ((1, "one"), (2, "other")):
        words[f"zone_matches:{form}"] = _zones_matching(count)
        words[f"push_no_answer:{form}"] = _push_no_answer(count)
        words[f"lesson_stars:{form}"] = _stars(count)
    return words


def _zones_matching(count: int) -> str:
    return ngettext(
        "{count} zone matches: the first is chosen, open the list to choose another.",
        "{count} zones match: the first is chosen, open the list to choose another.",
        count,
    )


def _push_no_answer(count: int) -> str:
    return ngettext(
        "This browser’s push service did not answer in {count} second, so this device is not "
        "notified. Check that this device is online and try again; if it still does not "
        "answer, this browser cannot receive notifications here (some cannot at all, such as "
        "Chromium without Google’s services): use another browser or device, or the e-mails.",
        "This browser’s push service did not answer in {count} seconds, so this device is not "
        "notified. Check that this device is online and try again; if it still does not "
        "answer, this browser cannot receive notifications here (some cannot at all, such as "
        "Chromium without Google’s services): use another browser or device, or the e-mails.",
        count,
    )


def _stars(count: int) -> str:
    return ngettext("{count} of 3 stars", "{count} of 3 stars", count)


@lru_cache(maxsize=16)
def words_script(language: str) -> str:
    """The script that sets ``window.parlourWordsTable`` for ``language``, built once a process."""
    with override(language):
        table = js_words()
    script = f"window.parlourWordsTable = {json.dumps(table, sort_keys=True)};\n"  # i18n: data
    return script


@lru_cache(maxsize=16)
def words_digest(language: str) -> str:
    """A short digest of ``language``'s script: a new one whenever its words change."""
    return hashlib.sha256(words_script(language).encode()).hexdigest()[:12]
