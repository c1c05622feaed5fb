from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("niuniu", "0004_version_rounding")]

    operations = []
