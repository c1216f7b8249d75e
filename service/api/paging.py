"""The Blueprint every resource module uses: flask-smorest's, with RFC 8288 ``Link`` headers
(``first``, ``prev``, ``next``, ``last``) beside its ``X-Pagination`` on a paged answer, and
``Idempotency-Key`` on every POST and PATCH it registers (``api/idempotency.py``).

A paged operation: ``@blp.paginate()`` on a view of a ``Blueprint`` from here; it reads
``page`` and ``page_size`` and sets ``pagination_parameters.item_count``. The OpenAPI document
gets both headers (``api/openapi.py`` adds ``Link`` wherever ``X-Pagination`` is).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import flask_smorest
from flask import request

from .idempotency import guard_writes


def link_header(page: int, page_size: int, item_count: int) -> str | None:
    """The ``Link`` value for page ``page`` of ``item_count`` items, or None for no pages."""
    if item_count == 0:
        return None
    last = (item_count - 1) // page_size + 1
    pages = {"first": 1, "last": last}
    if 1 < page <= last + 1:
        pages["prev"] = min(page - 1, last)
    if page < last:
        pages["next"] = page + 1
    args = request.args.to_dict()
    links = []
    for rel, number in pages.items():
        query = urlencode({**args, "page": number, "page_size": page_size})
        links.append(f'<{request.path}?{query}>; rel="{rel}"')
    return ", ".join(links)


Answer = tuple[dict[str, Any], int, dict[str, str]]
"""A view's answer with its status and headers (``Location``, ``ETag``)."""


class Blueprint(flask_smorest.Blueprint):
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
        result, headers = super()._set_pagination_metadata(page_params, result, headers)
        meta = json.loads(headers[self.PAGINATION_HEADER_NAME])
        link = link_header(page_params.page, page_params.page_size, meta["total"])
        if link is not None:
            headers["Link"] = link
        return result, headers
