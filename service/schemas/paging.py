"""A paged list's query and headers: ``page`` and ``page_size`` as every ``paginate()`` of
``api/paging.py``'s ``Blueprint`` loads them, and the ``X-Pagination`` and ``Link`` of its
answer; here, below the views, so that the list answered before Flask
(``middleware/early.py``) gives them by the same functions."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from urllib.parse import urlencode

import flask_smorest
import flask_smorest.pagination
import marshmallow as ma

from ..json_text import answer_text

PAGE_MAX = 100_000
"""The last page anyone may ask for: ``(page - 1) * page_size`` stays far inside both
databases' integers (without a bound, ``page=9223372036854775807`` overflowed them: a 500)."""
PAGE_SIZE_DEFAULT = 10
PAGE_SIZE_MAX = 100

_unbounded_schema = flask_smorest.pagination._pagination_parameters_schema_factory


def _bounded_schema(page: int, page_size: int, max_page_size: int) -> ma.Schema:
    """flask-smorest's ``page``/``page_size`` schema, with ``page`` bounded by ``PAGE_MAX``
    (its own has no maximum). ``Blueprint.paginate`` makes its schema with this. An instance,
    shared by every request (as the views' argument schemas are): given the class, webargs
    made an instance of it, its fields deep-copied, for every paged request."""
    base = _unbounded_schema(page, page_size, max_page_size)
    bounded = ma.fields.Integer(load_default=page, validate=ma.validate.Range(min=1, max=PAGE_MAX))
    bounded_class: type[ma.Schema] = type(base.__name__, (base,), {"page": bounded})
    return bounded_class()


flask_smorest.pagination._pagination_parameters_schema_factory = _bounded_schema


def pagination_headers(
    page: int, page_size: int, item_count: int, path: str, args: Mapping[str, str]
) -> dict[str, str]:
    """A paged answer's ``X-Pagination`` and ``Link`` (none for no pages), for a request of
    ``path`` with the query ``args`` (each name's first value). The one source of both, in
    Flask's views (``api/paging.py``'s ``Blueprint``) and before Flask (``middleware/early.py``)."""
    headers = {"X-Pagination": pagination_header(page, page_size, item_count)}
    link = link_header(page, page_size, item_count, path, args)
    if link is not None:
        headers["Link"] = link
    return headers


def link_header(
    page: int, page_size: int, item_count: int, path: str, args: Mapping[str, str]
) -> str | None:
    """The ``Link`` value for page ``page`` of ``item_count`` items, or None for no pages."""
    if item_count == 0:
        return None
    last = (item_count - 1) // page_size + 1
    pages = {"first": 1, "last": last}
    if 1 < page <= last + 1:
        pages["prev"] = min(page - 1, last)
    if page < last:
        pages["next"] = page + 1
    links = []
    for rel, number in pages.items():
        query = urlencode({**args, "page": number, "page_size": page_size})
        links.append(f'<{path}?{query}>; rel="{rel}"')
    return ", ".join(links)


@functools.lru_cache(maxsize=4096)
def pagination_header(page: int, page_size: int, item_count: int) -> str:
    """The ``X-Pagination`` value, flask-smorest's metadata as its ``Blueprint`` writes it,
    made once per page, size and count (its schema was made and dumped on every request)."""
    metadata = flask_smorest.Blueprint._make_pagination_metadata(page, page_size, item_count)
    return answer_text(metadata)


DEFAULT_PAGINATION = {"page": 1, "page_size": PAGE_SIZE_DEFAULT, "max_page_size": PAGE_SIZE_MAX}
"""Every ``paginate()``'s defaults (``Blueprint.DEFAULT_PAGINATION_PARAMETERS``)."""
PAGE_QUERY = _bounded_schema(**DEFAULT_PAGINATION)
"""The ``page``/``page_size`` schema of every ``paginate()`` (each makes its own alike): what a
list answered before Flask (``middleware/early.py``) loads its query with."""
