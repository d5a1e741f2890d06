"""Hand-level rule options per preset: what a finished hand is worth.

Every preset sets every option explicitly (no inherited defaults), so reading one preset tells the
whole story. The table-level rules (points, uma, draws, end of game) live in `table.game_rules`.
Sources are abbreviated as in `shared/research/product-and-rules.md` §2; where they conflict the
preset's docstring says which one we followed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

KAZOE_LIMITS = ("yakuman", "sanbaiman", "multiple")
RENHOU_VALUES = ("none", "mangan", "yakuman", "5han")
DOUBLE_YAKUMAN_PATTERNS = ("suuankou_tanki", "kokushi_13_wait", "junsei_chuuren", "daisuushii")
PAO_YAKUMAN = ("daisangen", "daisuushii", "suukantsu")
SYSTEMS = ("riichi", "zungjung", "mcr")

_KAZOE_TO_LIBRARY = {
    "yakuman": HandConstants.KAZOE_LIMITED,
    "sanbaiman": HandConstants.KAZOE_SANBAIMAN,
    "multiple": HandConstants.KAZOE_NO_LIMIT,
}


@dataclass(frozen=True)
class HandRules:
    """The hand-level switches that differ between rule sets.

    - `open_tanyao`: all simples counts with calls (kuitan, "ari-ari").
    - `red_fives`: red fives in the set per suit (m, p, s); each one is an aka dora. A hand
      showing more red fives of a suit than the set holds is impossible and rejected.
    - `kiriage`: 4 han 30 fu and 3 han 60 fu are rounded up to mangan (kiriage mangan).
    - `kazoe`: what 13+ han without a yakuman is worth: "yakuman" (kazoe yakuman),
      "sanbaiman" (capped), or "multiple" (26+ han counts as double yakuman and so on).
    - `double_yakuman`: the patterns worth two yakuman (suuankou tanki, kokushi 13-wait,
      junsei chuuren, daisuushii); empty when every yakuman is single.
    - `stacked_yakuman`: several yakuman in one hand add up (e.g. daisangen + tsuuiisou = 2x).
    - `renhou` (win on a discard before one's first draw): "none", "mangan" (a limit hand,
      not added to other yaku; the hand is worth the larger), "yakuman", or "5han" (a 5-han
      yaku that adds to the others).
    - `pao_yakuman`: yakuman for which the player who fed the deciding meld is liable (sekinin
      barai); applied by the game keeper.
    - `nagashi_mangan`: a draw with only terminal/honour discards, none called, pays a mangan.
    - `honba_value`: what one honba counter adds to a win (ron: all of it from the discarder,
      tsumo: a third from each payer).
    - `pinfu_tsumo_fu`: pinfu tsumo gets the 2 tsumo fu (30 fu) instead of the usual 20 fu.
    - `open_pinfu_fu`: an open hand with no fu won on a discard scores 30 fu, not 20.
    - `double_wind_pair_fu`: fu for a pair that is both seat and round wind (2 or 4).
    - `daisharin`: 22334455667788 of one suit is a yakuman ("none", "pin" or "all" suits).
    - `kokushi_robs_closed_kan`: thirteen orphans may win on a tile declared as a closed kan.
    - `ura_dora`: a riichi winner counts the ura dora.
    """

    title: str
    open_tanyao: bool
    red_fives: tuple[int, int, int]
    kiriage: bool
    kazoe: str
    double_yakuman: frozenset[str]
    stacked_yakuman: bool
    renhou: str
    pao_yakuman: tuple[str, ...]
    nagashi_mangan: bool
    honba_value: int
    pinfu_tsumo_fu: bool
    open_pinfu_fu: bool
    double_wind_pair_fu: int
    daisharin: str
    kokushi_robs_closed_kan: bool
    ura_dora: bool
    notes: str = field(default="", compare=False)
    system: str = "riichi"
    """The scoring system: "riichi" (everything above applies), or "zungjung" / "mcr", whose hands are scored
    by `table.zungjung` / `table.mcr`; for those the riichi options above are inert and `score_hand` refuses."""
    win_minimum: int = 0
    """Zung Jung and MCR: the value a hand needs to win (MCR 8 fan without flowers; Zung Jung 0, so a
    Chicken Hand of 1 point wins). Riichi needs a yaku instead: 0."""

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ValueError(f"system must be one of {SYSTEMS}")
        if self.win_minimum < 0 or (self.win_minimum and self.system == "riichi"):
            raise ValueError("win_minimum is a non-negative value for zungjung or mcr")
        if self.kazoe not in KAZOE_LIMITS:
            raise ValueError(f"kazoe must be one of {KAZOE_LIMITS}")
        if self.renhou not in RENHOU_VALUES:
            raise ValueError(f"renhou must be one of {RENHOU_VALUES}")
        if not set(self.double_yakuman) <= set(DOUBLE_YAKUMAN_PATTERNS):
            raise ValueError(f"double_yakuman patterns are {DOUBLE_YAKUMAN_PATTERNS}")
        if not set(self.pao_yakuman) <= set(PAO_YAKUMAN):
            raise ValueError(f"pao_yakuman must be among {PAO_YAKUMAN}")
        if self.double_wind_pair_fu not in (2, 4):
            raise ValueError("double_wind_pair_fu is 2 or 4")
        if self.daisharin not in ("none", "pin", "all"):
            raise ValueError("daisharin is none, pin or all")
        if len(self.red_fives) != 3 or min(self.red_fives) < 0 or max(self.red_fives) > 4:
            raise ValueError("red_fives is a count 0..4 per suit (m, p, s)")
        if self.honba_value < 0 or self.honba_value % 3:
            raise ValueError("honba_value must split evenly over three payers")

    @property
    def aka_dora(self) -> int:
        """Red fives in the whole set."""
        return sum(self.red_fives)

    @property
    def max_yakuman(self) -> int:
        """The largest yakuman multiple one hand can reach under these rules (library cap: 6)."""
        if self.stacked_yakuman:
            return 6
        return 2 if self.double_yakuman else 1

    @cached_property
    def optional_rules(self) -> OptionalRules:
        """The `mahjong` package's options for these rules (built once; treat as read-only)."""
        return self.to_optional_rules()

    def to_optional_rules(self) -> OptionalRules:
        """A fresh `mahjong` OptionalRules with every library switch set from these rules.

        The library has no per-pattern double yakuman, no stacking switch, no 2-fu double wind
        pair and no "renhou = mangan": `table.scoring` applies those on top of its result.
        """
        return OptionalRules(
            has_open_tanyao=self.open_tanyao,
            has_aka_dora=self.aka_dora > 0,
            has_double_yakuman=bool(self.double_yakuman),
            kazoe_limit=_KAZOE_TO_LIBRARY[self.kazoe],
            kiriage=self.kiriage,
            fu_for_open_pinfu=self.open_pinfu_fu,
            fu_for_pinfu_tsumo=self.pinfu_tsumo_fu,
            renhou_as_yakuman=self.renhou == "yakuman",
            has_daisharin=self.daisharin != "none",
            has_daisharin_other_suits=self.daisharin == "all",
            has_sashikomi_yakuman=False,
            limit_to_sextuple_yakuman=True,
            paarenchan_needs_yaku=True,
            has_daichisei=False,
            is_three_player=False,
        )


