"""The law's figures for a venue's cash thresholds (``casino.venues.jurisdictions``).

- Proposed from the law (``preset_figures``): the venue's jurisdiction's large cash
  transaction reporting threshold is the reporting threshold, and its customer
  identification threshold, where the law has one at or below it, the logging threshold
  (else the reporting threshold too). Only when the law's currency is the venue's: a venue
  counting in another currency (a Macau venue counting in HKD) gives its own figures.
- Capped by the law (``check_legal_ceiling``): a reporting threshold above the law's is
  refused, naming the law and its figure, when the thresholds are proposed and again when
  they are approved (the law's figure, or the venue's jurisdiction, may have changed in
  between). A venue with no jurisdiction, or counting in another currency, is not capped.

``casino.cage.services.thresholds`` (``thresholds_propose``, ``thresholds_approve``) asks both.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from casino.kernel.errors import InvalidInput
from casino.kernel.money import venue_money
from casino.venues.jurisdictions import Jurisdiction, jurisdiction_of
from casino.venues.models import Venue


def comparable_law(venue: Venue) -> Jurisdiction | None:
    """The venue's jurisdiction when its law's figures are in the venue's currency (so they
    apply as they are); None when it has none or counts in another currency."""
    law = jurisdiction_of(venue)
    if law is None or law.currency != venue.currency:
        return None
    return law


def preset_figures(venue: Venue, logging: Any = None, reporting: Any = None) -> tuple[Any, Any]:
    """The logging and reporting thresholds the venue's law gives, where not given;
    ``InvalidInput`` when the venue has no jurisdiction or counts in another currency."""
    law = jurisdiction_of(venue)
    if law is None:
        raise InvalidInput(
            gettext(
                "The venue follows no jurisdiction's law yet: a superuser chooses it on the "
                "venue's page. Until then, give the thresholds yourself."
            ),
            field="jurisdiction",
            reason="no_jurisdiction",
        )
    if law.currency != venue.currency:
        raise InvalidInput(
            gettext(
                "The law of %(law)s counts in %(law_currency)s and the venue counts in "
                "%(currency)s: give the venue's own thresholds in %(currency)s."
            )
            % {"law": law.name, "law_currency": law.currency, "currency": venue.currency},
            field="reporting_threshold",
            reason="other_currency",
        )
    identification = law.cdd_threshold
    if identification is None or identification > law.reporting_threshold:
        identification = law.reporting_threshold
    return (
        identification if logging is None else logging,
        law.reporting_threshold if reporting is None else reporting,
    )


def check_legal_ceiling(venue: Venue, reporting_threshold: Decimal) -> None:
    """Refuse a reporting threshold above the law's (``InvalidInput`` on
    ``reporting_threshold``, naming the law and its figure)."""
    law = comparable_law(venue)
    if law is None or reporting_threshold <= law.reporting_threshold:
        return
    source = law.legal_source
    raise InvalidInput(
        gettext(
            "The reporting threshold may not be above the law's: %(source)s%(article)s sets "
            "%(figure)s %(currency)s for %(law)s. Give %(figure)s or less."
        )
        % {
            "source": source.title,
            "article": f", {source.article}" if source.article else "",
            "figure": venue_money(law.reporting_threshold, venue),
            "currency": law.currency,
            "law": law.name,
        },
        field="reporting_threshold",
        reason="above_legal_threshold",
    )
