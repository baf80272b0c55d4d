from django.urls import include, path

from accounts import views

urlpatterns = [
    path("register/", views.register, name="register"),
    path("profile/", views.profile_self, name="profile_self"),
    # login/, logout/, password_change/, password_reset/, reset/<uidb64>/<token>/ ...
    path("", include("django.contrib.auth.urls")),
    path("<str:username>/", views.profile, name="profile"),
]
