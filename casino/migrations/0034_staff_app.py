"""Staff's models (roles, login attempts, API tokens, console PINs) move to their own app
(``casino.staff``): the floor's state forgets them. State only: the tables keep their names
(``Meta.db_table``) and no row changes."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0033_integrity_app'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='loginattempt',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='staffpin',
                    name='set_by',
                ),
                migrations.RemoveField(
                    model_name='staffpin',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='staffrole',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='staffrole',
                    name='venue',
                ),
                migrations.DeleteModel(
                    name='ApiToken',
                ),
                migrations.DeleteModel(
                    name='LoginAttempt',
                ),
                migrations.DeleteModel(
                    name='StaffPin',
                ),
                migrations.DeleteModel(
                    name='StaffRole',
                ),
            ],
        ),
    ]
