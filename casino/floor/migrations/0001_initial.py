"""The floor's models as they stood in the ``casino`` app (migrations up to ``casino.0043``): created in the state only, on the tables they already have."""

import django.db.models.deletion
import django.db.models.functions.comparison
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('casino', '0043_rulesets_app'),
        ('players', '0002_venues_app'),
        ('rulesets', '0001_initial'),
        ('venues', '0002_rulesets_app'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField(verbose_name='number')),
                ('game', models.CharField(max_length=16, verbose_name='game')),
                ('status', models.CharField(choices=[('dealt', 'Dealt'), ('settled', 'Settled'), ('voided', 'Voided')], default='dealt', max_length=16, verbose_name='status')),
                ('ruleset_version_id', models.PositiveBigIntegerField(verbose_name='ruleset version (id)')),
                ('ruleset_version_number', models.PositiveIntegerField(verbose_name='ruleset version')),
                ('dealer_cards', models.CharField(blank=True, max_length=64, verbose_name='dealer cards')),
                ('dealer_evaluation', models.JSONField(blank=True, null=True, verbose_name="dealer's hand")),
                ('create_key', models.CharField(blank=True, max_length=64, null=True, verbose_name='deal request key')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('settle_key', models.CharField(blank=True, max_length=64, null=True, verbose_name='settle request key')),
                ('settled_at', models.DateTimeField(blank=True, null=True, verbose_name='settled at')),
                ('house_net', models.DecimalField(blank=True, decimal_places=2, help_text='What the house won (+) or lost.', max_digits=18, null=True, verbose_name='house result')),
                ('void_reason', models.CharField(blank=True, max_length=255, verbose_name='void reason')),
                ('void_requested_at', models.DateTimeField(blank=True, null=True, verbose_name='void requested at')),
                ('voided_at', models.DateTimeField(blank=True, null=True, verbose_name='voided at')),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                ('dealer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='dealer')),
                ('ruleset', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rulesets.ruleset', verbose_name='ruleset')),
                ('settled_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='settled by')),
                ('void_requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='void requested by')),
                ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by')),
            ],
            options={
                'verbose_name': 'round',
                'verbose_name_plural': 'rounds',
                'db_table': 'casino_round',
                'ordering': ['session', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Box',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField(verbose_name='position')),
                ('cards', models.CharField(max_length=64, verbose_name='cards')),
                ('evaluation', models.JSONField(blank=True, null=True, verbose_name='hand')),
                ('quit', models.BooleanField(default=False, verbose_name='quit the round')),
                ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='boxes', to='players.player', verbose_name='player')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='boxes', to='floor.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 'box',
                'verbose_name_plural': 'boxes',
                'db_table': 'casino_box',
                'ordering': ['round', 'position'],
            },
        ),
        migrations.CreateModel(
            name='TableSession',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('open', 'Open'), ('closed', 'Closed'), ('reconciled', 'Reconciled')], default='open', max_length=16, verbose_name='status')),
                ('opened_at', models.DateTimeField(verbose_name='opened at')),
                ('opening_chips', models.JSONField(help_text='Chip count per denomination at opening.', verbose_name='opening chips')),
                ('opening_total', models.DecimalField(decimal_places=2, max_digits=18, verbose_name='opening total')),
                ('opening_expected_chips', models.JSONField(blank=True, help_text="The table's inventory the opener was compared with: what its last session counted at close, per denomination; empty when the table had never been closed.", null=True, verbose_name='opening expected chips')),
                ('opening_discrepancy', models.JSONField(blank=True, help_text='Counted minus expected chips per denomination, where they differ.', null=True, verbose_name='opening discrepancy')),
                ('opening_discrepancy_total', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='opening discrepancy total')),
                ('opening_discrepancy_reason', models.TextField(blank=True, default='', verbose_name='opening discrepancy reason')),
                ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                ('closing_chips', models.JSONField(blank=True, null=True, verbose_name='closing chips')),
                ('closing_total', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='closing total')),
                ('fills_total', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='fills total')),
                ('credits_total', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='credits total')),
                ('drop_total', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='drop total')),
                ('win_by_count', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='win by the count')),
                ('win_by_ledger', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='win by the ledger')),
                ('variance', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True, verbose_name='variance')),
                ('next_round_number', models.PositiveIntegerField(default=1, editable=False, verbose_name='next round number')),
                ('closed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='closed by')),
                ('closing_counted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='closing counted by')),
                ('dealer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='dealer')),
                ('opened_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='opened by')),
                ('opening_confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='opening confirmed by')),
                ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sessions', to='venues.shift', verbose_name='shift')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sessions', to='venues.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'table session',
                'verbose_name_plural': 'table sessions',
                'db_table': 'casino_tablesession',
                'ordering': ['-opened_at'],
            },
        ),
        migrations.CreateModel(
            name='SeatTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rounds', models.IntegerField()),
                ('hands', models.IntegerField()),
                ('first_dealt_at', models.DateTimeField()),
                ('last_settled_at', models.DateTimeField()),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player')),
                ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.shift')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='floor.tablesession')),
            ],
            options={
                'db_table': 'casino_seattally',
                'ordering': ['session', 'player'],
            },
        ),
        migrations.AddField(
            model_name='round',
            name='session',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='floor.tablesession', verbose_name='session'),
        ),
        migrations.CreateModel(
            name='BetTally',
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
                ('bets', models.IntegerField(help_text='0 once every bet of the tally was voided.')),
                ('max_net', models.DecimalField(blank=True, decimal_places=2, help_text="The largest single bet's net (read from the bets again after a void).", max_digits=18, null=True)),
                ('dealer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player')),
                ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.shift')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.table')),
                ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.venue')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='floor.tablesession')),
            ],
            options={
                'db_table': 'casino_bettally',
                'ordering': ['session', 'hour'],
            },
        ),
        migrations.CreateModel(
            name='Bet',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('bet_type', models.CharField(max_length=16)),
                ('stake', models.DecimalField(decimal_places=2, max_digits=18)),
                ('deposit_shown', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True)),
                ('deposit_required', models.DecimalField(decimal_places=2, max_digits=18)),
                ('outcome', models.CharField(blank=True, choices=[('win', 'Win'), ('lose', 'Lose'), ('push', 'Push')], max_length=8)),
                ('odds', models.DecimalField(blank=True, decimal_places=4, max_digits=7, null=True)),
                ('gross', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True)),
                ('commission', models.DecimalField(blank=True, decimal_places=2, max_digits=18, null=True)),
                ('net', models.DecimalField(blank=True, decimal_places=2, help_text="The player's result: + won, - lost.", max_digits=18, null=True)),
                ('box', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='bets', to='floor.box')),
            ],
            options={
                'db_table': 'casino_bet',
                'ordering': ['box', 'bet_type'],
                'indexes': [models.Index(condition=models.Q(('net__gt', 0)), fields=['net'], name='bet_net_won')],
                'constraints': [models.UniqueConstraint(fields=('box', 'bet_type'), name='bet_type_per_box'), models.CheckConstraint(condition=models.Q(('stake__gt', 0)), name='bet_stake_positive'), models.CheckConstraint(condition=models.Q(('commission__isnull', True), ('commission__gte', 0), _connector='OR'), name='bet_commission_not_negative')],
            },
        ),
        migrations.AddConstraint(
            model_name='box',
            constraint=models.UniqueConstraint(fields=('round', 'position'), name='box_position_per_round'),
        ),
        migrations.AddConstraint(
            model_name='tablesession',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'open')), fields=('table',), name='one_open_session_per_table'),
        ),
        migrations.AddIndex(
            model_name='seattally',
            index=models.Index(fields=['shift'], name='casino_seat_shift_i_3bc9ce_idx'),
        ),
        migrations.AddConstraint(
            model_name='seattally',
            constraint=models.UniqueConstraint(fields=('session', 'player'), name='seat_tally_key'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('session', 'number'), name='round_number_per_session'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('session', 'create_key'), name='round_create_key_per_session'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('session', 'settle_key'), name='round_settle_key_per_session'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'voided'), _negated=True), models.Q(('void_requested_by__isnull', False), ('voided_by__isnull', False)), _connector='OR'), name='round_void_has_two_people'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('voided_by', models.F('void_requested_by')), _negated=True), name='round_void_approver_is_not_requester'),
        ),
        migrations.AddIndex(
            model_name='bettally',
            index=models.Index(fields=['shift'], name='casino_bett_shift_i_f965ad_idx'),
        ),
        migrations.AddConstraint(
            model_name='bettally',
            constraint=models.UniqueConstraint(models.F('session'), models.F('dealer'), models.F('hour'), django.db.models.functions.comparison.Coalesce(models.F('player'), models.Value(0)), models.F('game'), models.F('ruleset_version_id'), models.F('bet_type'), name='bet_tally_key'),
        ),
                ]
        )
    ]
