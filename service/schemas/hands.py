"""Each variant's hand record as a typed schema of its own, for the OpenAPI document.

The schemas are built from the registered variants alone (``rules.VARIANTS``): each one's
``type_name``, and what its ``describe()`` says of its records (``hand_kinds``, ``hand_fields``,
``error_kinds``, ``contracts``), so a game, a kind of record or a field the rules gain is typed
without a line here; no game's name or field name is written in this module. They describe;
the rules check: a hand goes to its variant's ``parse_hand``, which refuses with the field's
JSON path whatever these schemas would refuse, and more (the rules' relations between fields).
``tests/api/test_contract.py`` holds every example hand of the rulebook valid under its
variant's schema here; ``tests/api/test_fifth_game.py`` has a game registered from tests typed.

Component names (as ``openapi.yaml`` and generated clients show them), ``<V>`` a variant's
``type_name`` and ``<K>``/``<F>`` a kind's or field's name in CamelCase:

- ``<V>Hand``: the record of a variant of one kind; of a variant of several, the ``oneOf`` of
  ``<V><K>Hand`` (its default kind) and ``<V><K>`` (each other kind), told apart by ``kind``;
- each with ``…Create`` beside it: the same record plus ``expected_number``, the body of
  ``recordHand``;
- by a field's shape: ``Suit`` (a string of the suits), ``<V>Contract`` (a string of the
  variant's contracts), ``<V><F>Card`` and ``<V><F>Rank`` (an object of a rank and a suit),
  ``<V><F>`` (an object that describes its ``members``), ``<V>HandError`` and ``<V>ErrorKind``
  (a list whose items each name a seat: the variant's error records).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from .. import rules
from ..json_text import answer_text
from ..rules.base import SUITS
from ..services.tables import MAX_STARTING_POOL, POOL_AT_CLOSE

MAX_SEAT = 4
"""The highest seat of any table (five players)."""

KIND = "kind"
"""The member that tells a variant's kinds of record apart (``describe()``'s ``hand_kinds``);
a variant with none describes only its default kind, and this field with it."""

EXPECTED_NUMBER = {
    "component_description": "The number this hand should get; 409 (`hand-number-taken`, "
    "with `next_number`) if the table has moved on.",
    "minimum": 1,
    "maximum": 2**31 - 1,
    "schema_component": "ExpectedNumber",  # one component for the six `…Create` records
}


class ClosedSchema(Schema):
    """A JSON object with no members beyond its fields (``additionalProperties: false``): the
    rules refuse an unknown field by name."""

    class Meta:
        unknown = RAISE


def _schema(name: str, members: Mapping[str, fields.Field[Any]]) -> type[Schema]:
    return ClosedSchema.from_dict(dict(members), name=name)


def _camel(name: str) -> str:
    """A described name as part of a schema's name (``first_move`` → ``FirstMove``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _max(field: Mapping[str, Any]) -> int | None:
    if "max" in field:
        return int(field["max"])
    if "max_by_players" in field:
        return max(int(v) for v in field["max_by_players"].values())
    return None


def _is_card(spec: Mapping[str, Any]) -> bool:
    """An object of a rank and a suit is a card (as the pad reads it, too)."""
    members = spec.get("fields")
    return isinstance(members, Mapping) and {"rank", "suit"} <= set(members)


def _card(prefix: str, spec: Mapping[str, Any]) -> type[Schema]:
    """A card field's object: ``<prefix>Card``, its ranks the enum ``<prefix>Rank``."""
    return _schema(
        f"{prefix}Card",
        {
            "rank": fields.String(
                required=True,
                validate=validate.OneOf(spec["fields"]["rank"]),
                metadata={"enum_component": f"{prefix}Rank"},
            ),
            "suit": fields.String(
                required=True,
                validate=validate.OneOf(spec["fields"]["suit"]),
                metadata={"enum_component": "Suit"},
            ),
        },
    )


def _error_list_item(title: str, spec: Mapping[str, Any], described: Mapping[str, Any]) -> Any:
    """The items of a list whose items each name a seat (``item_seat``): the family's error
    records, ``{kind, <seat>}`` with the variant's ``error_kinds``."""
    kinds = [k["name"] for k in described["error_kinds"]]
    return _schema(
        f"{title}HandError",
        {
            KIND: fields.String(
                required=True,
                validate=validate.OneOf(kinds),
                metadata={"enum_component": f"{title}ErrorKind"},
            ),
            spec["item_seat"]: fields.Integer(
                required=True,
                strict=True,
                validate=validate.Range(min=0, max=MAX_SEAT),
                metadata={"description": "The seat that made the error."},
            ),
        },
    )


