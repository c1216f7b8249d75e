"""The service layer's exceptions; ``service.api.errors`` turns each into one HTTP status."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError


class ServiceError(Exception):
    """Base of every expected failure of a use case."""

    status = 400
    problem: str | None = None
    """The problem type's slug (``service.api.problem.PROBLEM_TYPES``); None: ``about:blank``."""

    def __init__(
        self,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        members: dict[str, object] | None = None,
        values: dict[str, object] | None = None,
    ) -> None:
        """``detail`` is a message (marked ``N_``) whose ``%(name)s`` are filled from
        ``values``; the edge words it in the reader's language (``message``, ``values``),
        ``detail`` is the English."""
        self.message = detail
        self.values = values or {}
        self.detail = detail % self.values if self.values else detail
        super().__init__(self.detail)
        self.headers = headers or {}
        self.members = members or {}
        """Extension members of the problem (``next_number`` …)."""


class Unauthorized(ServiceError):
    """No token, or a token that matches nothing."""

    status = 401


class Forbidden(ServiceError):
    """A valid token that does not reach this resource."""

    status = 403


class NightTableIsTheDirectors(Forbidden):
    """A phone at a club night's table tried to close it: the night's director closes those
    (the next draw, or closing the night), so that no series ends without the director."""

    problem = "night-table-closed-by-director"


class NotFound(ServiceError):
    """The resource does not exist."""

    status = 404


class Conflict(ServiceError):
    """The request clashes with the current state (number taken, key reused, table closed)."""

    status = 409


class PreconditionFailed(ServiceError):
    """``If-Match`` named a version that is no longer current."""

    status = 412


class HandNumberTaken(Conflict):
    """``expected_number`` names a number already recorded."""

    problem = "hand-number-taken"

    def __init__(
        self, detail: str, next_number: int, values: dict[str, object] | None = None
    ) -> None:
        super().__init__(detail, members={"next_number": next_number}, values=values)


class TableClosed(Conflict):
    problem = "table-closed"


class SessionOver(Conflict):
    problem = "session-over"


class SeriesOver(Conflict):
    """A club night's table has played the hands of its series (``hands_limit``)."""

    problem = "series-over"


class IdempotencyKeyReused(Conflict):
    problem = "idempotency-key-reused"


class HandAlreadyVoid(Conflict):
    problem = "hand-already-void"


class NameTaken(Conflict):
    problem = "name-taken"


class VersionMismatch(PreconditionFailed):
    """``If-Match`` names an old version; the answer carries the current one as its ETag."""

    problem = "version-mismatch"

    def __init__(
        self, detail: str, current_version: int, values: dict[str, object] | None = None
    ) -> None:
        etag = f'"{current_version}"'
        super().__init__(detail, headers={"ETag": etag}, members={"etag": etag}, values=values)


@contextmanager
def conflict_on_duplicate(
    detail: str, error: type[Conflict] = Conflict, values: dict[str, object] | None = None
) -> Iterator[None]:
    """Run a write whose one expected failure is a unique constraint (a name or a hand number
    taken): roll the transaction back and answer ``Conflict(detail)``."""
    from ..extensions import db

    try:
        yield
    except IntegrityError:
        db.session.rollback()
        raise error(detail, values=values) from None
