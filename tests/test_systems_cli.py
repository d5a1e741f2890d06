"""`jantaku score --system zungjung|mcr`: the real command line (device.cli.main) and the JSONL stream."""

import io
import json

import pytest

from device.cli import main
from table.systems_cli import score_stream


def run(capsys, *argv):
    code = main(["score", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_zungjung_human_form_names_patterns_and_payoff(capsys):
    code, out, _ = run(capsys, "123m456m789m234p5p", "--win", "5p", "--system", "zungjung")
    assert code == 0
    assert "7.1 Pure Straight" in out and "Value  50 points" in out
    # 50 > 25 on a discard: the two others pay 25, the discarder 3 x 50 - 50 = 100
    assert "100 from the discarder, 25 from each of the other two" in out


def test_zungjung_json_shape(capsys):
    code, out, _ = run(capsys, "7z123m456p", "--win", "7z", "--meld", "pon:555z", "--meld", "pon:666z",
                       "--system", "zj", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["system"] == "zungjung" and obj["valid"] is True
    assert obj["total"] == 60  # 3.2.1 Little Three Dragons "true value is 60"
    assert {"code": "3.2.1", "name": "Little Three Dragons", "points": 40} in obj["patterns"]
    assert obj["payment"] == {"discarder": 130, "others": 25}


def test_zungjung_self_draw_flags_and_flowers(capsys):
    code, out, _ = run(capsys, "345p678s234s5m", "--win", "5m", "--meld", "kan:2222m", "--tsumo", "--rinshan",
                       "--flowers", "1234f", "--system", "zungjung", "--json")
    obj = json.loads(out)
    assert code == 0
    codes = sorted(p["code"] for p in obj["patterns"])
    assert codes == ["1.3", "11.1.1", "11.1.1", "11.1.1", "11.1.2", "11.2.1", "4.3.1", "9.2"]
    assert obj["total"] == 5 + 5 + 10 + 20 and obj["payment"] == {"each": 40}


def test_zungjung_minimum_rejection_exits_1(capsys):
    code, out, _ = run(capsys, "567s123p5m", "--win", "5m", "--meld", "chi:234m", "--meld", "pon:999p",
                       "--system", "zungjung", "--minimum", "5")
    assert code == 1 and "below the 5-point minimum" in out


def test_mcr_json_shape_and_payment(capsys):
    code, out, _ = run(capsys, "123456789m234s5p", "--win", "5p", "--tsumo", "--flowers", "1f", "--system", "mcr",
                       "--json")
    obj = json.loads(out)
    assert code == 0 and obj["system"] == "mcr"
    assert obj["total"] == 24 and obj["flowers"] == 1 and obj["fan_points"] == 23
    assert {"number": 28, "name": "Pure Straight", "points": 16, "count": 1, "total": 16} in obj["fans"]
    assert obj["payment"] == {"each": 32}  # 8 base + 24 from each of the three


def test_mcr_human_form_below_minimum(capsys):
    code, out, _ = run(capsys, "345p678s234s5m", "--win", "5m", "--meld", "chi:234m", "--system", "mcr")
    assert code == 1 and "8-fan minimum" in out


def test_mcr_beginner_minimum_of_6_pays_no_base(capsys):
    """The club's beginner sub-format "removes the baseline payment": 7 fan self-drawn is 7 from each, not 15."""
    hand = ["45m55z", "--win", "3m", "--meld", "chi:234m", "--meld", "pon:666m", "--meld", "chi:789m",
            "--system", "mcr", "--minimum", "6"]
    code, out, _ = run(capsys, *hand, "--tsumo")
    assert code == 0 and "Pay    7 from each of the three (no base payment at the 6-fan minimum" in out
    assert "the winner gets 21" in out
    code, out, _ = run(capsys, *hand, "--json")
    assert code == 0 and json.loads(out)["payment"] == {"discarder": 6, "others": 0}
    line = json.dumps({"hand": "45m55z", "win": "3m", "melds": ["chi:234m", "pon:666m", "chi:789m"], "minimum": 6,
                       "tsumo": True})
    out_stream = io.StringIO()
    assert score_stream(io.StringIO(line + "\n"), out_stream, system="mcr") == 0
    assert json.loads(out_stream.getvalue())["payment"] == {"each": 7}
    code, out, _ = run(capsys, *hand[:-1], "8", "--tsumo")
    assert code == 1  # the same hand is below the usual 8-fan minimum


@pytest.mark.parametrize(
    "argv, message",
    [
        (["123m456m789m234p5p", "--win", "5p", "--system", "hk"], "unknown rule system"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--riichi"], "riichi rule"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--dora", "1m"], "dora"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "mcr", "--tenhou", "--tsumo"], "no blessings"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--haitei"], "add --tsumo"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--flowers", "5f"], "no bonus tile 5f"),
        (["123m456m789m234p", "--win", "5p", "--system", "zj"], "13 tiles"),
        (["123m456m789m234p5p", "--win", "5p", "--flowers", "1f"], "riichi has no such option"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--honba", "3"], "zungjung has neither"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--sticks", "2"], "zungjung has neither"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "mcr", "--payoff", "uniform"], "Zung Jung options"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "mcr", "--halve-bonus"], "Zung Jung options"),
        (["123m456m789m234p5p", "--win", "5p", "--system", "zj", "--rules", "wrc"], "wrc is a riichi preset"),
        (["123m456m789m234p0p", "--win", "0p", "--system", "zj"], "zungjung has no red fives"),
        (["123m456m789m234p0p", "--win", "0p", "--system", "mcr"], "mcr has no red fives"),
        (["234m56p11s", "--win", "7p", "--meld", "chi:135s", "--meld", "chi:678s", "--system", "mcr"],
         "three consecutive tiles of one suit, not 135s"),
        (["--jsonl", "--system", "zj", "--tsumo"], "give no tiles, --win or hand options (--tsumo)"),
        (["123m456p789s5s", "--win", "5s", "--meld", "chi:345s:across", "--system", "mcr"],
         "only be called from the player on the left, not across"),
    ],
)
def test_bad_input_exits_2_with_the_reason(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["123m456p789s111z5p", "--win", "5p", "--tsumo", "--tenhou", "--haitei", "--system", "zj"],
         "a first-turn win"),
        (["123m456p789m55p23s", "--win", "4s", "--seat", "S", "--renhou", "--houtei", "--system", "zj"],
         "a first-turn win"),
        (["123m456p789m55p23s", "--win", "4s", "--seat", "S", "--renhou", "--chankan", "--system", "zj"],
         "a first-turn win"),
        (["456p789s23s99m", "--win", "1s", "--meld", "kan:2222m", "--tsumo", "--haitei", "--rinshan", "--system",
          "zj"], "9.1.1 Last Tile Draw and 9.2 Out with the Replacement Tile cannot both apply"),
        (["456p789s23s99m", "--win", "1s", "--meld", "pon:222m", "--chankan", "--houtei", "--system", "zj"],
         "9.1.2 Last Tile Claim and 9.3 Robbing the Quad cannot both apply"),
        (["456p789s23s99m", "--win", "1s", "--meld", "pon:222m", "--chankan", "--houtei", "--system", "mcr"],
         "45 Last Tile Claim and 47 Robbing the Quad cannot both apply"),
    ],
)
def test_win_situations_that_cannot_happen_together_exit_2(capsys, argv, message):
    """As riichi refuses tenhou with haitei, haitei with rinshan and houtei with chankan."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and not out


def test_a_zung_jung_preset_scores_with_its_own_minimum_and_payoff(capsys, monkeypatch):
    """--rules zungjung-competitive has a 5-point minimum, zungjung-uniform pays 50 each: as `jantaku game` keeps
    them, on one hand and on a JSONL stream; an option given on the command line still wins."""
    chicken = ["67m22z", "--win", "8m", "--meld", "chi:234m", "--meld", "chi:567p", "--meld", "pon:888s", "--seat", "S"]
    code, out, _ = run(capsys, *chicken, "--rules", "zungjung-competitive")
    assert code == 1 and "below the 5-point minimum" in out
    assert run(capsys, *chicken, "--rules", "zungjung-competitive", "--minimum", "0")[0] == 0
    code, out, _ = run(capsys, "123m456m789m234p5p", "--win", "5p", "--rules", "zungjung-uniform", "--json")
    assert code == 0 and json.loads(out)["payment"] == {"each": 50}
    line = '{"hand": "123m456m789m234p5p", "win": "5p"}\n'
    for argv, payment in ((["--rules", "zungjung-uniform"], {"each": 50}),
                          (["--system", "zj", "--payoff", "uniform"], {"each": 50}),
                          (["--system", "zj"], {"discarder": 100, "others": 25})):
        monkeypatch.setattr("sys.stdin", io.StringIO(line))
        code, out, _ = run(capsys, "--jsonl", *argv)
        assert code == 0 and json.loads(out)["payment"] == payment, argv
    monkeypatch.setattr("sys.stdin", io.StringIO(line))
    code, out, _ = run(capsys, "--jsonl", "--system", "zj", "--minimum", "100")
    assert code == 1 and "below the 100-point minimum" in json.loads(out)["error"]


def test_a_line_of_the_other_system_takes_its_own_systems_defaults(capsys, monkeypatch):
    """A stream's minimum (and payoff) is its system's: an MCR line in a Zung Jung stream keeps MCR's 8-fan minimum,
    a Zung Jung line in an MCR stream wins as a Chicken Hand whatever the MCR minimum."""
    mcr_seven = '{"hand": "234m456p678s2p222z", "win": "2p", "seat": "S", "round": "S", "system": "mcr"}\n'
    for argv in (["--rules", "zungjung-competitive"], ["--system", "zj", "--minimum", "5"]):
        monkeypatch.setattr("sys.stdin", io.StringIO(mcr_seven))
        code, out, _ = run(capsys, "--jsonl", *argv)
        assert code == 1 and "below the 8-fan minimum" in json.loads(out)["error"], argv
    chicken = json.dumps({"hand": "67m22z", "win": "8m", "seat": "S", "system": "zj", "melds": [
        {"kind": "chi", "tiles": "234m"}, {"kind": "chi", "tiles": "567p"}, {"kind": "pon", "tiles": "888s"}]})
    monkeypatch.setattr("sys.stdin", io.StringIO(chicken + "\n"))
    code, out, _ = run(capsys, "--jsonl", "--system", "mcr", "--minimum", "6")
    assert code == 0 and json.loads(out)["total"] == 1


def test_an_mcr_line_refuses_zung_jung_fields(capsys, monkeypatch):
    line = '{"hand": "123m456m789m234p5p", "win": "5p", "system": "mcr", "payoff": "uniform", "halve_bonus": true}\n'
    monkeypatch.setattr("sys.stdin", io.StringIO(line))
    code, out, _ = run(capsys, "--jsonl", "--system", "zj")
    obj = json.loads(out)
    assert code == 2 and obj["bad_input"] and "'payoff' and 'halve_bonus' are Zung Jung fields" in obj["error"]
    code, _, err = run(capsys, "--jsonl", "--system", "mcr", "--payoff", "uniform")
    assert code == 2 and "Zung Jung options" in err


@pytest.mark.parametrize("argv, message", [
    (["--system", "riichi", "--rules", "mcr"], "it cannot be scored with --system riichi"),
    (["--system", "zj", "--round", "S"], "Zung Jung has no table wind"),
    (["--rules", "zungjung", "--round", "W"], "Zung Jung has no table wind"),
    (["--jsonl", "--system", "zj", "--round", "S"], "hand options (--round)"),
])
def test_contradictory_or_meaningless_options_are_refused(capsys, argv, message):
    """`--system riichi --rules mcr` scored the hand as MCR; `--round S` under Zung Jung was dropped unsaid."""
    hand = [] if "--jsonl" in argv else ["123m456m789m234p5p", "--win", "5p"]
    code, out, err = run(capsys, *hand, *argv)
    assert code == 2 and out == "" and message in err


def test_a_zung_jung_line_with_a_table_wind_is_bad_input():
    lines = io.StringIO('{"hand": "123m456m789m234p5p", "win": "5p", "round": "S"}\n'
                        '{"hand": "123m456m789m234p5p", "win": "5p", "round": "E"}\n')
    out = io.StringIO()
    assert score_stream(lines, out, system="zungjung") == 2
    bad, fine = (json.loads(line) for line in out.getvalue().splitlines())
    assert bad["bad_input"] and "no table wind" in bad["error"] and fine["valid"]


def test_a_chicken_hand_is_worth_1_point_not_1_points(capsys):
    code, out, _ = run(capsys, "67m22z", "--win", "8m", "--meld", "chi:234m", "--meld", "chi:567p", "--meld",
                       "pon:888s", "--seat", "S", "--system", "zj")
    assert code == 0 and "Value  1 point\n" in out


def test_riichi_stays_the_default(capsys):
    code, out, _ = run(capsys, "123m456m789m234p5p", "--win", "5p", "--riichi", "--json")
    obj = json.loads(out)
    assert code == 0 and "yaku" in obj and "patterns" not in obj


def test_jsonl_a_field_given_twice_is_bad_input():
    out = io.StringIO()
    line = '{"hand": "123m456m789m234p5p", "win": "5p", "self_drawn": true, "self_drawn": false}\n'
    assert score_stream(io.StringIO(line), out, system="zungjung") == 2
    assert "given twice" in json.loads(out.getvalue())["error"]


def test_jsonl_stream_scores_each_line_and_reports_bad_lines():
    lines = io.StringIO(
        '{"hand": "123m456m789m234p5p", "win": "5p"}\n'
        '\n'
        '{"hand": "1112345678999m", "win": "5m", "self_drawn": true}\n'
        '{"hand": "123m", "win": "5p"}\n'
        'not json\n'
        '{"hand": "123m456m789m234p5p", "win": "5p", "tsumo": true, "self_drawn": false}\n'
    )
    out = io.StringIO()
    status = score_stream(lines, out, system="zungjung")
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 2 and len(results) == 5
    assert results[4]["bad_input"] and "cannot differ" in results[4]["error"]
    assert results[0]["total"] == 50 and results[0]["payment"] == {"discarder": 100, "others": 25}
    assert results[1]["total"] == 480 and results[1]["limit"] == "single" and results[1]["payment"] == {"each": 480}
    assert results[2]["bad_input"] and "13 tiles" in results[2]["error"]
    assert results[3]["bad_input"] and "not JSON" in results[3]["error"]


@pytest.mark.parametrize("stream, line_system", [("mcr", "zungjung"), ("zungjung", "mcr"), ("zungjung", "zungjung")])
def test_a_bad_line_reports_its_own_system_and_every_field_of_a_scored_line(stream, line_system):
    """The README: a `bad_input` line "has every other field too"; and the system is the one the line names."""
    good = json.dumps({"hand": "123m456m789m234p5p", "win": "5p", "system": line_system, "minimum": 0})
    lines = [good,
             json.dumps({"hand": "123m", "win": "5p", "system": line_system}),
             json.dumps({"hand": "123m456m789m234p5p", "win": "5p", "system": line_system, "tsumo": "yes"})]
    if line_system == "zungjung":  # the tester's line: Zung Jung has no table wind
        lines.append(json.dumps({"hand": "123456789m234s5p", "win": "5p", "system": "zj", "round": "S"}))
    out = io.StringIO()
    assert score_stream(io.StringIO("\n".join(lines) + "\n"), out, system=stream) == 2
    scored, *bad_lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for result in bad_lines:
        assert result["bad_input"] is True and result["system"] == line_system and result["valid"] is False
        assert set(result) == set(scored) | {"bad_input"} and result["payment"] is None


def test_jsonl_stream_for_mcr_with_melds_and_flowers():
    line = json.dumps({"hand": "123p123s123p789s1m", "win": "1m", "flowers": "2g", "seat": "S", "round": "E"})
    out = io.StringIO()
    assert score_stream(io.StringIO(line + "\n"), out, system="mcr") == 0
    obj = json.loads(out.getvalue())
    assert obj["total"] == 13 and obj["fan_points"] == 12  # the text's exclusionary-rule hand + one flower
    assert obj["payment"] == {"discarder": 21, "others": 8}


def test_jsonl_command_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO('{"hand": "123m456m789m234p5p", "win": "5p", "tsumo": true}\n'))
    code = main(["score", "--jsonl", "--system", "zungjung"])
    obj = json.loads(capsys.readouterr().out)
    assert code == 0 and obj["total"] == 50 and obj["payment"] == {"each": 50}


def test_the_seat_shown_is_the_wind_scored(capsys):
    """Nan is South, which its first letter would show as North."""
    code, out, _ = run(capsys, "123m456m789m234p5p", "--win", "5p", "--system", "mcr", "--seat", "nan",
                       "--round", "shaa", "--minimum", "1")
    assert code == 0 and "seat S, round W" in out


def test_zung_jung_blessing_of_earth_is_the_ron_riichi_calls_renhou(capsys):
    """9.4.2: a non-East player wins on East's first discard."""
    code, out, _ = run(capsys, "123m456m789m234p5p", "--win", "5p", "--system", "zj", "--seat", "S", "--renhou",
                       "--json")
    assert code == 0 and {"code": "9.4.2", "name": "Blessings of Earth", "points": 155} in json.loads(out)["patterns"]
    code, _, err = run(capsys, "123m456m789m234p5p", "--win", "5p", "--system", "mcr", "--seat", "S", "--renhou")
    assert code == 2 and "no blessings" in err
