"""A venue, a table, a shift and a gaming day are now the venues' app's (``casino.venues``).
State only: the tables they refer to are the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0001_initial'),
        ('venues', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='comp',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comps', to='venues.venue'),
                ),
                migrations.AlterField(
                    model_name='comppolicy',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comp_policies', to='venues.venue'),
                ),
                migrations.AlterField(
                    model_name='player',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='venues.venue', verbose_name='venue'),
                ),
            ],
        ),
    ]
