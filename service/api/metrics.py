"""``GET /metrics``: the metrics of ``service/metrics.py`` in Prometheus's text format, for the
operator's ``METRICS_TOKEN`` only (404 without one configured: no such page), all processes'
values added up in multiprocess mode."""

from __future__ import annotations

import hmac
import os

from flask import Flask, Response, abort, current_app, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)

from ..metrics import WEBHOOK_BACKLOG
from ..services.webhooks.deliverer import backlog

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
ENDPOINT = "metrics"


def registry() -> CollectorRegistry:
    """Every process's values (multiprocess mode), or this process's own."""
    if os.environ.get(MULTIPROCESS_DIR):
        gathered = CollectorRegistry()
        multiprocess.MultiProcessCollector(gathered)  # type: ignore[no-untyped-call]
        return gathered
    return REGISTRY


def _backlog() -> int | None:
    try:
        return backlog()
    except Exception:  # the database away: the other metrics still answer
        current_app.logger.warning("webhook backlog not read for /metrics", exc_info=True)
        return None


def metrics() -> Response:
    """``GET /metrics``: the Prometheus text format, for ``METRICS_TOKEN`` only."""
    expected = current_app.config.get("METRICS_TOKEN")
    if not expected:
        abort(404)
    sent = request.headers.get("Authorization", "")
    if not hmac.compare_digest(sent.encode(), f"Bearer {expected}".encode()):
        abort(401)
    waiting = _backlog()
    if waiting is not None:
        WEBHOOK_BACKLOG.set(waiting)
    return Response(generate_latest(registry()), mimetype=CONTENT_TYPE_LATEST)


def init_app(app: Flask) -> None:
    app.config.setdefault("METRICS_TOKEN", None)
    app.add_url_rule("/metrics", ENDPOINT, metrics, methods=["GET"])
