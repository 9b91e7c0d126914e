"""The page's addresses for phones: the LAN address first, never 127.0.1.1."""

from __future__ import annotations

import segno
from hypothesis import given
from hypothesis import strategies as st

from pi.lan import Interface, lan_addresses, page_urls, phone_lines, reachable_by_phones

PI = [Interface("lo", True, ("127.0.0.1",)),
      Interface("docker0", True, ("172.17.0.1",)),
      Interface("eth0", False, ("192.168.1.30",)),             # cable out: down
      Interface("wlan0", True, ("192.168.1.20", "169.254.3.4")),
      Interface("tailscale0", True, ("100.101.102.103",))]


def test_wifi_address_first_loopback_link_local_bridges_and_down_links_left_out() -> None:
    assert lan_addresses(PI) == ["192.168.1.20", "100.101.102.103"]
    hotspot = [Interface("wlan0", True, ("10.42.0.1",)), Interface("lo", True, ("127.0.0.1",))]
    assert lan_addresses(hotspot) == ["10.42.0.1"]     # the QR code carries the hotspot's
    assert lan_addresses([Interface("lo", True, ("127.0.0.1",))]) == []
    assert lan_addresses() == lan_addresses()          # this machine's, whatever it has


def test_page_urls_listening_everywhere_or_on_one_address() -> None:
    urls = page_urls("0.0.0.0", 8000, "tok", lan=["192.168.1.20"], hostname="raspberrypi")
    assert urls == ["http://192.168.1.20:8000/?token=tok",
                    "http://raspberrypi.local:8000/?token=tok",
                    "http://127.0.0.1:8000/?token=tok"]
    assert page_urls("127.0.0.1", 9000, lan=["192.168.1.20"], hostname="pi") == \
        ["http://127.0.0.1:9000/"]
    assert page_urls("::1", 80, lan=[], hostname="pi") == ["http://[::1]:80/"]


def test_phone_lines_carry_a_qr_code_of_the_first_link() -> None:
    lines = phone_lines(["http://192.168.1.20:8000/?token=tok", "http://pi.local:8000/"])
    assert lines[0] == "  open on a phone: http://192.168.1.20:8000/?token=tok"
    assert lines[1] == "  or: http://pi.local:8000/"
    qr = lines[3:]
    size = segno.make("http://192.168.1.20:8000/?token=tok", error="m").symbol_size(border=2)
    assert len(qr) == (size[1] + 1) // 2 and all(len(r) == size[0] for r in qr)
    local = phone_lines(["http://127.0.0.1:8000/"])
    assert len(local) == 2 and "only for this machine" in local[1]
    assert "no network address" in phone_lines([])[0]


@given(st.ip_addresses(v=4))
def test_only_loopback_is_unreachable_for_phones(ip) -> None:
    assert reachable_by_phones(f"http://{ip}:8000/") is (not ip.is_loopback)


def test_the_qr_code_follows_the_network_the_pi_is_on(tmp_path, monkeypatch) -> None:
    """A hotspot started after the assistant is in the page's QR code (no restart)."""
    from gpiozero.pins.mock import MockFactory

    import pi.lan
    from pi.config import Config
    from pi.serve import Assistant
    from pi.simtray import SimulatedTray
    from web.pages import page_url

    now: list[Interface] = [Interface("lo", True, ("127.0.0.1",))]
    monkeypatch.setattr(pi.lan, "interfaces", lambda: now)
    factory = MockFactory()
    a = Assistant(Config(data_dir=tmp_path, host="0.0.0.0", port=8123, token="t",
                         pin_factory="mock"), source=SimulatedTray(seed=1), pin_factory=factory)
    try:
        a.app.config["PUBLIC_URL"] = a.public_url   # what start() sets
        assert a.public_url() is None               # no network: the request's own address
        with a.app.test_request_context("/", base_url="http://192.168.7.7:8123"):
            assert page_url() == "http://192.168.7.7:8123/"
        now.append(Interface("wlan0", True, ("10.42.0.1",)))   # the hotspot comes up
        with a.app.test_request_context("/", base_url="http://127.0.0.1:8123"):
            assert page_url() == "http://10.42.0.1:8123/"      # the kiosk's code too
    finally:
        a.stop()
        factory.reset()
