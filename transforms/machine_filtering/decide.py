"""Decide: a scored candidate is kept when no adversary answered it (its fold's reader got
it wrong and AFLite did not remove it; paper 3.3), or, with `balance` readmit only, when
the sampler keeps it back (and the readmit sampler does not drop it; `balance.py`). The
rejections are `ADVERSARY_RULES` (the transforms/core/rules.py convention), judging a
row with its `Verdict`. `Balance`: the drop sampler's step (`balance` drop), after the
release rules."""
from typing import NamedTuple, Optional

from transforms.core.accounting import Count, RuleStep
from transforms.core.rules import Rule


class Verdict(NamedTuple):
    """The adversaries' verdict on a scored query, after the drop sampler's plan."""
    correct: Optional[bool]   # answered (None: it could not be scored)
    by: Optional[str]         # who answered: kfold, aflite or both
    strat: Optional[str]      # its stratum (balance.py)
    balance_drop: bool        # dropped by the sampler to restore the share


def answered_detail(row: dict, by: str) -> str:
    """Who answered the query: the fold reader (its prediction), AFLite (the iteration and
    the predictability it was removed at), or both."""
    parts = []
    if "kfold" in by:
        parts.append(f"fold {row.get('fold')} reader answered {row.get('adversary_prediction')!r}")
    if "aflite" in by:
        parts.append(f"AFLite removed it in iteration {row.get('aflite_removed_in')} "
                     f"(predictability {row.get('aflite_predictability') or 0:.2f})")
    return "; ".join(parts)


BALANCE_RULE = Rule("not_dropped_for_balance", "dropped_for_balance",
                    lambda row, v, c: not v.balance_drop
                    or (False, f"stratum {v.strat}: restores the most-frequent-entity share"))
ADVERSARY_RULES = (
    BALANCE_RULE,
    Rule("scored", "scoring_error",
         lambda row, v, c: v.correct is not None or (False, "see errors/ for the reason")),
    Rule("not_answered", "answered_by_adversary",
         lambda row, v, c: not v.correct or (False, answered_detail(row, v.by))),
)


class Decide(RuleStep):
    """Scored rows -> kept rows; answered and unscorable queries become rejected rows.
    `plan` (side input): the drop sampler's plan; each kept row counts its stratum."""
    step, rules = "adversary", ADVERSARY_RULES

    def __init__(self, salt: str = "balance", untrained=frozenset()):
        self.salt, self.untrained = salt, frozenset(untrained)

    def apply(self, row, plan=None):
        fold = row.get("fold")
        yield Count("adversary", f"fold{fold}.in", 1)
        v = yield from self.verdict_of(row, plan)
        why = self.verdict(row, v)
        if v.strat is not None and not v.balance_drop:
            yield Count("adversary", f"{'dropped' if v.correct else 'kept'}.{v.strat}", 1)
        if why is None:
            yield Count("adversary", f"fold{fold}.kept", 1)
            yield row
            return
        if why.rule == "scored":
            yield Count("adversary", f"fold{fold}.errors", 1)
        elif why.rule == "not_answered":
            yield Count("adversary", f"fold{fold}.dropped", 1)
            yield Count("adversary", f"answered_by.{v.by}", 1)
        yield self.rejected(why, row)

    def verdict_of(self, row, plan=None):
        """The row's Verdict (a generator that yields the counts of the plan's
        readmissions and drops, and returns it)."""
        from transforms.machine_filtering.balance import drops, keeps_back, row_stratum
        fold = row.get("fold")
        correct = row.get("adversary_correct")
        strat = row_stratum(row)
        by = row.get("answered_by", "kfold" if correct else None)
        if fold in self.untrained and correct is not None and by == "kfold":
            # a reader that never trained (too few articles for its fold) answers by chance:
            # what it "answers" proves nothing about the query, so nothing is dropped for it
            yield Count("adversary", f"fold{fold}.untrained_kept", 1)
            correct = False
        elif correct and plan and keeps_back(row, strat, plan, self.salt):
            yield Count("adversary", f"fold{fold}.readmitted", 1)
            yield Count("adversary", f"readmitted.{strat}", 1)
            correct = False
        elif correct is False and plan and drops(row, strat, plan, self.salt):
            yield Count("adversary", f"fold{fold}.balance_dropped", 1)
            yield Count("adversary", f"dropped.{strat}", 1)
            return Verdict(correct, by, strat, True)
        return Verdict(correct, by, strat, False)


class Balance(RuleStep):
    """The `balance` step (`balance` drop, the default): released queries -> the ones the
    drop sampler keeps; `plan` (side input): its plan over the released queries. Each
    row counts its stratum (`kept.<s>` / `dropped.<s>`) and a drop its fold."""
    step, rules = "balance", (BALANCE_RULE,)

    def __init__(self, salt: str = "balance"):
        self.salt = salt

    def apply(self, row, plan=None):
        from transforms.machine_filtering.balance import drops, row_stratum
        strat = row_stratum(row)
        drop = bool(strat is not None and plan and drops(row, strat, plan, self.salt))
        if strat is not None:
            yield Count(self.step, f"{'dropped' if drop else 'kept'}.{strat}", 1)
        why = self.verdict(row, Verdict(row.get("adversary_correct"), None, strat, drop))
        if why is None:
            yield row
            return
        yield Count(self.step, f"fold{row.get('fold')}.balance_dropped", 1)
        yield self.rejected(why, row)


def meta(metas: list, paths, settings=None) -> dict:
    return {"job": "adversarial_filter",
            "adversary": getattr(settings, "adversary_kind", "kfold"),
            "balance": getattr(settings, "balance", None),
            "model": metas[0]["model"] if metas else None, "folds": len(metas),
            "candidates": paths.candidates,
            # the release rule that reads the hardness reader's encoder (docs/adversary.md)
            "restates_passage": bool(getattr(getattr(settings, "release", None),
                                             "restates_passage", False))}


def per_fold(stats: dict) -> dict:
    """{fold: {in, scored, answered, kept, dropped, readmitted, balance_dropped, errors}}
    from adversarial_filter.json's funnel: `kept` are the queries the adversary step
    left, `dropped` answered and dropped, `readmitted` answered and kept back by the
    readmit sampler (counted in `kept`), `balance_dropped` unanswered and dropped by the
    sampler (in Decide with `readmit`, in the `balance` step with `drop`)."""
    a = stats["stages"]["adversary"]
    out = {}
    keys = ("in", "kept", "dropped", "readmitted", "balance_dropped", "errors")
    for key, n in a.items():
        if key.startswith("fold") and "." in key:
            fold, what = key[4:].split(".", 1)
            out.setdefault(int(fold), dict.fromkeys(keys, 0))[what] = n
    for c in out.values():
        c["scored"] = c["kept"] + c["dropped"] + c["balance_dropped"]
        c["answered"] = c["dropped"] + c["readmitted"]
    for key, n in (stats["stages"].get("balance") or {}).items():
        if key.startswith("fold") and key.endswith(".balance_dropped"):
            fold = int(key[4:].split(".", 1)[0])
            out.setdefault(fold, dict.fromkeys(keys + ("scored", "answered"), 0))
            out[fold]["balance_dropped"] += n
    return dict(sorted(out.items()))
