"""A settlement's ``to_dict`` with its explanation worded (``i18n.settlement_view``) is exactly
what ``SettlementSchema`` dumps, for every variant.

The preview endpoint sends that without dumping it through the schema (the dump cost a tenth of
the request); this is what makes that safe: the dump would change nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.i18n import settlement_view
from service.rules.base import Settlement, Variant
from service.rules.german import GERMAN
from service.rules.solo66 import SOLO66
from service.rules.spanish import SPANISH
from service.schemas.settlements import SettlementSchema
from tests.property.test_american_properties import settle as settle_american
from tests.strategies import american_cases
from tests.strategies_variants import PLAYERS, tables

SCHEMA = SettlementSchema()
OTHER_VARIANTS: dict[str, Variant] = {"spanish": SPANISH, "german": GERMAN, "solo66": SOLO66}


def assert_schema_shape(settlement: Settlement) -> None:
    as_dict = settlement_view(settlement.to_dict(), "en")
    assert SCHEMA.dump(settlement.to_dict()) == as_dict
    assert SCHEMA.validate(as_dict) == {}  # and it loads back without a complaint


@given(american_cases())
def test_an_american_settlement_is_already_in_the_schemas_shape(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    assert_schema_shape(settle_american(*case))


@pytest.mark.parametrize("name", sorted(OTHER_VARIANTS))
@given(data=st.data())
def test_every_variants_settlement_is_already_in_the_schemas_shape(
    name: str, data: st.DataObject
) -> None:
    variant = OTHER_VARIANTS[name]
    players = PLAYERS[name]
    raw_options, raw_state, raw_hand = data.draw(tables(name))
    options = variant.parse_options(raw_options)
    state = variant.parse_state(raw_state, players, options)
    hand = variant.parse_hand(raw_hand, players, options)
    assert_schema_shape(variant.settle(players, options, state, hand))
