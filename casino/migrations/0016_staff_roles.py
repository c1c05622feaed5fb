import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ROLES = ("dealer", "supervisor", "manager", "auditor")


def roles_per_venue(apps, schema_editor):
    """Until now a member's role (their group) held at every venue they work at: give them
    that role at each of those venues, so that everyone keeps what they could do."""
    Group = apps.get_model("auth", "Group")
    StaffRole = apps.get_model("casino", "StaffRole")
    Venue = apps.get_model("casino", "Venue")
    members = Venue.staff.through.objects.values_list("user_id", "venue_id")
    venues_of: dict[int, list[int]] = {}
    for user_id, venue_id in members:
        venues_of.setdefault(user_id, []).append(venue_id)
    rows = [
        StaffRole(user_id=user_id, venue_id=venue_id, role=group.name)
        for group in Group.objects.filter(name__in=ROLES)
        for user_id in group.user_set.values_list("id", flat=True)
        for venue_id in venues_of.get(user_id, [])
    ]
    StaffRole.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0015_venue_amount_grouping'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='StaffRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('dealer', 'Dealer'), ('supervisor', 'Supervisor'), ('manager', 'Manager'), ('auditor', 'Auditor'), ('cage', 'Cage cashier'), ('count', 'Count team')], max_length=16)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='venue_roles', to=settings.AUTH_USER_MODEL)),
                ('venue', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='staff_roles', to='casino.venue')),
            ],
            options={
                'ordering': ['venue__code', 'role'],
                'constraints': [models.UniqueConstraint(fields=('user', 'venue', 'role'), name='staff_role_once'), models.CheckConstraint(condition=models.Q(('role__in', ['dealer', 'supervisor', 'manager', 'auditor', 'cage', 'count'])), name='staff_role_known')],
            },
        ),
        migrations.RunPython(roles_per_venue, migrations.RunPython.noop),
    ]
