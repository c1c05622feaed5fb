"""A new game is one app and its line in ``INSTALLED_APPS``: a toy game, built here as a
package of its own (an ``AppConfig``, a version model, an adapter, a round screen and its
template), is installed by that line alone, and the floor opens a table of it and settles a
round through its own preview and Confirm. Nothing in ``casino`` names the toy.

The toy is "high card": the dealer and each box draw one card; a box whose card ranks above
the dealer's wins its stake, below it loses it, the same rank is a push. It overrides only
what its rules need; every other hook is the adapter's default (``casino.games``)."""

from __future__ import annotations

import re
import sys
import textwrap
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.db.models import Sum
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from casino import games
from casino.floor.models import Round, RoundStatus
from casino.floor.services.sessions import session_open
from casino.kernel import registry
from casino.ledger.models import LedgerEntry
from casino.rulesets.services import (
    ruleset_create,
    version_activate,
    version_approve,
    version_content_hash,
    version_create_draft,
)
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.services.tables import table_create
from tests.factories import VenueFactory, staff

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

#: The toy game's app, file by file: all a new game needs to be dealt on the floor.
TOY_APP = {
    "__init__.py": "",
    "apps.py": """
        from django.apps import AppConfig


        class ToyConfig(AppConfig):
            name = "toygame"

            def ready(self):
                from casino import games
                from toygame.adapter import ToyAdapter

                games.register(ToyAdapter())
    """,
    "models.py": """
        from casino.rulesets.models import RulesetVersion


        class ToyRulesetVersion(RulesetVersion):
            '''The toy's rules are the rounding every version has.'''
    """,
    "adapter.py": """
        from decimal import Decimal

        from casino.kernel.cards import RANKS, format_cards, parse_cards
        from casino.games import BetResult, BoxResult, GameAdapter, RoundInputError, RoundResult
        from toygame.models import ToyRulesetVersion


        def card(text, field):
            try:
                (drawn,) = parse_cards(text, count=1)
            except Exception:
                raise RoundInputError("one card, like 9H", field=field) from None
            return drawn


        class ToyAdmin:
            manager_permissions = ()
            viewer_permissions = ()


        class ToyAdapter(GameAdapter):
            code = "toy"
            name = "High card"
            bet_types = ("single",)
            version_model = ToyRulesetVersion
            admin = ToyAdmin()

            @property
            def console(self):
                from toygame.console import CONSOLE

                return CONSOLE

            def evaluate_round(self, *, rules, dealer_cards, boxes):
                dealer = card(dealer_cards, "dealer_cards")
                settled = []
                for index, box in enumerate(boxes):
                    drawn = card(box.cards, f"boxes[{index}].cards")
                    stake = box.stakes["single"]
                    order = RANKS.index(drawn.rank) - RANKS.index(dealer.rank)
                    outcome = "win" if order > 0 else "lose" if order < 0 else "push"
                    gross = {"win": stake, "lose": -stake, "push": Decimal(0)}[outcome]
                    bet = BetResult(
                        "single", stake, stake, outcome, Decimal(1), gross, Decimal(0), gross
                    )
                    settled.append(BoxResult(box.position, format_cards([drawn]), {}, (bet,)))
                return RoundResult(format_cards([dealer]), None, tuple(settled))
    """,
    "console.py": """
        import hashlib
        import uuid
        from dataclasses import dataclass, field
        from decimal import Decimal

        from django.shortcuts import render

        from casino.floor.console import round as rounds
        from casino.games import BoxInput


        @dataclass
        class Entry:
            key: str
            dealer: str
            boxes: list
            errors: list = field(default_factory=list)

            @property
            def has_errors(self):
                return bool(self.errors)

            def check_complete(self):
                return bool(self.dealer and self.boxes)

            def round_input(self):
                return self.dealer, [
                    BoxInput(position=p, cards=c, stakes={"single": Decimal(s)})
                    for p, c, s in self.boxes
                ]

            def digest(self):
                return hashlib.sha256(repr((self.dealer, self.boxes)).encode()).hexdigest()

            def refuse(self, error):
                self.errors.append(str(error.message))


        class ToyConsole:
            template = "toygame/round.html"
            summary_template = "toygame/round.html#summary"
            detail_template = "toygame/round.html#summary"
            stale_preview = "The round changed after its preview."

            def urls(self):
                return []

            def positions(self, seats):
                return tuple(range(1, seats + 1))

            def deposit_multiples(self, rules, bet_types):
                return dict.fromkeys(bet_types, Decimal(1))

            def screen(self, request, session):
                return rounds.whole_screen(request, session, request.GET)

            def entry_in(self, data):
                return "dealer" in data

            def read_entry(self, data, screen, *, evaluate=True):
                boxes = [
                    (p, data[f"box-{p}"], data[f"stake-{p}"])
                    for p in screen.positions
                    if data.get(f"box-{p}") and data.get(f"stake-{p}")
                ]
                return Entry(data.get("key") or uuid.uuid4().hex, data.get("dealer", ""), boxes)

            def form_data(self, dealer_cards, boxes, screen):
                data = {"dealer": dealer_cards}
                for box in boxes:
                    data[f"box-{box.position}"] = box.cards
                    data[f"stake-{box.position}"] = str(box.stakes["single"])
                return data

            def data_from_round(self, round_, screen):
                return {}

            def preview_of(self, result, entry):
                return {"totals": rounds.Totals.of(result), "digest": entry.digest()}

            def context(self, screen, entry, *, preview=None, settled=None, last=None):
                return rounds.screen_context(
                    screen, entry, preview=preview, settled=settled, last=last
                )


        CONSOLE = ToyConsole()
    """,
    "templates/toygame/round.html": """
        {% load partials %}
        {% partialdef summary %}<td>{{ round.dealer_cards }}</td>{% endpartialdef %}
        {% partialdef preview %}<section id="preview" aria-label="Settlement preview">
        {% for error in entry.errors %}<p role="alert">{{ error }}</p>{% endfor %}
        {% if preview %}<p>House {{ preview.totals.house_net }}</p>
        <input type="hidden" name="digest" value="{{ preview.digest }}">{% endif %}
        </section>{% endpartialdef %}
        {% partialdef round %}<form method="post" action="{% url 'console:preview' session.pk %}">
        <input type="hidden" name="key" value="{{ entry.key }}">
        {% if settled %}<p id="settled">Round {{ settled.number }}: house {{ settled.house_net }}
        </p>{% endif %}
        </form>{% partial preview %}{% endpartialdef %}
        <!doctype html><title>{{ table.code }}</title><main>{% partial round %}</main>
    """,
}


