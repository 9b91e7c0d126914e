"""The install's loose ends (issue 47, items 11-15): the kiosk's own user and hardening, a
custom data directory under systemd, groups a system may lack, the install's order and
messages, and the token kept out of the journal.

The units are rated with Debian's ``systemd-analyze security --offline`` where it is
installed; the install script's own functions write the units (``pi/install.sh`` sourced,
nothing installed).
"""

from __future__ import annotations

import grp
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import KOTD, free_port, unit_settings

from pi.cli.serve import to_journal

ROOT = Path(__file__).resolve().parent.parent
UNITS = ROOT / "systemd"
ANALYZE = shutil.which("systemd-analyze")


def unit_text(name: str, state: str = "/var/lib/kotd") -> str:
    """``systemd/NAME`` as pi/install.sh writes it, for a data directory ``state``."""
    script = 'N=$1; set --; source "$ROOT/pi/install.sh" && STATE=$S && unit_text "$N"'
    done = subprocess.run(
        ["bash", "-c", script, "x", name], capture_output=True, text=True, timeout=60,
        env={**os.environ, "ROOT": str(ROOT), "S": state}, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def exposure(text: str, name: str, tmp_path: Path) -> float:
    unit = tmp_path / name
    unit.write_text(text, encoding="utf-8")
    assert ANALYZE is not None
    done = subprocess.run([ANALYZE, "security", "--offline=true", str(unit)],
                          capture_output=True, text=True, timeout=120)
    match = re.search(rf"Overall exposure level for {re.escape(name)}: ([\d.]+)", done.stdout)
    assert match, done.stdout + done.stderr
    return float(match.group(1))


# ---- item 11: the kiosk ---------------------------------------------------------------------

def test_the_kiosk_runs_as_its_own_user_with_its_own_cache_and_a_start_limit() -> None:
    unit = unit_settings((UNITS / "kotd-kiosk.service").read_text(encoding="utf-8"))
    assert unit["Service.User"] == ["kotd-kiosk"] != unit_settings(
        (UNITS / "kotd.service").read_text(encoding="utf-8"))["Service.User"]
    assert unit["Service.CacheDirectory"] == ["kotd-kiosk"]
    assert "HOME=/var/cache/kotd-kiosk" in unit["Service.Environment"]
    assert not any("/var/lib/kotd" in v for v in unit["Service.Environment"])
    assert unit["Service.Restart"] == ["on-failure"]
    assert int(unit["Unit.StartLimitBurst"][0]) <= 10
    assert int(unit["Unit.StartLimitIntervalSec"][0]) >= 60
    # the token and config come as credentials: nothing of kotd's is readable otherwise
    assert {v.split(":")[0] for v in unit["Service.LoadCredential"]} == {"token", "config"}
    assert unit["Service.IPAddressDeny"] == ["any"]
    assert unit["Service.IPAddressAllow"] == ["localhost"]


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("name", ["kotd.service", "kotd-kiosk.service"])
def test_both_units_rate_two_or_less(name: str, tmp_path: Path) -> None:
    assert exposure(unit_text(name), name, tmp_path) <= 2.0  # the kiosk was 9.2 UNSAFE


def test_the_kiosk_takes_the_token_and_its_profile_from_systemd(tmp_path: Path) -> None:
    creds = tmp_path / "creds"
    creds.mkdir()
    (creds / "token").write_text("kiosk-token\n")
    (creds / "config").write_text("port = 8123\n")
    done = subprocess.run(
        [KOTD, "kiosk", "--print", "--browser", "/usr/bin/true"], capture_output=True,
        text=True, timeout=60, env={**os.environ, "CREDENTIALS_DIRECTORY": str(creds),
                                    "CACHE_DIRECTORY": str(tmp_path / "cache"),
                                    "KOTD_DATA_DIR": str(tmp_path / "unreadable")})
    assert done.returncode == 0, done.stderr
    assert "http://127.0.0.1:8123/?kiosk=1&token=kiosk-token" in done.stdout
    assert f"--user-data-dir={tmp_path / 'cache' / 'browser'}" in done.stdout


# ---- items 12, 13: the unit as the install writes it ------------------------------------------

def test_a_custom_data_directory_is_writable_under_systemd(tmp_path: Path) -> None:
    text = unit_text("kotd.service", "/srv/table-data")
    unit = unit_settings(text)
    assert unit["Service.ReadWritePaths"] == ["-/srv/table-data"]
    assert unit["Service.ProtectSystem"] == ["strict"]
    assert unit["Service.ExecStart"][0].endswith("serve --data-dir /srv/table-data")
    assert unit["Service.WorkingDirectory"] == ["/srv/table-data"]
    assert "/var/lib/kotd" not in text
    kiosk = unit_settings(unit_text("kotd-kiosk.service", "/srv/table-data"))
    assert "token:/srv/table-data/token" in kiosk["Service.LoadCredential"]
    if ANALYZE is not None:
        assert exposure(text, "kotd.service", tmp_path) <= 2.0


def test_supplementary_groups_name_only_groups_this_system_has() -> None:
    here = {g.gr_name for g in grp.getgrall()}
    for name in ("kotd.service", "kotd-kiosk.service"):
        wanted = unit_settings((UNITS / name).read_text())["Service.SupplementaryGroups"][0].split()
        written = unit_settings(unit_text(name)).get("Service.SupplementaryGroups", [""])[0].split()
        assert written == [g for g in wanted if g in here], (name, written)
    if "gpio" not in here:  # as on this machine: the unit must not name it (216/GROUP)
        written = unit_settings(unit_text("kotd.service")).get("Service.SupplementaryGroups", [])
        assert not any("gpio" in line.split() for line in written)


# ---- item 14: the install's order and its message ---------------------------------------------

def test_hardware_md_installs_git_before_cloning() -> None:
    text = (ROOT / "hardware.md").read_text(encoding="utf-8")
    assert text.index("apt-get install -y git") < text.index("sudo git clone")


def test_the_root_message_repeats_the_options_given() -> None:
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is missing")
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                           "bash", str(ROOT / "pi/install.sh"), "--no-start", "--no-kiosk"],
                          capture_output=True, text=True, timeout=60, check=False)
    if os.geteuid() != 0:
        pytest.skip("needs root to become another user")
    assert done.returncode == 1
    assert "run me as root: sudo" in done.stderr and "--no-start --no-kiosk" in done.stderr


# ---- item 15: the token stays out of the journal ------------------------------------------------

def test_the_journal_is_told_apart_from_a_terminal_or_a_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with out.open("w") as stream:
        st = os.fstat(stream.fileno())
        assert to_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not to_journal(stream, {})
        assert not to_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})


def test_kotd_serve_keeps_the_token_out_of_the_journal(tmp_path: Path) -> None:
    out = tmp_path / "journal"
    port = free_port()
    with out.open("w") as stream:
        st = os.fstat(stream.fileno())
        proc = subprocess.Popen(
            [KOTD, "serve", "--source", "sim", "--pins", "mock", "--host", "127.0.0.1",
             "--port", str(port), "--data-dir", str(tmp_path / "data")],
            stdout=stream, stderr=stream, text=True,
            env={**os.environ, "JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        try:
            import time

            end = time.monotonic() + 30
            while time.monotonic() < end and "the link with the table's token" not in \
                    out.read_text():
                time.sleep(0.2)
        finally:
            proc.terminate()
            proc.wait(20)
    printed = out.read_text()
    token = (tmp_path / "data" / "token").read_text().strip()
    assert "the link with the table's token" in printed, printed
    assert f"http://127.0.0.1:{port}/" in printed
    assert token not in printed
