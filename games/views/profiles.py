"""A person's profile (``/players/<username>/``) and what its buttons do: follow, unfollow,
block and unblock (docs/accounts.md, "Profiles" and "Friends and blocks").

Every action is a plain POST answered by a redirect back (the profile, or the account page for
an unblock made there, or the friends page for a follow back), and for htmx by the profile's
buttons swapped in place. A refusal (oneself, an account that is gone, across a block, a garbage
field) is a clear message with its status and changes nothing; a double post changes nothing
more. The follows and blocks are ``accounts.services.relations``' (read by
``accounts.selectors.relations``); whether the viewer may challenge the owner is
``games.services.challenges``'.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.errors import AccountRefused
from accounts.selectors.closure import hidden_people
from accounts.selectors.names import held_for
from accounts.selectors.relations import pair_facts
from accounts.services.relations import block_add, block_remove, follow_add, follow_remove
from core.signed_out import login_required_htmx
from games.filters import HistoryFilters, page_number
from games.presentation.ratings import rating_lines
from games.presentation.results import form_entries, head_to_head_lines, history_lines
from games.selectors.history import match_history, user_stats
from games.selectors.ratings import profile_ratings
from games.services.challenges import challenge_refusal
from games.views.event_marks import lines_marked, profile_sections

ACTIONS_PARTIAL = "accounts/_profile_actions.html"
BLOCK_CONFIRM = "accounts/block_confirm.html"
BACK_TO_ACCOUNT = "account"  # the ``back`` field of the account page's Unblock forms
BACK_TO_FRIENDS = "friends"  # and of the friends page's Follow back forms


@login_required
@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/``: figures per game, the recent form, head-to-head records and
    the matches, each over the matches ``request.user`` may see (all of them on one's own)."""
    # A closed or deleted account has no profile (docs/accounts.md).
    shown = get_user_model().objects.exclude(hidden_people())
    owner = shown.filter(username=username).first()
    if owner is None:
        holder = held_for(username)
        if holder is None:
            raise Http404(_("No such player."))
        # A name given up recently: its profile is the person's under their current name.
        current = get_object_or_404(shown, pk=holder)
        return redirect("profile", username=current.get_username())
    stats = user_stats(
        owner=owner,
        viewer=request.user,
        head_to_head_page=page_number(request.GET.get("vs")),
    )
    matches = match_history(
        user=owner,
        filters=HistoryFilters(page=page_number(request.GET.get("page"))),
        viewer=request.user,
    )
    matches.object_list = lines_marked(history_lines(matches.object_list))
    stats.head_to_head.object_list = head_to_head_lines(stats.head_to_head.object_list)
    is_self = owner.pk == request.user.pk
    actions = {} if is_self else profile_actions(viewer_id=request.user.pk, owner=owner)
    return render(
        request,
        "accounts/profile.html",
        {
            **actions,
            "owner": owner,
            "stats": stats,
            "form": form_entries(stats.form),
            "matches": matches,
            "ratings": rating_lines(
                profile_ratings(user=owner, viewer=request.user), owner=owner.get_username()
            ),
            "is_self": is_self,
            # The competitions' sections (their leagues, ladder places): games.views.event_marks.
            "event_sections": profile_sections(owner, request.user),
        },
    )


def profile_actions(*, viewer_id: int, owner: AbstractBaseUser) -> dict[str, Any]:
    """What the profile's buttons say for ``viewer_id`` on ``owner``'s profile: whether each
    follows the other, whether the viewer blocked them, and whether the viewer may challenge
    them (or the refusal's words). One statement (two when the owner takes challenges only
    from people they have played), however many follows and blocks exist."""
    facts = pair_facts(viewer_id, owner.pk)
    refusal = challenge_refusal(
        challenger_id=viewer_id, target_id=owner.pk, target_name=owner.get_username(), facts=facts
    )
    return {
        "owner": owner,
        "following": facts.following,
        "followed_by": facts.followed_by,
        "friends": facts.friends,
        "blocked": facts.blocked_by_viewer,
        "apart": facts.blocked,  # a block either way: no Follow offered
        "challenge_refusal": refusal,
    }


