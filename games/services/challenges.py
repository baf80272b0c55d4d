"""Who may challenge whom (docs/invitations.md, "Challenges", and docs/accounts.md, "Friends
and blocks"): the rule the invitations service applies to a challenge or a rematch offer, and
that a profile asks before offering its Challenge button. It reads the people's blocks and
choice (``accounts.selectors.relations``) and whether they have played together
(``games.selectors.friends``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import ChallengeSetting
from accounts.selectors.relations import PairFacts, are_friends, blocked_between, challenge_setting
from games.selectors.friends import played_together

Who = ChallengeSetting.Who


def challenge_refusal(
    *, challenger_id: int, target_id: int, target_name: str, facts: PairFacts | None = None
) -> str | None:
    """Why ``challenger_id`` may not challenge (or offer a rematch to) ``target_id``, in words
    for the challenger; ``None`` when they may. A block and the target's own choice both answer
    the same sentence, so a refusal does not tell who blocked whom. ``facts`` (``pair_facts``
    of the two, read already) saves the reads of blocks, choice and follows."""
    if challenger_id == target_id:
        return _("You cannot challenge yourself.")
    refused = _("%(name)s does not take challenges from you.") % {"name": target_name}
    if facts.blocked if facts else blocked_between(challenger_id, target_id):
        return refused
    who = facts.their_challenge_setting if facts else challenge_setting(target_id)
    if who == Who.ANYONE:
        return None
    if who == Who.NOBODY:
        return _("%(name)s does not take challenges.") % {"name": target_name}
    if who == Who.FRIENDS and not (
        facts.friends if facts else are_friends(challenger_id, target_id)
    ):
        return refused
    if who == Who.PLAYED and not played_together(challenger_id, target_id):
        return refused
    return None
