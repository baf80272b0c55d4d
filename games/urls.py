from django.urls import path

from games import converters  # noqa: F401 - registers match_id
from games.views import (
    analysis,
    figures,
    hints,
    history,
    holidays,
    invitations,
    leaderboard,
    leaving,
    lessons,
    matches,
    notices,
    pages,
    phrases,
    practice,
    profiles,
    quick,
    records,
    replay,
    table,
)

urlpatterns = [
    path("", matches.home, name="home"),
    path("matches/", matches.lobby, name="lobby"),
    path("history/", history.history, name="history"),
    path("notices/", notices.notices, name="notices"),
    path("notices/next/", notices.next_table_link, name="next_table"),
    path("matches/new/", matches.match_new, name="match_new"),
    path("play/", quick.play_now, name="play_now"),
    path("matches/join/<str:token>/", matches.match_invite, name="match_invite"),
    path("matches/<match_id:pk>/", table.match_detail, name="match_detail"),
    path("matches/<match_id:pk>/join/", matches.match_join_open, name="match_join"),
    path("matches/<match_id:pk>/move/", table.match_move, name="match_move"),
    path("matches/<match_id:pk>/table/", table.match_table_poll, name="match_table"),
    path("matches/<match_id:pk>/phrase/", phrases.match_phrase, name="match_phrase"),
    path("matches/<match_id:pk>/hints/", hints.match_hints, name="match_hints"),
    path("matches/<match_id:pk>/resign/", leaving.match_resign, name="match_resign"),
    path("matches/<match_id:pk>/cancel/", leaving.match_cancel, name="match_cancel"),
    path("matches/<match_id:pk>/leave/", leaving.match_leave, name="match_leave"),
    path("matches/<match_id:pk>/rematch/", invitations.match_rematch, name="match_rematch"),
    path("matches/<match_id:pk>/bot/", invitations.match_seat_bot, name="match_seat_bot"),
    path(
        "invitations/<int:pk>/accept/",
        invitations.invitation_accept_view,
        name="invitation_accept",
    ),
    path(
        "invitations/<int:pk>/decline/",
        invitations.invitation_decline_view,
        name="invitation_decline",
    ),
    path("invitations/<int:pk>/block/", invitations.invitation_block_view, name="invitation_block"),
    path("matches/<match_id:pk>/replay/", replay.match_replay, name="match_replay"),
    path("matches/<match_id:pk>/analysis/", analysis.match_analysis, name="match_analysis"),
    path("matches/<match_id:pk>/record.json", records.match_record_json, name="match_record"),
    path("rules/<str:game>/", pages.rules_page, name="rules"),
    path("learn/<str:game>/practice/", practice.practice_start_page, name="practice_start"),
    path("leaderboard/<str:game>/", leaderboard.leaderboard, name="leaderboard"),
    path("learn/", lessons.learn, name="learn"),
    path("learn/<str:game>/<slug:slug>/", lessons.lesson, name="lesson"),
    path("learn/<str:game>/<slug:slug>/try/", lessons.lesson_try_view, name="lesson_try"),
    path("staff/figures/", figures.staff_figures, name="staff_figures"),
]

# Mounted at /accounts/ by config/urls.py, ahead of accounts.urls (whose last route takes any
# name): the nav badge and the holidays' posts.
account_urlpatterns = [
    path("badge/", notices.badge, name="turn_badge"),
    path("holiday/", holidays.holiday_go, name="holiday_go"),
    path("holiday/end/", holidays.holiday_return, name="holiday_return"),
]

# Mounted at /players/ by config/urls.py.
player_urlpatterns = [
    path("<str:username>/", profiles.profile, name="profile"),
    path("<str:username>/follow/", profiles.person_follow, name="person_follow"),
    path("<str:username>/unfollow/", profiles.person_unfollow, name="person_unfollow"),
    path("<str:username>/block/", profiles.person_block, name="person_block"),
    path("<str:username>/unblock/", profiles.person_unblock, name="person_unblock"),
]
