"""The ledger's and the audit trail's models, as they stood in the ``casino`` app (migrations up
to ``casino.0040``): created in the state only, on the tables they already have, and their
content types (so their permissions) relabelled."""

import casino.audit.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MOVED = ['drop', 'ledgerentry', 'auditevent']


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="ledger")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="ledger", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('cage', '0001_initial'),
        ('casino', '0040_ledger_app'),
        ('count', '0001_initial'),
        ('players', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Drop',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('amount', models.DecimalField(decimal_places=2, help_text="Positive; a reversal is the reversed drop's, negated.", max_digits=18)),
                        ('counted_at', models.DateTimeField()),
                        ('reason', models.CharField(blank=True, help_text='Why it was reversed.', max_length=255)),
                        ('counted_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('drop_box', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='drops', to='count.dropbox')),
                        ('reverses', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='ledger.drop')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='drops', to='casino.tablesession')),
                    ],
                    options={
                        'db_table': 'casino_drop',
                    },
                ),
                migrations.CreateModel(
                    name='LedgerEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('account', models.CharField(choices=[('player', 'Player'), ('house', 'House'), ('tray', 'Table tray'), ('cage', 'Cage'), ('drop', 'Drop box')], max_length=8, verbose_name='account')),
                        ('kind', models.CharField(choices=[('result', 'Bet result'), ('commission', 'Commission'), ('fee', 'Table fee'), ('fill', 'Fill'), ('credit', 'Credit'), ('drop', 'Drop'), ('void', 'Void (reversal)')], max_length=12, verbose_name='kind')),
                        ('amount', models.DecimalField(decimal_places=2, help_text='Signed: + into the account, - out of it.', max_digits=18, verbose_name='amount')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('bet', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.bet', verbose_name='bet')),
                        ('box', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.box', verbose_name='box')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                        ('drop', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='ledger.drop', verbose_name='drop')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='players.player', verbose_name='player')),
                        ('reverses', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='ledger.ledgerentry', verbose_name='reverses entry')),
                        ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='casino.round', verbose_name='round')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='casino.tablesession', verbose_name='session')),
                        ('slip', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='cage.slip', verbose_name='slip')),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'ledger entry',
                        'verbose_name_plural': 'ledger entries',
                        'db_table': 'casino_ledgerentry',
                        'ordering': ['id'],
                    },
                ),
                migrations.CreateModel(
                    name='AuditEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='when')),
                        ('action', models.CharField(choices=casino.audit.models.audit_action_choices, db_index=True, max_length=64, verbose_name='action')),
                        ('object_type', models.CharField(max_length=64, verbose_name='object type')),
                        ('object_id', models.CharField(max_length=64, verbose_name='object ID')),
                        ('summary', models.CharField(blank=True, max_length=255, verbose_name='summary')),
                        ('before', models.JSONField(blank=True, null=True, verbose_name='state before')),
                        ('after', models.JSONField(blank=True, null=True, verbose_name='state after')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                        ('venue', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'audit event',
                        'verbose_name_plural': 'audit events',
                        'db_table': 'casino_auditevent',
                        'ordering': ['-at', '-id'],
                        'indexes': [models.Index(fields=['object_type', 'object_id'], name='casino_audi_object__e67f17_idx')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='drop',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('amount__gt', 0), ('reverses__isnull', True)), models.Q(('amount__lt', 0), ('reverses__isnull', False)), _connector='OR'), name='drop_positive_or_a_reversal'),
                ),
                migrations.AddIndex(
                    model_name='ledgerentry',
                    index=models.Index(fields=['session', 'account'], name='casino_ledg_session_f8e06e_idx'),
                ),
                migrations.AddConstraint(
                    model_name='ledgerentry',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('drop__isnull', True), ('round__isnull', False), ('slip__isnull', True)), models.Q(('drop__isnull', True), ('round__isnull', True), ('slip__isnull', False)), models.Q(('drop__isnull', False), ('round__isnull', True), ('slip__isnull', True)), _connector='OR'), name='ledger_entry_belongs_to_one_thing'),
                ),
                migrations.AddConstraint(
                    model_name='ledgerentry',
                    constraint=models.CheckConstraint(condition=models.Q(('amount', 0), _negated=True), name='ledger_amount_not_zero'),
                ),
                migrations.AddConstraint(
                    model_name='ledgerentry',
                    constraint=models.UniqueConstraint(fields=('reverses',), name='ledger_reversed_once'),
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
