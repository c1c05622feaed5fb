"""Staff's models, as they stood in the ``casino`` app: created in the state only, on the
tables they already have; their content types (so their permissions) follow them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MOVED_MODELS = ["staffrole", "loginattempt", "apitoken", "staffpin"]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED_MODELS).update(
        app_label="staff"
    )


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="staff", model__in=MOVED_MODELS).update(
        app_label="casino"
    )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('casino', '0034_staff_app'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='StaffPin',
                    fields=[
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, primary_key=True, related_name='console_pin', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='account')),
                        ('pin_hash', models.CharField(max_length=128, verbose_name='PIN hash')),
                        ('set_at', models.DateTimeField(auto_now=True, verbose_name='set')),
                        ('set_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='set by')),
                    ],
                    options={
                        'verbose_name': 'console PIN',
                        'verbose_name_plural': 'console PINs',
                        'db_table': 'casino_staffpin',
                    },
                ),
                migrations.CreateModel(
                    name='ApiToken',
                    fields=[
                        ('token_key', models.CharField(db_index=True, max_length=25)),
                        ('id', models.BigAutoField(primary_key=True, serialize=False)),
                        ('digest', models.CharField(max_length=128, unique=True)),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='issued')),
                        ('expiry', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                        ('device', models.CharField(max_length=64, verbose_name='device')),
                        ('last_used', models.DateTimeField(blank=True, null=True, verbose_name='last used')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='auth_token_set', to=settings.AUTH_USER_MODEL, verbose_name='account')),
                    ],
                    options={
                        'verbose_name': 'API token',
                        'verbose_name_plural': 'API tokens',
                        'db_table': 'casino_apitoken',
                        'ordering': ['-created', '-id'],
                        'constraints': [models.UniqueConstraint(fields=('user', 'device'), name='apitoken_one_per_device')],
                    },
                ),
                migrations.CreateModel(
                    name='LoginAttempt',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='when')),
                        ('username', models.CharField(help_text='Cut to 150 characters.', max_length=150, verbose_name='username as typed')),
                        ('address', models.CharField(max_length=64, verbose_name='address')),
                        ('user_agent', models.CharField(blank=True, max_length=255, verbose_name='user agent')),
                        ('entry_point', models.CharField(choices=[('page', 'login page'), ('admin', 'admin login'), ('api', 'API login'), ('approval', 'supervisor approval on the console'), ('lock', 'console lock (PIN or password)'), ('other', 'other')], max_length=16, verbose_name='entry point')),
                        ('outcome', models.CharField(choices=[('succeeded', 'succeeded'), ('failed', 'wrong username or password'), ('locked_out', 'locked out: too many failures of this username'), ('address_locked_out', 'locked out: too many failures from this address')], max_length=24, verbose_name='outcome')),
                        ('user', models.ForeignKey(blank=True, help_text='The account the username names, if there is one.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='account')),
                    ],
                    options={
                        'verbose_name': 'login attempt',
                        'verbose_name_plural': 'login attempts',
                        'db_table': 'casino_loginattempt',
                        'ordering': ['-at', '-id'],
                        'indexes': [models.Index(fields=['username', 'at'], name='loginattempt_username_at'), models.Index(fields=['address', 'at'], name='loginattempt_address_at')],
                    },
                ),
                migrations.CreateModel(
                    name='StaffRole',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('dealer', 'Dealer'), ('supervisor', 'Supervisor'), ('manager', 'Manager'), ('auditor', 'Auditor'), ('cage', 'Cage cashier'), ('count', 'Count team')], max_length=16)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='venue_roles', to=settings.AUTH_USER_MODEL)),
                        ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='staff_roles', to='casino.venue')),
                    ],
                    options={
                        'db_table': 'casino_staffrole',
                        'ordering': ['venue__code', 'role'],
                        'constraints': [models.UniqueConstraint(fields=('user', 'venue', 'role'), name='staff_role_once'), models.CheckConstraint(condition=models.Q(('role__in', ['dealer', 'supervisor', 'manager', 'auditor', 'cage', 'count'])), name='staff_role_known')],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
