"""Hypothesis' examples of every operation (``FUZZ_EXAMPLES`` each), positive
(schema-valid): each answered as documented (``cases.py``)."""

from __future__ import annotations

import pytest
from schemathesis import GenerationMode

from .cases import fuzzing_phase

pytestmark = pytest.mark.slow


def test_fuzzing_phase_answers_as_documented(operations, world):
    fuzzing_phase(operations, world, GenerationMode.POSITIVE)
