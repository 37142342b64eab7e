"""The card's sentence on what the adversarial filter did: which candidates it filtered out
(answered by the adversary), which it dropped for balance, which it kept although the
adversary answered them, and how many released queries the adversary answered.

Read from stats.json: the filter's account in the funnel (`funnel.stages.adversary`, the
`stages.adversary` account of `filtered/stats/adversarial_filter.json`), read defensively
since its keys may grow: `reasons.answered_by_adversary`; every reason holding `balance`
(the readmit sampler's drops); the other reasons as they are named; kept-although-answered
as the sum of the account's `readmitted.<stratum>` keys (or an int `readmitted` /
`kept_answered`); the drop sampler's drops after the release rules from the `balance`
step (`funnel.stages.balance`). The released count
is the hardness report's `adversary_answered` (`released` section): released rows whose
scored candidate (`filtered/scored/*.parquet`) has `adversary_correct` true.
"""
from transforms.core.constants import ANSWERED
from transforms.finalize.splits.rules import SPLITS

KEPT_ANSWERED_KEYS = ("readmitted", "kept_answered")


def filter_counts(account: dict) -> dict:
    """{in, answered, balance, other: {reason: n}, kept_answered, out} of the filter step."""
    reasons = account.get("reasons") or {}
    balance = {r: n for r, n in reasons.items() if "balance" in r}
    other = {r: n for r, n in reasons.items() if r != ANSWERED and r not in balance}
    kept_answered = 0
    for key, value in account.items():
        base = key.split(".", 1)[0]
        if base in KEPT_ANSWERED_KEYS and isinstance(value, int):
            if "." in key or not any(k.startswith(base + ".") for k in account):
                kept_answered += value
    return {"in": account.get("in", 0), "out": account.get("out", 0),
            "answered": reasons.get(ANSWERED, 0), "balance": sum(balance.values()),
            "balance_reasons": sorted(balance), "other": other,
            "kept_answered": kept_answered}


def released_answered(stats: dict):
    """({split: answered released queries}, total) from the hardness report, or None when
    the report has no scored candidates to read the adversary's answers from."""
    rows = ((stats.get("hardness") or {}).get("adversary_answered")) or {}
    if not rows:
        return None
    per = {s: rows.get(s, {}).get("released", {}).get("answered", 0) for s in SPLITS}
    return per, rows.get("overall", {}).get("released", {}).get("answered", sum(per.values()))


def _n(x: int) -> str:
    return f"{x:,}"


def adversary_name(stats: dict) -> str:
    """Who scored the candidates: the k-fold readers, AFLite, or both (the filter's
    `adversary` setting, else the train_folds summary alone)."""
    adversary = stats.get("adversary") or {}
    kind = (stats.get("filter") or {}).get("adversary") or "kfold"
    readers = (f"{adversary['folds']}-fold `{adversary['model']}` readers"
               if adversary.get("model") else "fold readers")
    if kind == "aflite":
        return "the adversary (AFLite)"
    if "aflite" in kind:
        return f"the adversary ({readers} and AFLite; a query is answered when either answers it)"
    return f"the adversary ({readers})"


def filter_sentence(stats: dict) -> str:
    """The sentence (empty when the funnel has no adversary step)."""
    account = ((stats.get("funnel") or {}).get("stages") or {}).get("adversary")
    if not account:
        return ""
    c = filter_counts(account)
    who = adversary_name(stats)
    parts = [f"{_n(c['answered'])} were answered by it and filtered out (`{ANSWERED}`)"]
    if c["balance"] or not balance_account(stats):      # the readmit sampler's drops
        parts.append(f"{_n(c['balance'])} were dropped for balance although it did not "
                     "answer them" + (f" (`{'`, `'.join(c['balance_reasons'])}`)"
                                      if c["balance_reasons"] else ""))
    parts += [f"{_n(n)} were dropped as `{r}`" for r, n in sorted(c["other"].items())]
    parts.append(f"{_n(c['kept_answered'])} were kept although it answered them")
    text = (f"**What the adversarial filter did.** Of {_n(c['in'])} candidate queries "
            f"{who} scored, " + ", ".join(parts[:-1]) + f", and {parts[-1]}; "
            + release_clause(stats, c["out"]))
    released = stats.get("table1", {}).get("overall", {}).get("queries", 0)
    counted = released_answered(stats)
    if counted is None:
        return text + (" Whether released queries were answered by the adversary is not "
                       "recorded here (no `filtered/scored/` candidates were read).")
    per, total = counted
    if not total:
        return text + f" None of the {_n(released)} released queries was answered by it."
    return text + (f" Of the {_n(released)} released queries, {_n(total)} were answered by "
                   "the adversary (" + ", ".join(f"{s} {_n(per[s])}" for s in SPLITS)
                   + "; `adversary_correct` of their rows in `filtered/scored/`).")


def balance_account(stats: dict) -> dict:
    """The drop sampler's step after the release rules (`balance`), or {}."""
    return ((stats.get("funnel") or {}).get("stages") or {}).get("balance") or {}


def release_clause(stats: dict, left: int) -> str:
    """What went on to finalize: the adversary's `left`, or, after the release rules
    (the filter's `release` step), what they dropped by reason, then what the drop
    sampler dropped for balance (the `balance` step, when it dropped any), and what was
    kept."""
    account = ((stats.get("funnel") or {}).get("stages") or {}).get("release")
    if not account:
        return f"{_n(left)} went on to this stage."
    reasons = account.get("reasons") or {}
    why = ", ".join(f"{_n(n)} `{r}`" for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])))
    text = (f"{_n(left)} were left by it; the release rules then dropped "
            f"{_n(account.get('rejected', 0))}" + (f" ({why})" if why else ""))
    b = balance_account(stats)
    if b.get("rejected"):
        text += (f"; of the {_n(b.get('in', 0))} they kept, the drop sampler then dropped "
                 f"{_n(b['rejected'])} for balance although the adversary did not answer "
                 "them (`dropped_for_balance`: the share of answers that are the passage's "
                 "most frequent entity back in its window)")
    return text + f", and {_n((b or account).get('out', 0))} went on to this stage."


def card_lines(stats: dict) -> list:
    sentence = filter_sentence(stats)
    return [sentence, ""] if sentence else []
