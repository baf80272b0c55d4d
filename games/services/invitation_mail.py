"""The INVITATION mail (docs/invitations.md): one a challenge or rematch offer, to a confirmed
address only, if the person wants them
(``accounts.selectors.notify.wants(user_id, INVITATION)``), sent by ``games.invitation_mail``
after the commit that made the invitation, with a one-click unsubscribe link and its RFC 8058
headers, times in the person's zone, words in their language."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.selectors.email_confirmation import confirmed_address
from accounts.selectors.language import mail_language_of
from accounts.selectors.notify import INVITATION, unsubscribe_url, wants
from accounts.selectors.time_zone import zone_of
from games import queue
from games.models import Invitation
from games.services.notifications import one_click_mail


def invitation_mails_enqueue(*, invitation_ids: Iterable[int]) -> None:
    """After the commit, each invitation's mail task (no statement now)."""
    for invitation_id in invitation_ids:
        queue.enqueue(queue.INVITATION_MAIL, invitation_id, robust=True)


def invitation_mail_send(*, invitation_id: int) -> bool:
    """Send the invitation's mail if it is still pending and not mailed; ``True`` when sent."""
    invitation = (
        Invitation.objects.select_related("match", "user", "invited_by")
        .filter(pk=invitation_id, status=Invitation.Status.PENDING, mailed_at=None)
        .first()
    )
    if invitation is None or invitation.expires_at <= timezone.now():
        return False
    address = confirmed_address(invitation.user)
    if address is None or not wants(invitation.user_id, INVITATION):
        return False
    now = timezone.now()
    claimed = Invitation.objects.filter(pk=invitation_id, mailed_at=None).update(mailed_at=now)
    if claimed != 1:
        return False  # another delivery of the task sent it
    try:
        _mail(invitation, address).send()
    except Exception:
        Invitation.objects.filter(pk=invitation_id, mailed_at=now).update(mailed_at=None)
        raise
    return True


def _mail(invitation: Invitation, address: str) -> EmailMultiAlternatives:
    """The mail, worded in the invited person's language (never the inviter's)."""
    with translation.override(mail_language_of(invitation.user_id)):
        return _mail_worded(invitation, address)


def _mail_worded(invitation: Invitation, address: str) -> EmailMultiAlternatives:
    match = invitation.match
    title = f"{match.get_game_display()} #{match.pk}"
    inviter = invitation.invited_by.get_username()
    rematch = invitation.kind == Invitation.Kind.REMATCH and match.rematch_of_id is not None
    # A rematch offer names the match played, not the new table (issue 33).
    played = f"{match.get_game_display()} #{match.rematch_of_id}" if rematch else ""
    if rematch:
        subject = _("%(inviter)s offers a rematch of %(played)s") % {
            "inviter": inviter,
            "played": played,
        }
    else:
        subject = _("%(inviter)s challenges you") % {"inviter": inviter}
    unsubscribe = unsubscribe_url(invitation.user_id, INVITATION)
    zone = zone_of(invitation.user_id)
    site = settings.PARLOUR_SITE_URL
    context = {
        "zone": zone.key,
        "user": invitation.user,
        "inviter": inviter,
        "rematch": rematch,
        "title": title,
        "played": played,
        "new_table": match.pk,
        "seat": invitation.seat_index + 1,
        "seats": match.num_players,
        "expires_at": invitation.expires_at,
        "table_url": f"{site}{reverse('match_detail', args=[match.pk])}",
        "settings_url": f"{site}{reverse('notification_settings')}",
        "unsubscribe_url": unsubscribe,
    }
    return one_click_mail(
        subject=subject,
        template="games/mail/invitation",
        context=context,
        zone=zone,
        address=address,
        unsubscribe=unsubscribe,
    )
