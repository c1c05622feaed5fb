"""The rounding unit and mode of commissions and fees move from the venue to the version.

Each existing version takes its venue's rounding unit as it is now (a preset, which has no
venue, takes 1) and the mode ``up``: the rounding every round had been settled with.
"""

from decimal import Decimal

import django.core.validators
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def carry_venue_units(apps, schema_editor):
    """Give every NiuNiuRulesetVersion its venue's current rounding unit (presets 1), mode up."""
    Version = apps.get_model("niuniu", "NiuNiuRulesetVersion")
    Ruleset = apps.get_model("casino", "Ruleset")
    venue_unit = Ruleset.objects.filter(pk=OuterRef("ruleset_id")).values(
        "venue__rounding_unit"
    )[:1]
    Version.objects.filter(ruleset__venue__isnull=False).update(
        rounding_unit=Subquery(venue_unit), rounding_mode="up"
    )
    Version.objects.filter(ruleset__venue__isnull=True).update(
        rounding_unit=Decimal("1"), rounding_mode="up"
    )


class Migration(migrations.Migration):
    dependencies = [("niuniu", "0003_rules_figures")]

    operations = [
        migrations.AddField(
            model_name="niuniurulesetversion",
            name="rounding_unit",
            field=models.DecimalField(
                decimal_places=2,
                default=Decimal("1"),
                help_text="Commissions and fees are rounded to a multiple of this amount, and "
                "every stake must be one. A new draft starts from the venue's chip unit.",
                max_digits=18,
                validators=[
                    django.core.validators.MinValueValidator(
                        Decimal("0.01"),
                        "The rounding unit is an amount above 0 with at most 2 decimals, e.g. "
                        "1000 or 0.10.",
                    )
                ],
                verbose_name="rounding unit",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="niuniurulesetversion",
            name="rounding_mode",
            field=models.CharField(
                choices=[
                    ("up", "Up to the unit (in the house's favour)"),
                    ("half_up", "To the nearest unit, a half up"),
                    ("down", "Down to the unit (in the player's favour)"),
                    ("none", "Not to a unit: to the cent"),
                ],
                default="up",
                help_text="How a commission or fee is rounded to the unit; the rule sheets "
                "round up.",
                max_length=8,
                verbose_name="rounding mode",
            ),
        ),
        migrations.RunPython(carry_venue_units, migrations.RunPython.noop),
    ]