@pytest.fixture
def toy_installed(tmp_path: Path, monkeypatch):
    """The toy's package on the path and its one line in ``INSTALLED_APPS``; its table made
    as its migration would (the test's transaction takes it away again)."""
    for name, text in TOY_APP.items():
        path = tmp_path / "toygame" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    monkeypatch.syspath_prepend(str(tmp_path))
    registered = dict(registry._REGISTRY)
    try:
        with override_settings(INSTALLED_APPS=[*settings.INSTALLED_APPS, "toygame"]):
            model = apps.get_model("toygame", "ToyRulesetVersion")
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            with connection.schema_editor() as editor:
                editor.create_model(model)
            yield model
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(registered)
        for module in [name for name in sys.modules if name.split(".")[0] == "toygame"]:
            del sys.modules[module]


def test_a_new_game_is_one_app_and_its_line_in_installed_apps(toy_installed, client):
    game = games.get("toy")
    assert game.version_model is toy_installed
    venue = VenueFactory(code="v-toy", currency="VND", rounding_unit=Decimal(1000))
    manager = staff("toy-manager", MANAGER, venue)
    approver = staff("toy-approver", MANAGER, venue)
    dealer = staff("toy-dealer", DEALER, venue)
    supervisor = staff("toy-supervisor", SUPERVISOR, venue)

    # Its rules go through the floor's four eyes like any game's (the hooks' defaults).
    ruleset = ruleset_create(venue=venue, game="toy", code="high", name="High card", user=manager)
    draft = version_create_draft(model=toy_installed, ruleset=ruleset, user=manager)
    approved = version_approve(
        version=draft, user=approver, content_hash=version_content_hash(draft)
    )
    version_activate(
        version=approved, user=approver, effective_from=timezone.now() - timedelta(minutes=1)
    )
    table = table_create(
        venue=venue,
        user=manager,
        code="HC1",
        game="toy",
        ruleset=ruleset,
        seats=3,
        chip_denominations=["100000", "10000", "1000"],
        limits={"single": {"min_stake": "10000", "max_stake": "1000000"}},
    )
    session = session_open(
        table=table,
        counted_by=dealer,
        confirmed_by=supervisor,
        opening_chips={"100000": 50},
    )

    client.force_login(dealer)
    screen = client.get(reverse("console:round", args=[session.pk]))
    assert screen.status_code == 200, screen.content.decode()[:2000]
    key = re.search(r'name="key" value="([^"]+)"', screen.content.decode())[1]
    # The dealer's 5 loses to the dealer's 9 at box 1, box 2's king wins, box 3's 9 pushes.
    data = {
        "key": key,
        "dealer": "9H",
        **{"box-1": "5C", "stake-1": "100000"},
        **{"box-2": "KD", "stake-2": "50000"},
        **{"box-3": "9S", "stake-3": "20000"},
    }
    preview = client.post(reverse("console:preview", args=[session.pk]), data, **HTMX)
    assert preview.status_code == 200, preview.content.decode()[:2000]
    assert "House 50000" in preview.content.decode()
    digest = re.search(r'name="digest" value="([0-9a-f]+)"', preview.content.decode())[1]
    assert not Round.objects.filter(session=session).exists(), "a preview writes nothing"

    confirm = reverse("console:confirm", args=[session.pk])
    settled = client.post(confirm, {**data, "digest": digest}, **HTMX)
    assert settled.status_code == 200, settled.content.decode()[:2000]
    assert "Round 1: house 50000" in settled.content.decode()
    (round_,) = Round.objects.filter(session=session)
    assert (round_.status, round_.house_net) == (RoundStatus.SETTLED, Decimal(50000))
    assert round_.ruleset_version_id == approved.pk
    entries = LedgerEntry.objects.filter(round=round_)
    assert entries.aggregate(total=Sum("amount"))["total"] == 0
    assert entries.count() == 4  # a win and a loss, each the player's and the house's line
