from django.core.management.base import BaseCommand

from niuniu.engine import presets
from niuniu.services import preset_install


class Command(BaseCommand):
    help = "Install the shipped Niu Niu presets as venue-less rulesets (idempotent)."

    def handle(self, *args, **options) -> None:
        for code in presets.CODES:
            version = preset_install(code=code)
            self.stdout.write(f"{code}: {version}")
