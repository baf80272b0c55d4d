"""The competitions' URLs under ``/ladder/`` (docs/competitions.md), included by config/urls.py."""

from django.urls import path

from competitions.views import ladder
from games import converters  # noqa: F401 - registers match_id

urlpatterns = [
    path("ladder/", ladder.ladder_index, name="ladder_index"),
    path("ladder/<slug:game>/", ladder.ladder_page, name="ladder"),
    path("ladder/<slug:game>/history/", ladder.ladder_history_page, name="ladder_history"),
    path("ladder/<slug:game>/join/", ladder.ladder_join_post, name="ladder_join"),
    path("ladder/<slug:game>/leave/", ladder.ladder_leave_post, name="ladder_leave"),
    path("ladder/<slug:game>/challenge/", ladder.ladder_challenge_post, name="ladder_challenge"),
    path(
        "ladder/<slug:game>/challenges/<match_id:challenge_id>/withdraw/",
        ladder.ladder_withdraw_post,
        name="ladder_withdraw",
    ),
]
