"""This machine's addresses on the venue network (pure, no Flask).

Phones at the tables cannot open http://127.0.0.1/: they need the laptop's address on the
local network. Found without sending anything: a UDP socket "connected" to an outside
address reports which local address the system would use.
"""
from __future__ import annotations

import ipaddress
import socket


def lan_addresses() -> list[str]:
    """IPv4 addresses other devices on the network can reach, best first (may be empty)."""
    found: list[str] = []
    for probe in ("192.0.2.1", "10.255.255.255", "172.31.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = s.getsockname()[0]
        except OSError:
            continue
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in found:
            found.append(address)
    return found


def is_local_host(host: str) -> bool:
    """True for addresses only this machine can use (localhost, 127.x, ::1)."""
    if host.startswith("["):                      # "[::1]:5000"
        name = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:                    # "127.0.0.1:5000", "localhost:5000"
        name = host.rsplit(":", 1)[0]
    else:                                         # "::1", "localhost"
        name = host
    if name in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def venue_base_url(host: str, scheme: str, addresses: list[str]) -> str | None:
    """The address to give phones for a page opened at `host` ("127.0.0.1:5000"): the host
    itself when other devices can use it, else the first of `addresses` (this machine's
    venue-network addresses, `lan_addresses()`) with the same port; None when none is known."""
    if not is_local_host(host):
        return f"{scheme}://{host}"
    if not addresses:
        return None
    port = ""
    if host.startswith("["):
        rest = host.split("]", 1)[1]
        port = rest if rest.startswith(":") else ""
    elif host.count(":") == 1:
        port = ":" + host.rsplit(":", 1)[1]
    return f"{scheme}://{addresses[0]}{port}"
