"""The Blueprint every resource module uses: flask-smorest's, with RFC 8288 ``Link`` headers
(``first``, ``prev``, ``next``, ``last``) beside its ``X-Pagination`` on a paged answer, and
``Idempotency-Key`` on every POST and PATCH it registers (``api/idempotency.py``).

A paged operation: ``@blp.paginate()`` on a view of a ``Blueprint`` from here; it reads
``page`` (1 to ``PAGE_MAX``) and ``page_size`` (1 to ``PAGE_SIZE_MAX``, default
``PAGE_SIZE_DEFAULT``) and sets ``pagination_parameters.item_count``; a page out of bounds is
a 422 naming it, in the document as in the code. The OpenAPI document
gets both headers (``api/openapi.py`` adds ``Link`` wherever ``X-Pagination`` is).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import flask_smorest
import flask_smorest.pagination
import marshmallow as ma
from flask import request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from ..json_text import answer_text
from ..schemas.json_numbers import loads
from .idempotency import guard_writes

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
    Flask's views (``Blueprint``, below) and before Flask (``middleware/early.py``)."""
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


Answer = tuple[dict[str, Any], int, dict[str, str]]
"""A view's answer with its status and headers (``Location``, ``ETag``)."""


class WholeNumbersParser(FlaskParser):
    """webargs' parser, reading a JSON body's whole numbers (``6.0``) as integers
    (``schemas/json_numbers.py``)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:  # as webargs' own parse_json says it
            raise json.JSONDecodeError(
                f"Bytes decoding error : {error.reason}", doc=str(error.object), pos=error.start
            ) from error
        return loads(text)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = WholeNumbersParser()
    DEFAULT_PAGINATION_PARAMETERS = {
        "page": 1,
        "page_size": PAGE_SIZE_DEFAULT,
        "max_page_size": PAGE_SIZE_MAX,
    }

    def add_url_rule(
        self, rule: str, endpoint: Any = None, view_func: Any = None, *args: Any, **options: Any
    ) -> None:
        """Register the view with its writes made safe to retry (``guard_writes``)."""
        methods = {m.upper() for m in options.get("methods") or ()}
        if isinstance(view_func, type) or methods & {"POST", "PATCH"}:
            view_func = guard_writes(view_func)
        super().add_url_rule(rule, endpoint, view_func, *args, **options)

    def _set_pagination_metadata(
        self, page_params: Any, result: Any, headers: Any
    ) -> tuple[Any, Any]:
        headers = {} if headers is None else headers
        headers.update(
            pagination_headers(
                page_params.page,
                page_params.page_size,
                page_params.item_count,
                request.path,
                request.args.to_dict(),
            )
        )
        return result, headers


PAGE_QUERY = _bounded_schema(**Blueprint.DEFAULT_PAGINATION_PARAMETERS)
"""The ``page``/``page_size`` schema of every ``paginate()`` of a ``Blueprint`` (each makes its
own alike): what a list answered before Flask (``middleware/early.py``) loads its query with."""
