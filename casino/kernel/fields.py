"""The model field every amount of money is stored in: a decimal of the project's digits and
places (``casino.kernel.money``), never a float."""

from __future__ import annotations

from django.db import models

from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS


def money_field(verbose_name: str | None = None, **kwargs) -> models.DecimalField:
    return models.DecimalField(
        verbose_name, max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES, **kwargs
    )
