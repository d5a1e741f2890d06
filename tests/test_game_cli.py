"""`jantaku game ...` end to end: a whole club hanchan from the shell, replay, exports and rejections."""

from __future__ import annotations

import csv
import io
import json

from helpers_game import ok, refused, state_of


def test_full_club_hanchan_from_the_shell(jantaku):
    """A whole East-South game under rules/riichi-club-rulebook.txt, worked out by hand.

    Rule book: 25000 start, 30000 return, oka 4 x 5000 = 20000 to first (§3.6.1); uma +20/+10/-10/-20;
    counters 300 (100 per payer on tsumo, §3.4.10); noten payments 3000 split (§3.4.2); sticks to the winner
    nearest the discarder's right, counters to each winner (§4.1); chombo outside tournaments = reverse mangan
    (§3.4.6); ties go to the earlier dealership (§3.6); leftover riichi sticks go to first (§3.6).
    """
    game = ["game"]
    ok(jantaku, *game, "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "club")
    # E1-0, Ann deals. Bob riichi (24000, 1 stick) and tsumo, hand scored by the engine: riichi + menzen tsumo
    # + pinfu = 3 han 20 fu -> 1300 from the dealer, 700 from the others, plus the stick.
    ok(jantaku, *game, "riichi", "Bob")
    out = json.loads(ok(jantaku, *game, "tsumo", "Bob", "--hand", "234m567p11s345s34p", "--win", "2p", "--json"))
    assert out["last_hand"]["wins"][0]["han"] == 3 and out["last_hand"]["wins"][0]["fu"] == 20
    assert out["points"] == [23700, 27700, 24300, 24300]
    # E2-0, Bob deals. Draw, Bob and Cid tenpai: Ann, Dee pay 1500 each. Dealer tenpai: repeat, 1 counter.
    ok(jantaku, *game, "draw", "--tenpai", "Bob,Cid")
    # E2-1. Cid and Dee riichi (24800, 21800; 2 sticks). Bob (dealer) rons Dee: 2 han 30 fu = 2900 + 300,
    # plus both sticks: Bob 29200 + 3200 + 2000 = 34400, Dee 21800 - 3200 = 18600. Dealer won: 2 counters.
    ok(jantaku, *game, "riichi", "Cid")
    ok(jantaku, *game, "riichi", "W")  # Dee sits West in East 2: seats can be named by wind
    ok(jantaku, *game, "ron", "--from", "Dee", "--winner", "Bob", "--han", "2", "--fu", "30")
    assert state_of(jantaku)["points"] == [22200, 34400, 24800, 18600]
    # E2-2. Draw, nobody tenpai: no payment; the dealer is noten, so the deal passes; 3 counters.
    ok(jantaku, *game, "draw", "--tenpai", "none")
    # E3-3, Cid deals. Ann deals into a double ron: Dee 3 han 40 fu = 5200, Bob 1 han 30 fu = 1000; each also
    # gets 3 x 300 = 900. Ann pays 8000.
    ok(jantaku, *game, "ron", "--from", "Ann", "--winner", "Dee", "--han", "3", "--fu", "40",
       "--winner", "Bob", "--han", "1", "--fu", "30")
    assert state_of(jantaku)["points"] == [14200, 36300, 24800, 24700]
    # E4-0, Dee deals. Ann chombo: reverse mangan, 4000 to the dealer and 2000 to each other. Redeal, no counter.
    ok(jantaku, *game, "chombo", "Ann")
    assert state_of(jantaku)["points"] == [6200, 38300, 26800, 28700]
    # E4-0 again. Dee (dealer) tsumo 4 han 30 fu = 3900 all (no kiriage): 11700. Repeat, 1 counter.
    ok(jantaku, *game, "tsumo", "Dee", "--han", "4", "--fu", "30")
    # E4-1. Ann rons Dee, 5 han = mangan 8000 + 300: Ann 10600, Dee 32100. The deal passes: South round.
    ok(jantaku, *game, "ron", "--from", "Dee", "--winner", "Ann", "--han", "5")
    s = state_of(jantaku)
    assert (s["round"], s["honba"], s["points"]) == ("South 1", 0, [10600, 34400, 22900, 32100])
    # S1-0, Ann deals. Bob riichi (33400), draw with Bob alone tenpai: 1000 from each. The stick stays.
    ok(jantaku, *game, "riichi", "Bob")
    ok(jantaku, *game, "draw", "--tenpai", "Bob")
    # S2-1, Bob deals. Cid tsumo 2 han 30 fu: 1000 from the dealer, 500 from the others, +100 each for the
    # counter, +1000 stick: Ann 9600-600, Bob 36400-1100, Cid 21900+3300, Dee 31100-600.
    ok(jantaku, *game, "tsumo", "Cid", "--han", "2", "--fu", "30")
    assert state_of(jantaku)["points"] == [9000, 35300, 25200, 30500]
    # S3-0, Cid deals. Four winds discarded: abortive draw, Cid keeps the deal, 1 counter.
    ok(jantaku, *game, "abort", "four-winds")
    # S3-1. Dee riichi (29500). Draw, Cid and Dee tenpai: Ann, Bob pay 1500. Dealer tenpai: repeat, 2 counters.
    ok(jantaku, *game, "riichi", "Dee")
    ok(jantaku, *game, "draw", "--tenpai", "Cid,Dee")
    # S3-2. Ann rons Bob 3 han 40 fu = 5200 + 600 + the stick: Ann 7500 + 6800 = 14300, Bob 33800 - 5800.
    ok(jantaku, *game, "ron", "--from", "Bob", "--winner", "Ann", "--han", "3", "--fu", "40")
    assert state_of(jantaku)["points"] == [14300, 28000, 26700, 31000]
    # S4-0, Dee deals. Bob riichi (27000); draw with Bob alone tenpai: Bob 30000, Ann 13300, Cid 25700,
    # Dee 30000. The dealer is noten: the game ends after South 4 with one stick on the table.
    ok(jantaku, *game, "riichi", "Bob")
    final = json.loads(ok(jantaku, *game, "draw", "--tenpai", "Bob", "--json"))
    assert final["over"] and final["over_reason"] == "South 4 finished"
    # Bob and Dee tie at 30000: Bob dealt earlier (seat 1 before seat 3), so Bob is first and takes the
    # leftover stick (31000). Net = raw - 30000 + uma (+ oka for first):
    #   Bob 31000 - 30000 + 20000 + 20000 = +41.0;  Dee 30000 - 30000 + 10000 = +10.0
    #   Cid 25700 - 30000 - 10000 = -14.3;         Ann 13300 - 30000 - 20000 = -36.7   (sum 0)
    assert [(r["name"], r["rank"], r["raw"], r["net"]) for r in final["standings"]] == [
        ("Bob", 1, 31000, 41.0), ("Dee", 2, 30000, 10.0), ("Cid", 3, 25700, -14.3), ("Ann", 4, 13300, -36.7)]
    # The organiser's sheet: points, their difference from the 30000 return, uma, oka and penalty add up to the result.
    assert [(r["above_return"], r["uma"], r["oka"], r["penalty"], r["net_points"]) for r in final["standings"]] == [
        (1000, 20000, 20000, 0, 41000), (0, 10000, 0, 0, 10000), (-4300, -10000, 0, 0, -14300),
        (-16700, -20000, 0, 0, -36700)]

    text = ok(jantaku, *game, "show")
    assert "game over: South 4 finished" in text
    assert "1. Bob              raw   31000  vs 30000:  +1000  uma +20000  oka +20000  penalty +0  net +41" in text
    assert "4. Ann              raw   13300  vs 30000: -16700  uma -20000  oka +0  penalty +0  net -36.7" in text
    code, _, err = jantaku(*game, "riichi", "Ann")
    assert code == 2 and "the game is over" in err

    rows = list(csv.reader(io.StringIO(ok(jantaku, *game, "export", "--csv"))))
    hands = rows[1: rows.index([])]
    assert len(hands) == 14 and hands[-1][0] == "14"  # 13 hands and the chombo
    assert hands[5][3] == "chombo, Ann" and hands[-1][-5:] == ["13300", "31000", "25700", "30000", "0"]
    assert rows[-6:] == [[], ["rank", "name", "raw", "above_return", "uma", "oka", "penalty", "net"],
                         ["1", "Bob", "31000", "1000", "20000", "20000", "0", "41.0"],
                         ["2", "Dee", "30000", "0", "10000", "0", "0", "10.0"],
                         ["3", "Cid", "25700", "-4300", "-10000", "0", "0", "-14.3"],
                         ["4", "Ann", "13300", "-16700", "-20000", "0", "0", "-36.7"]]
    exported = json.loads(ok(jantaku, *game, "export", "--json"))["hands"]  # the CSV's rows, payments included
    assert exported[2] == {"hand": 3, "round": "East 2", "honba": 1, "result": "ron, Bob from Dee",
                           "changes": [0, 5200, -1000, -4200], "points": [22200, 34400, 24800, 18600]}
    assert [[str(h["hand"]), h["round"], str(h["honba"]), h["result"], *map(str, h["changes"] + h["points"])]
            for h in exported] == [row[:-1] for row in hands]


def test_export_and_replay_round_trip(jantaku, tmp_path):
    ok(jantaku, "game", "new", "--players", "A,B,C,D", "--rules", "tenhou")
    ok(jantaku, "game", "adjust", "A=+200", "D=-200", "--reason", "miscounted sticks")
    ok(jantaku, "game", "riichi", "1")
    ok(jantaku, "game", "ron", "--from", "2", "--winner", "1", "--han", "3", "--fu", "30",
       "--winner", "3", "--yakuman", "1")
    log = tmp_path / "events.jsonl"
    log.write_text("# exported\n" + ok(jantaku, "game", "export") + "\n")
    replayed = json.loads(ok(jantaku, "game", "replay", str(log), "--json"))
    assert replayed == {k: v for k, v in state_of(jantaku).items() if k != "game_id"}
    log.write_text("\ufeff" + log.read_text().replace("\n", "\r\n"))  # saved again by Windows Notepad
    assert json.loads(ok(jantaku, "game", "replay", str(log), "--json")) == replayed
    # Tenhou double ron on C's discard: B 3900, D a 32000 yakuman; D sits right after C, so D takes B's stick.
    assert replayed["points"] == [25200, 24000 + 3900, 25000 - 3900 - 32000, 25000 + 32000 + 1000 - 200]
    assert replayed["over"] and replayed["over_reason"] == "bust: C below zero"


def test_replay_reports_the_bad_line(jantaku, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "game_started", "players": ["A","B","C","D"], "preset": "wrc"}\n'
                   '{"type": "riichi", "seat": 7}\n')
    code, _, err = jantaku("game", "replay", str(bad), "--json")
    assert code == 2 and "bad.jsonl:2: riichi seat must be a seat number 0-3, not 7" in err
    bad.write_text("{not json\n")
    code, _, err = jantaku("game", "replay", str(bad))
    assert code == 2 and "bad.jsonl:1: not JSON" in err
    code, _, err = jantaku("game", "replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err
    bad.write_bytes(b"\xff\xfe{}\n")
    code, _, err = jantaku("game", "replay", str(bad))
    assert code == 2 and "bad.jsonl: not UTF-8 text" in err


def test_a_mistyped_db_is_reported_not_created(jantaku, tmp_path):
    typo = tmp_path / "typo" / "club.db"
    for args in (("show",), ("riichi", "0"), ("export", "--csv")):
        code, _, err = jantaku("game", *args, "--db", str(typo))
        assert code == 2 and f"there is no game database at {typo}" in err, args
    assert ok(jantaku, "game", "list", "--db", str(typo)) == f"no games yet (there is no game database at {typo})\n"
    assert not typo.parent.exists()
    (tmp_path / "a-file").write_text("")
    code, _, err = jantaku("game", "new", "--players", "A,B,C,D", "--db", str(tmp_path / "a-file" / "x.db"))
    assert code == 2 and "cannot make the folder" in err
    code, _, err = jantaku("bench", "game", "--appends", "0")
    assert code == 2 and "--appends must be at least 1" in err
    code, _, err = jantaku("bench", "game", "--dir", str(tmp_path / "missing"))
    assert code == 2 and "is not a folder" in err


def test_another_programs_sqlite_file_is_reported_and_not_changed(jantaku, tmp_path):
    import sqlite3

    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text)")
    db.close()
    before = other.read_bytes()
    for args in (("show",), ("new", "--players", "A,B,C,D")):
        code, _, err = jantaku("game", *args, "--db", str(other))
        assert code == 2 and "another program's SQLite file (tables: notes)" in err, args
    assert other.read_bytes() == before


