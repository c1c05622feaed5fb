"""A question a lower app asks and a higher app answers, the one way the project inverts a
dependency that must return something (a signal tells; it does not answer).

The asking app declares each question as a ``Hook`` in a module of its own (the venues'
``casino/venues/hooks.py``, the floor's ``casino/floor/answers.py``), naming the one app
that answers it; that app registers its answer in its ``AppConfig.ready()``. The rule stays
with the app that owns it; the asking app only calls. An unanswered question fails loudly,
naming the app that should answer it; a second, different answer is a wiring error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec, TypeVar

from django.core.exceptions import ImproperlyConfigured

P = ParamSpec("P")
R = TypeVar("R")


class Hook(Generic[P, R]):
    """A question with one answer, registered by the app that owns it."""

    def __init__(self, name: str, *, answered_by: str) -> None:
        self.name = name
        self.answered_by = answered_by
        self._answer: Callable[P, R] | None = None

    @property
    def answer(self) -> Callable[P, R] | None:
        """The registered answer, or None before its app is ready."""
        return self._answer

    def register(self, answer: Callable[P, R]) -> None:
        """Register the answer; a second, different answer is a wiring error."""
        if self._answer is not None and self._answer is not answer:
            raise ImproperlyConfigured(f"{self.name} is answered already ({self._answer!r})")
        self._answer = answer

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._answer is None:
            raise ImproperlyConfigured(
                f"nothing answers {self.name}: {self.answered_by} registers its answer when "
                "it is ready; is it in INSTALLED_APPS?"
            )
        return self._answer(*args, **kwargs)
