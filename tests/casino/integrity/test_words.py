"""The run's stored words are read in the reader's language (casino/integrity/words.py)."""

from __future__ import annotations

from django.utils import translation

from casino.integrity.words import key_shown, note_shown


def test_a_note_of_the_runs_shape_is_read_in_the_readers_language():
    with translation.override("en"):
        assert note_shown("1 rounds, 200 needed") == "1 round, 200 needed"
        assert note_shown("50 boxes, 200 needed") == "50 boxes, 200 needed"
    with translation.override("vi"):
        shown = note_shown("50 rounds, 200 needed")
    assert shown != "50 rounds, 200 needed"
    assert "50" in shown and "200" in shown


def test_the_rarest_and_commonest_cards_are_read_in_the_readers_language():
    with translation.override("ko"):
        rarest, commonest = key_shown("A♠ (rarest)"), key_shown("6♥ (commonest)")
    assert "(rarest)" not in rarest
    assert "A♠" in rarest and "6♥" in commonest
    assert "(commonest)" not in commonest


def test_a_card_named_out_of_its_band_is_read_in_the_readers_language():
    with translation.override("vi"):
        few, many = key_shown("A♠ (too few)"), key_shown("6♥ (too many)")
    assert "(too few)" not in few and "A♠" in few
    assert "(too many)" not in many and "6♥" in many


def test_words_of_another_shape_are_shown_as_stored():
    with translation.override("pt"):
        assert note_shown("no dealer hands yet") == "no dealer hands yet"
        assert key_shown("banker/natural") == "banker/natural"
        assert key_shown(7) == "7"
