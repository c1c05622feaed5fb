import pytest

from niuniu.services import venue_ruleset_from_preset


@pytest.fixture
def draft(venue, manager):
    """A draft of ``venue``'s own copy of vn-kr-004, by ``manager``."""
    return venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
