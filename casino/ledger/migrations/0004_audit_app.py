"""The audit trail moves to its own app (``casino.audit``): the model leaves this app's
state only; its table stays."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0001_initial'),
        ('ledger', '0003_floor_app'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name='AuditEvent',
                ),
            ],
        ),
    ]
