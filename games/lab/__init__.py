"""Command-line studies of the engines and bots: random self-play figures and bot tournaments.

    python -m games.lab.simulate faraway --players 4 --games 1000
    python -m games.lab.tournament faraway --games 2000 --seats greedy,random

They sit beside ``games.engines`` and ``games.bots`` rather than inside them because a study
prints, times itself and forks worker processes, none of which belongs in the rules or the
bots. Like those packages a study imports no Django, Celery or database, so it runs without
settings or services.
"""
