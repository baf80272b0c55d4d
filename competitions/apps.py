"""The competitions' app: at start-up, connects the ladder and the leagues to what games and
accounts tell them (a match finishing, an account closing or being deleted), hears the cups'
and leagues' own signals (a cup started, a round paired, an event finished) to tell their
people, and adds the ladder's and the events' notices to the notices page and the badge."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from accounts.selectors import notify
        from accounts.signals import account_closing, account_leaving, export_sections
        from competitions.event_notices import (
            cup_round_paired_receiver,
            cup_started_receiver,
            event_finished_receiver,
        )
        from competitions.event_notices import (
            export_sections_receiver as events_export_receiver,
        )
        from competitions.league_entries import (
            account_closing_receiver as league_closing_receiver,
        )
        from competitions.league_entries import (
            account_leaving_receiver as league_leaving_receiver,
        )
        from competitions.league_notice_reads import league_notices, league_notices_rows
        from competitions.league_notice_words import league_notice_lines
        from competitions.presentation.ladder import ladder_notice_lines
        from competitions.profile_events import event_marks, profile_events
        from competitions.selectors.ladder import ladder_notices, ladder_notices_rows
        from competitions.services.ladder import (
            account_closing_receiver,
            account_leaving_receiver,
            export_sections_receiver,
            match_finished_receiver,
        )
        from competitions.signals import cup_round_paired, cup_started, event_finished
        from games.signals import match_finished
        from games.views.event_marks import ProfileSection, match_marker_add, profile_section_add
        from games.views.notice_sources import NoticeSource, notice_source_add

        match_finished.connect(match_finished_receiver, dispatch_uid="competitions.ladder_result")
        account_closing.connect(account_closing_receiver, dispatch_uid="competitions.ladder_close")
        account_leaving.connect(account_leaving_receiver, dispatch_uid="competitions.ladder_leave")
        account_closing.connect(league_closing_receiver, dispatch_uid="competitions.leagues_close")
        account_leaving.connect(league_leaving_receiver, dispatch_uid="competitions.leagues_leave")
        export_sections.connect(export_sections_receiver, dispatch_uid="competitions.ladder_export")
        # A cup started, a cup's round paired, a league or a cup ended: their people told.
        cup_started.connect(cup_started_receiver, dispatch_uid="competitions.cup_started_tell")
        cup_round_paired.connect(
            cup_round_paired_receiver, dispatch_uid="competitions.cup_round_paired_tell"
        )
        event_finished.connect(event_finished_receiver, dispatch_uid="competitions.event_end_tell")
        export_sections.connect(events_export_receiver, dispatch_uid="competitions.events_export")
        # The notices page and the badge: a ladder result that moved the person.
        notice_source_add(
            NoticeSource(
                kind=notify.NOTICE_LADDER,
                heading=_("Ladder results that moved you"),
                pending=ladder_notices_rows,
                items=lambda user_id: ladder_notice_lines(ladder_notices(user_id), user_id),
                template="competitions/_notices_ladder.html",
                empty=_("No ladder result has moved you."),
            )
        )
        # A history's league tables and ladder matches; a profile's leagues and ladder places.
        match_marker_add(event_marks)
        profile_section_add(
            ProfileSection(template="competitions/_profile_events.html", context=profile_events)
        )
        # A league's or a cup's news for the person: entered, started, a new table or round,
        # withdrawn, ended.
        notice_source_add(
            NoticeSource(
                kind=notify.NOTICE_EVENTS,
                heading=_("News of your leagues and cups"),
                pending=league_notices_rows,
                items=lambda user_id: league_notice_lines(league_notices(user_id)),
                template="competitions/_notices_events.html",
                empty=_("No news of your leagues or cups."),
            )
        )
