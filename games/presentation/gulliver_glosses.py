"""Gulliver's Travels' word cards glossed in the reader's language (docs/translation.md).

The cards stay English: a trick is an English sentence, and the grammar the engine referees is
English grammar (``games.engines.gulliver_words``). A reader of another language gets each
word's meaning beside it, from here: the data in one place, one entry a word and language.
English readers get no gloss. A word the table below misses has no gloss (a test holds every
word of every language the site speaks).
"""

from __future__ import annotations

from django.utils.translation import get_language

# language (its base code, as ``LANGUAGES`` names it) -> word card -> its meaning there
GLOSSES: dict[str, dict[str, str]] = {
    "de": {
        # Names: the titles translated; the spies' names say what they are.
        "Gulliver": "Gulliver",
        "King Little": "König Little",
        "King Bombo": "König Bombo",
        "Prince David": "Prinz David",
        "Princess Glory": "Prinzessin Glory",
        "Gabby": "Gabby, der Ausrufer",
        "Snitch": "Snitch, der Petzer",
        "Snoop": "Snoop, der Schnüffler",
        "Sneak": "Sneak, der Schleicher",
        "Spies": "Spione",
        "Soldiers": "Soldaten",
        "Sweethearts": "Liebespaar",
        "And": "und",
        "With": "mit",
        "Is": "ist",
        "Are": "sind",
        "Rescues": "rettet",
        "Removes": "entfernt",
        "Loves": "liebt",
        "Captures": "fängt",
        "Singing": "singend",
        "Sleeping": "schlafend",
        "Fighting": "kämpfend",
        "Dancing": "tanzend",
        "Prepared": "bereit",
        "Angry": "wütend",
        "Astonished": "erstaunt",
        "Frightened": "verängstigt",
        "Happy": "glücklich",
        "Brave": "tapfer",
        "Terrified": "zu Tode erschrocken",
        "Always": "immer",
        "Forever": "für immer",
    },
    "fr": {
        "Gulliver": "Gulliver",
        "King Little": "le roi Little",
        "King Bombo": "le roi Bombo",
        "Prince David": "le prince David",
        "Princess Glory": "la princesse Glory",
        "Gabby": "Gabby, le crieur",
        "Snitch": "Snitch, le mouchard",
        "Snoop": "Snoop, le fouineur",
        "Sneak": "Sneak, le sournois",
        "Spies": "espions",
        "Soldiers": "soldats",
        "Sweethearts": "amoureux",
        "And": "et",
        "With": "avec",
        "Is": "est",
        "Are": "sont",
        "Rescues": "sauve",
        "Removes": "enlève",
        "Loves": "aime",
        "Captures": "capture",
        "Singing": "en chantant",
        "Sleeping": "en dormant",
        "Fighting": "en se battant",
        "Dancing": "en dansant",
        "Prepared": "prêt",
        "Angry": "en colère",
        "Astonished": "stupéfait",
        "Frightened": "effrayé",
        "Happy": "heureux",
        "Brave": "courageux",
        "Terrified": "terrifié",
        "Always": "toujours",
        "Forever": "pour toujours",
    },
}


def gloss(word: str, language: str | None = None) -> str:
    """``word``'s meaning in ``language`` (None: the reader's, the one active), or "" for an
    English reader or a word without a gloss."""
    code = (language or get_language() or "").split("-")[0].lower()
    return GLOSSES.get(code, {}).get(word, "")