def test_export_takes_one_format(jantaku):
    ok(jantaku, "game", "new", "--players", "A,B,C,D")
    code, out, err = jantaku("game", "export", "--csv", "--json")
    assert code == 2 and out == "" and "--csv or --json, not both" in err
    assert set(json.loads(ok(jantaku, "game", "export", "--json"))) == {"game_id", "events", "log", "state",
                                                                             "hands"}


def test_bench_game_reports_its_three_figures(jantaku, tmp_path):
    out = ok(jantaku, "bench", "game", "--appends", "5", "--events", "200", "--evening", "30", "--dir", str(tmp_path))
    assert "replay: 200 events folded in" in out and "; 99 hands)" in out
    assert "append: 5 events, each committed (WAL, synchronous=FULL)" in out
    assert "evening: a 30-event game rebuilt from the database file" in out
    assert list(tmp_path.iterdir()) == []  # the scratch database is gone


def test_cli_rejections_exit_2_with_the_reason(jantaku):
    code, _, err = jantaku("game", "show")
    assert code == 2 and "no game yet" in err
    code, _, err = jantaku("game", "new", "--players", "A,B,C", "--rules", "wrc")
    assert code == 2 and "four names" in err
    code, _, err = jantaku("game", "new", "--players", "A,B,C,D", "--rules", "poker")
    assert code == 2 and "unknown rules 'poker'" in err
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "tenhou")
    cases = [
        (("riichi", "Zed"), "unknown seat 'Zed'"),
        (("ron", "--from", "Bob", "--winner", "Bob", "--han", "1", "--fu", "30"), "cannot win on it"),
        (("tsumo", "Bob", "--han", "2"), "below 5 han the fu are needed"),
        (("tsumo", "Bob", "--han", "99999999"), "at most 13 han"),
        (("tsumo", "Bob", "--yakuman", "99"), "at most 6 yakuman"),
        (("tsumo", "Bob"), "give the hand"),
        (("tsumo", "Bob", "--han", "1", "--fu", "30", "--hand", "123m"), "not both"),
        (("tsumo", "Bob", "--hand", "123m456p789s1z", "--win", "1z"), "Bob's hand: wrong tile count"),
        (("tsumo", "Bob", "--hand", "123m456p789s1122z", "--win", "3z"), "Bob's hand does not score"),
        (("tsumo", "Bob", "--hand", "234m567p11s345s34p", "--win", "2p", "--ippatsu"), "has not declared riichi"),
        (("adjust", "Ann=100", "--reason", "x"), "sum to zero"),
        (("adjust", "Ann:100", "--reason", "x"), "SEAT=AMOUNT"),
        (("draw", "--tenpai", "Ann,Ann"), "listed twice"),
        (("draw",), "say who was tenpai"),  # left out, a tenpai dealer would lose the deal unseen
        (("tsumo", "Bob", "--han", "2", "--fu", "30", "--yakuman", "1"), "give either the yakuman count or han"),
        (("tsumo", "Bob", "--han", "2", "--fu", "30", "--dora", "1m", "--haitei"),
         "--dora, --haitei count only with the tiles"),  # dropped unsaid, they were not counted
        (("pao", "Bob", "Bob"), "own hand"),
        (("penalty", "Bob", "10k", "--reason", "late"), "not a whole number"),
        (("penalty", "Bob", "150", "--reason", "late"), "in 100s"),
        (("penalty", "Bob", "0", "--reason", "late"), "1 to 1,000,000 points"),
        (("undo",), "nothing to undo"),
        (("redo",), "nothing to redo"),
    ]
    for args, message in cases:
        code, _, err = jantaku("game", *args)
        assert code == 2, args
        assert message in err, (args, err)
    ok(jantaku, "game", "riichi", "Bob")
    code, _, err = jantaku("game", "riichi", "Bob")
    assert code == 2 and "already declared riichi" in err
    assert json.loads(ok(jantaku, "game", "export", "--json"))["log"][-1]["event"] == {"type": "riichi", "seat": 1}


