from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("casino", "0008_membership_key")]

    operations = []
