from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Connects the receiver that copies a person's time zone into the session at sign-in.
        from django.contrib.auth.signals import user_logged_in

        from accounts import time_zone  # noqa: F401
        from accounts.closure import reopen_on_sign_in

        user_logged_in.connect(reopen_on_sign_in, dispatch_uid="accounts.reopen_on_sign_in")
