"""A venue, a table, a shift and a gaming day are now the venues' app's (``casino.venues``).
State only: the tables they refer to are the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cage', '0001_initial'),
        ('venues', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='cashalert',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_alerts', to='venues.venue', verbose_name='venue'),
                ),
                migrations.AlterField(
                    model_name='cashthresholds',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_thresholds', to='venues.venue', verbose_name='venue'),
                ),
                migrations.AlterField(
                    model_name='cashtransaction',
                    name='table',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_transactions', to='venues.table', verbose_name='table'),
                ),
                migrations.AlterField(
                    model_name='cashtransaction',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_transactions', to='venues.venue', verbose_name='venue'),
                ),
                migrations.AlterField(
                    model_name='slip',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='slips', to='venues.venue', verbose_name='venue'),
                ),
            ],
        ),
    ]
