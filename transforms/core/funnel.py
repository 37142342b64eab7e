"""The funnel of a stage, as plain data (no Beam): the steps, their accounts, the gaps.

Each step counts `in`, `out` and `rejected.<reason>`; `funnel` turns flat `step.key` sums
into one account per step in pipeline order. A step that changes the unit counted (files ->
records, passages -> sentences) is an `expand` step: its `in` is the previous step's `out`,
its `out` is counted in the new unit. `chain_gaps` lists every break of the chain.
"""
import collections
from typing import NamedTuple, Optional


class Step(NamedTuple):
    """A funnel step: its name, the unit it counts, and whether it changes the unit."""
    name: str
    unit: str
    expand: bool = False


def add_count(counts: collections.Counter, key, n: int) -> None:
    """`counts[key] += n`; a `step.max_*` key keeps the maximum instead."""
    if isinstance(key, str) and key.rsplit(".", 1)[-1].startswith("max_"):
        counts[key] = max(counts.get(key, 0), n)
    else:
        counts[key] += n


def funnel(flat: dict, steps) -> dict:
    """Flat `step.key` sums -> {step: account} in pipeline order (see module docstring)."""
    out = {}
    for step in steps:
        name = step.name
        reasons = {k.split(".", 2)[2]: v for k, v in flat.items()
                   if k.startswith(f"{name}.rejected.")}
        extra = {k.split(".", 1)[1]: v for k, v in flat.items()
                 if k.startswith(f"{name}.") and k.split(".")[1] not in ("in", "out", "rejected")}
        account = {"unit": step.unit, "in": flat.get(f"{name}.in", 0),
                   "out": flat.get(f"{name}.out", 0), "rejected": sum(reasons.values()),
                   "reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))}
        if step.expand:
            account["expand"] = True
        out[name] = dict(account, **extra)
    return out


def chain_gaps(accounts: dict, first_in: Optional[int] = None) -> list:
    """Every break of the funnel, as a sentence: a step whose `in` is not the previous
    step's `out`, or a (non-expanding) step whose in != out + rejected."""
    gaps, previous = [], None
    if first_in is not None:
        previous = ("input", first_in)
    for name, a in accounts.items():
        if previous is not None and a["in"] != previous[1]:
            gaps.append(f"{name}: in {a['in']} != {previous[0]} out {previous[1]}")
        if not a.get("expand") and a["in"] != a["out"] + a["rejected"]:
            gaps.append(f"{name}: in {a['in']} != out {a['out']} + rejected {a['rejected']}")
        previous = (name, a["out"])
    return gaps
