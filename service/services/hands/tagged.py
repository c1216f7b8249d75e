"""A hand body's ``variant``: the tag typed clients send so that their generated code can tell
the variants' records apart (the document's discriminator). It is not part of the record: a
record without it is its table's, as before the tag existed; with it, it must name the
table's variant. Answers carry it on every record they show (``tagged``)."""

from __future__ import annotations

from typing import Any

from ...rules.base import RuleViolation


def untagged(body: dict[str, Any], variant: str, field: str = "hand.variant") -> dict[str, Any]:
    """``body`` without its ``variant`` tag, which must be ``variant`` when given (else
    ``RuleViolation`` on ``field``); a body without the tag comes back as it is."""
    if "variant" not in body:
        return body
    rest = {key: value for key, value in body.items() if key != "variant"}
    if body["variant"] != variant:
        raise RuleViolation(field, "must be %(variant)s or left out", variant=variant)
    return rest


def tagged(record: dict[str, Any], variant: str) -> dict[str, Any]:
    """A stored record as answers show it: with its table's ``variant`` first, so a typed
    client picks the record's type by the same tag (the stored record stays untagged)."""
    return {"variant": variant, **record}
