"""The SQLAlchemy rows: what the database keeps, and the constraints it enforces.

- ``columns``: what every row shares (id and name lengths, the clock, stored times read back);
- ``table_keeping``: clubs, tokens, players, tables, seats, hands, their revisions and
  transfers, idempotency keys;
- ``league``: seasons, the league's aggregate rows and ratings;
- ``nights``: club nights, their players present, series (the draws' seeds) and tables;
- ``idempotency``: the first answers of the other writes sent with an ``Idempotency-Key``;
- ``outbox``: every change of a club as an event, numbered per club;
- ``webhooks``: a club's webhook subscriptions, redeliveries asked for, the delivery log;
- ``tournaments``: open tournaments hosted by a club, and their entrants;
- ``tournament_results``: the confirmations of a tournament's tables' results, and disputes.

Importing any of them imports this package, and so every module of rows: the metadata (which
Alembic and ``db.create_all`` read) is always complete, whichever rows a caller asked for.
"""

from . import (  # noqa: F401
    idempotency,
    league,
    nights,
    outbox,
    table_keeping,
    tournament_results,
    tournaments,
    webhooks,
)
