"""Players: the venue's members, their barrings, and the comps a venue gives its rated
players under its comp policy. The tables keep the names they had in the ``casino`` app
(``Meta.db_table``).

A member is known by a membership number in its one stored form
(``casino.players.membership``). A barring keeps a player from new rounds from its first day
(``starts_on``, the venue's date) to its last (``ends_on``, none: until lifted); lifting one
keeps the row. A comp policy is versioned: a manager proposes one, a second manager approves
it, and the newest approved one is in force. A comp is a record of what was given away (see
docs/PLAYERS.md: why it is not a ledger movement).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.fields import money_field
from casino.players.membership import STORED_FORM, MembershipNumberField
from casino.players.names import document_key, group_key, name_key
from casino.venues.models import Venue


class Person(models.Model):
    """One person across the group's venues: the memberships (``Player``) that point to it
    are theirs. Linked and unlinked by ``casino.players.services.player_link`` /
    ``player_unlink``, each with a reason and an audit event; never deleted (a person whose
    memberships were all unlinked keeps the row, and the audit trail names it)."""

    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        db_table = "casino_person"
        verbose_name = _("person")
        verbose_name_plural = _("persons")

    def __str__(self) -> str:
        return f"person {self.pk}"


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        BARRED = "barred", _("Barred")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="players", verbose_name=_("venue")
    )
    membership_number = MembershipNumberField(
        help_text=_(
            "1 to 32 letters A to Z, digits 0 to 9 and - . /, kept in capitals: lower case and "
            "full-width characters are converted, anything else is refused. One number, one "
            "member per venue."
        ),
        verbose_name=_("membership number"),
    )
    name = models.CharField(max_length=120, verbose_name=_("name"))
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # Identity, all optional: shown masked but to the venue's managers (docs/PLAYERS.md).
    date_of_birth = models.DateField(null=True, blank=True, verbose_name=_("date of birth"))
    # A database default too: rows written by SQL that names none of them stay valid.
    nationality = models.CharField(
        max_length=64, blank=True, db_default="", verbose_name=_("nationality")
    )
    id_document_type = models.CharField(
        max_length=32,
        blank=True,
        db_default="",
        help_text=_("e.g. passport, national ID card."),
        verbose_name=_("ID document type"),
    )
    id_document_number = models.CharField(
        max_length=64, blank=True, db_default="", verbose_name=_("ID document number")
    )
    id_document_country = models.CharField(
        max_length=64,
        blank=True,
        db_default="",
        help_text=_("The country that issued the document, e.g. VN, KR, MO."),
        verbose_name=_("ID document issuing country"),
    )
    #: The person this membership is one of (``Person``): set by linking, never typed.
    person = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        related_name="memberships",
        verbose_name=_("person"),
    )
    #: The name as the duplicate search compares it (``casino.players.names.name_key``):
    #: written on every save, so every path (services, admin, factories) keeps it.
    name_key = models.CharField(
        max_length=120,
        blank=True,
        db_default="",
        editable=False,
        verbose_name=_("name as searched"),
    )
    #: The identity document as the duplicate search compares it (``document_key``).
    document_key = models.CharField(
        max_length=200,
        blank=True,
        db_default="",
        editable=False,
        verbose_name=_("ID document as searched"),
    )

    #: The document's key hashed with the group's secret (``names.group_key``): one person's
    #: key at every site of a group, sent to the group in place of the document.
    group_key = models.CharField(
        max_length=64,
        blank=True,
        db_default="",
        db_index=True,
        editable=False,
        verbose_name=_("group key"),
    )

    class Meta:
        db_table = "casino_player"
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["venue__code", "membership_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["venue", "membership_number"], name="player_number_per_venue"
            ),
            # Uniqueness holds for one spelling of a number only because every path (services,
            # admin, shell, bulk import) must store the one form (casino.players.membership).
            models.CheckConstraint(
                condition=models.Q(membership_number__regex=STORED_FORM),
                name="player_number_stored_form",
                violation_error_message=_(
                    "A membership number is stored as 1 to 32 capital letters A to Z, digits "
                    "0 to 9 and - . /."
                ),
            ),
        ]
        indexes = [
            models.Index(fields=["name_key"], name="player_name_key"),
            models.Index(fields=["document_key"], name="player_document_key"),
            models.Index(fields=["date_of_birth"], name="player_date_of_birth"),
        ]

    def __str__(self) -> str:
        return f"{self.membership_number} {self.name}"

    #: The fields the search keys are made of.
    KEYED = {"name", "id_document_type", "id_document_number", "id_document_country"}

    def save(self, *args, **kwargs) -> None:
        # A new row's unset fields hold their database default (an expression): as empty.
        def text(name: str) -> str:
            value = getattr(self, name)
            return value if isinstance(value, str) else ""

        self.name_key = name_key(text("name"))
        self.document_key = document_key(
            text("id_document_type"), text("id_document_number"), text("id_document_country")
        )
        self.group_key = group_key(self.document_key, settings.GROUP_PSEUDONYM_KEY)
        fields = kwargs.get("update_fields")
        if fields is not None and self.KEYED & set(fields):
            kwargs["update_fields"] = {*fields, "name_key", "document_key", "group_key"}
        super().save(*args, **kwargs)


class PlayerBarring(models.Model):
    class Kind(models.TextChoices):
        BARRING = "barring", _("barring by the venue")
        SELF_EXCLUSION = "self_exclusion", _("self-exclusion")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="barrings")
    kind = models.CharField(
        max_length=16, choices=Kind.choices, default=Kind.BARRING, db_default=Kind.BARRING
    )
    reason = models.CharField(max_length=255)
    starts_on = models.DateField(help_text=_("The first day the player is barred."))
    ends_on = models.DateField(
        null=True,
        blank=True,
        help_text=_("The last day the player is barred; empty: until lifted."),
    )
    barred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    barred_at = models.DateTimeField()
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.CharField(max_length=255, blank=True)

    class Meta:
        db_table = "casino_playerbarring"
        ordering = ["player", "-starts_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="barring_ends_after_start",
            ),
            models.CheckConstraint(condition=~models.Q(reason=""), name="barring_has_reason"),
        ]

    def __str__(self) -> str:
        return f"barring of player {self.player_id} from {self.starts_on}"


class GroupBarring(models.Model):
    """A barring or self-exclusion recorded at a site of the group, as the group sends it to
    every site (docs/OPERATIONS.md "A group of sites"): the member's group key, not the
    member, and the venue's code and name. Written in the group's database only, from the
    barrings the sites send it (``casino.ops.sites.group_prepare`` installs the trigger); a
    site reads it (``casino.players.eligibility``), never writes it."""

    #: The barring's key at its site (each site's keys are its own: one the group over).
    barring_id = models.BigIntegerField(unique=True)
    group_key = models.CharField(max_length=64, db_index=True)
    kind = models.CharField(max_length=16, choices=PlayerBarring.Kind.choices)
    venue_code = models.CharField(max_length=32)
    venue_name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "casino_groupbarring"
        verbose_name = _("barring at another site")
        verbose_name_plural = _("barrings at other sites")

    def __str__(self) -> str:
        return f"group barring {self.barring_id} at {self.venue_code}"


class CompPolicy(models.Model):
    """A venue's comp rules: the share of theoretical win given back, and how much one
    comp may be by the issuer's role. In force once approved by a second manager."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Waiting for a second manager")
        APPROVED = "approved", _("Approved")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="comp_policies")
    number = models.PositiveIntegerField()
    reinvestment_pct = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
        help_text=_("The share of a player's theoretical win they may be given back, in percent."),
    )
    supervisor_limit = money_field(help_text=_("The largest comp a supervisor issues."))
    manager_limit = money_field(help_text=_("The largest comp a manager issues."))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "casino_comppolicy"
        ordering = ["venue", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "number"], name="comp_policy_number"),
            models.CheckConstraint(
                condition=~models.Q(approved_by=models.F("proposed_by")),
                name="comp_policy_four_eyes",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    reinvestment_pct__gte=0,
                    reinvestment_pct__lte=100,
                    supervisor_limit__gte=0,
                    manager_limit__gte=models.F("supervisor_limit"),
                ),
                name="comp_policy_limits",
            ),
        ]

    def __str__(self) -> str:
        return f"comp policy {self.number} of venue {self.venue_id}"


