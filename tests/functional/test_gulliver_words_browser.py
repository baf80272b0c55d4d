"""Every Gulliver word fits inside its card (issue 33, bug 7: "Frightened" and "ADJECTIVE" spilled
out of their cards on a phone). Each word of the pack is rendered through the card template
(``templates/games/_card_gulliver.html``) into the real table page, as a hand card, a sentence card
and a small (final-hand) card, and its word and part of speech are measured against the card's
inner box, at the phone's 390x844 and at desktop width.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string

from games.engines import gulliver_words
from games.presentation.gulliver import face
from tests.functional.test_screenshots import DESKTOP, PHONE, open_table

pytestmark = [pytest.mark.browser]

# The words with their longest token first: the ones that spilled are among the first.
WORDS = sorted(
    {word for word, _, _ in gulliver_words.WORDS},
    key=lambda word: (-max(len(token) for token in word.split()), word),
)

PLANT_AND_MEASURE_JS = """
([hand, sentence, small]) => {
  const table = document.querySelector('#table');
  const place = (selector, html) => {
    const row = document.querySelector(selector);
    row.insertAdjacentHTML('beforeend', html);
  };
  place('#hand .row', hand);
  place('#sentence .row', sentence);
  const finals = document.createElement('div');
  finals.className = 'row final-hand';
  finals.id = 'planted-small';
  finals.innerHTML = small;
  table.appendChild(finals);
  const spills = [];
  for (const card of document.querySelectorAll('.card.gv[data-planted]')) {
    const box = card.getBoundingClientRect();
    const style = getComputedStyle(card);
    const left = box.left + parseFloat(style.borderLeftWidth);
    const right = box.right - parseFloat(style.borderRightWidth);
    const top = box.top + parseFloat(style.borderTopWidth);
    const bottom = box.bottom - parseFloat(style.borderBottomWidth);
    for (const part of card.querySelectorAll('.word, .pos')) {
      const range = document.createRange();
      range.selectNodeContents(part);
      for (const r of range.getClientRects()) {
        const out = r.left < left - 0.5 || r.right > right + 0.5
          || r.top < top - 0.5 || r.bottom > bottom + 0.5;
        if (out) {
          const size = (w, h) => `${Math.round(w)}x${Math.round(h)}`;
          spills.push(`${card.closest('[id]').id}: "${part.textContent}" `
            + `${size(r.width, r.height)} in ${size(right - left, bottom - top)}`);
          break;
        }
      }
    }
  }
  return spills;
}
"""


def _cards(small: bool) -> str:
    return "".join(
        render_to_string("games/_card_gulliver.html", {"face": face(word), "small": small}).replace(
            '<div class="card', '<div data-planted class="card', 1
        )
        for word in WORDS
    )


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_word_of_the_pack_fits_its_card(
    viewport: dict[str, int], live_server: Any, make_context: Any, tmp_path: Path
) -> None:
    page, _ = open_table("gulliver", live_server.url, make_context, viewport)
    assert page.locator("#hand .card.gv").count() >= 1
    spills = page.evaluate(PLANT_AND_MEASURE_JS, [_cards(False), _cards(False), _cards(True)])
    assert page.locator("[data-planted]").count() == 3 * len(WORDS)
    assert spills == [], "words spill out of their cards:\n" + "\n".join(spills)
