from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # A block declines the invitations pending between the two, in its transaction.
        from accounts.relations import person_blocked
        from games.services.invitations import person_blocked_receiver

        person_blocked.connect(person_blocked_receiver, dispatch_uid="games.invitations_blocked")
