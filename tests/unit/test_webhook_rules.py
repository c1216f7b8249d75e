"""Where a webhook may go (the addresses refused) and how its retries wait (the backoff)."""

from __future__ import annotations

import ipaddress
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.services.webhooks.addresses import (
    AddressRefused,
    allowed_networks,
    check_subscribed_url,
    is_public,
    permitted,
)
from service.services.webhooks.deliverer import DeliverySettings, backoff
from service.services.webhooks.sending import signed_headers


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "100.64.0.1",
        "169.254.169.254",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)
def test_loopback_private_link_local_and_special_addresses_are_refused(address: str) -> None:
    assert not is_public(ipaddress.ip_address(address))
    assert not permitted(ipaddress.ip_address(address), ())


@pytest.mark.parametrize("address", ["93.184.215.14", "8.8.8.8", "2606:4700::1111"])
def test_the_internets_addresses_are_permitted(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


def test_an_allowed_network_is_permitted_and_only_it() -> None:
    allowed = allowed_networks(["127.0.0.1/32", "10.1.0.0/16"])
    assert permitted(ipaddress.ip_address("127.0.0.1"), allowed)
    assert permitted(ipaddress.ip_address("10.1.200.3"), allowed)
    assert not permitted(ipaddress.ip_address("10.2.0.1"), allowed)
    assert not permitted(ipaddress.ip_address("127.0.0.2"), allowed)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/x",
        "http://[::1]/",
        "http://localhost:80/",
        "http://a.localhost/",
        "https://10.9.8.7/",
    ],
)
def test_a_url_naming_a_refused_address_is_refused_when_subscribed(url: str) -> None:
    with pytest.raises(AddressRefused):
        check_subscribed_url(url, ())


def test_a_url_naming_a_host_is_left_to_the_delivery() -> None:
    check_subscribed_url("https://hooks.example.com/in", ())


@given(st.integers(min_value=1, max_value=10_000), st.integers(min_value=0))
def test_the_backoff_doubles_with_jitter_up_to_the_cap(attempt: int, seed: int) -> None:
    settings = DeliverySettings(backoff_base_seconds=10.0, backoff_cap_seconds=3600.0)
    ceiling = min(3600.0, 10.0 * 2.0 ** min(attempt - 1, 60))
    wait = backoff(attempt, settings, random.Random(seed))
    assert ceiling / 2 <= wait <= ceiling


def test_by_default_a_failing_webhook_is_retried_at_least_hourly_for_three_days() -> None:
    settings = DeliverySettings()
    assert settings.backoff_cap_seconds <= 3600
    assert settings.disable_after_seconds >= 3 * 86400
    assert max(backoff(n, settings, random.Random(n)) for n in range(1, 500)) <= 3600


def test_the_signature_is_standard_webhooks() -> None:
    from datetime import UTC, datetime

    from standardwebhooks.webhooks import Webhook

    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    now = datetime.now(UTC)
    headers = signed_headers(secret, "msg_1", '{"a":1}', now)
    assert headers["webhook-signature"].startswith("v1,")
    assert Webhook(secret).verify('{"a":1}', headers) == {"a": 1}
