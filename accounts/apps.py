from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # At sign-in the person's time zone and language go into the session, and a closed
        # account reopens.
        from django.contrib.auth.signals import user_logged_in

        from accounts.services.closure import reopen_on_sign_in
        from accounts.services.language import remember_at_sign_in as language_at_sign_in
        from accounts.services.time_zone import remember_at_sign_in

        user_logged_in.connect(
            remember_at_sign_in, dispatch_uid="accounts.services.time_zone.remember_at_sign_in"
        )
        user_logged_in.connect(
            language_at_sign_in, dispatch_uid="accounts.services.language.remember_at_sign_in"
        )
        user_logged_in.connect(reopen_on_sign_in, dispatch_uid="accounts.reopen_on_sign_in")
