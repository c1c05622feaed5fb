"""Shift reports' models, as they stood in the ``casino`` app (migrations up to ``casino.0038``):
created in the state only, on the tables they already have."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('casino', '0038_cage_app'),
        ('players', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ShiftReport',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('shift', 'Shift report')], default='shift', max_length=16)),
                        ('status', models.CharField(choices=[('pending', 'Waiting for a worker'), ('running', 'Being built'), ('done', 'Ready'), ('failed', 'Failed')], default='pending', max_length=16)),
                        ('progress', models.PositiveSmallIntegerField(default=0, help_text='Percent done.')),
                        ('step', models.CharField(blank=True, help_text='What the build is doing.', max_length=120)),
                        ('figures', models.JSONField(blank=True, editable=False, null=True)),
                        ('error', models.TextField(blank=True)),
                        ('requested_at', models.DateTimeField()),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('heartbeat_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('attempts', models.PositiveIntegerField(default=0)),
                        ('build_seconds', models.FloatField(blank=True, null=True)),
                        ('emailed_at', models.DateTimeField(blank=True, null=True)),
                        ('emailed_to', models.JSONField(blank=True, default=list)),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports', to='casino.shift')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='shift_reports', to='casino.venue')),
                    ],
                    options={
                        'db_table': 'casino_shiftreport',
                        'ordering': ['venue__code', '-shift__starts_at', 'kind'],
                    },
                ),
                migrations.CreateModel(
                    name='ShiftReportCell',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('hour', models.DateTimeField(help_text="The start of the hour on the venue's clocks the rounds settled in.")),
                        ('game', models.CharField(max_length=16)),
                        ('ruleset_version_id', models.PositiveBigIntegerField()),
                        ('bet_type', models.CharField(max_length=16)),
                        ('handle', models.DecimalField(decimal_places=2, max_digits=18)),
                        ('stake_squared', models.DecimalField(decimal_places=2, max_digits=40)),
                        ('player_result', models.DecimalField(decimal_places=2, help_text="Sum of the bets' net, the players' view.", max_digits=18)),
                        ('commission', models.DecimalField(decimal_places=2, max_digits=18)),
                        ('volume', models.DecimalField(decimal_places=2, help_text="Sum of the winning bets' gross (a fee game's volume between players).", max_digits=18)),
                        ('gaming_date', models.DateField()),
                        ('bets', models.PositiveIntegerField()),
                        ('max_net', models.DecimalField(decimal_places=2, help_text="The largest single bet's net in the cell.", max_digits=18)),
                        ('theoretical_win', models.DecimalField(blank=True, decimal_places=2, help_text='Empty when the version has no house edge.', max_digits=18, null=True)),
                        ('win_variance', models.DecimalField(blank=True, decimal_places=4, max_digits=40, null=True)),
                        ('dealer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player')),
                        ('report', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='cells', to='reports.shiftreport')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.tablesession')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.table')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.venue')),
                    ],
                    options={
                        'db_table': 'casino_shiftreportcell',
                        'ordering': ['report', 'table', 'hour'],
                    },
                ),
                migrations.CreateModel(
                    name='ShiftReportFile',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=64)),
                        ('content_type', models.CharField(max_length=100)),
                        ('content', models.BinaryField()),
                        ('size', models.PositiveIntegerField()),
                        ('report', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='files', to='reports.shiftreport')),
                    ],
                    options={
                        'db_table': 'casino_shiftreportfile',
                        'ordering': ['report', 'name'],
                    },
                ),
                migrations.AddIndex(
                    model_name='shiftreport',
                    index=models.Index(fields=['status', 'requested_at'], name='casino_shif_status_902fd8_idx'),
                ),
                migrations.AddConstraint(
                    model_name='shiftreport',
                    constraint=models.UniqueConstraint(fields=('shift', 'kind'), name='shift_report_per_kind'),
                ),
                migrations.AddConstraint(
                    model_name='shiftreport',
                    constraint=models.CheckConstraint(condition=models.Q(('progress__lte', 100)), name='shift_report_progress_percent'),
                ),
                migrations.AddIndex(
                    model_name='shiftreportcell',
                    index=models.Index(fields=['venue', 'gaming_date'], name='casino_shif_venue_i_81c64e_idx'),
                ),
                migrations.AddConstraint(
                    model_name='shiftreportfile',
                    constraint=models.UniqueConstraint(fields=('report', 'name'), name='shift_report_file_name'),
                ),
            ],
        ),
    ]
