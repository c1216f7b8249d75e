"""The service layer's exceptions; ``service.api.errors`` turns each into one HTTP status."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError


class ServiceError(Exception):
    """Base of every expected failure of a use case."""

    status = 400

    def __init__(self, detail: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}


class Unauthorized(ServiceError):
    """No token, or a token that matches nothing."""

    status = 401


class Forbidden(ServiceError):
    """A valid token that does not reach this resource."""

    status = 403


class NotFound(ServiceError):
    """The resource does not exist."""

    status = 404


class Conflict(ServiceError):
    """The request clashes with the current state (number taken, key reused, table closed)."""

    status = 409


class PreconditionFailed(ServiceError):
    """``If-Match`` named a version that is no longer current."""

    status = 412


@contextmanager
def conflict_on_duplicate(detail: str) -> Iterator[None]:
    """Run a write whose one expected failure is a unique constraint (a name or a hand number
    taken): roll the transaction back and answer ``Conflict(detail)``."""
    from ..extensions import db

    try:
        yield
    except IntegrityError:
        db.session.rollback()
        raise Conflict(detail) from None
