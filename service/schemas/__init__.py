"""marshmallow schemas: the HTTP shapes, translated to and from domain values at the edge."""

from .. import rules

VARIANT_NAMES = list(rules.VARIANTS)
VARIANT = {"enum": VARIANT_NAMES, "description": "The variant (see `GET /api/v1/variants`)."}
"""Field metadata of a ``variant``: the known names as an enum (the rules refuse others)."""
