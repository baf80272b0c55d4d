"""A seated person says a preset phrase at the table (docs/phrases.md). One transaction under
the match's row lock, so two phrases of one person queue and the rate and repeat checks see
each other. It raises ``phrase_count`` and the ``shown`` mark, never ``version``: a move made at
the same time is not stale."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from games.models import Match, Seat, TablePhrase
from games.phrases import PHRASES_PER_MINUTE, game_phrases
from games.services._store import match_shown
from games.services.errors import Rejected

NOT_SEATED = gettext_lazy("Only the people seated at this table may say something there.")
NOT_ON_LIST = gettext_lazy("That is not one of this table's phrases.")
NOT_NOW = gettext_lazy("Phrases are said at a table in play or just finished.")
# Worded when read, in the reader's language.
TOO_MANY = lazy(
    lambda: gettext("At most %(count)d phrases a minute: wait a moment.")
    % {"count": PHRASES_PER_MINUTE},
    str,
)()
REPEATED = gettext_lazy("You said that just now: say something else first.")


def phrase_say(*, match_id: int, user: AbstractBaseUser, key: str) -> TablePhrase:
    """``user`` says phrase ``key`` at match ``match_id``'s table, or ``Rejected`` (nothing
    changed): not seated (403), a table not dealt or called off (409), a key not on the game's
    list (400), a fourth phrase within a minute (429), the same phrase as their last (409)."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update()
            .only("pk", "game", "status", "ply", "version", "phrase_count", "shown")
            .filter(pk=match_id)
            .first()
        )
        if match is None:
            raise Rejected(_("There is no such match."), status=404)
        seat = Seat.objects.filter(match_id=match_id, user_id=user.pk).only("index").first()
        if seat is None:
            raise Rejected(NOT_SEATED, status=403)
        if match.status not in (Match.Status.ACTIVE, Match.Status.FINISHED):
            raise Rejected(NOT_NOW, status=409)
        if key not in dict(game_phrases(match.game)):
            raise Rejected(NOT_ON_LIST, status=400)
        now = timezone.now()
        recent = list(
            TablePhrase.objects.filter(match_id=match_id, user_id=user.pk)
            .order_by("-id")
            .values_list("key", "said_at")[:PHRASES_PER_MINUTE]
        )
        if recent and recent[0][0] == key:
            raise Rejected(REPEATED, status=409)
        minute_ago = now - datetime.timedelta(minutes=1)
        if len(recent) == PHRASES_PER_MINUTE and recent[-1][1] > minute_ago:
            raise Rejected(TOO_MANY, status=429)
        phrase = TablePhrase.objects.create(
            match_id=match_id, user_id=user.pk, seat=seat.index, ply=match.ply, key=key
        )
        match_shown(match=match, counts=("phrase_count",))
    return phrase
