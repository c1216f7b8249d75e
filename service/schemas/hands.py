"""Each variant's hand record as a typed schema of its own, for the OpenAPI document.

The schemas are built from what each variant says of its hand record (``describe()``'s
``hand_fields``, ``error_kinds`` and ``matadores``), so a contract or field the rules gain is
documented without a second list to keep in step. They describe; the rules check: a hand goes
to its variant's ``parse_hand``, which refuses with the field's JSON path
(``hand.matadores.lower``) whatever these schemas would refuse, and more (the rules' relations
between fields). ``tests/api/test_contract.py`` holds every example hand of the rulebook valid
under its variant's schema here.

Component names (as ``openapi.yaml`` and generated clients show them):

- ``AmericanPlayedHand``, ``AmericanForfeit``, ``AmericanMisdeal`` (American Solo's three kinds
  of record, together ``AmericanHand``), ``SpanishHand``, ``GermanHand``, ``Solo66Hand``;
- each with ``…Create`` beside it: the same record plus ``expected_number``, the body of
  ``recordHand``;
- the nested objects: ``<Variant>CalledCard``, ``AmericanMatadores``, ``<Variant>HandError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from .. import rules
from ..rules.base import SUITS

# The variants' names as the document spells its schemas (``solo66`` → ``Solo66``).
TITLES = {"american": "American", "spanish": "Spanish", "german": "German", "solo66": "Solo66"}
MAX_SEAT = 4
"""The highest seat of any table (five players)."""

EXPECTED_NUMBER = {
    "description": "The number this hand should get; 409 (`hand-number-taken`, with "
    "`next_number`) if the table has moved on.",
    "minimum": 1,
    "maximum": 2**31 - 1,
}


class ClosedSchema(Schema):
    """A JSON object with no members beyond its fields (``additionalProperties: false``): the
    rules refuse an unknown field by name."""

    class Meta:
        unknown = RAISE


def _schema(name: str, members: Mapping[str, fields.Field[Any]]) -> type[Schema]:
    return ClosedSchema.from_dict(dict(members), name=name)


def _max(field: Mapping[str, Any]) -> int | None:
    if "max" in field:
        return int(field["max"])
    if "max_by_players" in field:
        return max(int(v) for v in field["max_by_players"].values())
    return None


def _field(title: str, spec: Mapping[str, Any], described: Mapping[str, Any]) -> fields.Field[Any]:
    """The marshmallow field of one entry of a variant's ``hand_fields``."""
    name = spec["name"]
    nullable = bool(spec.get("nullable", False))
    meta: dict[str, Any] = {"description": spec.get("description", "")}
    default = spec.get("default")
    if default is not None:
        # Said in words, not as `default`: generators (openapi-typescript) take a property
        # with a default for one always present, which a request's optional field is not.
        worded = isinstance(default, str) and spec["type"] != "string"  # "134 - soloist_points"
        meta["description"] += f" (default: {default if worded else json.dumps(default)})"
    common: dict[str, Any] = {
        "required": bool(spec.get("required", False)),
        "allow_none": nullable,
        "metadata": meta,
    }
    kind = spec["type"]
    if kind == "string":
        allowed = spec.get("allowed")
        if allowed and list(allowed) == list(SUITS):
            meta["enum_component"] = "Suit"
        elif name == "contract":
            meta["enum_component"] = f"{title}Contract"
        return fields.String(
            validate=validate.OneOf(allowed) if allowed else validate.Length(max=32), **common
        )
    if kind == "integer":
        low, high = spec.get("min", 0), _max(spec)
        return fields.Integer(strict=True, validate=validate.Range(min=low, max=high), **common)
    if kind == "boolean":
        return fields.Boolean(**common)
    if kind == "object" and name == "called":
        card = _schema(
            f"{title}CalledCard",
            {
                "rank": fields.String(
                    required=True,
                    validate=validate.OneOf(spec["fields"]["rank"]),
                    metadata={"enum_component": f"{title}CalledRank"},
                ),
                "suit": fields.String(
                    required=True,
                    validate=validate.OneOf(spec["fields"]["suit"]),
                    metadata={"enum_component": "Suit"},
                ),
            },
        )
        return fields.Nested(card, **common)
    if kind == "object" and name == "matadores":
        matadores = described["matadores"]
        most = max(n for by_suit in matadores["max_lower"].values() for n in by_suit.values())
        side = _schema(
            f"{title}Matadores",
            {
                "side": fields.String(
                    required=True,
                    validate=validate.OneOf(matadores["sides"]),
                    metadata={"description": "The side holding Spadilla, Manilla and Basta."},
                ),
                "lower": fields.Integer(
                    required=True,
                    strict=True,
                    validate=validate.Range(min=0, max=most),
                    metadata={
                        "description": "How many lower matadores follow "
                        "unbroken (the most depends on the "
                        "trump suit and the players)."
                    },
                ),
            },
        )
        return fields.Nested(side, **common)
    if kind == "array" and name == "errors":
        kinds = [k["name"] for k in described["error_kinds"]]
        error = _schema(
            f"{title}HandError",
            {
                "kind": fields.String(
                    required=True,
                    validate=validate.OneOf(kinds),
                    metadata={"enum_component": f"{title}ErrorKind"},
                ),
                "seat": fields.Integer(
                    required=True,
                    strict=True,
                    validate=validate.Range(min=0, max=MAX_SEAT),
                    metadata={"description": "The seat that made the error."},
                ),
            },
        )
        common["validate"] = validate.Length(max=int(spec.get("max_items", 16)))
        return fields.List(fields.Nested(error), **common)
    raise ValueError(f"{title}: no schema for hand field {name!r} of type {kind!r}")


