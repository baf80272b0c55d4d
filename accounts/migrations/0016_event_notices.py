from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0015_language_setting"),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationsettings",
            name="email_events",
            field=models.BooleanField(
                default=True,
                help_text=(
                    "Once each: entered, started, a new table, withdrawn, ended; a ladder move."
                ),
                verbose_name="E-mail me about my leagues and ladder results",
            ),
        ),
        migrations.AddField(
            model_name="notificationsettings",
            name="notice_events",
            field=models.BooleanField(
                default=True, verbose_name="Show news of my leagues in my notices"
            ),
        ),
        migrations.AddField(
            model_name="notificationsettings",
            name="push_events",
            field=models.BooleanField(
                default=True, verbose_name="Notify my devices about leagues and the ladder"
            ),
        ),
    ]
