"""``kotd cards`` and ``kotd check`` through the real console entry point."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import KOTD as KOTD_PATH

from pi.cli import main
from rules.dice import Roll
from rules.kotd.cards import load_box

KOTD = [KOTD_PATH]
ROW = "dwarf-3x1,orc-3,elf-4,gnome-3green,fairy-2r2g"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(KOTD + list(args), input=stdin, capture_output=True, text=True,
                          timeout=60)


def test_cards_json_lists_the_whole_box() -> None:
    out = run("cards", "--json")
    assert out.returncode == 0, out.stderr
    cards = json.loads(out.stdout)
    assert len(cards) == 65
    by_id = {c["id"]: c for c in cards}
    assert by_id["dwarf-5x6"]["points"] == 10
    assert by_id["dwarf-5x6"]["requirement"] == {"type": "value", "value": 6, "count": 5}
    assert by_id["dragon-28"]["points"] == -4 and by_id["dragon-28"]["village"] is None
    assert by_id["orc-3+2"]["requirement"] == {"type": "groups", "sizes": [3, 2]}
    assert by_id["fairy-3r2b"]["requirement"] == {"type": "colors",
                                                  "counts": {"red": 3, "blue": 2}}
    assert by_id["snob-odd"]["requirement"] == {"type": "parity", "parity": "odd"}
    assert by_id["goblin-5"]["name"]["de"] == "Sonderbarer Pilzkobold"
    assert {c["kind"] for c in cards} == {"dwarf", "orc", "elf", "snob", "gnome", "goblin",
                                          "fairy", "apprentice", "hypnotist", "dragon",
                                          "village", "penalty"}
    assert all(c["points"] < 0 for c in cards if c["kind"] == "penalty")


def test_check_one_roll_against_a_row_as_json() -> None:
    out = run("check", "--dice", "3r 3g 5b 1r 6g 2b", "--cards", ROW, "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["satisfied"] == ["fairy-2r2g"]
    fairy = report["cards"][4]
    assert fairy["witness"] == [0, 1, 3, 4] and fairy["missing"] == 0
    orc = report["cards"][1]
    assert orc == {"id": "orc-3", "satisfied": False, "witness": [0, 1], "missing": 1}


def test_check_reads_rolls_from_stdin_one_line_each(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("1 1 1 2 2 2\n\n6 6 6 6 6 6\n"))
    assert main(["check", "--json", "--cards", "orc-3+2,dragon-30,hypnotist"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["satisfied"] for line in lines] == [["orc-3+2", "hypnotist"], ["dragon-30"]]
    monkeypatch.setattr(sys, "stdin", io.StringIO("1 1 1 2 2 2\n6 6 6 6 6 6\n1 2 2 4 4 5\n"))
    assert main(["check", "--cards", "orc-3+2,dragon-30,hypnotist"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 1 1 2 2 2: orc-3+2 (1 1 2 2 2), hypnotist (1 1 1 2 2 2)",
        "6 6 6 6 6 6: dragon-30 (6 6 6 6 6 6)",
        "1 2 2 4 4 5: nothing: take a penalty",
    ]


def test_a_refused_line_is_told_and_the_next_lines_are_still_checked() -> None:
    out = run("check", "--json", "--cards", "dragon-30", stdin="6 6 6 6 6 6\n1 9\n6 6 6 6 6 6\n")
    assert out.returncode == 2
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert lines[0]["satisfied"] == lines[2]["satisfied"] == ["dragon-30"]
    assert lines[1]["line"] == 2 and "value must be 1-6" in lines[1]["error"]
    assert out.stderr.strip().splitlines() == [f"kotd: error: line 2: {lines[1]['error']}"]


def test_check_whole_deck_matches_each_card() -> None:
    box = load_box()
    roll = Roll.parse("2r 2g 2b 4r 4g 6b")
    out = run("check", "--dice", str(roll), "--json")
    expected = [c.id for c in box.citizens if c.check(roll).satisfied]
    assert json.loads(out.stdout)["satisfied"] == expected
    assert "snob-even" in expected and "orc-2+2+2" not in expected


def test_human_output_is_a_table_with_the_witness() -> None:
    out = run("check", "--dice", "4r 4g 4b 1r 2g 6b", "--cards", ROW)
    assert out.returncode == 0
    assert "YES orc-3" in out.stdout and "4r 4g 4b" in out.stdout
    assert "satisfied: orc-3" in out.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--dice", "7r 3g 5b 1r 6g 2b"], None, "die 1 '7r': value must be 1-6"),
        (["--dice", "3r 3x 5b 1r 6g 2b"], None, "die 2 '3x': colour must be r, g or b"),
        (["--dice", "1 2 3 4 5 6 1"], None, "a roll needs 6 dice, got 7"),
        (["--dice", "1 2 3 4 5 6", "--cards", "orc-3,dwarf-3x2"], None,
         "--cards: card 2: unknown card id 'dwarf-3x2'"),
        (["--dice", "1 2 3 4 5 6", "--box", "/nonexistent/box.toml"], None,
         "cannot read the card data"),
        ([], "1 2 3 4 5 6\n1 2 3\n", "line 2: a roll needs 6 dice, got 3"),
        (["--dice", "1 2 3 4 5 6", "--box", "LATIN1"], None, "LATIN1: not UTF-8 text"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, stdin, message, tmp_path) -> None:
    if "LATIN1" in args:
        latin = tmp_path / "box.toml"
        latin.write_bytes("name = 'Würfelkönig'\n".encode("latin-1"))
        args = [str(latin) if a == "LATIN1" else a for a in args]
        message = message.replace("LATIN1", str(latin))
    out = run("check", *args, stdin=stdin)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
