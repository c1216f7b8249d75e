"""marshmallow schemas: the HTTP shapes, translated to and from domain values at the edge."""

from .. import rules

VARIANT_NAMES = list(rules.VARIANTS)
VARIANT = {
    "enum": VARIANT_NAMES,
    "enum_component": "VariantName",
    "component_description": "The variant (see `GET /api/v1/variants`).",
}
"""Field metadata of a ``variant``: the known names as an enum (the rules refuse others), in
the document one shared component ``VariantName`` (``api/openapi.py``'s ``named_enum``), so a
generated client has one type for it rather than one per field; its words are the
component's, said once (a field with words of its own, ``SeasonCreate``'s, has them beside)."""
