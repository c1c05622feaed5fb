"""The admin writes through the services, like the API and the console.

A model admin with :class:`ServiceWrites` never saves a form or an inline itself: its
``write`` calls the services with what the form and its inlines hold, so the admin gets the
same validation, the same audit events and the same words as the API. When a service
refuses (``casino.kernel.errors.ServiceError``), the save is rolled back and the same form is
shown again with the message on the field the error names (``chip_denominations[1]`` on
the chips, ``limits.single.min_stake`` on the single limit's row), or above the form.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.forms.models import construct_instance
from django.http import HttpRequest

from casino.kernel.errors import ServiceError

#: Where the admin keeps a service's refusal between the refused save and the form shown again.
_REFUSAL = "_casino_service_refusal"


def refusal(request: HttpRequest) -> ServiceError | None:
    return getattr(request, _REFUSAL, None)


def field_path(error: ServiceError) -> list[str]:
    """``limits.single.min_stake`` -> ``["limits", "single", "min_stake"]``;
    ``chip_denominations[1]`` -> ``["chip_denominations", "1"]``."""
    return [part for part in re.split(r"[.\[\]]+", error.field or "") if part]


class ParseOnlyModelForm(forms.ModelForm):
    """A model form that parses its fields (types, lengths, choices) and leaves the rules
    (the model's checks, uniqueness) to the service, so they are worded as the API words
    them."""

    def _post_clean(self) -> None:
        opts = self._meta
        self.instance = construct_instance(self, self.instance, opts.fields, opts.exclude)


def show_on_form(form: forms.BaseForm, error: ServiceError, *, elsewhere: tuple[str, ...] = ()):
    """Put the service's message on the form field it names, or above the form. Errors
    about the inputs in ``elsewhere`` (an inline's) are shown by that inline instead."""
    path = field_path(error)
    name = path[0] if path else None
    if name in elsewhere:
        return
    form.add_error(name if name in form.fields else None, error.message)


def with_refusal_shown(form_class: type[forms.BaseForm], request: HttpRequest, **kwargs: Any):
    """``form_class``, made to show the refusal kept on ``request`` once it has cleaned."""
    error = refusal(request)
    if error is None:
        return form_class

    def clean(self: forms.BaseForm) -> Any:
        cleaned = super(refused, self).clean()
        show_on_form(self, error, **kwargs)
        return cleaned

    refused = type(form_class.__name__, (form_class,), {"clean": clean})
    return refused


def adopt(instance: models.Model, saved: models.Model) -> None:
    """Make the admin's own object (the one it logs and redirects to) the saved one."""
    instance.pk = saved.pk
    instance._state.adding = False
    instance._state.db = saved._state.db
    instance.refresh_from_db()


class ServiceWrites:
    """A ``ModelAdmin`` mixin: saves are ``write(request, form, formsets, change)``.

    ``write`` calls the services and returns the saved object; it may add sentences to
    ``request`` with ``note`` for the admin's history (LogEntry) and the message shown.
    """

    #: Inputs of the service that an inline shows (e.g. ``limits``), not the main form.
    inline_inputs: tuple[str, ...] = ()

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Any:
        raise NotImplementedError

    @staticmethod
    def note(
        request: HttpRequest, text: str, *, level: int = messages.SUCCESS, instead: bool = False
    ) -> None:
        """Say ``text`` in the admin's history and above the page, at ``level``. ``instead``:
        nothing was saved but what ``text`` says (e.g. a change only asked for, that
        another manager approves), so Django's "changed successfully" is not shown."""
        request.__dict__.setdefault("_casino_admin_notes", []).append(str(text))
        request.__dict__.setdefault("_casino_admin_shown", []).append((str(text), level))
        if instead:
            request.__dict__["_casino_admin_instead"] = True

    def message_user(
        self, request: HttpRequest, message: Any, level: int = messages.INFO, *args, **kwargs
    ):
        if level == messages.SUCCESS and request.__dict__.get("_casino_admin_instead"):
            return  # Django's word that the object was saved: the notes say what was
        super().message_user(request, message, level, *args, **kwargs)  # type: ignore[misc]

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        if request.method != "POST":
            return super().changeform_view(request, object_id, form_url, extra_context)
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ServiceError as error:
            # The refused save is rolled back (the view's transaction); the same POST is
            # shown again, its form invalid with the service's message.
            setattr(request, _REFUSAL, error)
            for kept in ("_casino_admin_notes", "_casino_admin_shown", "_casino_admin_instead"):
                request.__dict__.pop(kept, None)
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs):
        form_class = super().get_form(request, obj, change=change, **kwargs)
        return with_refusal_shown(form_class, request, elsewhere=self.inline_inputs)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Nothing is saved here: ``save_related`` writes the object and its inlines at once."""

    def save_related(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> None:
        saved = self.write(request, form, formsets, change)
        adopt(form.instance, saved)
        for text, level in request.__dict__.get("_casino_admin_shown", []):
            super().message_user(request, text, level)  # type: ignore[misc]

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: list, add: bool
    ) -> Any:
        notes = request.__dict__.get("_casino_admin_notes")
        if notes:
            return " ".join(notes)
        # The form's own fields as Django words them; inlines are not saved by Django here.
        return super().construct_change_message(request, form, [], add)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        raise PermissionDenied  # ``write`` saves the inlines, through the services


class InlineRefusalShown:
    """An inline ``ModelAdmin`` mixin: a refusal about the service input it edits
    (``service_input``, e.g. ``limits``) is shown on its row (``row_key`` names a row as the
    service does, e.g. the bet type), or above its rows."""

    service_input: str
    row_key_field: str

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset_class = super().get_formset(request, obj, **kwargs)
        error = refusal(request)
        path = field_path(error) if error is not None else []
        if not path or path[0] != self.service_input:
            return formset_class
        key_field = self.row_key_field

        def clean(formset: Any) -> None:
            super(refused, formset).clean()
            for form in formset.forms:
                if len(path) < 2 or (formset.can_delete and formset._should_delete_form(form)):
                    continue
                if str(form.cleaned_data.get(key_field, "")).strip() == path[1]:
                    name = path[2] if len(path) > 2 and path[2] in form.fields else None
                    form.add_error(name, error.message)
                    return
            raise forms.ValidationError(error.message)

        refused = type(formset_class.__name__, (formset_class,), {"clean": clean})
        return refused
