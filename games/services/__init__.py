"""Every write to a match goes through here (HackSoft style: keyword-only, ``<entity>_<action>``).

Humans and bots reach the engine through ``move_submit`` alone; a rejection of any kind is a
``Rejected`` carrying a message a player can read and the HTTP status a view should use.

Work that must happen later (a bot's turn, the next deal of a game with rounds) is enqueued
after the commit of the write that made it due, as a task carrying the match id and the version
it is due at, sent by task name through ``games.queue``: the tasks import these services, so
no service imports a tasks module. Every such task goes back through a version-checked service
here, so a duplicate, late or swept-up task changes nothing (``StaleVersion``).

One module a job: ``matches`` (create, join, start), ``moves`` (a move, the next deal),
``bots`` (a bot's turn), ``deadlines`` (what fell due), ``leaving`` (resign, cancel, leave),
``results`` (the finish written as columns), ``notifications`` (the seen mark, turn mails and
reminders), ``holidays`` (going away and coming back, docs/accounts.md), ``invitations``
(challenges by name and rematch offers: make, accept, decline, expire; docs/invitations.md) with
``invitation_seats`` (the seats they hold) and ``invitation_mail``, ``phrases`` (a word at the
table, docs/phrases.md), ``quick`` (Play now, docs/quick-match.md), ``play_out`` (an event's
end: the bots finish a running match, docs/competitions.md), ``practice`` (the first
match after the lessons) and ``hints`` (a seat's hints on or off; docs/lessons.md), and
``_store`` (the one write of a new state that all of them share).
"""

from games.services.bots import bot_move_play, bot_seed
from games.services.deadlines import match_deadline_enforce
from games.services.errors import JoinRejected, MoveRejected, Rejected, StaleVersion
from games.services.leaving import Resigned, match_cancel, match_leave, match_resign
from games.services.matches import match_create, match_join, match_start
from games.services.moves import Played, match_next_round, move_submit, player_move_submit
from games.services.results import match_results_store

__all__ = [
    "JoinRejected",
    "MoveRejected",
    "Played",
    "Rejected",
    "Resigned",
    "StaleVersion",
    "bot_move_play",
    "bot_seed",
    "match_cancel",
    "match_create",
    "match_deadline_enforce",
    "match_join",
    "match_leave",
    "match_next_round",
    "match_resign",
    "match_results_store",
    "match_start",
    "move_submit",
    "player_move_submit",
]
