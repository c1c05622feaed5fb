from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0020_inventory_chain'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='venue',
            name='staff',
            field=models.ManyToManyField(blank=True, help_text='Staff who work at this venue; the roles they hold here are given on their user page (roles at venues).', related_name='venues', to=settings.AUTH_USER_MODEL),
        ),
    ]
