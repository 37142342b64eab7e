"""Warnings about the released splits' sizes: logged by the stage and printed on the card.

- A split under `MIN_QUERIES` queries: its scores are too noisy to rank models (the
  warning gives the 95% half-width of an EM near 50 at that n, 1.96 * sqrt(0.25 / n)).
- A split far from its configured share: more than `SHARE_TOLERANCE` of the share away
  from it (relative: dev at 10% warns outside 6.7-13.3%). Placement is by article group,
  so a corpus of few articles (or one large story cluster) can move a split's share; the
  check runs only under the plain fraction policy (no origin lists, ratio or caps, which
  shape the shares by design).
"""
import math

from transforms.finalize.splits.rules import SPLITS

MIN_QUERIES = 100
SHARE_TOLERANCE = 1 / 3


def _fraction_policy(cfg: dict) -> bool:
    return not any(cfg.get(k) for k in ("train_origins", "dev_test_origins",
                                         "dev_test_origin_ratio", "dev_size", "test_size"))


def split_warnings(stats: dict) -> list:
    """One line per problem, in split order (empty: none)."""
    cfg = (stats.get("config") or {}).get("split") or {}
    table = stats["table1"]
    total = table["overall"]["queries"]
    fractions = {s: float(cfg.get(f"{s}_fraction", 0) or 0) for s in SPLITS}
    weight = sum(fractions.values()) or 1.0
    out = []
    for split in SPLITS:
        n = table[split]["queries"]
        want = fractions[split] / weight
        if want <= 0:
            continue
        if n < MIN_QUERIES:
            half = 100 * 1.96 * math.sqrt(0.25 / n) if n else float("inf")
            out.append(f"{split} holds {n:,} queries (fewer than {MIN_QUERIES}): an EM near 50 "
                       f"measured on it is uncertain by about +/- {half:.0f} points (95%)"
                       if n else f"{split} holds no query")
        if total and n and _fraction_policy(cfg):
            share = n / total
            if abs(share - want) > SHARE_TOLERANCE * want:
                out.append(f"{split} holds {100 * share:.1f}% of the released queries "
                           f"({n:,} of {total:,}), configured {100 * want:.0f}%: splits "
                           "are drawn per article group, and this corpus has too few groups "
                           "(or one large group) for the fractions to hold")
    return out


def card_lines(stats: dict) -> list:
    """The card's warning block (empty when there is nothing to warn about)."""
    found = split_warnings(stats)
    if not found:
        return []
    return ["## Warnings", ""] + [f"- **Warning:** {w}." for w in found] + [""]
