"""A venue, a table, a shift and a gaming day are now the venues' app's (``casino.venues``).
State only: the tables they refer to are the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('staff', '0002_field_and_model_names_translated'),
        ('venues', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='staffrole',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='staff_roles', to='venues.venue', verbose_name='venue'),
                ),
            ],
        ),
    ]
