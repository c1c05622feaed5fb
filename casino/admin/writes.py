"""The admin writes through the services, like the API and the console.

A model admin with :class:`ServiceWrites` never saves a form or an inline itself: its
``write`` calls the services with what the form and its inlines hold, so the admin gets the
same validation, the same audit events and the same words as the API. When a service
refuses (``casino.kernel.errors.ServiceError``), the save is rolled back and the same form is
shown again with the message on the field the error names (``chip_denominations[1]`` on
the chips, ``limits.single.min_stake`` on the single limit's row), or above the form.

Django's admin calls a POST's steps (the form, the inlines, the save, the history's
message, the answer) as separate methods of one registered admin, shared by every request.
What one POST's steps hand each other (the refusal shown again, what ``write`` said) is
kept on an admin made for that POST alone (``ServiceWrites.for_post``), never on the
request or on the saved object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Self

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.forms.models import construct_instance
from django.http import HttpRequest

from casino.kernel.errors import ServiceError


@dataclass(frozen=True)
class Note:
    """A sentence ``write`` has to say: in the admin's history (LogEntry) and above the
    page, at ``level``."""

    text: str
    level: int = messages.SUCCESS


@dataclass(frozen=True)
class Written:
    """What ``write`` saved (``obj``, the object the admin logs and redirects to) and what
    it says about it. ``instead``: nothing was saved but what the notes say (a change only
    asked for, that another manager approves), so Django's "changed successfully" is not
    shown."""

    obj: Any
    notes: tuple[Note, ...] = ()
    instead: bool = False


@dataclass
class Post:
    """One POST of a change form, as its steps hand it on: the refusal its form is shown
    again with, and what its ``write`` saved and said (set once the write is done)."""

    refused: ServiceError | None = None
    written: Written | None = None


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


def with_refusal_shown(
    form_class: type[forms.BaseForm], error: ServiceError | None, **kwargs: Any
) -> type[forms.BaseForm]:
    """``form_class``, made to show ``error`` (a refusal, or None) once it has cleaned."""
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

    ``write`` calls the services and returns the saved object, or a :class:`Written` when it
    has something to say (its notes go in the admin's history and above the page).

    A POST is handled by an admin made for it (``for_post``), which holds that POST's
    :class:`Post`; the admin the site registered serves every request and holds none.
    """

    #: Inputs of the service that an inline shows (e.g. ``limits``), not the main form.
    inline_inputs: tuple[str, ...] = ()
    #: The POST this admin was made for (``for_post``); None on the registered admin.
    post: Post | None = None

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Any:
        raise NotImplementedError

    def for_post(self, *, refused: ServiceError | None = None) -> Self:
        """An admin of the same model and site, for one POST, showing ``refused`` if given."""
        handler = type(self)(self.model, self.admin_site)  # type: ignore[attr-defined,call-arg]
        handler.post = Post(refused=refused)
        return handler

    @property
    def refused(self) -> ServiceError | None:
        """The refusal this POST's form is shown again with (None on a first try, a GET)."""
        return self.post.refused if self.post is not None else None

    @property
    def written(self) -> Written | None:
        """What this POST's ``write`` saved and said (None before it, or without one)."""
        return self.post.written if self.post is not None else None

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        if request.method != "POST":
            return super().changeform_view(request, object_id, form_url, extra_context)  # type: ignore[misc]
        view = super(ServiceWrites, self.for_post()).changeform_view  # type: ignore[misc]
        try:
            return view(request, object_id, form_url, extra_context)
        except ServiceError as error:
            # The refused save is rolled back (the view's transaction); the same POST is
            # shown again by an admin that knows nothing of the refused write but the
            # refusal, its form invalid with the service's message.
            again = super(ServiceWrites, self.for_post(refused=error)).changeform_view  # type: ignore[misc]
            return again(request, object_id, form_url, extra_context)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs):
        form_class = super().get_form(request, obj, change=change, **kwargs)  # type: ignore[misc]
        return with_refusal_shown(form_class, self.refused, elsewhere=self.inline_inputs)

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list:
        """The inlines (made anew for each request by Django), each told this POST's
        refusal if it shows a service input."""
        inlines = super().get_inline_instances(request, obj)  # type: ignore[misc]
        for inline in inlines:
            if isinstance(inline, InlineRefusalShown):
                inline.refused = self.refused
        return inlines

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Nothing is saved here: ``save_related`` writes the object and its inlines at once."""

    def save_related(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> None:
        if self.post is None:
            raise RuntimeError("a write is a POST's: changeform_view hands it to for_post()")
        saved = self.write(request, form, formsets, change)
        written = saved if isinstance(saved, Written) else Written(saved)
        adopt(form.instance, written.obj)
        for note in written.notes:
            super().message_user(request, note.text, note.level)  # type: ignore[misc]
        self.post.written = written  # for the POST's next steps: the history, the answer

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: list, add: bool
    ) -> Any:
        if self.written is not None and self.written.notes:
            return " ".join(note.text for note in self.written.notes)
        # The form's own fields as Django words them; inlines are not saved by Django here.
        return super().construct_change_message(request, form, [], add)  # type: ignore[misc]

    def message_user(
        self, request: HttpRequest, message: Any, level: int = messages.INFO, *args, **kwargs
    ):
        if level == messages.SUCCESS and self.written is not None and self.written.instead:
            return  # Django's word that the object was saved: the notes say what was
        super().message_user(request, message, level, *args, **kwargs)  # type: ignore[misc]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        raise PermissionDenied  # ``write`` saves the inlines, through the services


class InlineRefusalShown:
    """An inline ``ModelAdmin`` mixin: a refusal about the service input it edits
    (``service_input``, e.g. ``limits``) is shown on its row (``row_key`` names a row as the
    service does, e.g. the bet type), or above its rows."""

    service_input: str
    row_key_field: str
    #: The refusal of the POST this inline is shown in (``ServiceWrites.get_inline_instances``).
    refused: ServiceError | None = None

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset_class = super().get_formset(request, obj, **kwargs)  # type: ignore[misc]
        error = self.refused
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
