"""The competitions' URLs: the leagues under ``/leagues/`` (docs/competitions.md)."""

from django.urls import path, register_converter

from competitions import views
from games.converters import MatchIdConverter

# A league's id, like a match's: digits within the key column's range, else the resolver's 404.
register_converter(MatchIdConverter, "event_id")

urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("<event_id:pk>/", views.league_detail, name="league_detail"),
    path("<event_id:pk>/enter/", views.league_enter_view, name="league_enter"),
    path("<event_id:pk>/withdraw/", views.league_withdraw_view, name="league_withdraw"),
    path("<event_id:pk>/record.json", views.league_record_json, name="league_record"),
]
