"""The page's LAN address and its QR code (SVG, rendered on the server with segno).

The QR code holds the IP address, not only a ``.local`` name: older Android
phones do not resolve mDNS names.
"""

from __future__ import annotations

import ipaddress
import socket

import segno

_PROBE = ("192.0.2.1", 9)
"""A documentation address: connecting a UDP socket to it sends nothing but picks
the interface a LAN packet would leave from."""


def lan_ip() -> str:
    """The machine's LAN IPv4 address, or ``127.0.0.1`` when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = str(probe.getsockname()[0])
            if not ipaddress.ip_address(address).is_unspecified:
                return address
    except OSError:
        pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def page_url(host: str, port: int) -> str:
    """The address others type or scan to join: the LAN IP when serving on every interface."""
    if host in ("", "0.0.0.0", "::"):
        host = lan_ip()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an inline ``<svg>`` element: black on white in both colour schemes,
    which is what phone cameras read best."""
    code = segno.make(text, error="m")
    svg: str = code.svg_inline(scale=4, dark="#000", light="#fff", border=2, omitsize=True)
    return svg
