from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/", views.lobby, name="lobby"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/join/<str:token>/", views.match_invite, name="match_invite"),
    path("matches/<int:pk>/", views.match_detail, name="match_detail"),
    path("matches/<int:pk>/join/", views.match_join_open, name="match_join"),
    path("matches/<int:pk>/move/", views.match_move, name="match_move"),
    path("matches/<int:pk>/table/", views.match_table, name="match_table"),
    path("rules/<str:game>/", views.rules_page, name="rules"),
]
