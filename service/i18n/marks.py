"""Markers of the messages ``pybabel extract`` collects (``make translations``): they return
what they are given; the edge translates the message when it words it.

Kept apart so that any layer can mark a message without importing the catalogs.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """A message, translated where it is shown (``i18n.gettext``)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """A message with a plural form."""
    return singular, plural
