"""Follows, blocks and the challenge choice, written (docs/accounts.md, "Friends and blocks").

Blocking removes the follows both ways and sends ``accounts.signals.person_blocked``, so the
capabilities that keep something pending between two people (challenges, rematch offers) can
drop it in the same transaction without this module knowing them. A block hides no public
match, history or rating. A refusal is an ``AccountRefused``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.errors import AccountRefused
from accounts.models import Block, ChallengeSetting, Follow
from accounts.selectors.relations import blocked_between
from accounts.signals import person_blocked

Who = ChallengeSetting.Who


def follow_add(*, follower_id: int, followed_id: int) -> bool:
    """Follow a person; ``False`` when already following (a double click). Refused for oneself,
    an account that is gone, and across a block."""
    if follower_id == followed_id:
        raise AccountRefused(_("You cannot follow yourself."), status=400)
    if not get_user_model().objects.filter(pk=followed_id, is_active=True).exists():
        raise AccountRefused(_("There is no such player."), status=404)
    if blocked_between(follower_id, followed_id):
        raise AccountRefused(_("You cannot follow this player."))
    try:
        with transaction.atomic():
            _row, made = Follow.objects.get_or_create(
                follower_id=follower_id, followed_id=followed_id
            )
    except IntegrityError:  # the same follow made at the same moment elsewhere
        return False
    return made


def follow_remove(*, follower_id: int, followed_id: int) -> bool:
    """Stop following; ``False`` when there was nothing to stop."""
    deleted, _counts = Follow.objects.filter(
        follower_id=follower_id, followed_id=followed_id
    ).delete()
    return bool(deleted)


def block_add(*, blocker_id: int, blocked_id: int) -> bool:
    """Block a person: the follows between the two go both ways, ``person_blocked`` is sent
    (pending challenges and offers between them are declined by their owners), all in one
    transaction. ``False`` when already blocked."""
    if blocker_id == blocked_id:
        raise AccountRefused(_("You cannot block yourself."), status=400)
    if not get_user_model().objects.filter(pk=blocked_id).exists():
        raise AccountRefused(_("There is no such player."), status=404)
    with transaction.atomic():
        try:
            with transaction.atomic():
                _row, made = Block.objects.get_or_create(
                    blocker_id=blocker_id, blocked_id=blocked_id
                )
        except IntegrityError:
            return False
        if not made:
            return False
        Follow.objects.filter(
            Q(follower_id=blocker_id, followed_id=blocked_id)
            | Q(follower_id=blocked_id, followed_id=blocker_id)
        ).delete()
        person_blocked.send(sender=Block, blocker_id=blocker_id, blocked_id=blocked_id)
    return True


def block_remove(*, blocker_id: int, blocked_id: int) -> bool:
    """Undo one's own block (never the other person's); ``False`` when there was none."""
    deleted, _counts = Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()
    return bool(deleted)


def challenge_setting_save(*, user_id: int, who: str) -> None:
    if who not in Who.values:
        raise AccountRefused(_("Choose one of the offered answers."), status=400)
    ChallengeSetting.objects.update_or_create(user_id=user_id, defaults={"who": who})
