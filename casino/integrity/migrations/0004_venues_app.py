"""A venue, a table, a shift and a gaming day are now the venues' app's (``casino.venues``).
State only: the tables they refer to are the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('integrity', '0003_report_in_reports_app'),
        ('venues', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='cardtally',
                    name='shift',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.shift'),
                ),
                migrations.AlterField(
                    model_name='cardtally',
                    name='table',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.table'),
                ),
                migrations.AlterField(
                    model_name='cardtally',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.venue'),
                ),
                migrations.AlterField(
                    model_name='categorytally',
                    name='shift',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.shift'),
                ),
                migrations.AlterField(
                    model_name='categorytally',
                    name='table',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.table'),
                ),
                migrations.AlterField(
                    model_name='categorytally',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.venue'),
                ),
                migrations.AlterField(
                    model_name='fluctuationinvestigation',
                    name='shift',
                    field=models.ForeignKey(blank=True, help_text='Empty: an integrity alert over a period.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='investigations', to='venues.shift', verbose_name='shift'),
                ),
                migrations.AlterField(
                    model_name='fluctuationinvestigation',
                    name='table',
                    field=models.ForeignKey(blank=True, help_text="Empty: the shift's total.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='investigations', to='venues.table', verbose_name='table'),
                ),
                migrations.AlterField(
                    model_name='fluctuationinvestigation',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='investigations', to='venues.venue', verbose_name='venue'),
                ),
                migrations.AlterField(
                    model_name='integrityresult',
                    name='pit',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.pit'),
                ),
                migrations.AlterField(
                    model_name='integrityresult',
                    name='table',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.table'),
                ),
                migrations.AlterField(
                    model_name='integrityresult',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.venue'),
                ),
                migrations.AlterField(
                    model_name='integrityrun',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='integrity_runs', to='venues.venue'),
                ),
            ],
        ),
    ]
