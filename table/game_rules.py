"""Table-level rules per preset: how a game is kept, as opposed to what a single hand is worth.

Every preset sets every field explicitly, so a reader can compare presets line by line and nothing
depends on a default. Points are in the preset's own unit: riichi presets count in points (25000),
the USPML beginner game counts in its small tokens (20), Zung Jung and MCR in their own points from 0.

Sources (see `../shared/research/product-and-rules.md` §2 for the citations behind each cell):
tenhou (tenhou.net ranked rules), mahjongsoul (ranked 4-player), wrc (WRC 2022), ema (EMA 2016),
mleague, naro1 (`rules/naro1-tournament-rules.txt`), club (`rules/riichi-club-rulebook.txt`),
uspml (`rules/uspml-beginner-rules.txt`), zungjung and mcr (`rules/sdmc-zungjung-riichi-mcr.txt`).
Where the sources disagree, the preset's comment says which one we follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

ABORTIVE_REASONS: tuple[str, ...] = ("nine-terminals", "four-winds", "four-riichi", "four-kans", "triple-ron")
"""Abortive draws (tochuu ryuukyoku): kyuushu kyuuhai, suufon renda, suucha riichi, suukaikan, sanchahou."""


@dataclass(frozen=True, slots=True)
class FixedPayments:
    """Flat payments that do not depend on han or fu (the USPML beginner game).

    `tsumo_by_dealer` is what each player pays a dealer who self-draws; a non-dealer's self-draw is paid
    `tsumo_dealer_pays` by the dealer and `tsumo_other_pays` by each of the two others.
    """

    ron_dealer: int
    ron_other: int
    tsumo_by_dealer: int
    tsumo_dealer_pays: int
    tsumo_other_pays: int


@dataclass(frozen=True, slots=True)
class GameRules:
    """Everything that decides how points move between hands and when the game ends.

    Field names follow the game's words; the Japanese term is given where players know the rule by it.
    """

    name: str
    title: str
    system: Literal["riichi", "zungjung", "mcr"]
    """What prices a win: riichi han/fu (`table.scoring`; flat payments where `fixed_payments` is set),
    Zung Jung 3.3 points (`table.zungjung`) or MCR fan (`table.mcr`). Riichi sticks, counters, tenpai
    payments, pao and chombo are riichi rules: the other two systems have none of them."""
    zungjung_payoff: Literal["standard", "uniform"]
    """Zung Jung: how the winner's 3 x value is split (standard: the discarder pays beyond 25 each; uniform:
    everybody pays the value). Ignored by the other systems."""
    mcr_base: int
    """MCR: what every other player pays the winner before the hand's value (8); 0 elsewhere."""
    # -- points ---------------------------------------------------------------------------------
    starting_points: int
    """Points each seat starts with (haikyuu genten)."""
    return_points: int
    """Points each seat "returns" at the end (genten); the final result counts from here."""
    oka: int
    """Bonus to first place at the end, in points (normally 4 x (return - start))."""
    uma: tuple[int, int, int, int]
    """Placement bonus for 1st..4th, in points (juni-ten)."""
    unit: int
    """Divisor that turns final points into the result players write down (1000 -> "+31.2")."""
    tie_rule: Literal["seat", "split"]
    """Equal final points: "seat" ranks the earlier first dealer higher (kamicha yuusen), "split" shares the
    tied places' uma and oka equally."""
    # -- hands -----------------------------------------------------------------------------------
    honba_value: int
    """Points per counter added to a win (300: 100 from each payer on a self-draw)."""
    riichi_allowed: bool
    riichi_deposit: int
    """Points a riichi declaration puts on the table (kyoutaku)."""
    riichi_min_points: int | None
    """A seat needs at least this many points to declare riichi; None allows it at any score."""
    fixed_payments: FixedPayments | None
    """Flat win payments instead of han/fu points (USPML); None for riichi scoring."""
    tenpai_payment_total: int
    """Noten bappu at an exhaustive draw: noten seats pay this total to tenpai seats (3000 split)."""
    noten_pool_payment: int
    """Each noten seat pays this into the pot at an exhaustive draw (USPML), claimed by the next winner."""
    renchan_on_dealer_win: bool
    renchan_on_dealer_tenpai: bool
    """Tenpai renchan: a dealer who is tenpai at an exhaustive draw keeps the deal."""
    renchan_on_abortive: bool
    max_ron_winners: Literal[1, 2, 3]
    """1 = head bump (atamahane: only the winner nearest the discarder's right scores); 2 = double ron;
    3 = triple ron allowed."""
    triple_ron_aborts: bool
    """Three rons on one discard end the hand as an abortive draw (sanchahou) instead of paying."""
    multi_ron_honba: Literal["each", "nearest"]
    """In a multiple ron, whether every winner gets the counters or only the one nearest the discarder."""
    multi_ron_sticks: Literal["nearest", "split"]
    """In a multiple ron, riichi sticks go to the winner nearest the discarder, or are shared out."""
    winners_keep_own_riichi: bool
    """In a multiple ron, a winner who declared riichi takes back their own stick first."""
    pao: bool
    """Liability (pao, sekinin barai) for a yakuman fed by a call (daisangen, daisuushii)."""
    pao_ron_split: Literal["half", "full"]
    """Pao on a discard win: liable seat pays half and the discarder half, or the liable seat pays it all.
    On a self-draw the liable seat always pays the whole yakuman."""
    pao_ron_honba: Literal["discarder", "liable"]
    """Who pays the counters of a pao'd discard win: sources differ (Japanese mahjong wiki 2013: the discarder;
    riichi.wiki now and "riichi in brief": the liable seat). On a self-draw the liable seat always pays them."""
    nagashi_mangan: bool
    abortive_draws: frozenset[str]
    """Which of ABORTIVE_REASONS the preset allows (empty = none)."""
    # -- penalties -------------------------------------------------------------------------------
    chombo_mode: Literal["table", "end", "none"]
    """"table": reverse mangan paid at once (dealer pays 4000 each; otherwise 4000 to the dealer, 2000 to the
    others); "end": `chombo_penalty` is deducted from the final result; "none": the preset has no chombo."""
    chombo_penalty: int
    """Points deducted at the end per chombo (chombo_mode "end")."""
    penalty_affects_rank: bool
    """Whether end-of-game penalties count before placement (NARO-1) or after uma (EMA, WRC)."""
    # -- end of game -----------------------------------------------------------------------------
    length: Literal["east", "south", "north"]
    """Last round of a normal game: "east" (tonpuusen), "south" (hanchan, ends after South 4) or "north"
    (four full rotations of the deal, 16 hands: Zung Jung and MCR, where the deal always passes)."""
    busting: bool
    """The game ends when a seat goes below zero (tobi). Zero itself is not a bust."""
    agari_yame: bool
    """In the last hand a dealer who wins while in first place may (here: does) end the game."""
    tenpai_yame: bool
    """In the last hand a dealer who is tenpai at a draw while in first place ends the game."""
    west_extension: bool
    """If nobody has `west_target` after the last hand, play on into the West round (sudden death: the game
    ends after the first hand that leaves someone at or above `west_target`, at West 4 at the latest)."""
    west_target: int
    """Points someone must hold for the game to end at the last hand (and for agari-yame) where the West
    round exists; 0 where it does not."""
    leftover_sticks: Literal["first", "void"]
    """Riichi sticks still on the table when the game ends go to first place, or leave the game."""
    notes: tuple[str, ...] = field(default=())
    """Which source each choice follows where sources conflict or are silent."""

    def __post_init__(self) -> None:
        unknown = set(self.abortive_draws) - set(ABORTIVE_REASONS)
        if unknown:
            raise ValueError(f"{self.name}: unknown abortive draws {sorted(unknown)}")
        if sum(self.uma) != 0:
            raise ValueError(f"{self.name}: uma must sum to zero, got {self.uma}")
        if self.system != "riichi":
            riichi_only = {
                "riichi": self.riichi_allowed, "counters": self.honba_value, "tenpai payments":
                self.tenpai_payment_total or self.noten_pool_payment, "pao": self.pao, "nagashi mangan":
                self.nagashi_mangan, "abortive draws": self.abortive_draws, "flat payments": self.fixed_payments,
                "a chombo penalty": self.chombo_mode != "none", "dealer repeats": self.renchan_on_dealer_win
                or self.renchan_on_dealer_tenpai or self.renchan_on_abortive, "several winners":
                self.max_ron_winners != 1,
            }
            wrong = [what for what, value in riichi_only.items() if value]
            if wrong:
                raise ValueError(f"{self.name}: {self.system} has no {', '.join(wrong)}")
        if self.mcr_base and self.system != "mcr":
            raise ValueError(f"{self.name}: only MCR has a base payment")

    @property
    def counts_honba(self) -> bool:
        """Whether honba count here: not under USPML, Zung Jung or MCR, which the pages, `show` and the CSV then
        name no counter for."""
        return self.honba_value > 0


