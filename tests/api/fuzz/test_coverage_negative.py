"""Schemathesis' deterministic boundary cases of every operation, negative (schema-breaking):
each answered as documented (``cases.py``)."""

from __future__ import annotations

import pytest
from schemathesis import GenerationMode

from .cases import coverage_phase

pytestmark = pytest.mark.slow


def test_coverage_phase_answers_as_documented(fuzz_schema, operations, world):
    coverage_phase(fuzz_schema, operations, world, GenerationMode.NEGATIVE)