class Comp(models.Model):
    class Kind(models.TextChoices):
        MEAL = "meal", _("Meal")
        ROOM = "room", _("Room")
        SHOW = "show", _("Show")
        FREE_PLAY = "free_play", _("Free play")
        OTHER = "other", _("Other")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="comps")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="comps")
    policy = models.ForeignKey(CompPolicy, on_delete=models.PROTECT, related_name="comps")
    amount = money_field()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    #: The manager whose limit the comp needed (over the supervisors' limit), else empty.
    authorised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField()
    gaming_date = models.DateField()
    earned = money_field(help_text=_("What the player had earned and not been given when issued."))
    notes = models.CharField(max_length=255, blank=True)

    class Meta:
        db_table = "casino_comp"
        ordering = ["venue", "-issued_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="comp_amount_positive"),
        ]
        indexes = [models.Index(fields=["venue", "gaming_date"])]

    def __str__(self) -> str:
        return f"comp {self.pk} of {self.amount} to player {self.player_id}"


class ExclusionArea(models.Model):
    """A version of an exclusion area: a set of the group's venues that share barrings and
    self-exclusions, and, where the area's law says so, add up one person's cash. Kept as
    versions under a code (``vn``, ``group``): a manager of each of its venues proposes one, a
    second manager of each approves it, and the newest approved version of a code is in force
    from its approval on. A venue is in one area in force at most."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Waiting for a second manager")
        APPROVED = "approved", _("Approved")

    code = models.SlugField(max_length=32, verbose_name=_("code"))
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120, verbose_name=_("name"))
    venues = models.ManyToManyField(Venue, related_name="+", verbose_name=_("venues"))
    shares_details = models.BooleanField(
        default=False,
        help_text=_(
            "The area's other venues read a barring's dates and reason; otherwise only the "
            "venue that recorded it and its kind."
        ),
        verbose_name=_("shares barring details"),
    )
    aggregates_cash = models.BooleanField(
        default=False,
        help_text=_(
            "One person's cash of a gaming day is added up across the area's venues for the "
            "cash thresholds (venues of one currency only)."
        ),
        verbose_name=_("adds up cash across venues"),
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "casino_exclusionarea"
        verbose_name = _("exclusion area")
        verbose_name_plural = _("exclusion areas")
        ordering = ["code", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["code", "number"], name="exclusion_area_number"),
            models.CheckConstraint(
                condition=~models.Q(approved_by=models.F("proposed_by")),
                name="exclusion_area_four_eyes",
            ),
        ]

    def __str__(self) -> str:
        return f"exclusion area {self.code} version {self.number}"
