"""The Blueprint every resource module uses: flask-smorest's, with RFC 8288 ``Link`` headers
(``first``, ``prev``, ``next``, ``last``) beside its ``X-Pagination`` on a paged answer, and
``Idempotency-Key`` on every POST and PATCH it registers (``api/idempotency.py``).

A paged operation: ``@blp.paginate()`` on a view of a ``Blueprint`` from here; it reads
``page`` (1 to ``PAGE_MAX``) and ``page_size`` (1 to ``PAGE_SIZE_MAX``, default
``PAGE_SIZE_DEFAULT``: ``schemas/paging.py``, with both headers) and sets
``pagination_parameters.item_count``; a page out of bounds is a 422 naming it, in the document
as in the code. The OpenAPI document gets both headers (``api/openapi.py`` adds ``Link``
wherever ``X-Pagination`` is).
"""

from __future__ import annotations

import json
from typing import Any

import flask_smorest
from flask import request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from ..schemas.json_numbers import PARSED_BODY, loads
from ..schemas.paging import DEFAULT_PAGINATION, pagination_headers
from .idempotency import guard_writes

Answer = tuple[dict[str, Any], int, dict[str, str]]
"""A view's answer with its status and headers (``Location``, ``ETag``)."""


class WholeNumbersParser(FlaskParser):
    """webargs' parser, reading a JSON body's whole numbers (``6.0``) as integers
    (``schemas/json_numbers.py``)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        parsed = req.environ.pop(PARSED_BODY, core.missing)  # read by the body's guard
        if parsed is not core.missing:
            return parsed
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
    DEFAULT_PAGINATION_PARAMETERS = DEFAULT_PAGINATION

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
