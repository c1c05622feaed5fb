from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("casino", "0006_live_tallies")]

    operations = []
