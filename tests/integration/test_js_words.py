"""The words the site's scripts write (docs/translation.md, "The words JavaScript writes"):
``/words.js`` serves them for the language it names, every page links the reader's, and the
words themselves stay out of the HTML pages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests import factories
from tests.integration.test_security_headers import assert_secured

pytestmark = pytest.mark.django_db

LINK = re.compile(r'<script src="(/words\.js\?lang=([\w-]+)&amp;v=(\w+))" defer></script>')


def _table(response) -> dict[str, str]:
    text = response.content.decode()
    prefix = "window.parlourWordsTable = "
    assert text.startswith(prefix) and text.rstrip().endswith(";"), text[:80]
    return json.loads(text[len(prefix) :].rstrip().rstrip(";"))


def test_the_script_carries_the_words_of_the_language_it_names():
    client = Client()
    german = client.get("/words.js?lang=de&v=x")
    assert german.status_code == 200
    assert german["Content-Type"] == "text/javascript; charset=utf-8"
    assert "max-age=86400" in german["Cache-Control"]
    assert_secured(german)
    words = _table(german)
    assert words["confirm_bar"] == "Zug bestätigen"
    assert words["zone_matches:one"].startswith("{count} Zeitzone passt")
    assert words["zone_matches:other"].startswith("{count} Zeitzonen passen")
    assert _table(client.get("/words.js?lang=fr"))["cancel"] == "Annuler"
    assert _table(client.get("/words.js?lang=en-gb"))["confirm_bar"] == "Confirm your move"


def test_a_language_not_spoken_gives_the_readers_own():
    english = Client().get("/words.js?lang=xx")
    assert english.status_code == 200
    assert _table(english)["cancel"] == "Cancel"
    german_browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    assert _table(german_browser.get("/words.js?lang=<script>"))["cancel"] == "Abbrechen"
    assert _table(german_browser.get("/words.js"))["cancel"] == "Abbrechen"
    assert Client().post("/words.js").status_code in {403, 405}


def test_every_page_links_the_readers_words_and_holds_none_of_them():
    ann = factories.user_make("ann")
    for client, language in (
        (Client(), "en-gb"),
        (Client(HTTP_ACCEPT_LANGUAGE="fr"), "fr"),
        (factories.client_for(ann), "en-gb"),
    ):
        page = client.get("/").content.decode()
        links = LINK.findall(page)
        assert [found[1] for found in links] == [language], links
        # words.js comes right after the words, before any script that asks for them
        after = page[page.index(links[0][0]) :]
        assert after.index("js/words.js") < after.index("js/live.js")
        assert "parlourWordsTable" not in page and "nothing was changed" not in page
        assert client.get(links[0][0].replace("&amp;", "&")).status_code == 200
