"""The cage's models, as they stood in the ``casino`` app (migrations up to ``casino.0037``):
created in the state only, on the tables they already have."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('casino', '0037_players_app'),
        ('players', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CashTransaction',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('buy_in', 'Buy-in'), ('cash_out', 'Cash-out')], max_length=16, verbose_name='kind')),
                        ('instrument', models.CharField(choices=[('cash', 'Cash'), ('chips', 'Chips'), ('marker', 'Marker'), ('other', 'Other')], max_length=16, verbose_name='instrument')),
                        ('amount', models.DecimalField(decimal_places=2, max_digits=18, verbose_name='amount')),
                        ('gaming_date', models.DateField(verbose_name='gaming date')),
                        ('recorded_at', models.DateTimeField(verbose_name='recorded at')),
                        ('voided_at', models.DateTimeField(blank=True, null=True, verbose_name='voided at')),
                        ('void_reason', models.TextField(blank=True, verbose_name='reason for the void')),
                        ('key', models.CharField(blank=True, editable=False, max_length=64)),
                        ('threshold', models.CharField(blank=True, choices=[('logging', 'Logging threshold'), ('reporting', 'Reporting threshold')], db_default='', help_text='Empty: neither threshold reached when it was recorded.', max_length=16, verbose_name='threshold reached')),
                        ('id_document_type', models.CharField(blank=True, db_default='', max_length=32, verbose_name='identity document type')),
                        ('id_document_number', models.CharField(blank=True, db_default='', max_length=64, verbose_name='identity document number')),
                        ('patron_description', models.CharField(blank=True, db_default='', help_text='For a patron nobody knows whose cash reached a threshold.', max_length=255, verbose_name='description of the patron')),
                        ('player', models.ForeignKey(blank=True, help_text='Empty: a player nobody knows (counted for the table only).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='cash_transactions', to='players.player', verbose_name='player')),
                        ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_transactions', to='casino.tablesession', verbose_name='session')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_transactions', to='casino.table', verbose_name='table')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_transactions', to='casino.venue', verbose_name='venue')),
                        ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by')),
                    ],
                    options={
                        'verbose_name': 'buy-in or cash-out',
                        'verbose_name_plural': 'buy-ins and cash-outs',
                        'db_table': 'casino_cashtransaction',
                        'ordering': ['-recorded_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='CashAlert',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('gaming_date', models.DateField(verbose_name='gaming date')),
                        ('direction', models.CharField(choices=[('buy_in', 'Buy-in'), ('cash_out', 'Cash-out')], max_length=16, verbose_name='direction')),
                        ('total', models.DecimalField(decimal_places=2, max_digits=18, verbose_name="day's total when raised")),
                        ('threshold', models.DecimalField(decimal_places=2, max_digits=18, verbose_name='reporting threshold')),
                        ('raised_at', models.DateTimeField(verbose_name='raised at')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_alerts', to='players.player', verbose_name='player')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_alerts', to='casino.venue', verbose_name='venue')),
                        ('transaction', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='alerts', to='cage.cashtransaction', verbose_name='transaction that reached it')),
                    ],
                    options={
                        'verbose_name': 'cash alert',
                        'verbose_name_plural': 'cash alerts',
                        'db_table': 'casino_cashalert',
                        'ordering': ['-raised_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='Slip',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('fill', 'Fill'), ('credit', 'Credit')], max_length=8, verbose_name='kind')),
                        ('year', models.PositiveSmallIntegerField(verbose_name='year')),
                        ('number', models.PositiveIntegerField(verbose_name='number')),
                        ('amount', models.DecimalField(decimal_places=2, max_digits=18, verbose_name='amount')),
                        ('chips', models.JSONField(blank=True, default=dict, verbose_name='chips')),
                        ('status', models.CharField(choices=[('requested', 'Requested'), ('issued', 'Issued'), ('verified', 'Verified'), ('void', 'Void')], default='requested', max_length=16, verbose_name='status')),
                        ('requested_at', models.DateTimeField(verbose_name='requested at')),
                        ('issued_at', models.DateTimeField(blank=True, null=True, verbose_name='issued at')),
                        ('runner', models.CharField(blank=True, help_text='Who carries the chips between cage and table.', max_length=150, verbose_name='runner')),
                        ('dealer_confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='dealer confirmed at')),
                        ('supervisor_confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='supervisor confirmed at')),
                        ('received_at', models.DateTimeField(blank=True, null=True, verbose_name='received at')),
                        ('verified_at', models.DateTimeField(blank=True, null=True, verbose_name='verified at')),
                        ('voided_at', models.DateTimeField(blank=True, null=True, verbose_name='voided at')),
                        ('void_reason', models.CharField(blank=True, max_length=255, verbose_name='void reason')),
                        ('dealer_confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='dealer confirmed by')),
                        ('issued_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='issued by')),
                        ('received_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='received by')),
                        ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='slips', to='casino.tablesession', verbose_name='session')),
                        ('supervisor_confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='supervisor confirmed by')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='slips', to='casino.venue', verbose_name='venue')),
                        ('verified_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='verified by')),
                        ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by')),
                    ],
                    options={
                        'verbose_name': 'fill or credit slip',
                        'verbose_name_plural': 'fill and credit slips',
                        'db_table': 'casino_slip',
                        'ordering': ['venue', '-year', '-number'],
                    },
                ),
                migrations.CreateModel(
                    name='CashThresholds',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('logging_threshold', models.DecimalField(decimal_places=2, help_text="A player's cash in (or out) of a gaming day at or above it is logged.", max_digits=18, verbose_name='logging threshold')),
                        ('reporting_threshold', models.DecimalField(decimal_places=2, help_text="A player's cash in (or out) of a gaming day at or above it raises an alert to the cage and the managers, and is a report candidate.", max_digits=18, verbose_name='reporting threshold')),
                        ('status', models.CharField(choices=[('proposed', 'Proposed'), ('approved', 'Approved')], default='proposed', max_length=16, verbose_name='status')),
                        ('proposed_at', models.DateTimeField(verbose_name='proposed at')),
                        ('approved_at', models.DateTimeField(blank=True, null=True, verbose_name='approved at')),
                        ('approved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='approved by')),
                        ('proposed_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='proposed by')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cash_thresholds', to='casino.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'cash thresholds',
                        'verbose_name_plural': 'cash thresholds',
                        'db_table': 'casino_cashthresholds',
                        'ordering': ['venue', '-proposed_at', '-id'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('logging_threshold__gt', 0), ('reporting_threshold__gte', models.F('logging_threshold'))), name='cash_thresholds_ordered'), models.CheckConstraint(condition=models.Q(('status', 'proposed'), models.Q(('approved_at__isnull', False), ('approved_by__isnull', False)), _connector='OR'), name='cash_thresholds_approved_signed')],
                    },
                ),
                migrations.AddIndex(
                    model_name='cashtransaction',
                    index=models.Index(fields=['venue', 'gaming_date', 'player'], name='casino_cash_venue_i_bf307a_idx'),
                ),
                migrations.AddIndex(
                    model_name='cashtransaction',
                    index=models.Index(fields=['player', '-recorded_at'], name='casino_cash_player__e1115e_idx'),
                ),
                migrations.AddIndex(
                    model_name='cashtransaction',
                    index=models.Index(fields=['session', '-recorded_at'], name='casino_cash_session_affc1f_idx'),
                ),
                migrations.AddConstraint(
                    model_name='cashtransaction',
                    constraint=models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='cash_amount_positive'),
                ),
                migrations.AddConstraint(
                    model_name='cashtransaction',
                    constraint=models.CheckConstraint(condition=models.Q(('voided_at__isnull', True), models.Q(('voided_by__isnull', False), models.Q(('void_reason', ''), _negated=True)), _connector='OR'), name='cash_void_signed'),
                ),
                migrations.AddConstraint(
                    model_name='cashtransaction',
                    constraint=models.UniqueConstraint(condition=models.Q(('key', ''), _negated=True), fields=('venue', 'key'), name='cash_key_once'),
                ),
                migrations.AddConstraint(
                    model_name='cashalert',
                    constraint=models.UniqueConstraint(fields=('venue', 'player', 'gaming_date', 'direction'), name='cash_alert_once'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.UniqueConstraint(fields=('venue', 'year', 'number'), name='slip_number'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='slip_amount_positive'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('dealer_confirmed_by', models.F('issued_by')), _negated=True), models.Q(('supervisor_confirmed_by', models.F('issued_by')), _negated=True)), name='slip_cashier_is_not_a_table_signer'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('received_by', models.F('dealer_confirmed_by')), _negated=True), models.Q(('received_by', models.F('supervisor_confirmed_by')), _negated=True)), name='slip_receiver_is_not_a_table_signer'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.CheckConstraint(condition=models.Q(('dealer_confirmed_by', models.F('supervisor_confirmed_by')), _negated=True), name='slip_table_signers_differ'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.CheckConstraint(condition=models.Q(('kind', 'credit'), models.Q(('verified_by', models.F('issued_by')), _negated=True), _connector='OR'), name='slip_verifier_is_not_issuer'),
                ),
                migrations.AddConstraint(
                    model_name='slip',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'void'), _negated=True), models.Q(('voided_by__isnull', False), models.Q(('void_reason', ''), _negated=True)), _connector='OR'), name='slip_void_has_reason'),
                ),
            ],
        ),
    ]
