"""Where a webhook may be sent: never to a loopback, private, link-local or otherwise special
address unless the operator allows its network (``SOLO_WEBHOOK_ALLOWED_NETWORKS``, a list of
CIDRs; the tests allow ``127.0.0.1/32`` for their receiver).

The check is made on the addresses a name resolves to, at each delivery, and the delivery
connects to the very address that was checked (``sending.py``): a name that resolves to a
public address when the subscription is made and to ``10.0.0.1`` later (DNS rebinding) is
refused at the delivery. A URL naming an address literally is checked when it is subscribed,
too, so that the mistake is told at once."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class AddressRefused(Exception):
    """The URL's host is (or resolves to) an address webhooks are not sent to."""


@dataclass(frozen=True, slots=True)
class Target:
    """A URL taken apart for sending: ``host`` as the URL names it (for ``Host`` and TLS),
    ``port``, ``path`` with its query, and the checked ``address`` to connect to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def allowed_networks(cidrs: Iterable[str]) -> tuple[IpNetwork, ...]:
    """The operator's networks (a bad CIDR raises ValueError when the setting is read)."""
    return tuple(ipaddress.ip_network(cidr, strict=False) for cidr in cidrs)


def is_public(address: IpAddress) -> bool:
    """Whether ``address`` is one of the Internet's: not loopback, private (RFC 1918, ULA,
    shared CGNAT space), link-local, multicast, reserved or unspecified."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return is_public(address.ipv4_mapped)
    return address.is_global and not address.is_multicast


def permitted(address: IpAddress, allowed: tuple[IpNetwork, ...]) -> bool:
    return is_public(address) or any(address in network for network in allowed)


def literal_address(host: str) -> IpAddress | None:
    """The address a URL's host names literally (``[::1]`` included), or None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def check_subscribed_url(url: str, allowed: tuple[IpNetwork, ...]) -> None:
    """Refuse (AddressRefused) a URL whose host is a refused address or ``localhost``; a name
    is checked again at each delivery, on what it resolves to then."""
    host = urlsplit(url).hostname or ""
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        if not any(ipaddress.ip_address("127.0.0.1") in network for network in allowed):
            raise AddressRefused(host)
        return
    address = literal_address(host)
    if address is not None and not permitted(address, allowed):
        raise AddressRefused(host)


def resolve(url: str, allowed: tuple[IpNetwork, ...]) -> Target:
    """The URL's target with an address to connect to: the first that its host resolves to,
    when every one of them is permitted (AddressRefused naming the first that is not; a
    name that does not resolve is refused too)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    port = parts.port or (443 if scheme == "https" else 80)
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise AddressRefused(f"{host} does not resolve ({error})") from error
    addresses = [ipaddress.ip_address(str(entry[4][0]).split("%")[0]) for entry in found]
    for address in addresses:
        if not permitted(address, allowed):
            raise AddressRefused(f"{host} resolves to {address}, which is not allowed")
    if not addresses:
        raise AddressRefused(f"{host} does not resolve")
    return Target(scheme, host, port, path, str(addresses[0]))
