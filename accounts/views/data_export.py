"""The "Your data" section of the account page and its two URLs (docs/accounts.md): ask for
an export and watch it being prepared (``/accounts/data/``), and download it
(``/accounts/data/<id>/``, its owner only: anyone else, staff included, gets a 404). The work
is ``accounts.services.data_export``'s."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.errors import AccountRefused
from accounts.models import DataExport
from accounts.selectors.data_export import (
    EXPORT_DAYS,
    expires_at,
    latest_export,
    next_export_at,
    ready_export,
)
from accounts.services.data_export import data_export_request
from accounts.services.export_files import export_path
from core.signed_out import login_required_htmx

SECTION = "accounts/account/_data.html"


def data_context(request: HttpRequest) -> dict[str, Any]:
    """The latest export's state, and whether another may be asked for now."""
    export = latest_export(user_id=request.user.pk)
    return {
        "export": export,
        "preparing": export is not None and export.status == DataExport.Status.PREPARING,
        "ready": export is not None and export.status == DataExport.Status.READY,
        "failed": export is not None and export.status == DataExport.Status.FAILED,
        "expires_at": None if export is None else expires_at(export),
        "next_at": next_export_at(export),
        "export_days": EXPORT_DAYS,
    }


def _section(request: HttpRequest, *, status: int = 200, refusal: str = "") -> HttpResponse:
    context = {"section": {**data_context(request), "refusal": refusal}}
    return render(request, SECTION, context, status=status)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def data_export(request: HttpRequest) -> HttpResponse:
    """GET (htmx): the section, polled while the file is prepared; a plain GET goes to the
    account page. POST: ask for an export (one a day: a 429 with the reason otherwise)."""
    if request.method == "GET":
        if not request.htmx:
            return redirect("account")
        return _section(request)
    try:
        data_export_request(user=request.user)
    except AccountRefused as exc:
        if request.htmx:
            return _section(request, status=exc.status, refusal=exc.message)
        context = {"section": {**data_context(request), "refusal": exc.message}}
        return render(request, "accounts/data_export.html", context, status=exc.status)
    if request.htmx:
        return _section(request)
    messages.success(request, _("Your data is being prepared: this page shows when it is ready."))
    return redirect("account")


@login_required
@require_GET
def data_export_download(request: HttpRequest, pk: int) -> FileResponse:
    """The export's file, to its owner only, while it is kept."""
    export = ready_export(export_id=pk, user_id=request.user.pk)
    if export is None:
        raise Http404(_("No such export."))
    path = export_path(export.file_name)
    if not path.is_file():
        raise Http404(_("No such export."))
    response = FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=f"parlour-my-data-{export.created_at:%Y-%m-%d}.json",
        content_type="application/json",
    )
    response["Cache-Control"] = "private, no-store"  # i18n: data
    return response
