from django.urls import path

from games.views import history, leaderboard, matches, pages, records, replay, table

urlpatterns = [
    path("", matches.home, name="home"),
    path("matches/", matches.lobby, name="lobby"),
    path("history/", history.history, name="history"),
    path("matches/new/", matches.match_new, name="match_new"),
    path("matches/join/<str:token>/", matches.match_invite, name="match_invite"),
    path("matches/<int:pk>/", table.match_detail, name="match_detail"),
    path("matches/<int:pk>/join/", matches.match_join_open, name="match_join"),
    path("matches/<int:pk>/move/", table.match_move, name="match_move"),
    path("matches/<int:pk>/table/", table.match_table, name="match_table"),
    path("matches/<int:pk>/replay/", replay.match_replay, name="match_replay"),
    path("matches/<int:pk>/record.json", records.match_record_json, name="match_record"),
    path("rules/<str:game>/", pages.rules_page, name="rules"),
    path("leaderboard/<str:game>/", leaderboard.leaderboard, name="leaderboard"),
]
