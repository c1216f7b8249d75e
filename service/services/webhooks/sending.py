"""One delivery over HTTP: the event signed as the Standard Webhooks specification says
(``webhook-id``, ``webhook-timestamp``, ``webhook-signature``: ``v1,`` and the base64
HMAC-SHA256 of ``id.timestamp.body`` under the subscription's secret, made by
``standardwebhooks``), POSTed to the address ``addresses.resolve`` checked.

A redirect is not followed (a 3xx is a failure), connecting and each read are bounded
(``Timeouts``), and at most ``MAX_ANSWER_BYTES`` of the answer are read. Any status 2xx is a
delivery; anything else, or no answer, is a failure to retry."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import urllib3
from standardwebhooks.webhooks import Webhook

from ...json_text import canonical_text
from .addresses import AddressRefused, IpNetwork, resolve

MAX_ANSWER_BYTES = 4096
USER_AGENT = "solo-scorekeeper-webhooks/1"


@dataclass(frozen=True, slots=True)
class Timeouts:
    connect: float = 5.0
    read: float = 10.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one attempt gave: ``status`` (None without an answer), ``error`` (None when
    delivered), ``latency_ms``."""

    delivered: bool
    status: int | None
    error: str | None
    latency_ms: int


def signed_headers(secret: str, message_id: str, body: str, now: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of ``body`` sent as ``message_id`` at ``now``."""
    signature = Webhook(secret).sign(message_id, now, body)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signature,
    }


def body_of(event: dict[str, Any]) -> str:
    """The event as sent: compact JSON, the shape of ``GET /clubs/{id}/changes``' events."""
    return canonical_text(event)


def send(
    url: str,
    secret: str,
    message_id: str,
    event: dict[str, Any],
    allowed: tuple[IpNetwork, ...],
    timeouts: Timeouts,
) -> Outcome:
    """POST the event to ``url`` once, signed; never raises for what the receiver or the
    network does."""
    started = time.monotonic()

    def took() -> int:
        return max(0, round((time.monotonic() - started) * 1000))

    try:
        target = resolve(url, allowed)
    except AddressRefused as refused:
        return Outcome(False, None, f"address refused: {refused}", took())
    body = body_of(event)
    host = f"[{target.host}]" if ":" in target.host else target.host  # an IPv6 literal
    default_port = 443 if target.scheme == "https" else 80
    headers = {
        "Host": host if target.port == default_port else f"{host}:{target.port}",
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **signed_headers(secret, message_id, body, datetime.now(UTC)),
    }
    timeout = urllib3.Timeout(connect=timeouts.connect, read=timeouts.read)
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            timeout=timeout,
            retries=False,
            maxsize=1,
            server_hostname=target.host,
            assert_hostname=target.host,
            cert_reqs="CERT_REQUIRED",
        )
    else:
        pool = urllib3.HTTPConnectionPool(
            target.address, target.port, timeout=timeout, retries=False, maxsize=1
        )
    try:
        answer = pool.urlopen(
            "POST",
            target.path,
            body=body.encode(),
            headers=headers,
            redirect=False,
            retries=False,
            preload_content=False,
            assert_same_host=False,
        )
        try:
            answer.read(MAX_ANSWER_BYTES)
        finally:
            answer.release_conn()
    except urllib3.exceptions.TimeoutError as error:
        return Outcome(False, None, f"timed out: {type(error).__name__}", took())
    except urllib3.exceptions.HTTPError as error:
        return Outcome(False, None, f"no answer: {type(error).__name__}", took())
    finally:
        pool.close()
    status = int(answer.status)
    if 200 <= status < 300:
        return Outcome(True, status, None, took())
    if 300 <= status < 400:
        return Outcome(False, status, "redirect not followed", took())
    return Outcome(False, status, f"answered {status}", took())
