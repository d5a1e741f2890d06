import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.errors import InputError
from table.tiles import Tile, parse_tile, parse_tiles, to_mpsz


def test_red_fives_and_honours_round_trip():
    tiles = parse_tiles("123m0p55s1234567z")
    assert tiles[3] == Tile(13, red=True)
    assert [str(t) for t in tiles[-7:]] == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert to_mpsz(tiles) == "123m0p55s1234567z"


def test_sorting_puts_red_five_with_the_fives():
    assert to_mpsz(parse_tiles("5m0m4m")) == "405m"


@pytest.mark.parametrize(
    "text, message",
    [("8z", "no honour tile 8z"), ("0z", "0z is not a tile"), ("12x", "unknown suit"), ("m12", "cannot read"),
     ("1f", "bonus tiles")],
)
def test_bad_notation_says_what_is_wrong(text, message):
    with pytest.raises(InputError, match=message):
        parse_tiles(text)


def test_parse_tile_needs_exactly_one():
    assert parse_tile("0s") == Tile(22, red=True)
    with pytest.raises(InputError, match="expected one tile"):
        parse_tile("12s")


@given(st.lists(st.builds(lambda k, r: Tile(k, r and k < 27 and k % 9 == 4), st.integers(0, 33), st.booleans()),
                max_size=18))
def test_notation_round_trips(tiles):
    assert sorted(parse_tiles(to_mpsz(tiles))) == sorted(tiles)