ALL_ABORTIVE = frozenset(ABORTIVE_REASONS)
NO_ABORTIVE: frozenset[str] = frozenset()

TENHOU = GameRules(
    name="tenhou",
    title="Tenhou ranked (hanchan, red fives)",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=25000,
    return_points=30000,
    oka=20000,
    uma=(20000, 10000, -10000, -20000),
    unit=1000,
    tie_rule="seat",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=1000,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=2,
    triple_ron_aborts=True,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=True,
    abortive_draws=ALL_ABORTIVE,
    chombo_mode="table",
    chombo_penalty=0,
    penalty_affects_rank=False,
    length="south",
    busting=True,
    agari_yame=True,
    tenpai_yame=True,
    west_extension=True,
    west_target=30000,
    leftover_sticks="first",
    notes=(
        "uma 20/10 follows the ranked-room rule list (MJS '10-20'); Pantheon's preset uses 15/5 with oka",
        "tenhou.net has no chombo online; at a real table we use the usual reverse mangan (mangan barai)",
    ),
)

MAHJONGSOUL = GameRules(
    name="mahjongsoul",
    title="Mahjong Soul ranked 4-player (hanchan)",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=25000,
    return_points=25000,
    oka=0,
    uma=(15000, 5000, -5000, -15000),
    unit=1000,
    tie_rule="seat",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=1000,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=3,
    triple_ron_aborts=False,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="liable",
    nagashi_mangan=True,
    abortive_draws=ALL_ABORTIVE - {"triple-ron"},
    chombo_mode="table",
    chombo_penalty=0,
    penalty_affects_rank=False,
    length="south",
    busting=True,
    agari_yame=True,
    tenpai_yame=True,
    west_extension=True,
    west_target=30000,
    leftover_sticks="first",
    notes=(
        "settlement at 25000 with uma 15/5 and no oka follows BH4HPA's preset (the client shows rank points)",
        "the West round is entered below 30000 as on Tenhou; honba in a multiple ron go to the nearest winner "
        "as on Tenhou (unverified for Mahjong Soul)",
        "no chombo online; at a real table we use reverse mangan",
        "pao on a discard win: the liable seat pays the counters with its half, as \"riichi in brief\" (Riichi "
        "Advanced, modelled on Mahjong Soul) and riichi.wiki say",
    ),
)

