from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("casino", "0009_login_records")]

    operations = []
