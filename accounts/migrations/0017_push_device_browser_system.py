"""A push device keeps its browser's and system's names, not an English label (issue 37): the
devices list words "Chrome on Android" in the reader's language. The labels already stored
("Chrome on Android", "Firefox", "Android", "A browser") are split into their names."""

from django.db import migrations, models

# The names ``accounts.services.push_devices`` gave when this migration was written.
BROWSERS = {"Edge", "Opera", "Firefox", "Chrome", "Safari"}
SYSTEMS = {"Android", "iPhone", "iPad", "Windows", "macOS", "ChromeOS", "Linux"}


def names_from_label(label):
    """``(browser, system)`` from a stored label; ``("", "")`` for "A browser" or anything
    else the service never wrote."""
    browser, on, system = label.partition(" on ")
    if on and browser in BROWSERS and system in SYSTEMS:
        return browser, system
    if label in BROWSERS:
        return label, ""
    if label in SYSTEMS:
        return "", label
    return "", ""


def label_from_names(browser, system):
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or "A browser"


def names_split(apps, schema_editor):
    devices = apps.get_model("accounts", "PushSubscription")
    for device in devices.objects.only("pk", "label").iterator():
        device.browser, device.system = names_from_label(device.label)
        device.save(update_fields=["browser", "system"])


def labels_joined(apps, schema_editor):
    devices = apps.get_model("accounts", "PushSubscription")
    for device in devices.objects.only("pk", "browser", "system").iterator():
        device.label = label_from_names(device.browser, device.system)
        device.save(update_fields=["label"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0016_event_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="pushsubscription",
            name="browser",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddField(
            model_name="pushsubscription",
            name="system",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        # A default for the old column first, so that undoing this migration can add it back
        # to a table with rows before the labels are written into it.
        migrations.AlterField(
            model_name="pushsubscription",
            name="label",
            field=models.CharField(default="", max_length=80),
        ),
        migrations.RunPython(names_split, labels_joined, elidable=False),
        migrations.RemoveField(
            model_name="pushsubscription",
            name="label",
        ),
    ]