def test_list_and_pick_a_game(jantaku):
    ok(jantaku, "game", "new", "--players", "A,B,C,D", "--rules", "club")
    ok(jantaku, "game", "new", "--players", "V,X,Y,Z", "--rules", "uspml")
    listed = json.loads(ok(jantaku, "game", "list", "--json"))
    assert [(g["id"], g["preset"]) for g in listed] == [(2, "uspml"), (1, "club")]
    ok(jantaku, "game", "riichi", "A", "--game", "1")
    assert json.loads(ok(jantaku, "game", "show", "--json", "--game", "1"))["riichi"] == [True, False, False, False]
    usp = json.loads(ok(jantaku, "game", "tsumo", "X", "--json"))  # flat payment: no han needed
    assert usp["points"] == [18, 24, 19, 19]
    shown = ok(jantaku, "game", "show")
    assert "pool 0" in shown and "honba" not in shown  # USPML counts no honba


def test_uspml_hand_from_tiles_needs_four_sets_and_a_pair_not_a_yaku(jantaku):
    ok(jantaku, "game", "new", "--players", "A,B,C,D", "--rules", "uspml")
    # complete but no riichi yaku (open-style, no tanyao): still a win in the beginner game, paid flat 4
    out = json.loads(ok(jantaku, "game", "ron", "--from", "B", "--winner", "C", "--hand", "123m456p789s13s99p",
                        "--win", "2s", "--json"))
    assert out["points"] == [20, 16, 24, 20] and out["last_hand"]["wins"][0]["hand"] == "123m456p789s13s99p 2s"
    for hand, win, message in (("1133m5577p99s1122z", "2z", "not a complete hand"),  # seven pairs is not one
                               ("123m456p789s13s9p", "2s", "wrong tile count")):
        code, _, err = jantaku("game", "tsumo", "C", "--hand", hand, "--win", win)
        assert code == 2 and f"C's hand: {message}" in err


