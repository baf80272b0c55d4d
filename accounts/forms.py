from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from accounts.models import NotificationSettings


class RegisterForm(UserCreationForm):
    """Username and password twice (Django's validators), plus an optional e-mail for resets."""

    email = forms.EmailField(
        required=False, help_text="Optional; needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class NotificationSettingsForm(forms.ModelForm):
    """The two kinds of mail, each on or off."""

    class Meta:
        model = NotificationSettings
        fields = ("email_turn", "email_deadline")
