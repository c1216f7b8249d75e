"""Live changes for readers: the club's ``/changes`` feed, and the streams' opening (who may
follow what, from where, with which ticket)."""

from __future__ import annotations

from typing import Any

from .auth import Principal
from .clubs import read_club
from .outbox import club_changes


def read_changes(principal: Principal, club_id: str, after: int, limit: int) -> dict[str, Any]:
    """A page of the club's events after ``after`` (its admin or read-only token)."""
    read_club(principal, club_id)
    return club_changes(club_id, after, limit)