def test_db_and_game_may_come_before_the_action(jantaku, tmp_path):
    other = str(tmp_path / "other.db")
    ok(jantaku, "game", "--db", other, "new", "--players", "Ann,Bob,Cid,Dee")
    ok(jantaku, "game", "--db", other, "riichi", "Bob")
    assert json.loads(ok(jantaku, "game", "show", "--db", other, "--json"))["points"][1] == 24000
    code, _, err = jantaku("game", "--db", other, "--game", "7", "show")
    assert code == 2 and "there is no game 7" in err


def test_a_dead_riichi_hand_at_a_draw_from_the_shell(jantaku):
    # Club rule book §3.4.7: a riichi hand declared dead pays the noten penalty at the draw, no chombo.
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "club")
    ok(jantaku, "game", "riichi", "Bob")
    code, _, err = jantaku("game", "draw", "--tenpai", "Cid")
    assert code == 2 and "list it as dead" in err
    out = json.loads(ok(jantaku, "game", "draw", "--tenpai", "Cid", "--dead", "Bob", "--json"))
    assert out["points"] == [24000, 23000, 28000, 24000] and out["riichi_sticks"] == 1
    assert out["last_hand"]["dead"] == [1]


def test_a_ron_on_the_riichi_declaration_tile_from_the_shell(jantaku):
    # Club rule book §4.2.1: the ronned riichi tile puts no stick down, even with Cid's riichi recorded after Bob's.
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "club")
    ok(jantaku, "game", "riichi", "Bob")
    ok(jantaku, "game", "riichi", "Cid")
    code, _, err = jantaku("game", "ron", "--from", "Dee", "--winner", "Ann", "--han", "1", "--fu", "30",
                           "--riichi-discard")
    assert code == 2 and "Dee has not declared riichi this hand" in err
    out = json.loads(ok(jantaku, "game", "ron", "--from", "Bob", "--winner", "Ann", "--han", "3", "--fu", "30",
                        "--riichi-discard", "--json"))
    assert out["points"] == [31800, 19200, 24000, 25000] and out["riichi_sticks"] == 0
    assert out["last_hand"]["riichi_discard"] is True
    assert "on Bob's riichi tile" in ok(jantaku, "game", "show")


