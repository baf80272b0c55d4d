"""The competitions' URLs (docs/competitions.md), included at the site's root by config/urls.py:
the leagues under ``/leagues/``, the cups under ``/cups/``, the ladder under ``/ladder/``."""

from django.urls import path, register_converter

from competitions.views import cups, ladder, leagues
from games import converters  # noqa: F401 - registers match_id
from games.converters import MatchIdConverter

# A league's id, like a match's: digits within the key column's range, else the resolver's 404.
register_converter(MatchIdConverter, "event_id")

urlpatterns = [
    path("leagues/", leagues.league_list, name="league_list"),
    path("leagues/<event_id:pk>/", leagues.league_detail, name="league_detail"),
    path("leagues/<event_id:pk>/enter/", leagues.league_enter_view, name="league_enter"),
    path("leagues/<event_id:pk>/withdraw/", leagues.league_withdraw_view, name="league_withdraw"),
    path("leagues/<event_id:pk>/record.json", leagues.league_record_json, name="league_record"),
    path("cups/", cups.cup_list, name="cup_list"),
    path("cups/<event_id:pk>/", cups.cup_detail, name="cup_detail"),
    path("cups/<event_id:pk>/enter/", cups.cup_enter_view, name="cup_enter"),
    path("cups/<event_id:pk>/withdraw/", cups.cup_withdraw_view, name="cup_withdraw"),
    path("cups/<event_id:pk>/record.json", cups.cup_record_json, name="cup_record"),
    path("ladder/", ladder.ladder_index, name="ladder_index"),
    path("ladder/<slug:game>/", ladder.ladder_page, name="ladder"),
    path("ladder/<slug:game>/history/", ladder.ladder_history_page, name="ladder_history"),
    path("ladder/<slug:game>/record.json", ladder.ladder_record_json, name="ladder_record"),
    path("ladder/<slug:game>/join/", ladder.ladder_join_post, name="ladder_join"),
    path("ladder/<slug:game>/leave/", ladder.ladder_leave_post, name="ladder_leave"),
    path("ladder/<slug:game>/challenge/", ladder.ladder_challenge_post, name="ladder_challenge"),
    path(
        "ladder/<slug:game>/challenges/<match_id:challenge_id>/withdraw/",
        ladder.ladder_withdraw_post,
        name="ladder_withdraw",
    ),
]
