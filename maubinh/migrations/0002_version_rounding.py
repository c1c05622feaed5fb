from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("maubinh", "0001_initial")]

    operations = []
