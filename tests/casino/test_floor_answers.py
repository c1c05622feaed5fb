"""What the floor asks of the apps above it (``casino.floor.answers``) and what the venues ask
(``casino.venues.hooks``) is answered by the app each question names, registered when it is
ready; an answer nobody registered is a configuration error, not an empty figure."""

from __future__ import annotations

import pytest

from casino.cage import answers as cage_answers
from casino.count import selectors as count_selectors
from casino.floor import answers
from casino.kernel.hooks import Hook
from casino.venues import hooks

QUESTIONS = [
    hook for module in (answers, hooks) for hook in vars(module).values() if isinstance(hook, Hook)
]


def test_the_project_declares_its_questions():
    assert {hook.name for hook in QUESTIONS} == {
        "box_counted",
        "pending_slips",
        "session_sums",
        "slips_waiting",
        "slips_waiting_by_session",
        "cash_reported_by_session",
        "crossings",
        "late_rounds",
        "open_session",
        "ruleset_get",
    }


@pytest.mark.parametrize("hook", QUESTIONS, ids=lambda hook: hook.name)
def test_each_question_is_answered_by_the_app_it_names(hook):
    assert hook.answer is not None, hook.name
    assert hook.answer.__module__.startswith(hook.answered_by + "."), hook.answer.__module__


def test_the_cage_and_the_count_answer_the_floor():
    assert answers.box_counted.answer is count_selectors.box_counted
    assert answers.pending_slips.answer is cage_answers.pending_slips
    assert answers.crossings.answer is cage_answers.crossings
    assert answers.late_rounds.answer is cage_answers.late_rounds
