from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("maubinh", "0002_version_rounding")]

    operations = []
