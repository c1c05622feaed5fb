"""What the floor asks of the apps above it (``casino.floor.answers``) is answered by the
cage and the count, registered when they are ready; an answer nobody registered is a
configuration error, not an empty figure."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.cage import answers as cage_answers
from casino.count import selectors as count_selectors
from casino.floor import answers


def test_the_cage_and_the_count_answer_the_floor():
    assert answers.cage() is cage_answers
    assert answers.count() is count_selectors


def test_an_answer_nobody_registered_is_refused(monkeypatch):
    monkeypatch.setattr(answers, "_answers", {})
    with pytest.raises(ImproperlyConfigured, match="the cage has not registered"):
        answers.cage()
    with pytest.raises(ImproperlyConfigured, match="the count has not registered"):
        answers.count()