ALL_DOUBLES = frozenset(DOUBLE_YAKUMAN_PATTERNS)
NO_DOUBLES: frozenset[str] = frozenset()

TENHOU = HandRules(
    title="Tenhou (ranked, aka-ari rooms)",
    open_tanyao=True,
    red_fives=(1, 1, 1),
    kiriage=False,
    kazoe="yakuman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=True,
    renhou="none",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=True,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=4,
    daisharin="none",
    kokushi_robs_closed_kan=False,
    ura_dora=True,
    notes="TH, MJS, P `tenhounet`, B. Kuitan and aka in aka rooms; no pattern double yakuman, but several "
    "yakuman stack; 13+ han is kazoe yakuman; no renhou; pao for daisangen and daisuushii (P adds suukantsu: "
    "we follow TH, which lists only the two). The `mahjong` package with these options matched 298/298 real "
    "Tenhou phoenix wins (scoring-engines.md §2).",
)

MAHJONGSOUL = HandRules(
    title="Mahjong Soul (ranked 4-player)",
    open_tanyao=True,
    red_fives=(1, 1, 1),
    kiriage=False,
    kazoe="yakuman",
    double_yakuman=ALL_DOUBLES,
    stacked_yakuman=True,
    renhou="none",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=True,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=4,
    daisharin="none",
    kokushi_robs_closed_kan=True,
    ura_dora=True,
    notes="MS and B. The four patterns are double yakuman and yakuman stack; no kiriage (B; not verified "
    "elsewhere); renhou none (B inherits Tenhou's 'none'); kokushi may rob a closed kan.",
)