def test_a_name_with_a_space_can_be_listed_at_a_draw(jantaku):
    """`--tenpai "Mary Ann,Bob"` lists two players; a bare space still separates names as before ("Bob Cid")."""
    ok(jantaku, "game", "new", "--players", "Mary Ann,Bob,Cid,Dee")
    ok(jantaku, "game", "riichi", "mary ann")
    out = json.loads(ok(jantaku, "game", "draw", "--tenpai", "Mary Ann,Bob", "--json"))
    assert out["last_hand"]["tenpai"] == [0, 1]
    out = json.loads(ok(jantaku, "game", "draw", "--tenpai", "Bob Cid", "--nagashi", " Mary  Ann ", "--json"))
    assert out["last_hand"]["tenpai"] == [1, 2] and out["last_hand"]["nagashi"] == [0]
    code, _, err = jantaku("game", "draw", "--tenpai", "Mary Anne,Bob")
    assert code == 2 and "unknown seat 'Mary Anne'" in err


def test_names_a_seat_word_would_shadow_are_refused_at_new(jantaku):
    """A player called "1" or "West" could not be told from seat 1 or the West seat later: refused up front."""
    for names in ("1,Bob,Cid,Dee", "Ann,0,Cid,Dee", "Ann,Bob,west,Dee", "Ann,Bob,Cid,N", "None,Bob,Cid,Dee"):
        code, out, err = jantaku("game", "new", "--players", names)
        assert code == 2 and out == "" and "names a seat" in err, (names, err)
    code, _, _ = jantaku("game", "show")
    assert code == 2  # nothing was created
    ok(jantaku, "game", "new", "--players", "Pei,Nan,Dealer,12")  # real names (Japanese wind words) and digits
    out = json.loads(ok(jantaku, "game", "riichi", "Nan", "--json"))  # the name, not the South seat
    assert out["riichi"] == [False, True, False, False]
    assert json.loads(ok(jantaku, "game", "riichi", "12", "--json"))["riichi"][3]


def test_names_that_look_alike_are_one_name(jantaku):
    """Zoë typed precomposed or with a combining diaeresis, or Ａｎｎ in full width, is the same name: refused as
    a duplicate, and found whichever way it is typed. An ideographic space is a space."""
    for names in ("Zo\u00eb,Zoe\u0308,Cid,Dee", "Ann,\uff21\uff4e\uff4e,Cid,Dee", "Mary Ann,Mary  Ann,Cid,Dee"):
        code, _, err = jantaku("game", "new", "--players", names)
        assert code == 2 and "must differ" in err, (names, err)
    out = json.loads(ok(jantaku, "game", "new", "--players", "Zoe\u0308,\u5c71\u7530\u3000\u592a\u90ce,Cid,Dee",
                        "--json"))
    assert out["players"] == ["Zo\u00eb", "\u5c71\u7530 \u592a\u90ce", "Cid", "Dee"]
    assert json.loads(ok(jantaku, "game", "riichi", "Zoe\u0308", "--json"))["riichi"][0]
    assert json.loads(ok(jantaku, "game", "riichi", "\u5c71\u7530\u3000\u592a\u90ce", "--json"))["riichi"][1]


def test_a_name_typed_without_its_accents_finds_its_player_when_only_one_matches(jantaku):
    """A keyboard without accents: jose finds José; with José and Josè at one table it names both."""
    ok(jantaku, "game", "new", "--players", "Jos\u00e9,Jos\u00e8,Ren\u00e9e,Dee")
    assert json.loads(ok(jantaku, "game", "riichi", "renee", "--json"))["riichi"][2]
    code, _, err = jantaku("game", "riichi", "jose")
    assert code == 2 and "could be Jos\u00e9 or Jos\u00e8" in err


def test_names_longer_than_the_keeper_page_takes_are_refused(jantaku):
    """The keeper page's name field takes 24 characters; the shell takes no more."""
    code, _, err = jantaku("game", "new", "--players", "W" * 25 + ",Bob,Cid,Dee")
    assert code == 2 and "at most 24 characters" in err
    ok(jantaku, "game", "new", "--players", "W" * 24 + ",Bob,Cid,Dee")