def _field(
    title: str, spec: Mapping[str, Any], described: Mapping[str, Any], top: bool = True
) -> fields.Field[Any]:
    """The marshmallow field of one entry of a variant's ``hand_fields`` (or, ``top`` false,
    of one of an object field's ``members``), by its described type and shape."""
    name = spec["name"]
    nullable = bool(spec.get("nullable", False))
    meta: dict[str, Any] = {}
    if top or "description" in spec:
        meta["description"] = spec.get("description", "")
    default = spec.get("default")
    if default is not None:
        # Said in words, not as `default`: generators (openapi-typescript) take a property
        # with a default for one always present, which a request's optional field is not.
        worded = isinstance(default, str) and spec["type"] != "string"  # a formula
        shown = default if worded else answer_text(default)
        meta["description"] = meta.get("description", "") + f" (default: {shown})"
    common: dict[str, Any] = {
        "required": bool(spec.get("required", False)),
        "metadata": meta,
    }
    if top:
        common["allow_none"] = nullable
    kind = spec["type"]
    if kind == "string":
        allowed = spec.get("allowed")
        contracts = [c["name"] for c in described.get("contracts", ())]
        if allowed and list(allowed) == list(SUITS):
            meta["enum_component"] = "Suit"
        elif top and allowed and list(allowed) == contracts:
            meta["enum_component"] = f"{title}Contract"
        return fields.String(
            validate=validate.OneOf(allowed) if allowed else validate.Length(max=32), **common
        )
    if kind == "integer":
        low, high = spec.get("min", 0), _max(spec)
        return fields.Integer(strict=True, validate=validate.Range(min=low, max=high), **common)
    if kind == "boolean":
        return fields.Boolean(**common)
    if kind == "object" and _is_card(spec):
        return fields.Nested(_card(f"{title}{_camel(name)}", spec), **common)
    if kind == "object" and "members" in spec:
        members = {m["name"]: _field(title, m, described, top=False) for m in spec["members"]}
        return fields.Nested(_schema(f"{title}{_camel(name)}", members), **common)
    if kind == "array" and "item_seat" in spec:
        item = _error_list_item(title, spec, described)
        common["validate"] = validate.Length(max=int(spec.get("max_items", 16)))
        return fields.List(fields.Nested(item), **common)
    raise ValueError(f"{title}: no schema for hand field {name!r} of type {kind!r}")


def _variant_tag(variant: str) -> fields.Field[Any]:
    """The ``variant`` of a record: the discriminator that tells the variants' records apart
    for generated clients, so the document requires it (a generator warns of a discriminator
    its members do not require). The service still takes a record without it as its table's,
    deprecated (``services/hands/tagged.py``, docs/api.md "Hand bodies"). What it must be
    (the table's variant) is said once, by the union ``HandRecord`` of all the records."""
    return fields.String(required=True, validate=validate.OneOf([variant]))


@dataclass(frozen=True)
class Kind:
    """One kind of record of a variant: its ``kind`` and the hand fields it takes."""

    name: str
    default: bool
    specs: tuple[Mapping[str, Any], ...]


def _kinds(described: Mapping[str, Any]) -> list[Kind]:
    """A variant's kinds of record, its default kind (the ``kind`` field's default) first."""
    hand_fields = [f for f in described["hand_fields"] if f["name"] != KIND]
    tag: Mapping[str, Any] = next((f for f in described["hand_fields"] if f["name"] == KIND), {})
    default = tag.get("default")
    described_kinds = described.get("hand_kinds") or ()
    if not described_kinds:
        # Without a ``kind`` field a record is a played hand, as the rules read it too
        # (``rules.common.require_kind_played``).
        return [Kind(str(default or "played"), True, tuple(hand_fields))]
    kinds = []
    for kind in described_kinds:
        own = {f["name"]: f for f in kind.get("hand_fields", ())}
        taken = set(kind["fields"])
        # In the order of the hand fields (the kind's list orders a form's prompts).
        specs = [f for f in hand_fields if f["name"] in taken and f["name"] not in own]
        specs += [own[n] for n in kind["fields"] if n in own]
        kinds.append(Kind(kind["name"], kind["name"] == default, tuple(specs)))
    return sorted(kinds, key=lambda k: not k.default)


def _kind_tag(kind: Kind, several: bool) -> fields.Field[Any]:
    """``kind``: required where it tells a variant's several kinds apart (the discriminator of
    ``<V>Hand``; the service still takes a played hand without it, deprecated); else
    optional, the one kind there is."""
    if kind.default and not several:
        return fields.String(
            validate=validate.OneOf([kind.name]),
            metadata={"description": f"Only `{kind.name}` here (the default)."},
        )
    return fields.String(required=True, validate=validate.OneOf([kind.name]))


