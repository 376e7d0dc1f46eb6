"""GTP engines are told the rules (issue 13 item 17): GNU Go by its start
options, engines listing ``kgs-rules`` by that command.

Oracle position (9x9, komi 7.5): a Black wall on column D, a White wall on
column E, one more Black stone at B5 inside Black's side, then both pass.
By the rule text, area counting (数子, 中国规则): Black 4 columns = 36,
White 5 columns = 45, 36 - 45 - 7.5 = W+16.5; territory counting (数目,
日韩规则): Black 27 - 1 (B5) = 26 points, White 36, 26 - 36 - 7.5 = W+17.5.
So GNU Go's ``final_score`` shows which rules it was told.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

from qisai.engines.gtp import (
    GtpEngine,
    SimpleGtpEngine,
    gnugo_rule_flags,
    kgs_rules_name,
    with_rule_flags,
)
from qisai.go.rules import CHINESE, JAPANESE, TROMP_TAYLOR, Color, KoRule, Rules

Fake = Callable[..., list[str]]


def test_17_gnugo_options_for_each_rule_set() -> None:
    assert gnugo_rule_flags(CHINESE) == ["--chinese-rules", "--positional-superko",
                                         "--forbid-suicide"]
    assert gnugo_rule_flags(JAPANESE) == ["--japanese-rules", "--simple-ko", "--forbid-suicide"]
    assert gnugo_rule_flags(TROMP_TAYLOR)[::2] == ["--chinese-rules", "--allow-all-suicide"]
    situational = dataclasses.replace(CHINESE, ko=KoRule.SITUATIONAL)
    assert "--situational-superko" in gnugo_rule_flags(situational)
    assert with_rule_flags("/usr/games/gnugo --mode gtp", JAPANESE) == [
        "/usr/games/gnugo", "--mode", "gtp", "--japanese-rules", "--simple-ko", "--forbid-suicide"]
    # An option given in the command wins; other programs are left alone.
    assert with_rule_flags("gnugo --mode gtp --japanese-rules", CHINESE) == [
        "gnugo", "--mode", "gtp", "--japanese-rules"]
    assert with_rule_flags(["katago", "gtp"], CHINESE) == ["katago", "gtp"]
    assert [kgs_rules_name(r) for r in (CHINESE, JAPANESE, TROMP_TAYLOR)] == [
        "chinese", "japanese", "new_zealand"]


def _gnugo_score(gnugo: str, rules: Rules) -> tuple[str, list[str]]:
    with SimpleGtpEngine.start([gnugo, "--mode", "gtp", "--level", "0"], rules=rules) as engine:
        engine.boardsize(9)
        engine.clear_board()
        engine.komi(7.5)
        for row in range(9):
            engine.play(Color.BLACK, (row, 3))
            engine.play(Color.WHITE, (row, 4))
        engine.play(Color.BLACK, (4, 1))
        engine.play(Color.WHITE, None)
        engine.play(Color.BLACK, None)
        return engine.final_score(), engine.engine.rules_told


def test_17_gnugo_counts_by_the_rules_it_is_told(gnugo: str) -> None:
    score, told = _gnugo_score(gnugo, CHINESE)
    assert score == "W+16.5" and told[0] == "--chinese-rules"  # 36 - 45 - 7.5 (数子)
    score, told = _gnugo_score(gnugo, JAPANESE)
    assert score == "W+17.5" and told[0] == "--japanese-rules"  # 26 - 36 - 7.5 (数目)


def test_17_kgs_rules_sent_where_listed(fake: Fake) -> None:
    async def go(mode: str, rules: Rules) -> tuple[str, list[str]]:
        engine = await GtpEngine.start(fake("gtp", mode), rules=rules)
        try:
            seen = await engine.command("last_rules") if "last_rules" in engine.commands else ""
            return seen, engine.rules_told
        finally:
            await engine.quit()

    assert asyncio.run(go("kgsrules", JAPANESE)) == ("japanese", ["kgs-rules japanese"])
    assert asyncio.run(go("kgsrules", CHINESE)) == ("chinese", ["kgs-rules chinese"])
    # An engine with no rules command is not sent one (plain GTP has none).
    assert asyncio.run(go("passer", CHINESE)) == ("", [])
