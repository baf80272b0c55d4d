"""Create (or reset) the demo players so a fresh ``make run`` can be played at once."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_USERS = ("ann", "bea", "cal", "dan")
# One shared password, long and uncommon enough for Django's validators (checked below).
DEMO_PASSWORD = "wishing-chair-1939"


class Command(BaseCommand):
    help = "Create the demo players ann, bea, cal and dan (idempotent) and print their password."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        created = []
        with transaction.atomic():
            for name in DEMO_USERS:
                user, was_created = User.objects.get_or_create(
                    username=name, defaults={"email": f"{name}@example.com"}
                )
                validate_password(DEMO_PASSWORD, user)
                # Reset every time: the printed password must always work.
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
                if was_created:
                    created.append(name)
        self.stdout.write("Demo accounts (log in at /accounts/login/):")
        for name in DEMO_USERS:
            self.stdout.write(f"  {name:<4} password: {DEMO_PASSWORD}")
        if created:
            self.stdout.write(f"Created: {', '.join(created)}")