WRC = HandRules(
    title="World Riichi Championship (2022 rules)",
    open_tanyao=True,
    red_fives=(0, 0, 0),
    kiriage=True,
    kazoe="sanbaiman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=True,
    renhou="5han",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=False,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=4,
    daisharin="none",
    kokushi_robs_closed_kan=True,
    ura_dora=True,
    notes="WRCw, WRC22, P, B. No red fives (only an optional variant); kiriage; 13+ han is capped at sanbaiman "
    "(WRC22; B's unverified WRC 2025 note of a counted yakuman is not followed); yakuman stack since 2022 but "
    "no pattern is double; renhou is a mangan-class yaku that adds to the others (2014 errata), modelled as "
    "5 han; no nagashi mangan (P).",
)

EMA = HandRules(
    title="European Mahjong Association (2016 rules)",
    open_tanyao=True,
    red_fives=(0, 0, 0),
    kiriage=False,
    kazoe="sanbaiman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=False,
    renhou="mangan",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=False,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=4,
    daisharin="none",
    kokushi_robs_closed_kan=True,
    ura_dora=True,
    notes="EMA16 and P `ema`. Red fives removed; 4 han 30 fu is not rounded up; no counted yakuman (13+ han is "
    "sanbaiman); daisuushii only single and yakuman do not stack; renhou is a mangan limit hand; pao for "
    "daisangen and daisuushii (EMA 2016 rulebook §3.3.9); no nagashi mangan.",
)

MLEAGUE = HandRules(
    title="M-League",
    open_tanyao=True,
    red_fives=(1, 1, 1),
    kiriage=True,
    kazoe="sanbaiman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=True,
    renhou="none",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=True,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=2,
    daisharin="none",
    kokushi_robs_closed_kan=True,
    ura_dora=True,
    notes="ML, k-bys, B. Three red fives; kiriage ('7700は切り上げ'); no counted yakuman; no double patterns, "
    "but genuine yakuman combine ('純粋な役満の複合のみ'); no renhou (B). Nagashi mangan: B says none, a JP "
    "blog lists it among the notable rules; we follow the blog (it is played in M-League broadcasts). "
    "A double-wind pair is 2 fu as in other Japanese pro leagues (not in our sources: unverified).",
)

NARO1 = HandRules(
    title="1st North American Riichi Open (NARO-1, 2015)",
    open_tanyao=True,
    red_fives=(0, 0, 0),
    kiriage=False,
    kazoe="sanbaiman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=False,
    renhou="5han",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=True,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=2,
    daisharin="all",
    kokushi_robs_closed_kan=True,
    ura_dora=True,
    notes="shared/rules/naro1-tournament-rules.txt: ari-ari (§3.1.1); no red fives (§2.1); no counted yakuman, "
    "11+ han = sanbaiman (§3.2.2); no multiple yakuman, absolute limit 32,000/48,000 (§3.2.3); renhou 5 han "
    "that adds to other yaku (§3.2.4, §4.4.10.5); nagashi mangan is a special 5-han hand (§4.4.10.6); "
    "daisharin 2-8 of one suit is a yakuman at NARO-1 (§4.4.3.7); 4 han 30 fu pays 7,700/11,600 (score "
    "table: no kiriage); pinfu tsumo 20 fu (§4.4.3.3); 'a pair of value tiles is worth 2 points' (§4.3.3), "
    "so a double-wind pair is 2 fu; kokushi may rob a closed kan (§4.4.10.1). Pao is not mentioned: we keep "
    "the WRC 2014 rule (daisangen, daisuushii) that NARO-1 says it is based on.",
)