def _record_names(variant: rules.Variant) -> dict[str, str]:
    """The component name of each kind of a variant's records: ``<Variant>Hand`` for a variant
    of one kind; for one of several, ``<Variant><Kind>Hand`` for its default kind and
    ``<Variant><Kind>`` for each other."""
    kinds = _kinds(variant.describe())
    title = variant.type_name
    if len(kinds) == 1:
        return {kinds[0].name: f"{title}Hand"}
    return {
        k.name: f"{title}{_camel(k.name)}Hand" if k.default else f"{title}{_camel(k.name)}"
        for k in kinds
    }


def _has_kinds(variant: rules.Variant) -> bool:
    return len(_record_names(variant)) > 1


def _with_expected_number(members: Mapping[str, fields.Field[Any]]) -> dict[str, fields.Field[Any]]:
    return {**members, "expected_number": fields.Integer(strict=True, metadata=EXPECTED_NUMBER)}


def hand_schemas() -> dict[str, type[Schema]]:
    """Every hand record schema by its component name, ``…Create`` ones included (each pair
    shares its nested schemas, so each nested one is one component): the default kinds of all
    variants first, then the others. The same classes for as long as the registered variants
    stay the same (a test may register one more)."""
    return _hand_schemas(tuple(rules.VARIANTS.values()))


@cache
def _hand_schemas(variants: tuple[rules.Variant, ...]) -> dict[str, type[Schema]]:
    records: list[tuple[int, str, dict[str, fields.Field[Any]]]] = []
    for variant in variants:
        described = variant.describe()
        names = _record_names(variant)
        for kind in _kinds(described):
            members: dict[str, fields.Field[Any]] = {
                "variant": _variant_tag(variant.name),
                KIND: _kind_tag(kind, several=len(names) > 1),
            }
            for spec in kind.specs:
                members[spec["name"]] = _field(variant.type_name, spec, described)
            records.append((0 if kind.default else 1, names[kind.name], members))
    out: dict[str, type[Schema]] = {}
    for _, name, fields_ in sorted(records, key=lambda record: record[0]):
        out[name] = _schema(name, fields_)
        out[f"{name}Create"] = _schema(f"{name}Create", _with_expected_number(fields_))
    return out


def variant_hand_names(create: bool = False) -> dict[str, list[str]]:
    """The component names of each variant's records (one per kind, the default first)."""
    suffix = "Create" if create else ""
    return {
        name: [f"{n}{suffix}" for n in _record_names(variant).values()]
        for name, variant in rules.VARIANTS.items()
    }


def ref(name: str) -> dict[str, str]:
    """A JSON reference to the component schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def unions() -> dict[str, dict[str, Any]]:
    """The union components: the record of each variant of several kinds (one of its kinds,
    told apart by ``kind``: ``<V>Hand``), and a table's record (one variant's, told apart
    by ``variant``).

    Both are ``oneOf`` with a ``discriminator`` whose ``mapping`` names every member, so a
    generated client picks the member by the tag and never by trying them in turn (one
    record may be valid under several variants' schemas alike: only the tag tells them
    apart). The members require their tags; the service still takes a body without them (the
    table's variant decides, a played hand is the default kind), deprecated (docs/api.md,
    "Hand bodies")."""
    out: dict[str, dict[str, Any]] = {}
    for suffix in ("", "Create"):
        members: dict[str, str] = {}
        for name, variant in rules.VARIANTS.items():
            kinds = {kind: f"{n}{suffix}" for kind, n in _record_names(variant).items()}
            if len(kinds) == 1:
                members[name] = next(iter(kinds.values()))
                continue
            titles = [k["title"] for k in variant.describe()["hand_kinds"]]
            union = f"{variant.type_name}Hand{suffix}"
            out[union] = {
                "description": f"{_article(variant.title)} {variant.title} record: "
                f"{_listed(titles)}, told apart by `{KIND}`.",
                "oneOf": [ref(n) for n in kinds.values()],
                "discriminator": {
                    "propertyName": KIND,
                    "mapping": {kind: ref(n)["$ref"] for kind, n in kinds.items()},
                },
            }
            members[name] = union
        out[f"HandRecord{suffix}"] = {
            "description": "A hand record of the table's variant, told apart by `variant` (a "
            "record of another variant is refused: 422, naming `hand.variant`)."
            + (" With `expected_number`, the number it should get." if suffix else ""),
            "oneOf": [ref(n) for n in members.values()],
            "discriminator": {
                "propertyName": "variant",
                "mapping": {v: ref(n)["$ref"] for v, n in members.items()},
            },
        }
    return out


def _article(title: str) -> str:
    return "An" if title[:1].casefold() in "aeiou" else "A"


def _listed(titles: list[str]) -> str:
    """The kinds' titles in a sentence: ``["Won", "Void"]`` → "a won hand or a void"."""
    words = [f"{_article(t).casefold()} {t.casefold()}" for t in titles]
    if words:
        words[0] += " hand"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def preview_schemas() -> dict[str, type[Schema]]:
    """One preview request per variant; ``PreviewRequest`` is their ``oneOf`` by ``variant``."""
    return _preview_schemas(tuple(rules.VARIANTS.values()))


