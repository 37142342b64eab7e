"""The dataset card's human-performance section, from stats.json `human_performance`
(human_performance.py): people beside the hardness report's baselines, the human
filtering figures beside ReCoRD's, and the model-in-the-loop count."""
from models.baseline_catalog import REPORT, label
from transforms.finalize.report.human_performance import NOT_MEASURED, OVERALL, SPLITS

NAMES = {name: label(name) for name in REPORT}


def _ci(d: dict, key: str) -> str:
    if not d or d.get(key) is None:
        return "-"
    lo, hi = d.get(key + "_ci") or (None, None)
    return f"{d[key]:.1f} [{lo:.1f}, {hi:.1f}]" if lo is not None else f"{d[key]:.1f}"


def _share(d: dict) -> str:
    return f"{d['share']:.2f} ({d['queries']:,} of {d['n']:,})" if d and d.get("n") else "-"


def _protocol(h: dict) -> str:
    v = h["protocol"].get("verdict_answers")
    decided = (f"after the {v} answer{'s' if v != 1 else ''} that decided its verdict"
               if v else "after the answers that decided its verdict (none was held out: "
               "ingest ran with --verdict_answers 0)")
    return ("Measured from the human-validation answers as ReCoRD measured its 91.3 EM / "
            "91.7 F1 (paper section 5.2). **Which answers count**: one answer per released "
            "query, its first held-out answer: the first answer, by submission time, of a "
            f"worker who was not blocked, {decided}; blocked workers' answers and repeated "
            "answers never count, and a query without a held-out answer is not scored (n "
            "says how many are). It is scored against the query's generated answers with the "
            "official ReCoRD metric (x100). **Dropped queries**: queries human filtering "
            "dropped (verdict none) are not released and not scored, as in ReCoRD; dev and "
            "test hold only queries whose deciding answers were all right, a query valid only "
            "for train is released and scored in train; queries a worker ticked \"not "
            "obvious\" stay when their verdict passed and are scored like the others. "
            "95% CIs: percentile bootstrap over "
            f"queries ({h['protocol']['bootstrap_resamples']:,} resamples). "
            f"{h['workers']:,} workers gave {h['answers']:,} counted answers.")


def _people_rows(h: dict, stats: dict) -> list:
    rows = []
    hardness = (stats.get("hardness") or {}).get("baselines", {})
    for split in SPLITS:
        r = h["splits"][split]["released"]
        if r["queries"] == 0:
            continue
        if r["n"]:
            rows.append(f"| **Human performance** | {split} | {_ci(r, 'exact_match')} | "
                        f"{_ci(r, 'f1')} | {r['n']:,} of {r['queries']:,} | {r['workers']:,} |")
            for name, label in (("most_frequent", NAMES["most_frequent"]),
                                ("random", "random entity (expected)")):
                s = r["same_queries"][name]
                rows.append(f"| {label}, same queries | {split} | {_ci(s, 'exact_match')} | "
                            f"{_ci(s, 'f1')} | {s['n']:,} | - |")
        else:
            rows.append(f"| **Human performance** | {split} | not measured: no held-out "
                        f"answer | - | 0 of {r['queries']:,} | - |")
        for name, label in NAMES.items():
            cell = (hardness.get(name, {}).get(split) or {}).get("released")
            if cell and cell.get("n"):
                rows.append(f"| {label}, all released | {split} | {cell['exact_match']:.1f} | "
                            f"{cell['f1']:.1f} | {cell['n']:,} | - |")
        if split in h["record"]["human"]:
            em, f1 = h["record"]["human"][split]
            rows.append(f"| ReCoRD human (Table 4) | {split} | {em} | {f1} | 10,000 | - |")
    return rows


def _filtering_rows(h: dict) -> list:
    rows = []
    for split in SPLITS + (OVERALL,):
        f = h["splits"][split]
        v, a = f["validated"], f["agreement"]
        if not v["n"]:
            continue
        agree = (f"{a['share']:.2f} [{a['ci'][0]:.2f}, {a['ci'][1]:.2f}] ({a['pairs']:,} "
                 "pairs)" if a["share"] is not None else "-")
        rows.append(f"| {split} | {v['n']:,} | {v['workers']:,} | {_ci(v, 'exact_match')} / "
                    f"{_ci(v, 'f1')} | {agree} | {_share(f['could_not_answer'])} | "
                    f"{_share(f['answered_differently'])} | {_share(f['dropped'])} |")
    rec = h["record"]
    rows.append(f"| ReCoRD | 244k | {rec['workers']} | about "
                f"{100 * rec['first_answer_correct']:.0f} (122k of 244k right) | not reported "
                f"| not reported | {rec['dev_test_dropped']:.2f} of dev/test (2k of 22k not "
                f"right twice) | {1 - rec['first_answer_correct']:.2f} after one answer |")
    return rows


def _loop_lines(h: dict) -> list:
    m = h["model_in_the_loop"]
    if not m["judgements"]:
        return ["Model in the loop: not used (`serve --show_model_answer` was off, or nobody "
                "judged a model's answer).", ""]
    per = ", ".join(f"{s} {d['needs_more']:,} of {d['queries_judged']:,}"
                    for s, d in m["released"].items() if d["queries_judged"])
    return [f"Model in the loop (`serve --show_model_answer`): after their own answer was "
            f"stored, workers saw the adversary's answer {m['judgements']:,} times and judged "
            f"{m['needs_more']:,} of {m['queries_judged']:,} queries to need more than the "
            "model used (more than half of a query's judgements said so)"
            + (f"; released: {per}." if per else "."), ""]


def human_lines(stats: dict) -> list:
    """Markdown lines of the section ("no human performance measured" without answers)."""
    h = stats.get("human_performance")
    lines = ["## Human performance", ""]
    if not h or not h.get("measured"):
        reason = (h or {}).get("reason") or NOT_MEASURED + "."
        return lines + [reason[0].upper() + reason[1:].rstrip(".") + ".", ""]
    lines += [_protocol(h), "",
              "| reader | split | EM [95% CI] | F1 [95% CI] | n | workers |",
              "|---|---|---:|---:|---:|---:|"] + _people_rows(h, stats)
    lines += ["", "### Human filtering (before release)", "",
              "Every answered query, its first counted answer, by the split of its article "
              "(`overall` also holds queries of articles with nothing released). Agreement: "
              "the share of pairs of answers to one query that chose the same entity. Could "
              "not answer: a worker ticked \"not obvious\". Answered differently: an answer "
              "that decided the verdict is not a generated answer. Dropped: verdict none.",
              "", "| split | answered | workers | EM / F1 [95% CI] | agreement [95% CI] | "
              "could not answer | answered differently | dropped |",
              "|---|---:|---:|---|---|---|---|---|"] + _filtering_rows(h)
    return lines + [""] + _loop_lines(h)
