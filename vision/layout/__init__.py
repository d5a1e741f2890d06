"""From located and named tiles to a `TableView`: rows, the hand with its melds and winning tile, dora, ponds.

Pure geometry on `SeenTile` values, so it is tested with hand-made detections. The steps:

0. A photo taken across a corner of the table shows its rows running diagonally. The angle of the rows is measured from
   each tile's nearest neighbour (modulo 90 degrees, so all four seats agree) and the tiles are turned back into a frame
   where the rows run along the axes (`table_angle`, `_derotate`). Near 45 degrees perspective turns part of a row past
   the detector's quarter turn; pairs of such tiles at an upright pitch, and long runs of lying tiles (a hand, a dead
   wall), are put back upright (`_unsplit_rows`). Seen low across a corner, perspective turns the rows apart (the near
   hand more than the far wall), so when the average angle gives no winning hand, angles near it are tried and the first
   that reads one is kept (`RETRY_ANGLES`).
1. Tiles that touch side by side along a row become *segments*. A row of upright tiles runs across their long axis,
   so two tiles link horizontally only when one of them stands vertically in the image (a sideways tile joins a row
   of upright ones, but two stacked rows of upright tiles never merge), and vertically only when one lies
   horizontally. Each tile links only to its nearest neighbour in line on either side, so the rows of a pond seen
   at a slant, which touch diagonally in the picture, stay apart.
2. Collinear segments with modest gaps become *lines*. The hand line is the line with the most face-up tiles,
   among those holding a straight row of ten or more upright tiles if any does (only a hand is laid so; a back or
   two inside it are hand tiles misread, often a blank white dragon).
   Two such lines facing the same way are two hands photographed together (at a table a second hand laid down
   faces another seat): the one nearest the camera is read, with a warning, the other's tiles are no discards, and
   dora indicators lying nearer the other are not read with it (`hands`).
3. Its upright tiles tell which way the hand faces; all boxes are turned by that multiple of 90 degrees, so from
   here on the winner sits at the bottom and reads left to right, whatever side the photo was taken from.
4. On the hand line (backs touching its ends but standing off its line are a neighbour's): the concealed part (the
   longest plain run that is not a called meld), then the winning tile set apart (or lying sideways beside the
   hand, or lone just off the row, in front of it or against its far side, when the hand is a tile short), then
   the called melds, each recognised by its sideways tile (which seat it came from) or its two backs (closed
   kan); a sideways tile just beyond a meld's sideways tile (seen low: in the row, over it, or two of a kan's
   tiles overlapping there) makes an added kan. Seen low, where no tile of a meld looks wider than the others, the
   longer steps beside the called tile tell it. A hand row split by a gap (tiles laid a little apart) is read
   across the gap when the split one makes no winning hand; one broken by a gap one or two tiles wide (a finger
   across it), going on in line with tiles of its height, is read as one row with those tiles out of sight, with a
   warning, when the split one counts as no hand and the joined one does (`_across_hidden`).
5. The dora indicators: one to five face-up tiles in a dead wall (a straight row of backs of one size, standing evenly,
   read in its owner's order), or else a short row laid out beyond the hand (beyond the winner's own pond in a close-up;
   seen across a corner, even when its tiles all read lying). Backs lying about elsewhere (a jumble pushed aside, a tile
   knocked over beside a pond) make no wall: face-up tiles touching them are discards.
6. The rest are discard ponds: each segment is given to a seat by the way its tiles face (a lone tile standing as
   a pond's tiles do against its rows goes with it; one lying across, maybe a sideways riichi discard, by where it
   lies around the table centre). A seat's pond is its block of touching rows nearest the centre, on its side of the
   centre: tiles facing it further out (its melds, a hand laid down) or beyond the centre are no discards, nor are
   a few tiles on the centre's side of a longer row (rows fill from the centre out; a misread centre panel). Where
   two ponds meet at a corner, a tile ending a first or second row of more than six, touching the neighbour's
   shorter row in line with it, goes back to that neighbour (`_corner_tiles`). Rows are read from the centre
   outwards, measured across the pond's own rows (perspective turns a far pond's rows against the hand's; `_skew`);
   the pieces of one row (side by side, or level with each other) are read along it. A sideways tile marks the
   riichi discard.

A photo whose longest row is no hand (no straight row of ten, no winning tile or meld, no more tiles than a pond's
row: a table seen from above) has no hand: the seats are then named as seen from the camera (near = the bottom).

The steps live in modules of one job each: `turning` (step 0), `rows` (steps 1-3's rows and lines), `hands` (two
hands in view), `hand` and `melds` (step 4), `dora` (step 5), `ponds` (step 6), and `build`, which runs them in turn.
"""

from vision.layout.build import build_view
from vision.layout.hand import FACE_DOWN_IN_HAND, HIDDEN, NOT_SET_APART, winning_shape
from vision.layout.hands import TWO_HANDS
from vision.layout.melds import closed_kan_tiles, meld_kind
from vision.layout.rows import SAME_READING
from vision.layout.turning import table_angle

__all__ = ["FACE_DOWN_IN_HAND", "HIDDEN", "NOT_SET_APART", "SAME_READING", "TWO_HANDS", "build_view",
           "closed_kan_tiles", "meld_kind", "table_angle", "winning_shape"]
