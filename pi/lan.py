"""Where phones find the page: the Pi's LAN address, the links and their QR code.

Raspberry Pi OS maps the Pi's own name to 127.0.1.1, and many Android phones cannot resolve
``raspberrypi.local``, so the address phones need is read from the network interfaces
(psutil, from the distribution on the Pi). With a hotspot made by the Pi (NetworkManager's
shared Wi-Fi, 10.42.0.1) that address is the hotspot's, so the QR code carries it.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from collections.abc import Sequence
from dataclasses import dataclass

WILDCARD_HOSTS = ("0.0.0.0", "::", "")
_VIRTUAL = ("lo", "docker", "br-", "veth", "virbr", "vnet", "ifb", "dummy")
_PHYSICAL = ("wlan", "eth", "en", "wl", "usb", "ap")


@dataclass(frozen=True, slots=True)
class Interface:
    """One network interface: its name, whether it is up, its IPv4 addresses."""

    name: str
    up: bool
    addresses: tuple[str, ...]


def interfaces() -> list[Interface]:
    """This machine's network interfaces (psutil)."""
    import psutil

    stats = psutil.net_if_stats()
    out = []
    for name, addrs in psutil.net_if_addrs().items():
        ipv4 = tuple(a.address for a in addrs if a.family == socket.AF_INET)
        up = stats[name].isup if name in stats else False
        out.append(Interface(name, up, ipv4))
    return out


def lan_addresses(ifaces: Sequence[Interface] | None = None) -> list[str]:
    """IPv4 addresses a phone on the same network can reach, best first.

    Loopback, link-local (169.254.x.x, no DHCP answered) and container bridges are left out;
    Wi-Fi and Ethernet come before other interfaces, private addresses before public ones.
    """
    ranked: list[tuple[int, int, str, str]] = []
    for iface in interfaces() if ifaces is None else ifaces:
        if not iface.up or iface.name.startswith(_VIRTUAL):
            continue
        for text in iface.addresses:
            try:
                ip = ipaddress.IPv4Address(text)
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
                continue
            ranked.append((0 if iface.name.startswith(_PHYSICAL) else 1,
                           0 if ip.is_private else 1, iface.name, text))
    seen: dict[str, None] = {}
    for *_, text in sorted(ranked):
        seen.setdefault(text)
    return list(seen)


def page_hosts(host: str, lan: Sequence[str], hostname: str) -> list[str]:
    """The host names for the page, best first, for a server listening on ``host``.

    Listening on every address: the LAN addresses, then ``NAME.local`` (fine on laptops and
    iPhones, often not on Android), then 127.0.0.1 (this machine only). Listening on one
    address: that address alone.
    """
    if host not in WILDCARD_HOSTS:
        return [host]
    return [*lan, f"{hostname}.local", "127.0.0.1"]


def page_urls(host: str, port: int, token: str | None = None, *,
              lan: Sequence[str] | None = None, hostname: str | None = None) -> list[str]:
    """The page's addresses (with the table's token when given), best first."""
    hosts = page_hosts(host, lan_addresses() if lan is None else lan,
                       socket.gethostname() if hostname is None else hostname)
    query = f"?token={token}" if token else ""
    return [f"http://{_bracket(h)}:{port}/{query}" for h in hosts]


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def reachable_by_phones(url: str) -> bool:
    """False for a loopback link, which only this machine can open."""
    host = url.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a name such as raspberrypi.local


def terminal_qr(text: str) -> str:
    """``text`` as a QR code drawn with block characters, for a terminal or the journal."""
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def phone_lines(urls: Sequence[str], qr: bool = True) -> list[str]:
    """What ``kotd serve`` and ``kotd doctor`` print so that a phone finds the page."""
    if not urls:
        return ["  no network address: connect the Pi to Wi-Fi or Ethernet (hardware.md)"]
    first, *rest = urls
    lines = [f"  open on a phone: {first}"]
    lines += [f"  or: {url}" for url in rest]
    if qr and reachable_by_phones(first):
        lines.append("  or scan this with the phone's camera (same Wi-Fi as the Pi):")
        lines += terminal_qr(first).rstrip("\n").splitlines()
    elif qr:
        lines.append("  (this address is only for this machine: phones need the Pi's LAN "
                     "address; listen on all addresses with --host 0.0.0.0)")
    return lines