def _person(username: str, *, shown_only: bool) -> AbstractBaseUser:
    people = get_user_model().objects.all()
    if shown_only:
        people = people.exclude(hidden_people())
    found = people.filter(username=username).first()
    if found is None:
        raise AccountRefused(_("There is no such player."), status=404)
    return found


def _answer(
    request: HttpRequest, username: str, owner: AbstractBaseUser | None, *, done: str, status: int
) -> HttpResponse:
    """The answer to an action: the buttons swapped in (htmx), else a redirect back with the
    message; a refusal (``status`` not 200) is a small page with its message and status."""
    if request.htmx and owner is not None:
        context = {**profile_actions(viewer_id=request.user.pk, owner=owner), "notice": done}
        return render(request, ACTIONS_PARTIAL, context, status=status)
    if status != 200:
        return render(
            request,
            "accounts/person_refused.html",
            {"notice": done, "username": username},
            status=status,
        )
    messages.success(request, done)
    if request.POST.get("back") == BACK_TO_ACCOUNT:
        return redirect(reverse("account") + "#account-blocked")
    if request.POST.get("back") == BACK_TO_FRIENDS:
        return redirect("friends")
    return redirect("profile", username=username)


def _act(request: HttpRequest, username: str, action: str) -> HttpResponse:
    viewer_id = request.user.pk
    owner: AbstractBaseUser | None = None
    try:
        owner = _person(username, shown_only=action in ("follow", "block"))
        name = owner.get_username()
        if owner.pk == viewer_id and action in ("unfollow", "unblock"):
            if action == "unfollow":
                raise AccountRefused(_("You cannot unfollow yourself."), status=400)
            raise AccountRefused(_("You cannot unblock yourself."), status=400)
        if action == "follow":
            follow_add(follower_id=viewer_id, followed_id=owner.pk)
            done = _("You follow %(name)s.") % {"name": name}
        elif action == "unfollow":
            follow_remove(follower_id=viewer_id, followed_id=owner.pk)
            done = _("You no longer follow %(name)s.") % {"name": name}
        elif action == "block":
            if request.POST.get("confirm") != "yes":
                raise AccountRefused(_("Confirm the block with its button."), status=400)
            block_add(blocker_id=viewer_id, blocked_id=owner.pk)
            done = _("You blocked %(name)s.") % {"name": name}
        else:
            block_remove(blocker_id=viewer_id, blocked_id=owner.pk)
            done = _("You no longer block %(name)s.") % {"name": name}
    except AccountRefused as refused:
        return _answer(request, username, owner, done=refused.message, status=refused.status)
    return _answer(request, owner.get_username(), owner, done=done, status=200)


@login_required_htmx
@require_POST
def person_follow(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/follow/``: follow them (twice: nothing more)."""
    return _act(request, username, "follow")


@login_required_htmx
@require_POST
def person_unfollow(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/unfollow/``: stop following them."""
    return _act(request, username, "unfollow")


@login_required_htmx
@require_http_methods(["GET", "POST"])
def person_block(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/block/``: a GET asks first (saying what a block does; for htmx in
    place of the buttons), the POST with ``confirm=yes`` blocks."""
    if request.method == "POST":
        return _act(request, username, "block")
    owner = get_user_model().objects.exclude(hidden_people()).filter(username=username).first()
    if owner is None:
        raise Http404(_("There is no such player."))
    if owner.pk == request.user.pk:
        return render(
            request,
            "accounts/person_refused.html",
            {"notice": _("You cannot block yourself."), "username": username},
            status=400,
        )
    return render(request, BLOCK_CONFIRM, {"owner": owner})


@login_required_htmx
@require_POST
def person_unblock(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/unblock/``: undo one's own block (from the profile or the account
    page's list; ``back=account`` returns there)."""
    return _act(request, username, "unblock")
