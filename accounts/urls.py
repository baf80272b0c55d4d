from django.urls import include, path

from accounts import account_page, closing, data_export, views

urlpatterns = [
    path("", account_page.account, name="account"),
    path("register/", views.register, name="register"),
    path("profile/", views.profile_self, name="profile_self"),
    path("notifications/", views.notification_settings, name="notification_settings"),
    path("badge/", views.badge, name="turn_badge"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("close/", closing.account_close_page, name="account_close"),
    path("delete/", closing.account_delete_page, name="account_delete"),
    path("data/", data_export.data_export, name="data_export"),
    path("data/<int:pk>/", data_export.data_export_download, name="data_export_download"),
    # Ahead of Django's own password_reset/ (below): the same view, throttled.
    path("password_reset/", views.ThrottledPasswordResetView.as_view(), name="password_reset"),
    # login/, logout/, password_change/, password_reset/, reset/<uidb64>/<token>/ ...
    path("", include("django.contrib.auth.urls")),
    # Profiles lived here before /players/<username>/: old links still arrive.
    path("<str:username>/", views.profile_moved, name="profile_moved"),
]

# Mounted at /players/ by config/urls.py.
player_urlpatterns = [
    path("<str:username>/", views.profile, name="profile"),
]
