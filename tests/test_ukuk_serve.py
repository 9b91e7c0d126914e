"""``kotd serve`` playing Um Krone und Kragen: the table switched to it over HTTP, the
panel's LEDs and confirm button buying the card the result pays, a restart resuming it."""

from __future__ import annotations

from conftest import free_port, wait_for
from gpiozero.pins.mock import MockFactory
from servekit import TOKEN, press

from pi.config import Config, Pins
from pi.serve import Assistant
from pi.simtray import SimulatedTray


def test_the_table_plays_ukuk_and_the_panel_buys(assistant) -> None:
    a, _tray, factory, client = assistant
    client.act("game ukuk")
    state = client.act("players Ann Ben")
    assert state["game"] == "ukuk" and state["dice"]["hand"] == 3
    for line in ("roll 4 4 4", "aside 4 4 4"):
        client.act(line)
    # the result buys Hofnarr, Bauer, Philosoph, Wachmann: one LED each, highest row first
    wait_for(lambda: a.panel.slot_leds[3].is_lit, what="the card LEDs")
    assert [bool(led.is_lit) for led in a.panel.slot_leds] == [True, True, True, True, False]
    pins = Pins()
    press(factory, pins.claim)  # the first LED: a row I card
    press(factory, pins.confirm)
    state = wait_for(lambda: (s := client.get("/api/state"))["current_player"] == "Ben" and s,
                     what="the purchase")
    bought = [c["id"] for c in state["players"][0]["cards"]]
    assert len(bought) == 1 and bought[0] in ("bauer", "philosoph", "wachmann")


def test_a_restart_resumes_the_game_the_table_chose(tmp_path) -> None:
    config = Config(data_dir=tmp_path, source="sim", host="127.0.0.1", port=free_port(),
                    token=TOKEN, pin_factory="mock")
    first = Assistant(config, source=SimulatedTray(seed=1), pin_factory=MockFactory())
    first.table.act(first.table.parse("game ukuk"))
    for line in ("players Ann Ben", "roll 1 2 3", "aside 3"):
        first.table.act(first.table.parse(line))
    first.stop()
    again = Assistant(config, source=SimulatedTray(seed=1), pin_factory=MockFactory())
    try:
        assert again.pack.id == "ukuk"
        assert again.table.state.dice.active == (1, 2) and again.table.state.dice.aside == (3,)
        assert again.dice_wanted() is None  # no strip: set-aside dice leave the view
    finally:
        again.stop()