@cache
def _preview_schemas(variants: tuple[rules.Variant, ...]) -> dict[str, type[Schema]]:
    from .settlements import bounded_dict

    out: dict[str, type[Schema]] = {}
    schemas = _hand_schemas(variants)
    for variant in variants:
        players = variant.describe()["players"]
        record = f"{variant.type_name}Hand"
        if _has_kinds(variant):
            hand: fields.Field[Any] = fields.Raw(
                required=True,
                metadata={"allOf": [ref(record)], "description": "The hand record."},
            )
        else:
            hand = fields.Nested(schemas[record], required=True)
        name = f"{variant.type_name}PreviewRequest"
        out[name] = _schema(
            name,
            {
                "variant": fields.String(required=True, validate=validate.OneOf([variant.name])),
                "players": fields.Integer(
                    required=True,
                    strict=True,
                    validate=validate.Range(min=min(players), max=max(players)),
                ),
                # Described once, by the union ``PreviewRequest`` (``preview_request``).
                "options": bounded_dict(allow_none=True),
                # Described once, by ``PreviewRequest``; its keys are its own, each described.
                "state": bounded_dict(
                    allow_none=True,
                    metadata={
                        "properties": _state_properties(variant.name),
                        "additionalProperties": False,
                    },
                ),
                "hand": hand,
                # No load_default (``seat_names_field`` says why): left out, it is absent.
                "names": fields.Raw(
                    allow_none=True,
                    metadata={"allOf": [ref("SeatNames")]},
                ),
            },
        )
    return out


def _state_properties(variant: str) -> dict[str, dict[str, Any]]:
    """Each key of a variant's state as a JSON Schema, from its ``state_fields``."""
    return {
        spec["name"]: _described_property(spec)
        for spec in rules.VARIANTS[variant].describe()["state_fields"]
    }


def _described_property(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A described value (a state key, an option) as a JSON Schema: its type, choices, bounds
    and words."""
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
    return prop


POOL_OPTIONS: dict[str, dict[str, Any]] = {
    "pool_at_close": {
        "description": "What becomes of the pool when the table closes (`split`: shared out; "
        "`carry`: kept by the club for the next table).",
        "type": "string",
        "enum": list(POOL_AT_CLOSE),
    },
    "starting_pool": {
        "description": "Chips in the pool at the first hand (a pool the club carried; needs "
        "`carry`).",
        "type": "integer",
        "minimum": 0,
        "maximum": MAX_STARTING_POOL,
    },
}
"""A table's own options beside its variant's, for a variant that keeps a pool
(``services/tables.py`` checks them)."""


def table_options() -> dict[str, dict[str, Any]]:
    """Each variant's table options as a component, ``<V>TableOptions``: the options its
    ``describe()`` lists (each optional: a left-out one takes its default), and the pool's
    (``POOL_OPTIONS``) where its state keeps a pool; nothing else (``additionalProperties:
    false``, as the rules refuse an unknown option by name)."""
    out = {}
    for variant in rules.VARIANTS.values():
        described = variant.describe()
        properties = {}
        for spec in described["options"]:
            prop = _described_property(spec)
            prop["description"] += f" (default: {answer_text(spec['default'])})"
            properties[spec["name"]] = prop
        if any(spec["name"] == "pool" for spec in described["state_fields"]):
            properties.update(POOL_OPTIONS)
        out[f"{variant.type_name}TableOptions"] = {
            "type": "object",
            "description": f"{variant.title}'s options at a table.",
            "properties": properties,
            "additionalProperties": False,
        }
    return out


def table_options_names() -> list[str]:
    """The components of ``table_options`` (a table's ``options`` is one of them: the one of
    its ``variant``), for a field's ``any_of_components``: the fewest options first, so that
    the first a table's options fit is its own game's (a game's few options may fit another
    game's many too), as a generated client that tries them in turn takes it."""
    components = table_options()
    return sorted(components, key=lambda name: len(components[name]["properties"]))


def preview_request() -> dict[str, Any]:
    """The ``PreviewRequest`` component: one request per variant, told apart by ``variant``."""
    names = {name: f"{v.type_name}PreviewRequest" for name, v in rules.VARIANTS.items()}
    return {
        "description": "A hand to settle at a given table state, storing nothing. `options`: "
        "the variant's (`GET /api/v1/variants`); omitted ones take their defaults. `state`: the "
        "table before the hand, its keys the variant's `state_fields`; omitted keys are a fresh "
        "table's, any other is refused.",
        "oneOf": [ref(n) for n in names.values()],
        "discriminator": {
            "propertyName": "variant",
            "mapping": {v: ref(n)["$ref"] for v, n in names.items()},
        },
    }
