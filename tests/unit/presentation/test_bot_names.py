"""One wording of a bot level (``games.presentation.names``): the seats, the new-match form and
the invitations' bot picker say "Greedy bot" from the same function, as they did before it."""

from __future__ import annotations

from games.forms import BOT_CHOICES
from games.models import BotLevel
from games.presentation.names import bot_level_choices, bot_name, opponent_name


def test_every_level_is_worded_once_for_the_form_the_picker_and_the_seat():
    expected = [("random", "Random bot"), ("greedy", "Greedy bot"), ("strong", "Strong bot")]
    assert bot_level_choices() == expected
    assert list(BOT_CHOICES) == expected
    assert [bot_name(level) for level in BotLevel.values] == [name for _, name in expected]
    assert opponent_name(None, "strong") == "Strong bot"
