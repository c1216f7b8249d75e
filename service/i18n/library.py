"""The words of the libraries the service validates with (marshmallow, webargs) and of its own
schemas, as they arrive in a problem's ``errors``: already English text, worded for the reader
by ``word_message``.

marshmallow writes its messages itself ("Not a valid integer.", "Must be one of: a, b.");
rather than give each of the service's hundreds of fields its own ``error_messages``, the edge
knows the library's messages: a fixed one is a catalog message as it is, one with values is
matched by its pattern and worded with the values it names. A message neither knows (a new
library version's) is given as it is, in English.
"""

from __future__ import annotations

import re
from typing import Final

from .marks import N_

# marshmallow's fixed messages (fields and schemas), and the service schemas' own.
FIXED: Final = frozenset(
    {
        N_("Missing data for required field."),
        N_("Field may not be null."),
        N_("Invalid value."),
        N_("Invalid input."),
        N_("Invalid type."),
        N_("Invalid input type."),
        N_("Unknown field."),
        N_("Not a valid boolean."),
        N_("Not a valid integer."),
        N_("Not a valid number."),
        N_("Number too large."),
        N_("Not a valid string."),
        N_("Not a valid utf-8 string."),
        N_("Not a valid list."),
        N_("Not a valid tuple."),
        N_("Not a valid mapping type."),
        N_("Not a valid date."),
        N_("Not a valid datetime."),
        N_("Not a valid email address."),
        N_("Not a valid URL."),
        N_("Not a valid UUID."),
        N_("Special numeric values (nan or infinity) are not permitted."),
        N_("String does not match expected pattern."),
        N_("Give `name`, `retired` or both."),
        N_("Give `url`, `event_types`, `description` or `enabled`."),
        N_("Name each event type once."),
        N_("Must not contain the NUL character (\\u0000)."),
        N_("Must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)."),
        N_("The file is not complete JSON (truncated?)."),
    }
)

# The messages with values: the pattern marshmallow's text matches, and the catalog message
# that words it (its ``%(name)s`` are the pattern's groups).
PATTERNS: Final = tuple(
    (re.compile(pattern, re.DOTALL), message)
    for pattern, message in (
        (
            r"Must be greater than or equal to (?P<min>.+) and less than or equal to (?P<max>.+)\.",
            N_("Must be greater than or equal to %(min)s and less than or equal to %(max)s."),
        ),
        (
            r"Must be greater than or equal to (?P<min>.+)\.",
            N_("Must be greater than or equal to %(min)s."),
        ),
        (
            r"Must be less than or equal to (?P<max>.+)\.",
            N_("Must be less than or equal to %(max)s."),
        ),
        (r"Must be greater than (?P<min>.+)\.", N_("Must be greater than %(min)s.")),
        (r"Must be less than (?P<max>.+)\.", N_("Must be less than %(max)s.")),
        (
            r"Length must be between (?P<min>.+) and (?P<max>.+)\.",
            N_("Length must be between %(min)s and %(max)s."),
        ),
        (r"Length must be (?P<equal>.+)\.", N_("Length must be %(equal)s.")),
        (r"Longer than maximum length (?P<max>.+)\.", N_("Longer than maximum length %(max)s.")),
        (r"Shorter than minimum length (?P<min>.+)\.", N_("Shorter than minimum length %(min)s.")),
        (r"Must be one of: (?P<choices>.*)\.", N_("Must be one of: %(choices)s.")),
        (r"Must be equal to (?P<other>.+)\.", N_("Must be equal to %(other)s.")),
        (r"At most (?P<n>\d+) entries\.", N_("At most %(n)s entries.")),
        (r"Keys are at most (?P<n>\d+) characters\.", N_("Keys are at most %(n)s characters.")),
    )
)
