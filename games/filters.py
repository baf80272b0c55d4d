"""The query-string filters of the match history (``/history/``), parsed and vetted.

A filter is a plain GET parameter, so a filtered list is a URL anyone can share. Garbage never
fails the page: a field that does not parse is treated as left empty and the page says so
(``HistoryFilterForm.notes``).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms

from games.engines import registered
from games.models import Match

# What the result filter offers: a seat's finished result, or the match still being played.
IN_PLAY = "in_play"
RESULT_CHOICES = [("won", "Won"), ("lost", "Lost"), ("drawn", "Drawn"), (IN_PLAY, "In play")]

# Dates outside these years are refused rather than turned into datetimes that overflow.
EARLIEST_YEAR, LATEST_YEAR = 2000, 2999

# The largest page number read from a query string; beyond it is garbage, not a page.
MAX_PAGE = 1_000_000


@dataclass(frozen=True)
class HistoryFilters:
    """Vetted filters of a history list: each empty (``""`` or ``None``) when not applied.

    ``opponent`` is ``"user:<username>"`` or ``"bot:<level>"``; the dates bound the match's
    creation date, both ends included.
    """

    game: str = ""
    result: str = ""
    status: str = ""
    opponent: str = ""
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    page: int = 1

    @property
    def active(self) -> bool:
        """Whether any filter (the page aside) narrows the list."""
        return any(v for k, v in asdict(self).items() if k != "page")

    def querystring(self, *, page: int | None = None) -> str:
        """The filters as a query string (``"game=faraway&page=2"``), without the ``?``: the
        links of the pagination carry the vetted filters, never a value that was ignored."""
        params: dict[str, Any] = {}
        for key, value in asdict(self).items():
            if key == "page" or not value:
                continue
            params[key] = value.isoformat() if isinstance(value, datetime.date) else value
        if page is not None and page != 1:
            params["page"] = page
        return urlencode(params)


def opponent_value(*, username: str | None, bot_level: str | None) -> str:
    """The ``opponent`` filter's value for a person or a bot level."""
    return f"user:{username}" if username is not None else f"bot:{bot_level}"


def page_number(raw: str | None) -> int:
    """A page number from a query string: garbage and out-of-range numbers give page 1 (the
    paginator then turns a number past the end into the last page)."""
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > len(str(MAX_PAGE)):
        return 1
    return max(1, min(int(raw), MAX_PAGE))


def _with_count(choices: Sequence[tuple[str, str]], counts: Mapping[str, int] | None):
    if counts is None:
        return list(choices)
    return [(value, f"{label} ({counts.get(value, 0)})") for value, label in choices]


class HistoryFilterForm(forms.Form):
    """The history's filters, read from GET. Built with the user's opponents (the choices of
    ``opponent``) and, for a whole page, the counts shown beside each choice."""

    INVALID = "There is no such choice."

    game = forms.ChoiceField(
        required=False, label="Game", error_messages={"invalid_choice": INVALID}
    )
    result = forms.ChoiceField(
        required=False, label="Result", error_messages={"invalid_choice": INVALID}
    )
    status = forms.ChoiceField(
        required=False, label="Status", error_messages={"invalid_choice": INVALID}
    )
    opponent = forms.ChoiceField(
        required=False,
        label="Opponent",
        error_messages={"invalid_choice": "That is not one of your opponents."},
    )
    date_from = forms.DateField(
        required=False,
        label="From",
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Give a date as YYYY-MM-DD."},
    )
    date_to = forms.DateField(
        required=False,
        label="To",
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Give a date as YYYY-MM-DD."},
    )
    page = forms.IntegerField(
        required=False,
        label="Page",
        min_value=1,
        max_value=MAX_PAGE,
        widget=forms.HiddenInput,
        error_messages={"invalid": "A page is a whole number."},
    )

    def __init__(
        self,
        data: Mapping[str, Any] | None,
        *,
        opponents: Sequence[tuple[str, str, int]] = (),
        counts: Mapping[str, Mapping[str, int]] | None = None,
    ) -> None:
        """``opponents``: ``(value, label, matches together)`` for each opponent met;
        ``counts``: per field, the number of the user's matches for each value."""
        super().__init__(data)
        counts = counts or {}
        self.fields["game"].choices = [
            ("", "Any game"),
            *_with_count([(e.name, e.title) for e in registered()], counts.get("game")),
        ]
        self.fields["result"].choices = [
            ("", "Any result"),
            *_with_count(RESULT_CHOICES, counts.get("result")),
        ]
        self.fields["status"].choices = [
            ("", "Any status"),
            *_with_count(Match.Status.choices, counts.get("status")),
        ]
        self.fields["opponent"].choices = [
            ("", "Anyone"),
            *((value, f"{label} ({n})" if counts else label) for value, label, n in opponents),
        ]

    def clean_date_from(self) -> datetime.date | None:
        return self._sane_date(self.cleaned_data.get("date_from"))

    def clean_date_to(self) -> datetime.date | None:
        return self._sane_date(self.cleaned_data.get("date_to"))

    @staticmethod
    def _sane_date(value: datetime.date | None) -> datetime.date | None:
        if value is not None and not EARLIEST_YEAR <= value.year <= LATEST_YEAR:
            raise forms.ValidationError(f"Give a date between {EARLIEST_YEAR} and {LATEST_YEAR}.")
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", "The end date comes before the start date.")
        return cleaned

    def filters(self) -> HistoryFilters:
        """The filters that parsed; every other field counts as left empty."""
        if not self.is_bound:
            return HistoryFilters()
        self.is_valid()  # fills cleaned_data with the fields that parsed, errors for the rest
        data = self.cleaned_data
        return HistoryFilters(
            game=data.get("game") or "",
            result=data.get("result") or "",
            status=data.get("status") or "",
            opponent=data.get("opponent") or "",
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            page=data.get("page") or 1,
        )

    @property
    def notes(self) -> list[str]:
        """One line per field that did not parse, for the page to show beside the results."""
        if not self.is_bound:
            return []
        self.is_valid()
        return [
            f"{self[name].label}: {' '.join(messages)} That filter was ignored."
            for name, messages in self.errors.items()
            if name in self.fields
        ]
