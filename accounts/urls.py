from django.urls import include, path

from accounts.views import (
    account_page,
    closing,
    data_export,
    email,
    language,
    notifications,
    people,
    play_settings,
    profiles,
    push,
    register,
    rename,
    sign_in,
    time_zone,
)

# ``games.urls.account_urlpatterns`` (the badge, holidays) are mounted at /accounts/ too, ahead
# of these (config/urls.py): the last route here takes any name.
urlpatterns = [
    path("", account_page.account, name="account"),
    path("register/", register.register, name="register"),
    path("profile/", profiles.profile_self, name="profile_self"),
    path("notifications/", notifications.notification_settings, name="notification_settings"),
    path("notifications/devices/", push.push_subscribe, name="push_subscribe"),
    path(
        "notifications/devices/<int:pk>/remove/",
        push.push_device_remove,
        name="push_device_remove",
    ),
    path("challenges/", people.challenge_setting_change, name="challenge_setting"),
    path("time-zone/", time_zone.time_zone_change, name="time_zone"),
    path("language/", language.language_change, name="language"),
    path("play/", play_settings.play_settings_change, name="play_settings"),
    path("unsubscribe/<str:token>/", notifications.unsubscribe, name="unsubscribe"),
    path("email/confirm/<str:token>/", email.email_confirm, name="email_confirm"),
    path("email/resend/", email.email_resend, name="email_resend"),
    path("name/", rename.rename, name="rename"),
    path("close/", closing.account_close_page, name="account_close"),
    path("delete/", closing.account_delete_page, name="account_delete"),
    path("data/", data_export.data_export, name="data_export"),
    path("data/<int:pk>/", data_export.data_export_download, name="data_export_download"),
    # Ahead of Django's own password_reset/ (below): the same view, throttled.
    path("password_reset/", register.ThrottledPasswordResetView.as_view(), name="password_reset"),
    # Ahead of Django's own login/: the same view, saying why it was asked for (next=) and
    # when the name typed was changed by a rename (accounts/sign_in.py).
    path("login/", sign_in.SignInView.as_view(), name="login"),
    # login/, logout/, password_change/, password_reset/, reset/<uidb64>/<token>/ ...
    path("", include("django.contrib.auth.urls")),
    # Profiles lived here before /players/<username>/: old links still arrive.
    path("<str:username>/", profiles.profile_moved, name="profile_moved"),
]
