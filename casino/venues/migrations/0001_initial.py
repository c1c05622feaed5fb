"""Venues' models, as they stood in the ``casino`` app (migrations up to ``casino.0041``):
created in the state only, on the tables they already have."""

import casino.venues.models
import datetime
import django.core.validators
import django.db.models.deletion
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('casino', '0041_venues_app_fields'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Pit',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('code', models.SlugField(max_length=32, verbose_name='code')),
                        ('name', models.CharField(max_length=120, verbose_name='name')),
                        ('supervisors', models.ManyToManyField(blank=True, help_text='The supervisors who run this pit; a manager sees every pit.', related_name='pits', to=settings.AUTH_USER_MODEL, verbose_name='supervisors')),
                    ],
                    options={
                        'verbose_name': 'pit',
                        'verbose_name_plural': 'pits',
                        'db_table': 'casino_pit',
                        'ordering': ['venue__code', 'code'],
                    },
                ),
                migrations.CreateModel(
                    name='Venue',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('code', models.SlugField(max_length=32, unique=True, verbose_name='code')),
                        ('name', models.CharField(max_length=120, verbose_name='name')),
                        ('currency', models.CharField(help_text='ISO 4217 code, e.g. VND, KRW, MOP.', max_length=3, validators=[django.core.validators.RegexValidator('^[A-Z]{3}$', 'Use the three-letter ISO code, e.g. VND.')], verbose_name='currency')),
                        ('rounding_unit', models.DecimalField(decimal_places=2, help_text="The venue's chip unit: table limits are multiples of it, and a new ruleset version starts from it. Commissions and fees round to each version's own unit.", max_digits=18, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='rounding unit')),
                        ('variance_reason_over', models.DecimalField(decimal_places=2, default=Decimal('0'), help_text='A table closes with a count off the ledger by more than this only with a reason for the variance; 0: every variance needs one.', max_digits=18, validators=[django.core.validators.MinValueValidator(Decimal('0'))], verbose_name='variance accepted without a reason')),
                        ('timezone', models.CharField(max_length=64, validators=[casino.venues.models.validate_time_zone], verbose_name='time zone')),
                        ('amount_grouping', models.CharField(choices=[('comma', '1,000,000.50'), ('dot', '1.000.000,50'), ('space', '1\xa0000\xa0000,50')], default='comma', help_text='How the venue writes amounts: the console shows them so and reads them so, as well as plain digits.', max_length=8, verbose_name='amount grouping')),
                        ('language', models.CharField(choices=[('en', 'English'), ('vi', 'Tiếng Việt'), ('ko', '한국어'), ('pt', 'Português')], default='en', max_length=8, verbose_name='language')),
                        ('session_hours', models.PositiveSmallIntegerField(default=12, help_text="How long a login lasts on this venue's screens, from 1 to 24 hours; the console also locks itself after a few idle minutes.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(24)], verbose_name='login session (hours)')),
                        ('drop_each_close', models.BooleanField(default=False, help_text='On: each table session has its own drop box, taken at its close. Off: one drop box per table and gaming day.', verbose_name='a drop box per session')),
                        ('note_denominations', models.JSONField(blank=True, default=list, help_text='The bank notes the count counts, as text, largest first, e.g. ["500000", "200000"].', verbose_name='bank note denominations')),
                        ('gaming_day_starts', models.TimeField(default=datetime.time(6, 0), help_text="The time of day, in the venue's time zone, when its gaming day starts; it changes only while all of its tables are closed.", verbose_name='gaming day starts')),
                        ('shift_plan', models.JSONField(blank=True, default=list, help_text='The gaming day\'s shifts in order, each a name and the time it starts; the first starts when the gaming day starts, each ends when the next starts. None: one shift named "day" for the whole gaming day.', verbose_name='shifts')),
                        ('staff', models.ManyToManyField(blank=True, help_text='Staff who work at this venue; the roles they hold here are given on their user page (roles at venues).', related_name='venues', to=settings.AUTH_USER_MODEL, verbose_name='staff')),
                    ],
                    options={
                        'verbose_name': 'venue',
                        'verbose_name_plural': 'venues',
                        'db_table': 'casino_venue',
                        'ordering': ['code'],
                    },
                ),
                migrations.CreateModel(
                    name='Table',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('code', models.SlugField(max_length=32, verbose_name='code')),
                        ('game', models.CharField(choices=casino.venues.models.game_choices, max_length=16, verbose_name='game')),
                        ('seats', models.PositiveSmallIntegerField(help_text='Player boxes or seats, as the game calls them.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(9)], verbose_name='seats')),
                        ('chip_denominations', models.JSONField(default=list, help_text='Chip values as text, largest first, e.g. ["100000", "5000"].', verbose_name='chip denominations')),
                        ('status', models.CharField(choices=[('active', 'Active'), ('inactive', 'Inactive')], default='active', max_length=16, verbose_name='status')),
                        ('pit', models.ForeignKey(blank=True, help_text="The pit the table stands in (one of its venue's).", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tables', to='venues.pit', verbose_name='pit')),
                        ('ruleset', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tables', to='casino.ruleset', verbose_name='ruleset')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tables', to='venues.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'table',
                        'verbose_name_plural': 'tables',
                        'db_table': 'casino_table',
                        'ordering': ['venue__code', 'code'],
                    },
                ),
                migrations.CreateModel(
                    name='Shift',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('gaming_date', models.DateField(verbose_name='gaming date')),
                        ('name', models.CharField(max_length=32, verbose_name='name')),
                        ('starts_at', models.DateTimeField(verbose_name='starts at')),
                        ('ends_at', models.DateTimeField(verbose_name='ends at')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='shifts', to='venues.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'shift',
                        'verbose_name_plural': 'shifts',
                        'db_table': 'casino_shift',
                        'ordering': ['venue__code', '-starts_at'],
                    },
                ),
                migrations.AddField(
                    model_name='pit',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='pits', to='venues.venue', verbose_name='venue'),
                ),
                migrations.CreateModel(
                    name='GamingDay',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('gaming_date', models.DateField(verbose_name='gaming date')),
                        ('starts_at', models.DateTimeField(verbose_name='starts at')),
                        ('ends_at', models.DateTimeField(verbose_name='ends at')),
                        ('shift_plan', models.JSONField(default=list, help_text='The shifts of the day: a name and the time it starts.', verbose_name='shift plan')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='gaming_days', to='venues.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'gaming day',
                        'verbose_name_plural': 'gaming days',
                        'db_table': 'casino_gamingday',
                        'ordering': ['venue__code', '-starts_at'],
                    },
                ),
                migrations.CreateModel(
                    name='DealerSpell',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('started_at', models.DateTimeField()),
                        ('ended_at', models.DateTimeField(blank=True, null=True)),
                        ('ended_reason', models.CharField(blank=True, choices=[('break', 'Break'), ('relief', 'Relieved to another table'), ('end', 'Table closed')], max_length=16)),
                        ('dealer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('relieved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='spells', to='casino.tablesession')),
                    ],
                    options={
                        'db_table': 'casino_dealerspell',
                        'ordering': ['session', 'started_at', 'pk'],
                        'indexes': [models.Index(fields=['dealer', 'ended_at'], name='casino_deal_dealer__3d1b72_idx')],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('ended_at__isnull', True)), fields=('session',), name='one_dealer_on_duty_per_session'), models.CheckConstraint(condition=models.Q(('ended_at__isnull', True), ('ended_at__gte', models.F('started_at')), _connector='OR'), name='dealer_spell_ends_after_start')],
                    },
                ),
                migrations.CreateModel(
                    name='TableLimit',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('bet_type', models.CharField(max_length=16, verbose_name='bet type')),
                        ('min_stake', models.DecimalField(decimal_places=2, max_digits=18, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='min stake')),
                        ('max_stake', models.DecimalField(decimal_places=2, max_digits=18, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='max stake')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='limits', to='venues.table', verbose_name='table')),
                    ],
                    options={
                        'verbose_name': 'table limit',
                        'verbose_name_plural': 'table limits',
                        'db_table': 'casino_tablelimit',
                        'ordering': ['table', 'bet_type'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'bet_type'), name='table_limit_per_bet_type'), models.CheckConstraint(condition=models.Q(('max_stake__gte', models.F('min_stake')), ('min_stake__gt', 0)), name='table_limit_min_le_max')],
                    },
                ),
                migrations.CreateModel(
                    name='TableLimitChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('bet_type', models.CharField(max_length=16, verbose_name='bet type')),
                        ('min_stake', models.DecimalField(decimal_places=2, max_digits=18, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='min stake')),
                        ('max_stake', models.DecimalField(decimal_places=2, max_digits=18, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='max stake')),
                        ('effective_at', models.DateTimeField(verbose_name='effective at')),
                        ('reason', models.CharField(max_length=255, verbose_name='reason')),
                        ('created_at', models.DateTimeField(verbose_name='created at')),
                        ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='limit_changes', to='venues.table', verbose_name='table')),
                    ],
                    options={
                        'verbose_name': 'table limit change',
                        'verbose_name_plural': 'table limit changes',
                        'db_table': 'casino_tablelimitchange',
                        'ordering': ['table', 'bet_type', '-effective_at'],
                        'indexes': [models.Index(fields=['table', 'bet_type', 'effective_at'], name='limit_change_in_force')],
                        'constraints': [models.CheckConstraint(condition=models.Q(('max_stake__gte', models.F('min_stake')), ('min_stake__gt', 0)), name='limit_change_min_le_max')],
                    },
                ),
                migrations.CreateModel(
                    name='TableRulesetChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('from_game', models.CharField(choices=casino.venues.models.game_choices, max_length=16, verbose_name='from game')),
                        ('to_game', models.CharField(choices=casino.venues.models.game_choices, max_length=16, verbose_name='to game')),
                        ('reason', models.TextField(verbose_name='reason')),
                        ('status', models.CharField(choices=[('pending', 'Pending'), ('applied', 'Approved and applied'), ('refused', 'Refused'), ('withdrawn', 'Withdrawn')], default='pending', max_length=16, verbose_name='status')),
                        ('requested_at', models.DateTimeField(verbose_name='requested at')),
                        ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided at')),
                        ('decision_note', models.TextField(blank=True, verbose_name='decision note')),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by')),
                        ('from_ruleset', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.ruleset', verbose_name='from ruleset')),
                        ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ruleset_changes', to='venues.table', verbose_name='table')),
                        ('to_ruleset', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.ruleset', verbose_name='to ruleset')),
                    ],
                    options={
                        'verbose_name': 'table ruleset change',
                        'verbose_name_plural': 'table ruleset changes',
                        'db_table': 'casino_tablerulesetchange',
                        'ordering': ['-requested_at', '-id'],
                        'permissions': [('decide_tablerulesetchange', "Can approve or refuse a table's change of ruleset")],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'pending')), fields=('table',), name='one_pending_ruleset_change_per_table'), models.CheckConstraint(condition=models.Q(('to_ruleset', models.F('from_ruleset')), _negated=True), name='ruleset_change_changes_the_ruleset'), models.CheckConstraint(condition=models.Q(models.Q(('decided_at__isnull', True), ('decided_by__isnull', True), ('status', 'pending')), models.Q(models.Q(('status', 'pending'), _negated=True), ('decided_at__isnull', False), ('decided_by__isnull', False)), _connector='OR'), name='ruleset_change_decided_unless_pending')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='venue',
                    constraint=models.CheckConstraint(condition=models.Q(('session_hours__gte', 1), ('session_hours__lte', 24)), name='venue_session_hours_bounded'),
                ),
                migrations.AddConstraint(
                    model_name='venue',
                    constraint=models.CheckConstraint(condition=models.Q(('variance_reason_over__gte', 0)), name='venue_variance_reason_over_not_negative'),
                ),
                migrations.AddConstraint(
                    model_name='table',
                    constraint=models.UniqueConstraint(fields=('venue', 'code'), name='table_code_per_venue'),
                ),
                migrations.AddConstraint(
                    model_name='shift',
                    constraint=models.UniqueConstraint(fields=('venue', 'gaming_date', 'name'), name='shift_unique'),
                ),
                migrations.AddConstraint(
                    model_name='shift',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_at__gt', models.F('starts_at'))), name='shift_ends_after_start'),
                ),
                migrations.AddConstraint(
                    model_name='pit',
                    constraint=models.UniqueConstraint(fields=('venue', 'code'), name='pit_code_per_venue'),
                ),
                migrations.AddConstraint(
                    model_name='gamingday',
                    constraint=models.UniqueConstraint(fields=('venue', 'gaming_date'), name='gaming_day_unique'),
                ),
                migrations.AddConstraint(
                    model_name='gamingday',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_at__gt', models.F('starts_at'))), name='gaming_day_ends_after_start'),
                ),
            ],
        ),
    ]
