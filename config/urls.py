from django.contrib import admin
from django.urls import include, path

from accounts.urls import player_urlpatterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("players/", include(player_urlpatterns)),
    path("", include("games.urls")),
]