WRC = GameRules(
    name="wrc",
    title="World Riichi Championship 2022",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=30000,
    return_points=30000,
    oka=0,
    uma=(15000, 5000, -5000, -15000),
    unit=1000,
    tie_rule="split",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=None,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=1,
    triple_ron_aborts=False,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=False,
    abortive_draws=NO_ABORTIVE,
    chombo_mode="end",
    chombo_penalty=30000,
    penalty_affects_rank=False,
    length="south",
    busting=False,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="void",
    notes=(
        "chombo -30000 follows the WRC 2022 changes (Pantheon still has -20000)",
        "busting: Pantheon says no, a riichi.wiki infobox says a negative score ends the game; we follow "
        "Pantheon and the rulebook's play-to-South-4 format",
        "riichi below 1000 points is allowed since there is no busting (unverified)",
    ),
)

EMA = GameRules(
    name="ema",
    title="European Mahjong Association 2016",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=30000,
    return_points=30000,
    oka=0,
    uma=(15000, 5000, -5000, -15000),
    unit=1000,
    tie_rule="split",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=None,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=3,
    triple_ron_aborts=False,
    multi_ron_honba="each",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=False,
    abortive_draws=NO_ABORTIVE,
    chombo_mode="end",
    chombo_penalty=20000,
    penalty_affects_rank=False,
    length="south",
    busting=False,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="first",
    notes=(
        "multiple ron: the discarder pays each winner in full, counters included; sticks to the nearest "
        "winner (EMA 2016 as summarised on riichi.wiki)",
        "riichi below 1000 points: no busting, so allowed (unverified)",
    ),
)

MLEAGUE = GameRules(
    name="mleague",
    title="M-League",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=25000,
    return_points=30000,
    oka=20000,
    uma=(30000, 10000, -10000, -30000),
    unit=1000,
    tie_rule="split",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=None,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=1,
    triple_ron_aborts=False,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=True,
    abortive_draws=NO_ABORTIVE,
    chombo_mode="end",
    chombo_penalty=20000,
    penalty_affects_rank=False,
    length="south",
    busting=False,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="first",
    notes=(
        "chombo: one source says a 20000-point penalty, another says mangan payment; we follow the 20000 "
        "penalty at the end (majyan-item)",
        "riichi is allowed below 1000 points ('1000点以下でもリーチ可')",
        "ties share the uma (unverified)",
        "nagashi mangan: BH4HPA says none, a Japanese blog lists it; we follow the blog, as hand_rules does",
    ),
)