def test_an_adjustment_finds_a_name_with_an_equals_sign(jantaku):
    ok(jantaku, "game", "new", "--players", "=A,B=C,Cid,Dee")
    out = json.loads(ok(jantaku, "game", "adjust", "=A=+1000", "B=C=-1000", "--reason", "fix", "--json"))
    assert out["points"] == [26000, 24000, 25000, 25000]


def test_an_adjustment_naming_a_seat_twice_is_refused_not_summed(jantaku):
    """`Bob=-30 ... Bob=10` recorded Bob -20; `A=10 A=-10` said "moves no points"; a seat by name and by number
    is the same seat."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "mcr")
    for amounts in (("Bob=-30", "Ann=10", "Cid=10", "Bob=10"), ("Ann=10", "0=10", "Bob=-20"), ("Ann=10", "Ann=-10")):
        err = refused(jantaku, "game", "adjust", *amounts, "--reason", "x")
        assert "is listed twice" in err and amounts[0].split("=")[0] in err, amounts
    assert state_of(jantaku)["points"] == [0] * 4


def test_a_flag_of_the_other_kind_of_win_names_the_command_meant(jantaku, capsys):
    """`ron --haitei`, `tsumo --houtei` ... said only "unrecognized arguments" (or the top-level usage line)."""
    import pytest

    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    for args, meant in ((("ron", "--from", "Ann", "--winner", "Bob", "--haitei"), "`game tsumo`"),
                        (("ron", "--from", "Ann", "--winner", "Bob", "--rinshan"), "--chankan"),
                        (("ron", "--from", "Ann", "--winner", "Bob", "--tenhou"), "--renhou"),
                        (("tsumo", "Bob", "--houtei"), "`game ron`"),
                        (("tsumo", "Bob", "--chankan"), "--rinshan"),
                        (("tsumo", "Bob", "--renhou"), "--chiihou")):
        with pytest.raises(SystemExit) as stop:
            jantaku("game", *args, "--han", "1", "--fu", "30")
        err = capsys.readouterr().err
        assert stop.value.code == 2 and f"{args[-1]} is " in err and meant in err, (args, err)
    err = refused(jantaku, "game", "ron", "--from", "Ann", "--winner", "Bob", "--hand", "234m456p678s2p333s",
                  "--win", "2p", "--chiihou")
    assert "--chiihou is a non-dealer's win by self-draw" in err and "`game tsumo`" in err
    assert state_of(jantaku)["hands_played"] == 0


def test_reasons_are_one_printable_line(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    for args in (("adjust", "Ann=1000", "Bob=-1000", "--reason", "a\nb"), ("end", "--reason", "\x1b[31mred"),
                 ("adjust", "Ann=1000", "Bob=-1000", "--reason", "x" * 121), ("end", "--reason", ""),
                 ("adjust", "Ann=1000", "Bob=-1000", "--reason", " ")):  # the log could not be read back
        code, out, err = jantaku("game", *args)
        assert code == 2 and out == "" and "reason" in err, (args, err)
    assert state_of(jantaku)["points"] == [25000] * 4
    ok(jantaku, "game", "end", "--reason", "\u6642\u9593\u5207\u308c \u2014 time")


def test_show_lines_up_wide_names(jantaku):
    """Each CJK character takes two terminal columns: the points still line up under each other."""
    import unicodedata

    out = ok(jantaku, "game", "new", "--players", "\u65e5\u672c\u8a9e,\uae40,Zo\u00eb,\U0001f004 Dragon")

    def columns(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    ends = {columns(line.split("25000")[0]) for line in out.splitlines()[1:]}
    assert len(ends) == 1, out


def test_csv_export_keeps_spreadsheets_from_running_names(jantaku):
    """A name that starts with = + - @ is a formula to a spreadsheet: the CSV quotes it with a leading '."""
    ok(jantaku, "game", "new", "--players", '=HYPERLINK("http://x"),+1,-2,@x')
    ok(jantaku, "game", "adjust", "+1=1000", "@x=-1000", "--reason", "=1+1")
    ok(jantaku, "game", "end", "--reason", "=2+2")
    rows = list(csv.reader(io.StringIO(ok(jantaku, "game", "export", "--csv"))))
    assert rows[0][4:12] == ["'=HYPERLINK(\"http://x\") change", "'+1 change", "'-2 change", "'@x change",
                             "'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@x"]
    assert rows[1][4:8] == ["0", "1000", "0", "-1000"]  # numbers stay numbers
    assert {r[1] for r in rows[-4:]} == {"'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@x"}
    cells = [c for r in rows for c in r if c]
    assert not [c for c in cells if c[0] in "=+@" or (c[0] == "-" and not c.lstrip("-").replace(".", "").isdigit())]
    events = [json.loads(line) for line in ok(jantaku, "game", "export").splitlines()]
    assert events[0]["players"][0] == '=HYPERLINK("http://x")'  # the JSON keeps the names as given


