"""flask-smorest's Api, with errors documented and rendered as RFC 9457 problem details."""

from __future__ import annotations

import http

from flask_smorest import Api
from flask_smorest.utils import prepare_response

from ..schemas.problem import ProblemSchema

PROBLEM_CONTENT_TYPE = "application/problem+json"


class ProblemApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, object] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