NARO1 = GameRules(
    name="naro1",
    title="1st North American Riichi Open (NARO-1)",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=30000,
    return_points=30000,
    oka=0,
    uma=(15000, 5000, -5000, -15000),
    unit=1000,
    tie_rule="split",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=1000,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=1,
    triple_ron_aborts=False,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=True,
    abortive_draws=NO_ABORTIVE,
    chombo_mode="end",
    chombo_penalty=10000,
    penalty_affects_rank=True,
    length="south",
    busting=True,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="void",
    notes=(
        "§2.1: 30000 start, busting ends the game, atama-hane, uma 5-15, games end at South 4",
        "§3.1.4 / §3.4.1: chombo is a 10000 deduction at the end that affects placement",
        "§3.1.2: riichi needs 1000 points; §2.2: last-hand riichi sticks leave the game",
        "the rulebook says nothing about pao or ties: we follow WRC 2014, its stated basis",
    ),
)

CLUB = GameRules(
    name="club",
    title="Riichi MJ club rule book",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=25000,
    return_points=30000,
    oka=20000,
    uma=(20000, 10000, -10000, -20000),
    unit=1000,
    tie_rule="seat",
    honba_value=300,
    riichi_allowed=True,
    riichi_deposit=1000,
    riichi_min_points=1000,
    fixed_payments=None,
    tenpai_payment_total=3000,
    noten_pool_payment=0,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=3,
    triple_ron_aborts=False,
    multi_ron_honba="each",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=True,
    pao=True,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=False,
    abortive_draws=frozenset({"nine-terminals", "four-winds", "four-riichi", "four-kans"}),
    chombo_mode="table",
    chombo_penalty=0,
    penalty_affects_rank=False,
    length="south",
    busting=True,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="first",
    notes=(
        "§1.4 says players begin with 30000, §3.6.1 says 25000 returning 30000 with oka: we follow §3.6.1, "
        "the section that settles the game",
        "ties: §3.6 and §3.6.1 say earlier dealership wins the tie, the last paragraph says split; we follow "
        "the earlier dealership, which the rule book states twice",
        "§3.4.6: outside tournaments chombo is a reverse mangan paid at the table",
        "§3.4.11 read to the letter rotates the deal after an abortive draw ('otherwise, the deal rotates'), but "
        "§3.4.3 puts a counter at East's right as for a repeat: the dealer keeps the deal, as in every other "
        "preset with abortive draws",
        "§4.1: honba to every winner, riichi sticks to the winner nearest the discarder's right, winners "
        "take back their own riichi stick",
    ),
)

USPML = GameRules(
    name="uspml",
    title="USPML beginner game (flat payments, East round only)",
    system="riichi",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=20,
    return_points=20,
    oka=0,
    uma=(0, 0, 0, 0),
    unit=1,
    tie_rule="seat",
    honba_value=0,
    riichi_allowed=False,
    riichi_deposit=0,
    riichi_min_points=None,
    fixed_payments=FixedPayments(ron_dealer=6, ron_other=4, tsumo_by_dealer=2, tsumo_dealer_pays=2,
                                 tsumo_other_pays=1),
    tenpai_payment_total=0,
    noten_pool_payment=1,
    renchan_on_dealer_win=True,
    renchan_on_dealer_tenpai=True,
    renchan_on_abortive=True,
    max_ron_winners=1,
    triple_ron_aborts=False,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=False,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=False,
    abortive_draws=NO_ABORTIVE,
    chombo_mode="none",
    chombo_penalty=0,
    penalty_affects_rank=False,
    length="east",
    busting=False,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="void",
    notes=(
        "20 points each; ron pays 6 (dealer) / 4; tsumo 2 each to a dealer, else 2 from the dealer and 1 "
        "from each other; each noten seat puts 1 point in a pool the next winner takes",
        "the deal passes on a non-dealer win or a noten dealer; the game ends when it would pass back to the "
        "first dealer (one East round); ties go to the seat nearest the first dealer in turn order",
        "simultaneous rons go to the claimant whose turn comes soonest (head bump)",
        "the text has no riichi, counters, chombo, busting or abortive draws; a pool left at the end is void "
        "(the text only says the next winner takes it)",
    ),
)

