from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("niuniu", "0003_rules_figures")]

    operations = []
