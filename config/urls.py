from django.contrib import admin
from django.urls import include, path

from accounts.views.language import language_switch
from games.live.stream import live_stream
from games.push import app_shell
from games.urls import account_urlpatterns, player_urlpatterns
from games.views.friends import friends_page
from games.views.js_words import words as js_words

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(account_urlpatterns)),  # the badge, holidays: games' own
    path("accounts/", include("accounts.urls")),
    path("players/", include(player_urlpatterns)),
    path("friends/", friends_page, name="friends"),
    path("live/", live_stream, name="live_stream"),
    # The footer's language switch, for visitors and people alike (docs/translation.md).
    path("language/", language_switch, name="set_language"),
    # The installable app: both at the root, the worker's scope being the path it is served at.
    path("manifest.webmanifest", app_shell.manifest, name="web_manifest"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    # The words the scripts write, in one language (docs/translation.md).
    path("words.js", js_words, name="js_words"),
    path("", include("competitions.urls")),  # the ladder (docs/competitions.md)
    path("", include("games.urls")),
]

# A database connection error raised outside a view (a session saved on the way out) is a 503
# page too, like those in views (core/unavailable.py); anything else is Django's 500 page.
handler500 = "core.unavailable.server_error"
# 400, 403 and 404 without Django's second CSRF check, which read a malformed body again and
# turned the 400 into a 500 (core/error_views.py).
handler400 = "core.error_views.bad_request"
handler403 = "core.error_views.permission_denied"
handler404 = "core.error_views.page_not_found"
