"""The platform as an installed app: Django finds its ``backup`` management command through it
(docs/operations.md), and each language's catalogs are tidied once it is ready
(``core.translation_lookups``)."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from core.translation_lookups import tidy_languages

        tidy_languages()