def _variant_tag(variant: str) -> fields.Field[Any]:
    """The optional ``variant`` of a record: the discriminator that tells the variants' records
    apart for generated clients. A record without it is its table's, as before."""
    return fields.String(
        validate=validate.OneOf([variant]),
        metadata={
            "description": f"`{variant}`: optional, and the table's variant when given (422 "
            "`hand.variant` otherwise); the discriminator a typed client picks the record's "
            "type by."
        },
    )


def _played_members(variant: str) -> dict[str, fields.Field[Any]]:
    described = rules.VARIANTS[variant].describe()
    title = TITLES[variant]
    members: dict[str, fields.Field[Any]] = {"variant": _variant_tag(variant)}
    for spec in described["hand_fields"]:
        if spec["name"] == "kind":
            # American Solo's forfeit and misdeal have schemas of their own.
            members["kind"] = fields.String(
                validate=validate.OneOf(["played"]),
                metadata={"description": "Only `played` here (the default)."},
            )
        else:
            members[spec["name"]] = _field(title, spec, described)
    return members


def _with_expected_number(members: Mapping[str, fields.Field[Any]]) -> dict[str, fields.Field[Any]]:
    return {**members, "expected_number": fields.Integer(strict=True, metadata=EXPECTED_NUMBER)}


def _american_others() -> dict[str, dict[str, fields.Field[Any]]]:
    seat = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "The seat that pays the bête."},
    )
    return {
        "AmericanForfeit": {
            "variant": _variant_tag("american"),
            "kind": fields.String(required=True, validate=validate.OneOf(["forfeit"])),
            "seat": seat,
        },
        "AmericanMisdeal": {
            "variant": _variant_tag("american"),
            "kind": fields.String(required=True, validate=validate.OneOf(["misdeal"])),
        },
    }


@cache
def hand_schemas() -> dict[str, type[Schema]]:
    """Every hand record schema by its component name, ``…Create`` ones included (each pair
    shares its nested schemas, so each nested one is one component)."""
    members: dict[str, dict[str, fields.Field[Any]]] = {}
    for variant, title in TITLES.items():
        name = f"{title}PlayedHand" if variant == "american" else f"{title}Hand"
        members[name] = _played_members(variant)
    members.update(_american_others())
    out: dict[str, type[Schema]] = {}
    for name, fields_ in members.items():
        out[name] = _schema(name, fields_)
        out[f"{name}Create"] = _schema(f"{name}Create", _with_expected_number(fields_))
    return out


def variant_hand_names(create: bool = False) -> dict[str, list[str]]:
    """The component names of each variant's records (American Solo has three kinds)."""
    suffix = "Create" if create else ""
    return {
        "american": [
            f"AmericanPlayedHand{suffix}",
            f"AmericanForfeit{suffix}",
            f"AmericanMisdeal{suffix}",
        ],
        "spanish": [f"SpanishHand{suffix}"],
        "german": [f"GermanHand{suffix}"],
        "solo66": [f"Solo66Hand{suffix}"],
    }


