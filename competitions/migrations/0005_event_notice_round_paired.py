# A cup's round paired is told (docs/competitions.md, "Told"): the notice kind "paired".

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0004_cups'),
    ]

    operations = [
        migrations.AlterField(
            model_name='eventnotice',
            name='kind',
            field=models.CharField(choices=[('entered', 'Entered'), ('started', 'Started'), ('paired', 'A round paired'), ('table', 'A table opened'), ('withdrawn', 'Withdrawn'), ('ended', 'Ended')], max_length=10),
        ),
    ]
