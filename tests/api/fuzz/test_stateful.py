"""Stateful scenarios (``FUZZ_STATEFUL_SCENARIOS``) that follow the document's links between
operations, each call answered as documented (``cases.py``)."""

from __future__ import annotations

import pytest

from .cases import stateful_phase

pytestmark = pytest.mark.slow


def test_stateful_sequences_follow_the_links_between_operations(fuzz_schema, world):
    stateful_phase(fuzz_schema, world)
