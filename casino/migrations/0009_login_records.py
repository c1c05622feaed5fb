import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def forget_plain_tokens(apps, schema_editor):
    """DRF's authtoken kept every key in clear; its rows go (its table stays with its app's
    migrations). Devices log in again for a knox token, stored hashed."""
    connection = schema_editor.connection
    if "authtoken_token" in connection.introspection.table_names():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0008_membership_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('token_key', models.CharField(db_index=True, max_length=25)),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='issued')),
                ('expiry', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('digest', models.CharField(max_length=128, unique=True)),
                ('device', models.CharField(max_length=64, verbose_name='device')),
                ('last_used', models.DateTimeField(blank=True, null=True, verbose_name='last used')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='auth_token_set', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'API token',
                'verbose_name_plural': 'API tokens',
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
                ('entry_point', models.CharField(choices=[('page', 'login page'), ('admin', 'admin login'), ('api', 'API login'), ('approval', 'supervisor approval on the console'), ('other', 'other')], max_length=16, verbose_name='entry point')),
                ('outcome', models.CharField(choices=[('succeeded', 'succeeded'), ('failed', 'wrong username or password'), ('locked_out', 'locked out: too many failures of this username'), ('address_locked_out', 'locked out: too many failures from this address')], max_length=24, verbose_name='outcome')),
                ('user', models.ForeignKey(blank=True, help_text='The account the username names, if there is one.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'login attempt',
                'verbose_name_plural': 'login attempts',
                'ordering': ['-at', '-id'],
                'indexes': [models.Index(fields=['username', 'at'], name='loginattempt_username_at'), models.Index(fields=['address', 'at'], name='loginattempt_address_at')],
            },
        ),
        migrations.RunPython(forget_plain_tokens, migrations.RunPython.noop),
    ]
