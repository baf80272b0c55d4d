"""The ladder's rules that a site may tune (docs/competitions.md, "Ladder"; docs/configuration.md,
"The ladder")."""

from __future__ import annotations

import os

# How many places above their own a person may challenge (3: the three people just above).
PARLOUR_LADDER_REACH = int(os.environ.get("PARLOUR_LADDER_REACH", "3"))
# How many open challenges a person may have at once, made and received together.
PARLOUR_LADDER_OPEN = int(os.environ.get("PARLOUR_LADDER_OPEN", "2"))
# Days before the same person may challenge the same person again (from the last challenge).
PARLOUR_LADDER_COOLDOWN_DAYS = float(os.environ.get("PARLOUR_LADDER_COOLDOWN_DAYS", "7"))
# Days a challenge waits for its answer before it lapses (nothing moves for a lapse).
PARLOUR_LADDER_ANSWER_DAYS = float(os.environ.get("PARLOUR_LADDER_ANSWER_DAYS", "3"))
# The turn deadline of a ladder match, in days (one of the match form's: 1, 3 or 7).
PARLOUR_LADDER_DEADLINE_DAYS = int(os.environ.get("PARLOUR_LADDER_DEADLINE_DAYS", "3"))
