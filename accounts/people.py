"""Follow, unfollow, block and unblock a person from their profile; who may challenge me and
the blocked people, two sections of the account page (docs/accounts.md, "Friends and blocks").

Every action is a plain POST answered by a redirect back (the profile, or the account page for
an unblock made there), and for htmx by the profile's buttons swapped in place. A refusal (oneself,
an account that is gone, across a block, a garbage field) is a clear message with its status
and changes nothing; a double post changes nothing more.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts import relations
from accounts.closure import hidden_people
from accounts.models import Block, ChallengeSetting

ACTIONS_PARTIAL = "accounts/_profile_actions.html"
BLOCK_CONFIRM = "accounts/block_confirm.html"
BACK_TO_ACCOUNT = "account"  # the ``back`` field of the account page's Unblock forms
BACK_TO_FRIENDS = "friends"  # and of the friends page's Follow back forms


def profile_actions(*, viewer_id: int, owner: AbstractBaseUser) -> dict[str, Any]:
    """What the profile's buttons say for ``viewer_id`` on ``owner``'s profile: whether each
    follows the other, whether the viewer blocked them, and whether the viewer may challenge
    them (or the refusal's words). One statement (two when the owner takes challenges only
    from people they have played), however many follows and blocks exist."""
    facts = relations.pair_facts(viewer_id, owner.pk)
    refusal = relations.challenge_refusal(
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
        raise relations.RelationRefused("There is no such player.", status=404)
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
            raise relations.RelationRefused(f"You cannot {action} yourself.", status=400)
        if action == "follow":
            relations.follow(follower_id=viewer_id, followed_id=owner.pk)
            done = f"You follow {name}."
        elif action == "unfollow":
            relations.unfollow(follower_id=viewer_id, followed_id=owner.pk)
            done = f"You no longer follow {name}."
        elif action == "block":
            if request.POST.get("confirm") != "yes":
                raise relations.RelationRefused("Confirm the block with its button.", status=400)
            relations.block(blocker_id=viewer_id, blocked_id=owner.pk)
            done = f"You blocked {name}."
        else:
            relations.unblock(blocker_id=viewer_id, blocked_id=owner.pk)
            done = f"You no longer block {name}."
    except relations.RelationRefused as refused:
        return _answer(request, username, owner, done=refused.message, status=refused.status)
    return _answer(request, owner.get_username(), owner, done=done, status=200)


@login_required
@require_POST
def person_follow(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/follow/``: follow them (twice: nothing more)."""
    return _act(request, username, "follow")


@login_required
@require_POST
def person_unfollow(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/unfollow/``: stop following them."""
    return _act(request, username, "unfollow")


@login_required
@require_http_methods(["GET", "POST"])
def person_block(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/block/``: a GET asks first (saying what a block does; for htmx in
    place of the buttons), the POST with ``confirm=yes`` blocks."""
    if request.method == "POST":
        return _act(request, username, "block")
    owner = get_user_model().objects.exclude(hidden_people()).filter(username=username).first()
    if owner is None:
        raise Http404("There is no such player.")
    if owner.pk == request.user.pk:
        return render(
            request,
            "accounts/person_refused.html",
            {"notice": "You cannot block yourself.", "username": username},
            status=400,
        )
    return render(request, BLOCK_CONFIRM, {"owner": owner})


@login_required
@require_POST
def person_unblock(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/unblock/``: undo one's own block (from the profile or the account
    page's list; ``back=account`` returns there)."""
    return _act(request, username, "unblock")


# --- The account page's sections ---------------------------------------------------------------


class ChallengeSettingForm(forms.Form):
    who = forms.ChoiceField(
        label="Who may challenge me",
        choices=ChallengeSetting.Who.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": "Choose who may challenge you.",
            "invalid_choice": "Choose one of the offered answers.",
        },
    )


def challenge_setting_context(request: HttpRequest) -> dict[str, Any]:
    """The section "Who may challenge me": the choice in use and its form."""
    who = relations.challenge_setting(request.user.pk)
    return {
        "who": ChallengeSetting.Who(who).label,
        "form": ChallengeSettingForm(initial={"who": who}),
    }


@login_required
@require_POST
def challenge_setting_change(request: HttpRequest) -> HttpResponse:
    """``/accounts/challenges/``: save who may challenge the person; a refusal shows the section
    alone with its message (400) and changes nothing."""
    form = ChallengeSettingForm(request.POST)
    if not form.is_valid():
        context = {**challenge_setting_context(request), "form": form}
        context["error"] = "Nothing changed: choose one of the offered answers."
        sections = [(CHALLENGES_SECTION, context)]
        return render(request, "accounts/account.html", {"sections": sections}, status=400)
    who = form.cleaned_data["who"]
    relations.challenge_setting_save(user_id=request.user.pk, who=who)
    messages.success(request, f"Who may challenge you: {ChallengeSetting.Who(who).label}.")
    return redirect(reverse("account") + "#account-challenges")


CHALLENGES_SECTION = "accounts/account/_challenges.html"
BLOCKED_SECTION = "accounts/account/_blocked.html"


def blocked_context(request: HttpRequest) -> dict[str, Any]:
    """The section "Blocked people": those the person blocked, newest first, each with Unblock
    (one query)."""
    names = (
        Block.objects.filter(blocker_id=request.user.pk)
        .order_by("-pk")
        .values_list("blocked__username", flat=True)
    )
    return {"blocked": list(names)}
