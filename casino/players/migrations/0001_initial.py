"""Players' models, as they stood in the ``casino`` app (migrations up to ``casino.0036``):
created in the state only, on the tables they already have."""

import casino.players.membership
import django.core.validators
import django.db.models.deletion
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('casino', '0036_field_and_model_names_translated'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CompPolicy',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField()),
                        ('reinvestment_pct', models.DecimalField(decimal_places=2, help_text="The share of a player's theoretical win they may be given back, in percent.", max_digits=5, validators=[django.core.validators.MinValueValidator(Decimal('0')), django.core.validators.MaxValueValidator(Decimal('100'))])),
                        ('supervisor_limit', models.DecimalField(decimal_places=2, help_text='The largest comp a supervisor issues.', max_digits=18)),
                        ('manager_limit', models.DecimalField(decimal_places=2, help_text='The largest comp a manager issues.', max_digits=18)),
                        ('status', models.CharField(choices=[('proposed', 'Waiting for a second manager'), ('approved', 'Approved')], default='proposed', max_length=16)),
                        ('proposed_at', models.DateTimeField()),
                        ('approved_at', models.DateTimeField(blank=True, null=True)),
                        ('approved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('proposed_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comp_policies', to='casino.venue')),
                    ],
                    options={
                        'db_table': 'casino_comppolicy',
                        'ordering': ['venue', '-number'],
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('membership_number', casino.players.membership.MembershipNumberField(help_text='1 to 32 letters A to Z, digits 0 to 9 and - . /, kept in capitals: lower case and full-width characters are converted, anything else is refused. One number, one member per venue.', max_length=32, verbose_name='membership number')),
                        ('name', models.CharField(max_length=120, verbose_name='name')),
                        ('status', models.CharField(choices=[('active', 'Active'), ('barred', 'Barred')], default='active', max_length=16, verbose_name='status')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('date_of_birth', models.DateField(blank=True, null=True, verbose_name='date of birth')),
                        ('nationality', models.CharField(blank=True, db_default='', max_length=64, verbose_name='nationality')),
                        ('id_document_type', models.CharField(blank=True, db_default='', help_text='e.g. passport, national ID card.', max_length=32, verbose_name='ID document type')),
                        ('id_document_number', models.CharField(blank=True, db_default='', max_length=64, verbose_name='ID document number')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='casino.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'player',
                        'verbose_name_plural': 'players',
                        'db_table': 'casino_player',
                        'ordering': ['venue__code', 'membership_number'],
                    },
                ),
                migrations.CreateModel(
                    name='Comp',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('amount', models.DecimalField(decimal_places=2, max_digits=18)),
                        ('kind', models.CharField(choices=[('meal', 'Meal'), ('room', 'Room'), ('show', 'Show'), ('free_play', 'Free play'), ('other', 'Other')], max_length=16)),
                        ('issued_at', models.DateTimeField()),
                        ('gaming_date', models.DateField()),
                        ('earned', models.DecimalField(decimal_places=2, help_text='What the player had earned and not been given when issued.', max_digits=18)),
                        ('notes', models.CharField(blank=True, max_length=255)),
                        ('authorised_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('issued_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comps', to='casino.venue')),
                        ('policy', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comps', to='players.comppolicy')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comps', to='players.player')),
                    ],
                    options={
                        'db_table': 'casino_comp',
                        'ordering': ['venue', '-issued_at'],
                    },
                ),
                migrations.CreateModel(
                    name='PlayerBarring',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(max_length=255)),
                        ('starts_on', models.DateField(help_text='The first day the player is barred.')),
                        ('ends_on', models.DateField(blank=True, help_text='The last day the player is barred; empty: until lifted.', null=True)),
                        ('barred_at', models.DateTimeField()),
                        ('lifted_at', models.DateTimeField(blank=True, null=True)),
                        ('lift_reason', models.CharField(blank=True, max_length=255)),
                        ('barred_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('lifted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='barrings', to='players.player')),
                    ],
                    options={
                        'db_table': 'casino_playerbarring',
                        'ordering': ['player', '-starts_on', '-pk'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='comppolicy',
                    constraint=models.UniqueConstraint(fields=('venue', 'number'), name='comp_policy_number'),
                ),
                migrations.AddConstraint(
                    model_name='comppolicy',
                    constraint=models.CheckConstraint(condition=models.Q(('approved_by', models.F('proposed_by')), _negated=True), name='comp_policy_four_eyes'),
                ),
                migrations.AddConstraint(
                    model_name='comppolicy',
                    constraint=models.CheckConstraint(condition=models.Q(('manager_limit__gte', models.F('supervisor_limit')), ('reinvestment_pct__gte', 0), ('reinvestment_pct__lte', 100), ('supervisor_limit__gte', 0)), name='comp_policy_limits'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.UniqueConstraint(fields=('venue', 'membership_number'), name='player_number_per_venue'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.CheckConstraint(condition=models.Q(('membership_number__regex', '\\A[A-Z0-9./-]{1,32}\\Z')), name='player_number_stored_form', violation_error_message='A membership number is stored as 1 to 32 capital letters A to Z, digits 0 to 9 and - . /.'),
                ),
                migrations.AddIndex(
                    model_name='comp',
                    index=models.Index(fields=['venue', 'gaming_date'], name='casino_comp_venue_i_9ef694_idx'),
                ),
                migrations.AddConstraint(
                    model_name='comp',
                    constraint=models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='comp_amount_positive'),
                ),
                migrations.AddConstraint(
                    model_name='playerbarring',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_on__isnull', True), ('ends_on__gte', models.F('starts_on')), _connector='OR'), name='barring_ends_after_start'),
                ),
                migrations.AddConstraint(
                    model_name='playerbarring',
                    constraint=models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='barring_has_reason'),
                ),
            ],
        ),
    ]
