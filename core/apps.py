"""The platform as an installed app: Django finds its ``backup`` management command through it
(docs/operations.md); once it is ready, each language's catalogs are tidied
(``core.translation_lookups``) and the translating template tags made cheaper
(``core.translate_tags``)."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from core.translate_tags import install
        from core.translation_lookups import tidy_languages

        tidy_languages()
        install()