def ref(name: str) -> dict[str, str]:
    """A JSON reference to the component schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def unions() -> dict[str, dict[str, Any]]:
    """The union components: American Solo's record (one of its three kinds, told apart by
    ``kind``), and a table's record (one variant's, told apart by ``variant``).

    Both are ``oneOf`` with a ``discriminator`` whose ``mapping`` names every member, so a
    generated client picks the member by the tag and never by trying them in turn (a plain
    solo is a valid American, Spanish and German record alike: only the tag tells them
    apart). The tags stay optional in requests, as before they existed: the table's variant
    decides, and a played hand is the default kind (docs/api.md, "Hand bodies")."""
    out: dict[str, dict[str, Any]] = {}
    for suffix in ("", "Create"):
        names = variant_hand_names(create=bool(suffix))
        out[f"AmericanHand{suffix}"] = {
            "description": "An American Solo record: a played hand, a forfeit or a misdeal, "
            "told apart by `kind`.",
            "oneOf": [ref(n) for n in names["american"]],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {
                    kind: ref(name)["$ref"]
                    for kind, name in zip(
                        ("played", "forfeit", "misdeal"), names["american"], strict=True
                    )
                },
            },
        }
        members = {"american": f"AmericanHand{suffix}"} | {
            v: names[v][0] for v in ("spanish", "german", "solo66")
        }
        out[f"HandRecord{suffix}"] = {
            "description": "A hand record of the table's variant, told apart by `variant` (a "
            "record of another variant is refused, 422, naming the field)."
            + (" With `expected_number`, the number it should get." if suffix else ""),
            "oneOf": [ref(n) for n in members.values()],
            "discriminator": {
                "propertyName": "variant",
                "mapping": {v: ref(n)["$ref"] for v, n in members.items()},
            },
        }
    return out


@cache
def preview_schemas() -> dict[str, type[Schema]]:
    """One preview request per variant; ``PreviewRequest`` is their ``oneOf`` by ``variant``."""
    from .settlements import bounded_dict

    out: dict[str, type[Schema]] = {}
    schemas = hand_schemas()
    for variant, title in TITLES.items():
        players = rules.VARIANTS[variant].describe()["players"]
        if variant == "american":
            hand: fields.Field[Any] = fields.Raw(
                required=True,
                metadata={"allOf": [ref("AmericanHand")], "description": "The hand record."},
            )
        else:
            hand = fields.Nested(schemas[f"{title}Hand"], required=True)
        name = f"{title}PreviewRequest"
        out[name] = _schema(
            name,
            {
                "variant": fields.String(required=True, validate=validate.OneOf([variant])),
                "players": fields.Integer(
                    required=True,
                    strict=True,
                    validate=validate.Range(min=min(players), max=max(players)),
                ),
                "options": bounded_dict(
                    allow_none=True,
                    metadata={
                        "description": "The variant's options (`GET /api/v1/variants`); "
                        "omitted ones take their defaults."
                    },
                ),
                "state": bounded_dict(
                    allow_none=True,
                    metadata={
                        "description": "The table state before the hand, with the keys "
                        f"{_state_keys(variant)} (`state_fields` of `GET /api/v1/variants`); "
                        "omitted keys are a fresh table's, any other is refused.",
                        "properties": _state_properties(variant),
                        "additionalProperties": False,
                    },
                ),
                "hand": hand,
            },
        )
    return out


def _state_properties(variant: str) -> dict[str, dict[str, Any]]:
    """Each key of a variant's state as a JSON Schema, from its ``state_fields``."""
    properties = {}
    for spec in rules.VARIANTS[variant].describe()["state_fields"]:
        prop: dict[str, Any] = {"description": spec["description"]}
        if "allowed" in spec:
            prop["enum"] = list(spec["allowed"])
        if spec.get("nullable"):
            prop["type"] = [spec["type"], "null"]
            if "enum" in prop:
                prop["enum"].append(None)
        else:
            prop["type"] = spec["type"]
        if spec.get("seat"):
            prop["minimum"] = 0
        for bound, keyword in (("min", "minimum"), ("max", "maximum")):
            if bound in spec:
                prop[keyword] = spec[bound]
        properties[spec["name"]] = prop
    return properties


def _state_keys(variant: str) -> str:
    """The keys a variant's state takes, as the preview's description names them."""
    keys = [f"`{spec['name']}`" for spec in rules.VARIANTS[variant].describe()["state_fields"]]
    return keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1]


def preview_request() -> dict[str, Any]:
    """The ``PreviewRequest`` component: one request per variant, told apart by ``variant``."""
    names = {variant: f"{title}PreviewRequest" for variant, title in TITLES.items()}
    return {
        "description": "A hand to settle at a given table state, storing nothing.",
        "oneOf": [ref(n) for n in names.values()],
        "discriminator": {
            "propertyName": "variant",
            "mapping": {v: ref(n)["$ref"] for v, n in names.items()},
        },
    }