# The club's other two systems (`rules/sdmc-zungjung-riichi-mcr.txt`). Both count from zero: the text gives
# no starting score, only what each hand moves, and its "Simplified Scoring" for Zung Jung (3 x own wins -
# opponents' wins) is exactly a running total from zero. Neither has uma, oka, counters or riichi sticks.
ZUNGJUNG = GameRules(
    name="zungjung",
    title="Zung Jung 3.3 (San Diego Mahjong Club)",
    system="zungjung",
    zungjung_payoff="standard",
    mcr_base=0,
    starting_points=0,
    return_points=0,
    oka=0,
    uma=(0, 0, 0, 0),
    unit=1,
    tie_rule="split",
    honba_value=0,
    riichi_allowed=False,
    riichi_deposit=0,
    riichi_min_points=None,
    fixed_payments=None,
    tenpai_payment_total=0,
    noten_pool_payment=0,
    renchan_on_dealer_win=False,
    renchan_on_dealer_tenpai=False,
    renchan_on_abortive=False,
    max_ron_winners=1,
    triple_ron_aborts=False,
    multi_ron_honba="nearest",
    multi_ron_sticks="nearest",
    winners_keep_own_riichi=False,
    pao=False,
    pao_ron_split="half",
    pao_ron_honba="discarder",
    nagashi_mangan=False,
    abortive_draws=NO_ABORTIVE,
    chombo_mode="none",
    chombo_penalty=0,
    penalty_affects_rank=False,
    length="north",
    busting=False,
    agari_yame=False,
    tenpai_yame=False,
    west_extension=False,
    west_target=0,
    leftover_sticks="void",
    notes=(
        "'Seat Wind Rotation': the deal passes after every hand, East never keeps it (also after a draw)",
        "basic rules: a full game is four wind rotations, 16 hands; Zung Jung has no table (prevailing) wind, "
        "so hands are numbered 1-16 instead of East 1 ... North 4",
        "standard payoff (SDMC play): 3 x value to the winner; self-draw or a value of 25 or less: everyone pays "
        "the value; over 25 on a discard: 25 from each other player and the rest from the responsible one, "
        "who is the first discarder of that tile under same-round immunity (nobody when it was the winner)",
        "competing claims: interception, one winner per hand (the claimant first in turn after the discarder)",
        "a drawn hand pays nothing; the text has no starting score, no uma and no tie rule: we count from 0 and "
        "equal totals share the place",
        "no minimum to win by default (a Chicken Hand is 1 point); no penalties in the text: use an adjustment",
    ),
)

# MCR keeps a game as Zung Jung does (from 0, the deal always passes, 16 hands, one winner); only the money differs.
MCR = replace(
    ZUNGJUNG,
    name="mcr",
    title="MCR, Mahjong Competition Rules (San Diego Mahjong Club)",
    system="mcr",
    mcr_base=8,
    notes=(
        "'Counting Points': 8 from every other player, plus the hand's value from the discarder, or from all "
        "three on a self-draw; a hand needs 8 fan without flowers to win",
        "'Seat Winds always rotate every round': the deal passes after every hand, draws included",
        "basic rules: a full game is four wind rotations, 16 hands; the table (prevailing) wind is East for "
        "hands 1-4, South for 5-8, West for 9-12, North for 13-16. The club text does not ask for the official "
        "rulebook's seat changes between rotations, so seats keep their places",
        "only one winner: competing claims go to the claimant first in turn after the discarder",
        "a drawn hand pays nothing; penalties (below minimum: 10 to each; false mahjong: 20 to each) are "
        "recorded as adjustments; no tie rule in the text: equal totals share the place",
    ),
)

# The two Zung Jung variants the text names: the uniform payoff "for casual games among beginners", and the
# 5-point minimum of "competitive Zung Jung" (the minimum itself lives in the hand rules).
ZUNGJUNG_UNIFORM = replace(
    ZUNGJUNG, name="zungjung-uniform", title="Zung Jung 3.3, uniform payoff (casual)", zungjung_payoff="uniform",
    notes=(*ZUNGJUNG.notes, "'The Zung Jung Uniform Payoff Scheme': chosen for casual games among beginners"),
)
ZUNGJUNG_COMPETITIVE = replace(
    ZUNGJUNG, name="zungjung-competitive", title="Zung Jung 3.3, 5-point minimum (competitive)",
    notes=(*ZUNGJUNG.notes, "'Minimum Requirement to Win': competitive Zung Jung typically uses a 5-point minimum"),
)

GAME_RULES: dict[str, GameRules] = {
    rules.name: rules
    for rules in (
        TENHOU, MAHJONGSOUL, WRC, EMA, MLEAGUE, NARO1, CLUB, USPML,
        ZUNGJUNG, ZUNGJUNG_UNIFORM, ZUNGJUNG_COMPETITIVE, MCR,
    )
}
