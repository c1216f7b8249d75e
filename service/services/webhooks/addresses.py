"""Where a webhook may be sent: never to a loopback, private, link-local or otherwise special
address unless the operator allows its network (``SOLO_WEBHOOK_ALLOWED_NETWORKS``, a list of
CIDRs; the tests allow ``127.0.0.1/32`` for their receiver).

One judgement, ``resolve``, for both sides: the subscription (``check_subscribed_url``, when a
webhook is made or its URL changed) and each delivery. It asks the system's resolver
(``getaddrinfo``), so every spelling the deliverer's connection would take is judged as that
connection would reach it: ``2130706433``, ``0x7f000001``, ``017700000001`` and ``127.1`` are
127.0.0.1, ``0`` is 0.0.0.0, ``[::ffff:127.0.0.1]`` is loopback, and a name is judged by every
address it resolves to. The delivery connects to the very address that was checked
(``sending.py``): a name that resolves to a public address when the subscription is made and
to ``10.0.0.1`` later (DNS rebinding) is refused at the delivery. A name that does not resolve
when it is subscribed is taken (DNS may be down for a moment, or the name not published yet):
the deliverer retries it, and refuses it at each delivery while it does not resolve."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class AddressRefused(Exception):
    """The URL's host is (or resolves to) an address webhooks are not sent to: ``host`` as
    the URL names it, the ``address`` refused and its ``kind`` ("a loopback address" …)."""

    def __init__(self, host: str, address: str | None = None, kind: str | None = None) -> None:
        self.host, self.address, self.kind = host, address, kind
        if address is None:
            super().__init__(host)
        else:
            super().__init__(f"{host} resolves to {address}, {kind}, which is not allowed")


class Unresolved(AddressRefused):
    """The URL's host resolves to no address (now)."""

    def __init__(self, host: str, error: BaseException | None = None) -> None:
        AddressRefused.__init__(self, host)
        self.args = (f"{host} does not resolve" + (f" ({error})" if error else ""),)


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


# The kinds of address refused, in the words a refusal names them with (English; the
# subscription's refusal words them in the reader's language: subscriptions.py).
LOOPBACK = "a loopback address"
UNSPECIFIED = "an unspecified address"
PRIVATE = "a private address"
LINK_LOCAL = "a link-local address"
MULTICAST = "a multicast address"
RESERVED = "a reserved address"


def refused_kind(address: IpAddress) -> str | None:
    """Why webhooks are not sent to ``address`` (one of the kinds above), or None for one of
    the Internet's. An IPv4 address mapped into IPv6 (``::ffff:127.0.0.1``) is judged as the
    IPv4 address it is."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return refused_kind(address.ipv4_mapped)
    if address.is_loopback:
        return LOOPBACK
    if address.is_unspecified:
        return UNSPECIFIED
    if address.is_link_local:
        return LINK_LOCAL
    if address.is_multicast:
        return MULTICAST
    if address.is_private:
        return PRIVATE
    if not address.is_global:
        return RESERVED  # shared CGNAT space, documentation, benchmarking …
    return None


def shown(address: IpAddress) -> str:
    """The address as people write it: an IPv4-mapped one as ``::ffff:127.0.0.1``."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return f"::ffff:{address.ipv4_mapped}"
    return str(address)


def is_public(address: IpAddress) -> bool:
    """Whether ``address`` is one of the Internet's: not loopback, private (RFC 1918, ULA,
    shared CGNAT space), link-local, multicast, reserved or unspecified."""
    return refused_kind(address) is None


def permitted(address: IpAddress, allowed: tuple[IpNetwork, ...]) -> bool:
    return is_public(address) or any(address in network for network in allowed)


def check_subscribed_url(url: str, allowed: tuple[IpNetwork, ...]) -> None:
    """Refuse (AddressRefused) a URL the deliverer would refuse: ``resolve``'s judgement, but
    a name that does not resolve now is taken (it is judged again at each delivery)."""
    try:
        resolve(url, allowed)
    except Unresolved:
        return


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
    lookup = host
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        lookup = "localhost"  # RFC 6761: always loopback, whatever a resolver says of it
    try:
        found = socket.getaddrinfo(lookup, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Unresolved(host, error) from error
    addresses = [ipaddress.ip_address(str(entry[4][0]).split("%")[0]) for entry in found]
    for address in addresses:
        if not permitted(address, allowed):
            raise AddressRefused(host, shown(address), refused_kind(address))
    if not addresses:
        raise Unresolved(host)
    return Target(scheme, host, port, path, str(addresses[0]))
