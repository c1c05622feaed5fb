from django.core.management.base import BaseCommand

from maubinh.engine import presets
from maubinh.services import preset_install


class Command(BaseCommand):
    help = (
        "Install the shipped Mau Binh presets as venue-less rulesets (idempotent). The first "
        "install simulates each preset's house take (tens of seconds each)."
    )

    def handle(self, *args, **options) -> None:
        for code in presets.CODES:
            version = preset_install(code=code)
            take = (version.figures or {}).get("house_take", {})
            shown = ", ".join(f"{n} players {value}" for n, value in take.items())
            self.stdout.write(f"{code}: {version}; house take per round per unit stake: {shown}")
