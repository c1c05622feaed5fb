"""The audit trail's model, as it stood in the ledger app (``ledger.0003``): created in the
state only, on the table it already has, and its content type (so its permissions)
relabelled."""

import casino.audit.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_types(apps, schema_editor):
    """The moved model's content type (and so every permission granted on it) follows it
    to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="ledger", model="auditevent").update(app_label="audit")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="audit", model="auditevent").update(app_label="ledger")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('ledger', '0003_floor_app'),
        ('venues', '0003_floor_app'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
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
                        ('venue', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='venues.venue', verbose_name='venue')),
                    ],
                    options={
                        'verbose_name': 'audit event',
                        'verbose_name_plural': 'audit events',
                        'db_table': 'casino_auditevent',
                        'ordering': ['-at', '-id'],
                        'indexes': [models.Index(fields=['object_type', 'object_id'], name='casino_audi_object__e67f17_idx')],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back, elidable=False),
    ]
