"""The platform as an installed app: Django finds its ``backup`` management command through it
(docs/operations.md)."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Platform"
