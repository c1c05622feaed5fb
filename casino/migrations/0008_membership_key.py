from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("casino", "0007_table_changes")]

    operations = []
