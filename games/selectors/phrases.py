"""Which table phrases a person sees at one match (docs/phrases.md), as data: the seats'
phrases, to the seats and (where the creator allowed it) to the watchers of a public match;
none for a person who muted them; none said by someone a block stands between them and.

Free when nothing was said: a match with ``phrase_count == 0`` costs no statement. Otherwise
one query each for the mute box, the blocks and the rows."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import NotificationSettings
from accounts.selectors.relations import blocked_ids
from games.models import Match, TablePhrase


@dataclass(frozen=True)
class SaidPhrase:
    """A phrase as the log shows it: the seat that said it, the ply it follows, its key."""

    seat: int
    ply: int
    key: str


def phrases_visible(
    *, match: Match, viewer_id: int | None, seated: bool, since_ply: int = 0
) -> list[SaidPhrase]:
    """The phrases ``viewer_id`` may see at ``match`` (said at ``since_ply`` or later), by ply
    then order said. ``seated``: the viewer holds a seat there."""
    if match.phrase_count == 0 or viewer_id is None:
        return []
    if not seated and not (match.public and match.phrases_watchers):
        return []
    if NotificationSettings.objects.filter(user_id=viewer_id, mute_phrases=True).exists():
        return []
    hidden = blocked_ids(viewer_id)
    rows = (
        TablePhrase.objects.filter(match_id=match.pk, ply__gte=since_ply)
        .exclude(user_id__in=hidden)
        .order_by("ply", "id")
        .values_list("seat", "ply", "key")
    )
    return [SaidPhrase(seat=seat, ply=ply, key=key) for seat, ply, key in rows]
