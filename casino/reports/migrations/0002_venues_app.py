"""A venue, a table, a shift and a gaming day are now the venues' app's (``casino.venues``).
State only: the tables they refer to are the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('reports', '0001_initial'),
        ('venues', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='shiftreport',
                    name='shift',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports', to='venues.shift'),
                ),
                migrations.AlterField(
                    model_name='shiftreport',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='shift_reports', to='venues.venue'),
                ),
                migrations.AlterField(
                    model_name='shiftreportcell',
                    name='table',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.table'),
                ),
                migrations.AlterField(
                    model_name='shiftreportcell',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.venue'),
                ),
            ],
        ),
    ]
