from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Connects the receiver that copies a person's time zone into the session at sign-in.
        from accounts import time_zone  # noqa: F401
