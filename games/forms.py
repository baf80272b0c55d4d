"""Input parsing for the games pages; rules and limits come from the engines."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines import Engine, get_engine, registered
from games.engines.base import Option
from games.models import BOT_FILL_CHOICES, DEADLINE_CHOICES, BotLevel
from games.presentation.names import bot_level_choices
from games.selectors.quick import QuickChoice

BOT_CHOICES = bot_level_choices()
ME = "me"
PERSON = "person"
CHALLENGE = "challenge"
PUBLIC = "public"
PRIVATE = "private"


def option_field(option: Option, engine: Engine) -> forms.Field:
    """The form field for one of a game's options (``Engine.options``)."""
    help_text = f"{engine.title} only" + (
        f"; {option.help[:1].lower()}{option.help[1:]}" if option.help else "."
    )
    if option.kind == "bool":
        return forms.BooleanField(label=option.label, required=False, help_text=help_text)
    return forms.IntegerField(
        label=option.label,
        required=False,
        min_value=option.minimum,
        max_value=option.maximum,
        help_text=help_text,
    )


def deadline_field() -> forms.TypedChoiceField:
    """The turn deadline, as the new-match form and Play now both ask it."""
    return forms.TypedChoiceField(
        label=_("Turn deadline"),
        choices=[("", _("None")), *DEADLINE_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("When a person's time runs out, the greedy bot plays that turn for them."),
    )


def games_offered(form: forms.Form) -> tuple[Engine, ...]:
    """Offer the registered games in ``form``'s ``game`` field, the first chosen unless the
    form's initial data says otherwise (read when the form is made, so a game registered in a
    test is offered too); the engines, for the form's other fields."""
    engines = tuple(registered())
    form.fields["game"].choices = [(e.name, e.title) for e in engines]
    form.fields["game"].initial = engines[0].name
    return engines


class MatchNewForm(forms.Form):
    game = forms.ChoiceField(widget=forms.RadioSelect)
    num_players = forms.IntegerField(label=gettext_lazy("Seats"), min_value=2, initial=2)
    deadline_days = deadline_field()
    hints = forms.BooleanField(
        label=gettext_lazy("Hints on for me"),
        required=False,
        help_text=gettext_lazy(
            "Your table marks the moves you may make and says why a card cannot be "
            "played; only you see them, and you may turn them off at the table."
        ),
    )
    refuse_holidays = forms.BooleanField(
        label=gettext_lazy("Refuse holidays"),
        required=False,
        help_text=gettext_lazy(
            "The turn deadline runs even for a player on holiday (by default a holiday "
            "holds it until they are back)."
        ),
    )

    visibility = forms.ChoiceField(
        label=gettext_lazy("Who may watch"),
        choices=[
            (
                PUBLIC,
                gettext_lazy(
                    "Public: listed in the lobby; anyone signed in may take a free seat or watch"
                ),
            ),
            (
                PRIVATE,
                gettext_lazy(
                    "Private: only people with the invite link may sit; no one else sees it"
                ),
            ),
        ],
        widget=forms.RadioSelect,
        initial=PUBLIC,
        required=False,
    )
    phrases_watchers = forms.BooleanField(
        label=gettext_lazy("Watchers see the table phrases"),
        required=False,
        help_text=gettext_lazy(
            "In a public match, people watching also see the preset phrases the players "
            "say (the players always do)."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every registered game, with its options (each under the option's name: the games'
        # option names are distinct, which the registry test holds).
        self.engines = games_offered(self)
        self.max_seats = max(e.max_players for e in self.engines)
        self.fields["num_players"].max_value = self.max_seats
        self.fields["num_players"].validators.append(MaxValueValidator(self.max_seats))
        self.fields["num_players"].widget.attrs["max"] = self.max_seats
        # Only the chosen game's options are read: another game's, sent by a page without
        # its script (every game's options show there), are ignored rather than validated.
        chosen = self.data.get("game") if self.is_bound else None
        known = isinstance(chosen, str) and chosen in {e.name for e in self.engines}
        for engine in self.engines:
            for option in engine.options:
                self.fields[option.name] = option_field(option, engine)
                if known and chosen != engine.name:
                    self.fields[option.name].disabled = True
        # Seat 1 is yours, or a bot's while you watch; every other seat waits for a person
        # unless a bot takes it. Seats beyond the chosen count are ignored.
        self.fields["seat_0"] = forms.ChoiceField(
            label=_("Seat 1"),
            choices=[(ME, _("Me")), *BOT_CHOICES],
            initial=ME,
            required=False,
        )
        for index in range(1, self.max_seats):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=_("Seat %(seat)d") % {"seat": index + 1},
                choices=[
                    (PERSON, _("A person (invite or lobby)")),
                    (CHALLENGE, _("A person I challenge by name")),
                    *BOT_CHOICES,
                ],
                initial=PERSON,
                required=False,
            )
            # The name of the person challenged to that seat (docs/invitations.md).
            self.fields[f"challenge_{index}"] = forms.CharField(
                label=_("Seat %(seat)d: challenge") % {"seat": index + 1},
                max_length=150,
                required=False,
                widget=forms.TextInput(
                    attrs={"list": "challenge-candidates", "autocomplete": "off"}
                ),
            )

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{index}"] for index in range(self.max_seats)]

    @property
    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField | None]]:
        """Each seat's choice, with its challenge name (none for seat 1: yours or a bot's)."""
        return [
            (self[f"seat_{index}"], self[f"challenge_{index}"] if index else None)
            for index in range(self.max_seats)
        ]

    def challenged_names(self) -> dict[int, str]:
        """Seat number to the name typed for each challenge seat the match has."""
        data = self.cleaned_data
        return {
            i: (data.get(f"challenge_{i}") or "").strip()
            for i in range(1, data["num_players"])
            if data.get(f"seat_{i}") == CHALLENGE
        }

    @property
    def option_groups(self) -> list[tuple[Engine, list[forms.BoundField]]]:
        """Each game that has options, with its options' fields, in the registry's order."""
        return [(e, [self[o.name] for o in e.options]) for e in self.engines if e.options]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game, seats = data.get("game"), data.get("num_players")
        if game and seats is not None:
            engine = get_engine(game)
            if not engine.min_players <= seats <= engine.max_players:
                self.add_error(
                    "num_players",
                    _("%(game)s is for %(least)d to %(most)d players.")
                    % {
                        "game": engine.title,
                        "least": engine.min_players,
                        "most": engine.max_players,
                    },
                )
            else:
                for index, name in self.challenged_names().items():
                    if not name:
                        self.add_error(
                            f"challenge_{index}", _("Type the name of the person you challenge.")
                        )
        return data

    def bots(self) -> dict[int, str]:
        """Seat number to bot level, for the seats the match has."""
        data = self.cleaned_data
        chosen = {i: data.get(f"seat_{i}") or "" for i in range(data["num_players"])}
        return {i: level for i, level in chosen.items() if level in BotLevel.values}

    def public(self) -> bool:
        """Public unless the creator chose private (a form posted without the choice is
        public, as the form offers it)."""
        return (self.cleaned_data.get("visibility") or PUBLIC) == PUBLIC

    def creator_plays(self) -> bool:
        return (self.cleaned_data.get("seat_0") or ME) == ME

    def engine_options(self) -> dict[str, Any]:
        """The chosen game's options for ``new_game``: a yes/no always, a number when given."""
        data = self.cleaned_data
        options: dict[str, Any] = {}
        for option in get_engine(data["game"]).options:
            value = data.get(option.name)
            if option.kind == "bool":
                options[option.name] = bool(value)
            elif value:
                options[option.name] = value
        return options


ANY_SEATS = "any"
RATED, UNRATED = "rated", "unrated"


class QuickMatchForm(forms.Form):
    """Play now (docs/quick-match.md): the game, the table's size or any, the turn deadline,
    rated or not, and when a bot fills the seats still open (never, by default)."""

    game = forms.ChoiceField(widget=forms.RadioSelect)
    seats = forms.ChoiceField(label=gettext_lazy("Seats"), initial=ANY_SEATS)
    deadline_days = deadline_field()
    rated = forms.ChoiceField(
        label=gettext_lazy("Rated"),
        choices=[
            (RATED, gettext_lazy("Rated: the result moves your rating")),
            (UNRATED, gettext_lazy("Not rated")),
        ],
        widget=forms.RadioSelect,
        initial=RATED,
    )
    bot_fill_hours = forms.TypedChoiceField(
        label=gettext_lazy("Fill empty seats with a bot after"),
        choices=[("", gettext_lazy("Never: wait for people")), *BOT_FILL_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=gettext_lazy(
            "If the table Play now opens for you still has free seats then, the greedy "
            "bot takes them and the match begins."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engines = games_offered(self)
        most = max(e.max_players for e in self.engines)
        least = min(e.min_players for e in self.engines)
        self.fields["seats"].choices = [
            (ANY_SEATS, _("Any")),
            *((str(n), str(n)) for n in range(least, most + 1)),
        ]

    def choice(self) -> QuickChoice:
        """The cleaned form as Play now's choice (the service checks the size fits the game)."""
        seats = self.cleaned_data["seats"]
        return QuickChoice(
            game=self.cleaned_data["game"],
            seats=None if seats == ANY_SEATS else int(seats),
            deadline_days=self.cleaned_data.get("deadline_days"),
            rated=self.cleaned_data["rated"] == RATED,
        )


class MoveForm(forms.Form):
    """A move as the JSON one legal-move button carries, and the version the page showed."""

    move = forms.CharField(max_length=2000)
    version = forms.IntegerField(min_value=0)

    def clean_move(self) -> dict[str, Any]:
        try:
            move = json.loads(self.cleaned_data["move"])
        except (ValueError, RecursionError) as exc:  # a deep enough nesting exhausts the stack
            raise forms.ValidationError(_("That move is not readable.")) from exc
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise forms.ValidationError(_("That move is not readable."))
        if _nesting(move) > MOVE_NESTING:
            raise forms.ValidationError(_("That move is not readable."))
        return move


# Every move of both games is an object holding strings, numbers, booleans and lists of
# numbers: two levels. Anything deeper is not a move, and is refused before any comparison.
MOVE_NESTING = 3


def _nesting(value: object) -> int:
    """How deeply ``value`` nests lists and objects (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if depth > MOVE_NESTING:
                return depth
            stack.extend(
                (child, depth) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


class PhraseForm(forms.Form):
    """A table phrase by its key (docs/phrases.md); the service checks it is on the list."""

    phrase = forms.CharField(max_length=30)


class HolidayForm(forms.Form):
    """The last day of a holiday (docs/accounts.md, "Holidays"): ``games.views.holidays``."""

    until = forms.DateField(
        label=gettext_lazy("Away until the end of"),
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={
            "required": gettext_lazy("Choose the last day of your holiday."),
            "invalid": gettext_lazy("Enter the last day of your holiday as a date (2026-12-24)."),
        },
    )
