"""The translating template tags made cheaper (``core/translate_tags.py``): every form of
``translate`` and ``blocktranslate`` says, escapes and stores exactly what Django's own nodes
say, in every language of the site."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template import Context, Engine, Library, engines
from django.templatetags import i18n as django_i18n
from django.utils import translation

from core.translate_tags import KeptBlockTranslateNode, KeptTranslateNode

LANGUAGES = [code for code, _name in settings.LANGUAGES]

# Each form of the two tags; the words are the site's own where a form allows, so German and
# French give their translations (and a percent sign, a context, a plural, HTML in a value).
TEMPLATES = [
    '{% translate "Pack" %}',
    '{% translate "Discards" %} {% translate "Pack" %}',
    '{% translate "You get one reminder per turn when 80% of the time to move has gone." %}',
    '{% translate "No such words, 100% <b>bold</b>" %}',
    "{% translate word %}",
    "{% translate html %}",
    '{% translate "Pack"|upper %}',
    '{% translate "name" context "word class" %}',
    '{% translate "Pack" noop %}',
    '{% translate "Pack" as pack %}[{{ pack }}]',
    '{% translate "Pack" as pack %}{% translate "Discards" as pack %}[{{ pack }}]',
    "{% for w in words %}{% translate 'Pack' %}{% translate w %}{% endfor %}",
    "{% blocktranslate trimmed count count=n %}{{ count }} card in hand{% plural %}"
    "{{ count }} cards in hand{% endblocktranslate %}",
    "{% blocktranslate with name=html %}{{ name }}'s story cards{% endblocktranslate %}",
    "{% blocktranslate trimmed with name=word %}\n  {{ name }}'s\n  last hand\n"
    "{% endblocktranslate %}",
    "{% blocktranslate count count=n asvar said %}{{ count }} seat still free"
    "{% plural %}{{ count }} seats still free{% endblocktranslate %}<{{ said }}>",
    '{% blocktranslate context "word class" %}name{% endblocktranslate %}',
    "{% blocktranslate %}No such words, 50% off{% endblocktranslate %}",
    "{% for n in counts %}{% blocktranslate trimmed count count=n %}Pack: {{ count }} card"
    "{% plural %}Pack: {{ count }} cards{% endblocktranslate %};{% endfor %}",
]
CONTEXT = {
    "word": "Pack",
    "html": "<i>Ann</i> & Bob",
    "words": ["Pack", "Discards", "<b>"],
    "n": 3,
    "counts": [0, 1, 2, 5, 21],
}


def _engine(library: Library) -> Engine:
    engine = Engine()
    engine.template_libraries["i18n"] = library
    return engine


def _django_s() -> Library:
    """Django's ``i18n`` library as Django registers it: its own compile functions."""
    library = Library()
    library.tags.update(django_i18n.register.tags)
    library.filters.update(django_i18n.register.filters)
    for name in ("translate", "trans"):
        library.tags[name] = django_i18n.do_translate
    for name in ("blocktranslate", "blocktrans"):
        library.tags[name] = django_i18n.do_block_translate
    return library


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("code", LANGUAGES)
def test_the_kept_tags_say_what_django_s_say(code, autoescape):
    django_s = _engine(_django_s())
    kept = _engine(django_i18n.register)  # as the site's templates load it
    translated = 0
    for source in TEMPLATES:
        source = "{% load i18n %}" + source
        theirs, ours = django_s.from_string(source), kept.from_string(source)
        assert not any(
            isinstance(n, (KeptTranslateNode, KeptBlockTranslateNode))
            for n in theirs.nodelist.get_nodes_by_type(django_i18n.TranslateNode)
        )
        with translation.override(code):
            for _ in range(2):  # and again, from the ids kept by the first render
                expected = theirs.render(Context(CONTEXT, autoescape=autoescape))
                said = ours.render(Context(CONTEXT, autoescape=autoescape))
                assert said == expected, source
        with translation.override(settings.LANGUAGE_CODE):
            translated += said != theirs.render(Context(CONTEXT, autoescape=autoescape))
    assert translated > 5 if not code.startswith("en") else translated == 0


def test_the_site_s_templates_load_the_kept_tags():
    template = engines["django"].from_string(
        "{% load i18n %}{% translate 'Pack' %}"
        "{% blocktranslate with name=word %}{{ name }}'s story cards{% endblocktranslate %}"
    )
    kinds = {type(node) for node in template.template.nodelist}
    assert {KeptTranslateNode, KeptBlockTranslateNode} <= kinds
    with translation.override("de"):
        said = template.render({"word": "Ann"})
    assert said.startswith("Nachziehstapel") and "Ann" in said
