from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("maubinh", "0002_version_rounding")]

    operations = [
        migrations.AddField(
            model_name="maubinhrulesetversion",
            name="approved_content_hash",
            field=models.CharField(
                blank=True,
                editable=False,
                help_text=(
                    "The fingerprint (SHA-256) of the rules the approver was shown; the "
                    "approval is refused when the draft changed since."
                ),
                max_length=64,
            ),
        ),
    ]
