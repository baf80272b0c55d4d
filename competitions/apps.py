"""The competitions' app: at start-up, connects the ladder to what games and accounts tell it
(a match finishing, an account closing or being deleted)."""

from __future__ import annotations

from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Competitions"

    def ready(self) -> None:
        from accounts.signals import account_closing, account_leaving
        from competitions.services.ladder import (
            account_closing_receiver,
            account_leaving_receiver,
            match_finished_receiver,
        )
        from games.signals import match_finished

        match_finished.connect(match_finished_receiver, dispatch_uid="competitions.ladder_result")
        account_closing.connect(account_closing_receiver, dispatch_uid="competitions.ladder_close")
        account_leaving.connect(account_leaving_receiver, dispatch_uid="competitions.ladder_leave")
