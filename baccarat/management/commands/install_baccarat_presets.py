from django.core.management.base import BaseCommand

from baccarat.engine import presets
from baccarat.services import preset_install


class Command(BaseCommand):
    help = "Install the shipped Baccarat presets as venue-less rulesets (idempotent)."

    def handle(self, *args, **options) -> None:
        for code in presets.codes():
            version = preset_install(code=code)
            self.stdout.write(f"{code}: {version}")