CLUB = HandRules(
    title="Riichi club rulebook (shared/rules/riichi-club-rulebook.txt)",
    open_tanyao=True,
    red_fives=(1, 1, 1),
    kiriage=False,
    kazoe="yakuman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=True,
    renhou="none",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=False,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=4,
    daisharin="none",
    kokushi_robs_closed_kan=True,
    ura_dora=True,
    notes="§1.3 one red five per suit, each one han; §4.2.1 kuitan; §3.3.9 pao for the third dragon and fourth "
    "wind meld; §3.4.10 300 per counter; §4.1.1 open pinfu gets 2 fu, 2 fu 'for each' of dragon / seat wind / "
    "round wind pair (so 4 for a double wind), 20 fu pinfu tsumo; §3.3.7 kokushi robs a closed kan. The book "
    "lists renhou and daisharin only as 'optional hands': both off. It says nothing on kiriage, kazoe, double "
    "or stacked yakuman or nagashi: we use Tenhou's values (no kiriage, kazoe yakuman, stacking, no doubles) "
    "except nagashi mangan, which the book's draw rules (§3.4.2) do not provide for.",
)

USPML = HandRules(
    title="USPML beginner game (hand rules: Tenhou-like standard riichi)",
    open_tanyao=True,
    red_fives=(1, 1, 1),
    kiriage=False,
    kazoe="yakuman",
    double_yakuman=NO_DOUBLES,
    stacked_yakuman=True,
    renhou="none",
    pao_yakuman=("daisangen", "daisuushii"),
    nagashi_mangan=False,
    honba_value=300,
    pinfu_tsumo_fu=False,
    open_pinfu_fu=True,
    double_wind_pair_fu=4,
    daisharin="none",
    kokushi_robs_closed_kan=False,
    ura_dora=True,
    notes="shared/rules/uspml-beginner-rules.txt has no yaku, han or fu: a complete hand pays flat points "
    "(tsumo 2/1, ron 6/4), which the game keeper applies. When a table using it scores a real riichi hand "
    "we use the closest standard: Tenhou's hand rules with the red fives of a Japanese set, without "
    "nagashi mangan (the beginner game has only a plain draw).",
)


def _other_system(system: str, title: str, minimum: int, notes: str) -> HandRules:
    """A preset of a non-riichi system: it only names the system and its minimum to win; the riichi
    switches are set to their plainest values and never read (score_hand refuses such a preset)."""
    return HandRules(
        title=title, open_tanyao=False, red_fives=(0, 0, 0), kiriage=False, kazoe="yakuman", double_yakuman=NO_DOUBLES,
        stacked_yakuman=False, renhou="none", pao_yakuman=(), nagashi_mangan=False, honba_value=0,
        pinfu_tsumo_fu=False, open_pinfu_fu=False, double_wind_pair_fu=2, daisharin="none",
        kokushi_robs_closed_kan=False, ura_dora=False, notes=notes, system=system, win_minimum=minimum,
    )


ZUNGJUNG = _other_system(
    "zungjung", "Zung Jung 3.3 (San Diego Mahjong Club)", 0,
    "Scored by table.zungjung (section 2 of rules/sdmc-zungjung-riichi-mcr.txt): no minimum by default, a "
    "Chicken Hand is worth 1 point; no bonus tiles unless the hand declares them.",
)

MCR = _other_system(
    "mcr", "MCR, Mahjong Competition Rules (San Diego Mahjong Club)", 8,
    "Scored by table.mcr through PyMahjongGB (section 4 of rules/sdmc-zungjung-riichi-mcr.txt): 8 fan "
    "without flowers to win; flowers add 1 each.",
)

RIICHI_PRESETS: tuple[str, ...] = ("tenhou", "mahjongsoul", "wrc", "ema", "mleague", "naro1", "club", "uspml")
"""The names in HAND_RULES whose hands the riichi engine scores."""

HAND_RULES: dict[str, HandRules] = {
    "tenhou": TENHOU,
    "mahjongsoul": MAHJONGSOUL,
    "wrc": WRC,
    "ema": EMA,
    "mleague": MLEAGUE,
    "naro1": NARO1,
    "club": CLUB,
    "uspml": USPML,
    "zungjung": ZUNGJUNG,
    "zungjung-uniform": replace(ZUNGJUNG, title="Zung Jung 3.3, uniform payoff (casual)"),
    "zungjung-competitive": _other_system(
        "zungjung", "Zung Jung 3.3, 5-point minimum (competitive)", 5,
        "As zungjung, with the 5-point minimum that 'Competitive Zung Jung typically uses'; bonus tiles do not "
        "count toward it (SDMC's recommendation).",
    ),
    "mcr": MCR,
}
