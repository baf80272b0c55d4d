"""The competitions app: at start-up connects its receivers of the accounts' signals (closing or
deleting an account withdraws the person from their leagues)."""

from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Competitions"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts.models import AccountClosure
        from accounts.signals import account_leaving
        from competitions.league_entries import account_closed_receiver, account_leaving_receiver

        account_leaving.connect(account_leaving_receiver, dispatch_uid="competitions.leaving")
        post_save.connect(
            account_closed_receiver, sender=AccountClosure, dispatch_uid="competitions.closed"
        )
