"""Beat's heartbeat in django-celery-beat's schedule (``casino.ops.heartbeats``).

Its messages expire: while no worker runs, heartbeats do not pile up in the queue.
"""

from django.db import migrations

NAME = "operations: beat's heartbeat"
TASK = "casino.ops.tasks.beat_heartbeat_task"
EVERY_SECONDS = 30


def install(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _created = IntervalSchedule.objects.get_or_create(
        every=EVERY_SECONDS, period="seconds"
    )
    PeriodicTask.objects.get_or_create(
        name=NAME,
        defaults={
            "task": TASK,
            "interval": every,
            "enabled": True,
            "expire_seconds": 2 * EVERY_SECONDS,
        },
    )


def remove(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(install, remove)]
