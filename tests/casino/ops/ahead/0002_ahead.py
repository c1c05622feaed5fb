"""A migration the database has not applied: code deployed before ``migrate`` ran."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("ops", "0001_beat_heartbeat")]
    operations: list = []
