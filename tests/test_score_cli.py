"""`jantaku score`: human form, --json, --jsonl streaming, exit codes 0/1/2, and the bench command."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_scoring import run_cli, score_json

from table.score_cli import score_stream

ROOT = Path(__file__).resolve().parents[1]


def test_human_form_one_screen(capsys):
    code, out, err = run_cli(capsys, "score", "234m567p11s345s78s", "--win", "9s", "--riichi", "--tsumo",
                             "--seat", "S", "--dora", "1m", "--honba", "1", "--sticks", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Hand   234m567p1134578s  win 9s"
    assert lines[1].startswith("Win    tsumo, riichi; seat S, round E; rules Tenhou")
    assert "  Menzen Tsumo  1 han" in lines and "  Dora          1 han" in lines
    assert "Value  4 han 20 fu  (base 20)" in lines
    assert "Pay    2600 from the dealer, 1300 from each other player" in lines
    assert "Total  6500  (+300 honba, +1000 riichi sticks)" in lines
    assert len(lines) < 25


def test_human_form_yakuman_and_meld(capsys):
    code, out, _ = run_cli(capsys, "score", "111222333z5m", "--win", "5m", "--meld", "pon:444z:left", "--tsumo",
                           "--seat", "E", "--rules", "mahjongsoul")
    assert code == 0
    assert "[pon:444z:left]" in out and "  Daisuushii  2x yakuman" in out
    assert "Pay    32000 all (from each of the three)" in out and "Total  96000" in out


def test_ura_without_riichi_is_noted_not_counted(capsys):
    code, r = score_json(capsys, "456p678s23s99p", "--win", "1s", "--meld", "chi:234m:left", "--dora", "8s",
                         "--ura", "1m", "--seat", "S")
    assert code == 1  # open and no yaku: neither dora nor ura make a yaku
    assert r["error"].startswith("no yaku")
    assert r["notes"] == ["ura dora count only for a riichi winner: ignored"]


def test_not_a_win_is_exit_1(capsys):
    code, out, err = run_cli(capsys, "score", "123m456p789s13s99p", "--win", "2s")
    assert code == 1 and err == ""
    assert "Not a win: no yaku: the hand is complete but has no yaku (dora alone do not count)" in out
    code, r = score_json(capsys, "123m456p789s13s99p", "--win", "5s")
    assert code == 1 and r["valid"] is False and r["error"].startswith("not a winning hand")
    assert r["payment"] is None and r["total"] == 0


@pytest.mark.parametrize(("args", "message"), [
    (["234m567p11s345s78s", "--win", "9s", "--meld", "chi:135s"], "a chi must be three consecutive"),
    (["234m567p11s345s", "--win", "9s"], "wrong tile count"),
    (["234m046p11s345s789s", "--win", "5p"], "the tiles hold 0p where the winning tile is 5p"),  # 14: typed red
    (["234m456p11s345s789s", "--win", "6s"], "leave the winning tile out of the tiles, or name one of them"),
    (["11112m567p11s345s", "--win", "1m"], "5 copies of 1m"),
    (["234m567p11s345s78s", "--win", "9s", "--ippatsu"], "ippatsu needs riichi"),
    (["234m567p11s78s", "--win", "9s", "--meld", "chi:345s", "--riichi"], "riichi needs a closed hand"),
    (["234m567p11s345s78s", "--win", "9s", "--rinshan", "--tsumo"], "rinshan kaihou needs a kan"),
    (["234m567p11s345s78s", "--win", "9s", "--chankan", "--tsumo"], "chankan is a ron win"),
    (["234m567p11s345s78s", "--win", "9s", "--haitei"], "haitei is a tsumo win"),
    (["234m567p11s78s", "--win", "9s", "--meld", "closed-kan:4444p", "--riichi", "--ippatsu", "--rinshan",
      "--tsumo"], "ippatsu and rinshan kaihou cannot both apply"),
    (["234m567p11s345s78s", "--win", "2m", "--chankan"], "chankan robs the fourth 2m"),
    (["234m567p11s345s78s", "--win", "9s", "--chankan", "--dora", "9s"], "no dora indicator can show another"),
    (["234m567p11s345s78s", "--win", "9s", "--tenhou", "--tsumo", "--seat", "S"], "tenhou is the dealer's tsumo"),
    (["234m567p11s345s78s", "--win", "9s", "--seat", "X"], "unknown wind 'X'"),
    (["234m567p11s345s78s", "--win", "9s", "--seat", "nope"], "unknown wind 'nope'"),
    (["234m567p11s345s78s", "--win", "9s", "--seat", "S", "--haitei", "--tsumo", "--chiihou"],
     "a first-turn win (tenhou, chiihou, renhou) is not on the last tile"),
    (["234m567p11s345s78s", "--win", "9s", "--seat", "S", "--houtei", "--renhou"], "is not on the last tile"),
    (["234m567p11s345s78s", "--win", "9s", "--honba", "-1"], "honba must be between 0 and 100"),
    (["234m567p11s345s78s"], "give the winning tile with --win"),
    ([], "give the concealed tiles"),
])
def test_bad_input_is_exit_2_with_the_reason_on_stderr(capsys, args, message):
    code, out, err = run_cli(capsys, "score", *args)
    assert code == 2 and out == ""
    assert err.startswith("jantaku: ") and message in err


def test_jsonl_stream_in_order_with_per_line_errors():
    lines = [
        json.dumps({"hand": "234m567p11s345s78s", "win": "9s", "tsumo": True, "riichi": True, "seat": "S",
                    "dora": ["1m"], "honba": 1, "riichi_sticks": 1}),
        "",
        json.dumps({"hand": "123m456p789s13s99p", "win": "2s"}),
        json.dumps({"hand": "234m678s2p", "win": "2p", "rules": "mleague", "seat": "W", "round": "S",
                    "melds": [{"type": "pon", "tiles": "777z"}, {"type": "chi", "tiles": "0p46p", "source": "left"}]}),
        json.dumps({"hand": "234m567p11s345s", "win": "9s"}),
        "{not json",
        json.dumps({"hand": "234m567p11s345s78s", "win": "9s", "tsumo": "yes"}),
        json.dumps({"hand": "234m567p11s345s78s", "win": "9s", "colour": "red"}),
    ]
    out = io.StringIO()
    code = score_stream(iter(line + "\n" for line in lines), out)
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert code == 2 and len(results) == 7  # the blank line gives no result
    first = results[0]
    assert (first["valid"], first["han"], first["fu"], first["limit"]) == (True, 4, 20, None)
    assert first["yaku"] == [{"name": "Menzen Tsumo", "han": 1}, {"name": "Riichi", "han": 1},
                             {"name": "Pinfu", "han": 1}, {"name": "Dora", "han": 1}]
    assert first["payment"] == {"tsumo_dealer": 2600, "tsumo_other": 1300}
    assert (first["honba_bonus"], first["sticks_bonus"], first["total"]) == (300, 1000, 6500)
    assert results[1]["valid"] is False and results[1]["error"].startswith("no yaku") and "bad_input" not in results[1]
    assert results[2]["valid"] is True and results[2]["aka"] == 1 and results[2]["payment"] == {"ron": 2000}
    assert results[3]["bad_input"] is True and results[3]["error"].startswith("wrong tile count")
    assert results[4]["bad_input"] is True and results[4]["error"].startswith("line is not JSON")
    assert results[5]["error"] == "field 'tsumo' must be true or false, not 'yes'"
    assert results[6]["error"].startswith("unknown field(s) colour")
    # a line that could not be read has every field a scored line has (plus bad_input), so readers need no cases
    assert all(r.keys() - {"bad_input"} == first.keys() for r in results)


def test_jsonl_exit_codes():
    good = json.dumps({"hand": "234m567p11s345s78s", "win": "9s", "riichi": True}) + "\n"
    no_yaku = json.dumps({"hand": "123m456p789s13s99p", "win": "2s"}) + "\n"
    assert score_stream(iter([good, good]), io.StringIO()) == 0
    assert score_stream(iter([good, no_yaku]), io.StringIO()) == 1
    assert score_stream(iter([no_yaku, "[]\n"]), io.StringIO()) == 2


@pytest.mark.parametrize("line", [
    '{"hand": "123m456p789s1122z", "win": "1z", "seat": "S", "seat": "E"}',
    b'{"hand": "123m456p789s1122z", "win": "1z", "melds": [{"kind": "pon", "kind" : "chi", "tiles": "111z"}]}',
])
def test_jsonl_a_field_given_twice_is_bad_input_not_the_last_one_kept(line):
    """orjson keeps the last "seat", which scored a non-dealer's hand as the dealer's."""
    out = io.StringIO()
    assert score_stream(iter([line]), out) == 2
    assert "given twice" in json.loads(out.getvalue())["error"]


def test_jsonl_a_value_holding_a_key_end_is_still_read():
    out = io.StringIO()
    assert score_stream(iter(['{"hand": "123m456p789s1122z", "win": "1z", "rules": "a\\":b"}']), out) == 2
    assert "rules" in json.loads(out.getvalue())["error"] and "twice" not in out.getvalue()


@pytest.mark.parametrize("melds", [{}, "", 0, False])
def test_jsonl_melds_of_another_type_are_bad_input_even_when_empty(melds):
    out = io.StringIO()
    line = json.dumps({"hand": "123m456p789s1122z", "win": "2z", "melds": melds})
    assert score_stream(iter([line]), out) == 2
    assert json.loads(out.getvalue())["error"] == 'field "melds" must be a list'


def test_jsonl_matches_json_for_the_same_hand(capsys):
    code, r = score_json(capsys, "112233m56m789m99m", "--win", "4m", "--riichi", "--tsumo", "--dora", "9m",
                         "--seat", "S", "--rules", "wrc")
    out = io.StringIO()
    score_stream(iter([json.dumps({"hand": "112233m56m789m99m", "win": "4m", "riichi": True, "tsumo": True,
                                   "dora": ["9m"], "seat": "S", "rules": "wrc"})]), out)
    assert json.loads(out.getvalue()) == r and code == 0


def test_real_subprocess_jsonl_and_exit_codes():
    lines = "\n".join([
        json.dumps({"hand": "234m567p11s345s78s", "win": "9s", "riichi": True}),
        json.dumps({"hand": "1112345678999m", "win": "5m", "rules": "mahjongsoul"}),
    ]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "device.cli", "score", "--jsonl"], input=lines, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r["total"] for r in results] == [2900, 96000]  # seat defaults to E: the dealer
    proc = subprocess.run([sys.executable, "-m", "device.cli", "score", "1m", "--win", "2m"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "wrong tile count" in proc.stderr and proc.stdout == ""


def test_jsonl_line_of_bad_utf8_is_one_bad_line_whatever_the_locale():
    good = json.dumps({"hand": "234m567p11s345s78s", "win": "9s", "riichi": True}).encode()
    data = good + b"\n\xff\xfe{\"hand\": 1}\r\n" + good + b"\r\n"
    proc = subprocess.run([sys.executable, "-m", "device.cli", "score", "--jsonl"], input=data, cwd=ROOT,
                          capture_output=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    results = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 2 and proc.stderr == b""
    assert [r["total"] for r in results] == [2900, 0, 2900]
    assert results[1]["bad_input"] is True and "not valid UTF-8" in results[1]["error"]


def test_jsonl_takes_rules_from_the_command_line_for_lines_without_them(capsys, monkeypatch):
    # riichi, pinfu, ittsu: 4 han 30 fu, which the wrc preset rounds up to a mangan (kiriage)
    line = {"hand": "12345678s234m66p", "win": "9s", "riichi": True, "seat": "S"}
    data = (json.dumps(line) + "\n" + json.dumps({**line, "rules": "tenhou"}) + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run_cli(capsys, "score", "--jsonl", "--rules", "wrc")
    assert code == 0 and [json.loads(x)["total"] for x in out.splitlines()] == [8000, 7700]
    code, out, err = run_cli(capsys, "score", "--jsonl", "--riichi", "--seat", "S")
    assert code == 2 and out == "" and "give no tiles, --win or hand options (--riichi, --seat)" in err
    code, out, err = run_cli(capsys, "score", "--jsonl", "--rules", "poker")
    assert code == 2 and out == "" and "unknown rules 'poker'" in err


def test_bench_scoring_runs_and_reports_both_rates(capsys):
    code, out, _ = run_cli(capsys, "bench", "scoring", "--hands", "60", "--repeat", "1")
    assert code == 0
    assert "mahjong direct" in out and "jantaku --jsonl" in out and "% of the library's throughput" in out


@pytest.mark.parametrize("word, letter", [("nan", "S"), ("South", "S"), ("shaa", "W"), ("pei", "N"), ("Ton", "E")])
def test_winds_are_whole_words_english_or_japanese(capsys, word: str, letter: str) -> None:
    """Nan is South: a wind taken by its first letter alone would price the hand as North's."""
    hand = ("234m567p11s345s78s", "--win", "9s", "--tsumo", "--json")
    assert run_cli(capsys, "score", *hand, "--seat", word, "--round", word) == \
        run_cli(capsys, "score", *hand, "--seat", letter, "--round", letter)


def test_a_riichi_with_no_stick_on_the_table_is_noted(capsys):
    """--sticks counts the winner's own riichi stick; left at 0 the price leaves it out, and the output says so."""
    hand = ("234m567p11s345s78s", "--win", "9s", "--riichi", "--json")
    forgot = json.loads(run_cli(capsys, "score", *hand)[1])
    given = json.loads(run_cli(capsys, "score", *hand, "--sticks", "1")[1])
    assert any("own stick" in n for n in forgot["notes"]) and forgot["total"] == 2900
    assert given["notes"] == [] and given["total"] == 3900


def test_a_pasted_mountain_of_tiles_is_refused_without_echoing_it_whole(capsys):
    code, _, err = run_cli(capsys, "score", "1" * 100_000 + "m", "--win", "9s")
    assert code == 2 and err.startswith("jantaku: ") and len(err) < 2100
    assert err.rstrip().endswith("characters more)")