def test_show_names_a_penalty_still_to_come(jantaku):
    """NARO-1 settles a chombo at the end (§3.1.4): until then `show` says so beside the points."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "naro1")
    ok(jantaku, "game", "chombo", "Cid")
    lines = ok(jantaku, "game", "show").splitlines()
    assert lines[3].endswith("30000 penalty -10000 at the end") and "penalty" not in lines[2]
    ok(jantaku, "game", "end", "--reason", "time called")
    assert "at the end" not in ok(jantaku, "game", "show")


def test_an_option_given_twice_adds_seats_or_is_refused_never_dropped(jantaku, capsys):
    """`--tenpai Ann --tenpai Bob,Cid` kept only Bob and Cid, passing the tenpai dealer's deal unsaid; `--han 2
    --han 3` scored 3 han. Seat lists now add up; an option of one value given twice is refused."""
    import pytest

    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    out = json.loads(ok(jantaku, "game", "draw", "--tenpai", "Ann", "--tenpai", "Bob,Cid", "--json"))
    assert out["last_hand"]["tenpai"] == [0, 1, 2] and out["dealer"] == 0
    for args in (("ron", "--from", "Ann", "--from", "Dee", "--winner", "Bob", "--han", "2", "--fu", "30"),
                 ("tsumo", "Bob", "--han", "2", "--han", "3", "--fu", "30"),
                 ("ron", "--from", "Ann", "--winner", "Bob", "--han", "2", "--fu", "30", "--winner", "Cid",
                  "--fu", "40", "--fu", "30", "--han", "1")):
        with pytest.raises(SystemExit) as stop:
            jantaku("game", *args)
        assert stop.value.code == 2
        assert "is given twice" in capsys.readouterr().err, args
    assert json.loads(ok(jantaku, "game", "show", "--json"))["hands_played"] == 1  # nothing recorded
    # Fixed (an acceptance run): --db and --game given twice, or before and after the action, took the last one:
    # `game --db a.db riichi 0 --db b.db` recorded into b.db.
    for args in (("riichi", "Ann", "--db", "other.db", "--db", "third.db"), ("show", "--game", "1", "--game", "2")):
        with pytest.raises(SystemExit) as stop:
            jantaku("game", *args)
        assert stop.value.code == 2 and "is given twice" in capsys.readouterr().err, args
    code, _, err = jantaku("game", "--game", "1", "riichi", "Ann", "--game", "1")
    assert code == 2 and "--game is given twice (before and after the action): give it once" in err
    assert ok(jantaku, "game", "--game", "1", "show").startswith("game 1 ")  # either place alone is fine


def test_a_finished_game_shows_the_winds_and_counters_of_its_last_hand(jantaku):
    """Fixed: once over, the seats showed the winds of a next hand never played (the deal had passed on), and the
    head the honba of that hand."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "tenhou")
    ok(jantaku, "game", "draw", "--tenpai", "none")  # the dealer noten: the deal passes to Bob, 1 honba
    before = ok(jantaku, "game", "show")
    assert before.splitlines()[:2] == ["game 1 [tenhou] East 2, honba 1, riichi sticks 0",
                                       "  0 North Ann                25000"]
    ok(jantaku, "game", "end")
    shown = ok(jantaku, "game", "show").splitlines()
    assert shown[:3] == ["game 1 [tenhou] game over after East 1-0, riichi sticks 0",
                         "  0 East  Ann                25000", "  1 South Bob                25000"]
    assert state_of(jantaku)["seat_winds"] == ["East", "South", "West", "North"]


def test_show_names_an_adjustment_made_since_the_last_hand(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    ok(jantaku, "game", "ron", "--from", "Ann", "--winner", "Bob", "--han", "2", "--fu", "30")
    shown = ok(jantaku, "game", "adjust", "Ann=+1000", "Bob=-1000", "--reason", "wrong stick").splitlines()
    assert shown[-2:] == ["last hand: East 1-0: ron, Bob from Ann [-2000 +2000 +0 +0]",
                          "then an adjustment: wrong stick [+1000 -1000 +0 +0]"]
    assert "adjustment" not in ok(jantaku, "game", "draw", "--tenpai", "none")  # gone with the next hand


def test_a_riichi_adjustment_moves_points_in_100s(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    code, _, err = jantaku("game", "adjust", "Ann=+150", "Bob=-150", "--reason", "a typo")
    assert code == 2 and "riichi points move in 100s (the smallest stick): +150 cannot be paid" in err
    assert state_of(jantaku)["points"] == [25000] * 4
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")  # whole points: any
    ok(jantaku, "game", "adjust", "Ann=+15", "Bob=-15", "--reason", "a wrong payment")
    assert state_of(jantaku)["points"][:2] == [15, -15]


def test_a_yakuman_given_as_tiles_is_recorded_and_paid(jantaku):
    """Fixed (an acceptance run): every yakuman hand given as tiles was refused ("gives 1 yakuman and 13 han"),
    since the win carried the count and han together, which recording refuses from a typed hand."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "tenhou")
    ok(jantaku, "game", "pao", "Bob", "Cid")  # Cid fed Bob's third wind pon: Cid pays the tsumo alone
    ok(jantaku, "game", "tsumo", "Bob", "--hand", "444z5p", "--win", "5p", "--meld", "pon:111z", "--meld",
       "pon:222z", "--meld", "pon:333z")
    win = state_of(jantaku)["last_hand"]
    assert win["deltas"] == [0, 32000, -32000, 0]
    assert win["wins"][0]["yakuman"] == 1 and "han" not in win["wins"][0]
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "mahjongsoul")
    ok(jantaku, "game", "ron", "--from", "Dee", "--winner", "Bob", "--hand", "19m19p19s1234567z", "--win", "1m")
    assert state_of(jantaku)["last_hand"]["deltas"] == [0, 64000, 0, -64000]  # 13-sided kokushi: double there
    # Fixed: daisuushii is a double yakuman there, and the liable seat answers for it whole ("each yakuman
    # separately"), where it had paid one yakuman and the others the rest.
    ok(jantaku, "game", "undo")
    ok(jantaku, "game", "pao", "Bob", "Cid")
    winds = ("--hand", "444z5p", "--win", "5p", "--meld", "pon:111z", "--meld", "pon:222z", "--meld", "pon:333z")
    ok(jantaku, "game", "tsumo", "Bob", *winds)
    assert state_of(jantaku)["last_hand"]["deltas"] == [0, 64000, -64000, 0]
    ok(jantaku, "game", "undo")
    ok(jantaku, "game", "ron", "--from", "Dee", "--winner", "Bob", *winds)
    assert state_of(jantaku)["last_hand"]["deltas"] == [0, 64000, -32000, -32000]  # a ron: halved with Dee


def test_an_older_game_resumed_is_the_current_one_until_a_newer_starts(jantaku):
    """A new game started by mistake (or a game continued another night) left the older one with no way back for
    the commands that act on the current game, the table device's among them."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    ok(jantaku, "game", "riichi", "Ann")
    ok(jantaku, "game", "new", "--players", "Kim,Lee,Max,Ned")
    assert ok(jantaku, "game", "resume", "1").startswith("game 1 [tenhou] East 1, honba 0, riichi sticks 1")
    ok(jantaku, "game", "riichi", "Bob")  # acts on game 1 now
    assert state_of(jantaku)["riichi_sticks"] == 2
    listed = ok(jantaku, "game", "list").splitlines()
    assert listed[0].startswith("   2  ") and listed[1].startswith("   1* ")
    assert [g["current"] for g in json.loads(ok(jantaku, "game", "list", "--json"))] == [False, True]
    code, _, err = jantaku("game", "resume", "1")
    assert code == 2 and "game 1 is already the current game" in err
    code, _, err = jantaku("game", "resume", "9")
    assert code == 2 and "there is no game 9" in err
    ok(jantaku, "game", "new", "--players", "Pat,Quin,Rae,Sol")  # a newer game is the current one again
    assert state_of(jantaku)["players"] == ["Pat", "Quin", "Rae", "Sol"]


def test_names_in_any_script_line_up_and_keep_their_numbers_in_place(jantaku):
    """Fixed (an acceptance run): Thai vowel signs and an emoji family were counted as columns of their own, so the
    points after them sat left of the others'; a right-to-left name took the numbers after it into its direction
    on a bidi-aware display; and a player called "Ann change" or "Round" gave the CSV two columns of one name."""
    from table.game_cli import _columns

    names = ("สมศักดิ์", "👨\u200d👩\u200d👧\u200d👦 Family", "Zoë", "👍🏽", "山田")
    assert [_columns(n) for n in names] == [5, 9, 3, 2, 4]
    ok(jantaku, "game", "new", "--players", "שרה,สมศักดิ์,Ann,Ann change")
    shown = ok(jantaku, "game", "show").splitlines()
    assert shown[1] == "  0 East  \u2068שרה\u2069                25000 (dealer)"  # isolated: zero columns
    assert shown[2] == "  1 South สมศักดิ์              25000"
    header = ok(jantaku, "game", "export", "--csv").splitlines()[0].split(",")
    assert len(set(header)) == len(header) and header[4:6] == ["change (seat 0: שרה)", "change (seat 1: สมศักดิ์)"]


def test_a_penalty_counts_for_placement_under_naro1_and_after_it_under_wrc(jantaku):
    """NARO-1 §3.4.3 deducts 10,000 for a foul that is no hand and ranks after it; WRC ranks before penalties."""
    for rules, bob in (("naro1", (4, -22.0)), ("wrc", (1, 8.0))):
        ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", rules)
        ok(jantaku, "game", "adjust", "Bob=+3000", "Ann=-3000", "--reason", "setup")
        ok(jantaku, "game", "penalty", "Bob", "-10000", "--reason", "late")  # the sign is the same deduction
        assert "Bob" in ok(jantaku, "game", "show") and state_of(jantaku)["penalties"] == [0, -10000, 0, 0]
        ok(jantaku, "game", "end")
        final = {s["name"]: (s["rank"], s["net"]) for s in state_of(jantaku)["standings"]}
        assert final["Bob"] == bob, (rules, final)
        rows = list(csv.reader(io.StringIO(ok(jantaku, "game", "export", "--csv"))))
        assert rows[2][3] == "penalty, Bob -10000 at the end: late"
