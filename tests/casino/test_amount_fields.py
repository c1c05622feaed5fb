"""Every amount a person types or a client sends is read by the one reader of amounts.

A guard: it walks every Django form the project defines, every form the admin builds (its
model admins' and their inlines'), and every DRF serializer the project defines (the
API's, each game's, nested ones and list children included), and fails on a field that
holds money and is not the one reader's field: ``casino.kernel.amounts.AmountField`` in a form,
``casino.api.serializers.fields.MoneyField`` in a serializer. A field holds money when it
is a decimal field of the money sizes (``casino.kernel.money.MONEY_MAX_DIGITS`` /
``MONEY_DECIMAL_PLACES``: every ``money_field`` of the models), or any number or text
field named as an amount is (``..._amount``, ``min_stake``, ``average_bet``, ...).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest
from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from rest_framework import serializers

from casino.api.serializers.fields import MoneyField
from casino.kernel.amounts import AmountField
from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS

PROJECT = ("casino", "niuniu", "maubinh", "baccarat", "tablegames")
#: The last word of a field's name that says it holds an amount of money.
AMOUNT_WORDS = frozenset(
    {
        "amount",
        "amounts",
        "bet",
        "bets",
        "credit",
        "credits",
        "deposit",
        "deposits",
        "drop",
        "fill",
        "fills",
        "handle",
        "limit",
        "stake",
        "stakes",
        "threshold",
        "total",
        "win",
    }
)
FORM_FIX = (
    "read it with casino.kernel.amounts.AmountField: in a model form, Meta.formfield_callback = "
    "casino.kernel.amounts.model_formfield; in an admin, the AmountFields mixin "
    "(casino.admin.base); elsewhere declare AmountField() and bind it to the venue "
    "(casino.kernel.amounts.bind_amounts)"
)
SERIALIZER_FIX = "declare it as casino.api.serializers.fields.MoneyField()"


def _project_modules() -> None:
    """Import every module of the project's apps, so that every form and serializer class
    it defines exists (migrations, management commands and engines define none)."""
    for name in PROJECT:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, f"{name}."):
            if ".migrations" in info.name or ".engine" in info.name:
                continue
            importlib.import_module(info.name)


def _subclasses(base: type) -> Iterator[type]:
    seen: set[type] = set()
    stack = list(base.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        stack.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] in PROJECT:
            yield cls


#: A list's page size, not an amount.
PAGINATION = frozenset({"limit", "offset"})


def _named_as_amount(name: str) -> bool:
    return name not in PAGINATION and name.rsplit("_", 1)[-1] in AMOUNT_WORDS


def _form_field_holds_money(name: str, field: forms.Field) -> bool:
    if isinstance(field, AmountField):
        return False
    if isinstance(field, forms.DecimalField) and (
        field.max_digits == MONEY_MAX_DIGITS and field.decimal_places == MONEY_DECIMAL_PLACES
    ):
        return True
    if isinstance(field, forms.ModelChoiceField | forms.ChoiceField | forms.BooleanField):
        return False
    return isinstance(
        field, forms.DecimalField | forms.FloatField | forms.IntegerField | forms.CharField
    ) and _named_as_amount(name)


def _form_problems(where: str, form_class: type[forms.BaseForm]) -> list[str]:
    return [
        f"{where}: field {name!r} ({type(field).__name__}) holds money and is not read by "
        f"the one reader of amounts; {FORM_FIX}"
        for name, field in form_class.base_fields.items()
        if _form_field_holds_money(name, field)
    ]


def _superuser_request() -> Any:
    request = RequestFactory().get("/admin/")
    request.user = get_user_model()(username="guard", is_superuser=True, is_staff=True)
    return request


def _admin_forms() -> Iterator[tuple[str, type[forms.BaseForm]]]:
    request = _superuser_request()
    for model, model_admin in admin.site._registry.items():
        where = f"the admin of {model._meta.label}"
        if model_admin.has_add_permission(request):
            yield f"{where} (add)", model_admin.get_form(request, None, change=False)
        # The form of an object (not saved: a draft, where a ruleset version's fields are
        # editable), whatever may change it: the fields it holds, read-only ones left out.
        yield f"{where} (change)", model_admin.get_form(request, model(), change=False)
        for inline in model_admin.get_inline_instances(request, None):
            formset = inline.get_formset(request, None)
            yield f"{where}, inline {type(inline).__name__}", formset.form


def _serializer_field_holds_money(name: str, field: serializers.Field) -> bool:
    if isinstance(field, MoneyField) or field.read_only:
        return False
    if isinstance(field, serializers.DecimalField):
        return (
            field.max_digits == MONEY_MAX_DIGITS and field.decimal_places == MONEY_DECIMAL_PLACES
        ) or _named_as_amount(name)
    if isinstance(field, serializers.ChoiceField | serializers.BooleanField):
        return False
    return isinstance(
        field, serializers.FloatField | serializers.IntegerField | serializers.CharField
    ) and _named_as_amount(name)


def _serializer_problems(where: str, serializer: Any, seen: set[type]) -> list[str]:
    """Each money field of ``serializer`` that is not a ``MoneyField``, nested ones too."""
    if isinstance(serializer, serializers.ListSerializer):
        serializer = serializer.child
    if type(serializer) in seen:
        return []
    seen.add(type(serializer))
    problems = []
    for name, field in serializer.fields.items():
        path = f"{where}.{name}"
        while isinstance(field, serializers.ListField | serializers.DictField):
            field, path = field.child, f"{path}[]"
        if isinstance(field, serializers.BaseSerializer):
            problems += _serializer_problems(path, field, seen)
        elif _serializer_field_holds_money(name, field):
            problems.append(
                f"{path} ({type(field).__name__}) holds money and is not read by the one "
                f"reader of amounts; {SERIALIZER_FIX}"
            )
    return problems


@pytest.fixture(scope="module")
def project_modules():
    _project_modules()


def test_every_form_reads_its_amounts_with_the_one_reader(project_modules, db):
    form_classes = [
        (f"{cls.__module__}.{cls.__qualname__}", cls) for cls in _subclasses(forms.BaseForm)
    ]
    built = list(_admin_forms())
    problems = [
        problem
        for where, form_class in form_classes + built
        for problem in _form_problems(where, form_class)
    ]
    assert not problems, "\n".join(problems)
    # The walk saw the forms with amounts it guards (not an empty list that passes).
    fields = {
        (where, name)
        for where, form_class in built
        for name, field in form_class.base_fields.items()
        if isinstance(field, AmountField)
    }
    assert ("the admin of venues.Venue (change)", "rounding_unit") in fields
    assert ("the admin of venues.Table, inline TableLimitInline", "min_stake") in fields
    assert ("the admin of baccarat.BaccaratRulesetVersion (change)", "rounding_unit") in fields


def test_every_serializer_reads_its_amounts_with_the_one_reader(project_modules):
    classes = [
        cls for cls in _subclasses(serializers.Serializer) if not cls.__module__.startswith("tests")
    ]
    problems = []
    for cls in classes:
        try:
            serializer = cls()
        except TypeError:
            continue  # one that needs arguments is built by its parent, walked there
        problems += _serializer_problems(f"{cls.__module__}.{cls.__qualname__}", serializer, set())
    assert not problems, "\n".join(problems)
    names = {f"{cls.__module__}.{cls.__qualname__}" for cls in classes}
    assert "casino.floor.api.session_serializers.DropInputSerializer" in names


def test_the_guard_names_a_form_field_that_is_not_the_reader_and_says_how_to_fix_it():
    class CompForm(forms.Form):
        amount = forms.DecimalField(max_digits=MONEY_MAX_DIGITS, decimal_places=2)
        manager_limit = forms.CharField()
        reason = forms.CharField()

    problems = _form_problems("CompForm", CompForm)
    assert len(problems) == 2
    assert problems[0].startswith("CompForm: field 'amount' (DecimalField) holds money")
    assert "casino.kernel.amounts.AmountField" in problems[0]
    assert problems[1].startswith("CompForm: field 'manager_limit' (CharField)")


def test_the_guard_names_a_nested_serializer_field_and_says_how_to_fix_it():
    class Line(serializers.Serializer):
        stake = serializers.DecimalField(max_digits=MONEY_MAX_DIGITS, decimal_places=2)
        shown = MoneyField(read_only=True)

    class Round(serializers.Serializer):
        lines = Line(many=True)
        bets = serializers.DictField(child=serializers.FloatField())
        note = serializers.CharField()

    problems = _serializer_problems("Round", Round(), set())
    assert problems == [
        f"Round.lines.stake (DecimalField) holds money and is not read by the one reader of "
        f"amounts; {SERIALIZER_FIX}",
        f"Round.bets[] (FloatField) holds money and is not read by the one reader of "
        f"amounts; {SERIALIZER_FIX}",
    ]
