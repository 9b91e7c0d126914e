"""A game survives the process being killed at any moment (SIGKILL), and past games stay."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

from conftest import KOTD, play
from gamebot import choose

from rules.games import game_pack
from rules.kotd.actions import parse_action
from rules.record import replay
from rules.store import EventStore
from rules.table import Table

GAME = game_pack("kotd")



def random_game_lines(seed: int, length: int) -> list[str]:
    rng = random.Random(seed)
    record = replay(GAME, ["players Ann Ben Cem"])
    lines = ["players Ann Ben Cem"]
    while len(lines) < length and record.state.phase != "over":
        line = choose(record.state, rng)
        record = record.act(parse_action(line))
        lines.append(line)
        if rng.random() < 0.05 and record.actions:
            record = record.act(parse_action("undo"))
            lines.append("undo")
    return lines


def view_of(lines: list[str], tmp: Path) -> dict:
    script = tmp / f"prefix-{len(lines)}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run([KOTD, "play", "--script", str(script), "--json"],
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def resumed_view(data_dir: Path) -> dict:
    out = subprocess.run([KOTD, "play", "--data-dir", str(data_dir), "--script", "/dev/null",
                          "--json"], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def test_sigkill_mid_game_then_restart_resumes_the_identical_game(tmp_path: Path) -> None:
    lines = random_game_lines(seed=3, length=60)
    data_dir = tmp_path / "data"
    proc = subprocess.Popen([KOTD, "play", "--data-dir", str(data_dir), "--script", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    acknowledged = 0
    kill_after = 40
    for n, line in enumerate(lines, start=1):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == f"ok {n}"
        acknowledged = n
        if n == kill_after:
            break
    # one more action on its way while the process dies
    proc.stdin.write(lines[kill_after] + "\n")
    proc.stdin.flush()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    resumed = resumed_view(data_dir)
    candidates = [view_of(lines[:acknowledged], tmp_path),
                  view_of(lines[: acknowledged + 1], tmp_path)]
    assert resumed in candidates  # at most the action being written is lost
    assert resumed["actions"] == candidates[0]["actions"] or resumed == candidates[1]


def test_kill_at_random_moments_never_corrupts_the_file(tmp_path: Path) -> None:
    # ten games in a row ('players' starts the next), so the kill lands inside the stream
    lines = [line for seed in range(10) for line in random_game_lines(seed, 400)]
    rng = random.Random(5)
    for attempt in range(4):
        data_dir = tmp_path / f"data{attempt}"
        proc = subprocess.Popen([KOTD, "play", "--data-dir", str(data_dir), "--script", "-"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc.stdin.write(lines[0] + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "ok 1"
        # the rest arrives as fast as the pipe takes it; the kill lands mid-write
        feeder = threading.Thread(target=_feed, args=(proc, lines[1:]), daemon=True)
        feeder.start()
        time.sleep(rng.uniform(0.005, 0.05))
        proc.kill()
        proc.wait(timeout=10)
        referee = Table(EventStore.in_dir(data_dir), game_pack("kotd"))
        assert referee.problem is None
        games = sorted(referee.store.games(), key=lambda g: g.id)
        stored = [e.action for g in games for e in referee.store.events(g.id)]
        assert 1 <= len(stored) < len(lines), "the kill should land mid-stream"
        assert stored == lines[: len(stored)]  # a prefix of the stream, nothing garbled
        current = [e.action for e in referee.history()]
        assert referee.record == replay(GAME, current)
        referee.store.close()


def _feed(proc: subprocess.Popen, lines: list[str]) -> None:
    try:
        for line in lines:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
    except (BrokenPipeError, OSError):
        pass


def test_past_games_stay_in_the_file(tmp_path: Path) -> None:
    store = EventStore.in_dir(tmp_path)
    referee = Table(store, game_pack("kotd"))
    play(referee, "players Ann Ben", "row orc-3 elf-4 dwarf-3x1 gnome-3green fairy-2r2g")
    first = referee.game_id
    play(referee, "players Cem Dan Eve")
    games = store.games()
    assert [g.players for g in games] == ["players Cem Dan Eve", "players Ann Ben"]
    assert [g.events for g in games] == [1, 2]
    old, problem = referee.past(first)
    assert old is not None and problem is None and old.state.players == ("Ann", "Ben")
    assert old.state.row[0] == "orc-3"
    store.close()
    again = Table(EventStore.in_dir(tmp_path), game_pack("kotd"))
    assert again.state is not None and again.state.players == ("Cem", "Dan", "Eve")


def test_a_broken_game_file_is_set_aside_and_said(tmp_path: Path) -> None:
    (tmp_path / "kotd.sqlite3").write_bytes(b"this is not a database" * 100)
    script = tmp_path / "game.txt"
    script.write_text("players Ann Ben\n", encoding="utf-8")
    out = subprocess.run([KOTD, "play", "--data-dir", str(tmp_path), "--script", str(script)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    kept = list(tmp_path.glob("kotd.sqlite3.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b"this is not a database" * 100
    assert kept[0].name in out.stderr and "Traceback" not in out.stderr
    assert EventStore.in_dir(tmp_path).games()[0].players == "players Ann Ben"
