from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # A block declines the invitations pending between the two, in its transaction; a
        # deletion makes the person leave their matches, then forgets their play; an export
        # holds the person's play.
        from django.contrib.auth.signals import user_logged_in

        from accounts.signals import (
            account_deleting,
            account_leaving,
            export_sections,
            person_blocked,
        )
        from accounts.views.account_page import section_add
        from games.export import export_sections_receiver
        from games.services.invitations import person_blocked_receiver
        from games.services.people import account_deleting_receiver, account_leaving_receiver
        from games.views.holidays import SECTION_TEMPLATE, holiday_context
        from games.views.lessons import carried_progress_receiver

        person_blocked.connect(person_blocked_receiver, dispatch_uid="games.invitations_blocked")
        account_leaving.connect(account_leaving_receiver, dispatch_uid="games.people_leaving")
        account_deleting.connect(account_deleting_receiver, dispatch_uid="games.people_deleting")
        export_sections.connect(export_sections_receiver, dispatch_uid="games.export_sections")
        # A sign-in (registering signs in too) keeps the stars the browser earned signed out.
        user_logged_in.connect(carried_progress_receiver, dispatch_uid="games.lessons_carried")
        # The account page's holidays section, between the time zone and the challenges.
        section_add(SECTION_TEMPLATE, holiday_context, order=40)
