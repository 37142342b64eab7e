"""The dataset card's hardness section, from stats.json `hardness`: first the shortcut
check out of fold on the whole release (`out_of_fold`, the one the +2-point bar is read
on), then every cell with its n and 95% bootstrap interval, cells under bootstrap.MIN_READABLE_N queries marked too small
to read, each baseline under its one name (models/baseline_catalog.py), and ReCoRD's own
figures measured with the same code (record_reference.py)."""
from models.baseline_catalog import CATALOG, label
from transforms.core.constants import OVERALL, SPLITS

SECTIONS = (("candidates", "candidates"), ("dropped", "dropped by the filter"),
            ("released", "released"))


def _small(d) -> bool:
    return not d.get("readable", True)


def _cell(d) -> str:
    """`EM / F1 [EM interval] n=` of one baseline cell."""
    if not d or not d.get("n"):
        return "-"
    if _small(d):
        return f"too few to read (n={d['n']:,})"
    ci = d.get("exact_match_ci95")
    interval = f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else ""
    return f"{d['exact_match']:.1f} / {d['f1']:.1f}{interval} (n={d['n']:,})"


def _share(d) -> str:
    if not d or not d.get("n"):
        return "-"
    if _small(d):
        return f"too few to read (n={d['n']:,})"
    ci = d.get("share_ci95")
    interval = f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""
    return f"{d['share']:.2f}{interval} (n={d['n']:,})"


def _answered(d) -> str:
    if not d or not d.get("n"):
        return "-"
    return f"{d['answered']:,} of {d['n']:,}" + ("" if _small(d) else f" ({d['share']:.2f})")


def _table(rows: dict, fmt, first: str) -> list:
    lines = [f"| {first} | " + " | ".join(n for _, n in SECTIONS) + " |",
             "|---|" + "---:|" * len(SECTIONS)]
    for split in SPLITS + ("overall",):
        if split in rows:
            lines.append(f"| {split} | " + " | ".join(fmt(rows[split].get(k))
                                                      for k, _ in SECTIONS) + " |")
    return lines




def _overall_name(name: str, split: str) -> str:
    """The overall row holds every split scored: all three for `most_frequent`, dev and
    test for the trained baselines and the reader."""
    if split != OVERALL:
        return split
    return "all splits" if name == "most_frequent" else "dev + test"


def baseline_lines(h: dict) -> list:
    lines = ["| baseline | split | " + " | ".join(n for _, n in SECTIONS) + " |",
             "|---|---|" + "---:|" * len(SECTIONS)]
    for name in CATALOG:
        per = h.get("baselines", {}).get(name, {})
        for split in SPLITS + (OVERALL,):
            if split in per:
                lines.append(f"| {label(name)} | {_overall_name(name, split)} | "
                             + " | ".join(_cell(per[split].get(k)) for k, _ in SECTIONS) + " |")
    lines += ["", "Baselines (each name means one rule wherever it appears: these tables, "
              "`stats.json` and `python -m beam_pipelines.evaluate --baseline most_frequent`, "
              "which predicts exactly as `most_frequent` here):", ""]
    for name in CATALOG:
        if name in h.get("baselines", {}):
            lines.append(f"- **{label(name)}** (`{name}`): {CATALOG[name].definition}.")
    return lines


def _em(d) -> str:
    """`EM [interval]` of an out-of-fold cell (n in its own column)."""
    if not d or not d.get("n") or d.get("exact_match") is None:
        return "-"
    if _small(d):
        return f"too few to read (n={d['n']:,})"
    ci = d.get("exact_match_ci95")
    return f"{d['exact_match']:.1f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")


def _sampled(o: dict) -> str:
    sample = o.get("sample") or {}
    whole = sample.get("released_in_release", o["released"])
    if whole <= o["released"]:
        return ""
    return (f" A sample of articles by hash: {o['released']:,} of the {whole:,} released "
            f"queries (`--hardness_oof_queries` {sample.get('cap', 0):,}).")


def out_of_fold_lines(h: dict) -> list:
    """The primary shortcut check (stats.json `hardness.out_of_fold`, hardness_oof.py):
    each shortcut baseline out of fold on every released query against every candidate of
    the same articles, beside the report's own dev+test (or all-splits) cells."""
    o = h.get("out_of_fold")
    if "out_of_fold" in h and not (o or {}).get("baselines"):
        why = (o or {}).get("reason") or "turned off (`--no-hardness_out_of_fold`)"
        return [f"**Shortcut check, out of fold:** not measured ({why}); the dev + test "
                "cells below are too few queries to read a bar of a few points."]
    if not o:
        return []
    iv, base = o.get("interval") or {}, h.get("baselines", {})
    bar = o.get("bar_points", 2.0)
    lines = [f"**Shortcut check, out of fold (n = {o['released']:,} released, "
             f"{o['candidates']:,} candidates).** Each shortcut baseline is scored on every "
             "released query of every split and on every candidate query of the same "
             f"articles ({o['articles']:,} articles): the trained ones learn in "
             f"{o['folds']} article folds on the released queries of the other folds "
             f"(EM the mean over {o['fold_seeds']} fold seeds, training seed "
             f"{o['train_seed']}); in brackets the {iv.get('level', 95)}% interval from "
             f"resampling articles ({iv.get('replicates', '?')} replicates, seed "
             f"{iv.get('seed', '?')}).{_sampled(o)} Beside it the report's own cells (the next table: dev + "
             "test for the trained baselines, every split for most frequent entity).", "",
             "| baseline | released, out of fold | candidates, out of fold | released - "
             "candidates | report: released | report: candidates |",
             "|---|---:|---:|---:|---:|---:|"]
    over = []
    for name in CATALOG:
        c = o["baselines"].get(name)
        if not c:
            continue
        ci = c.get("difference_ci95")
        diff = "-" if c.get("difference") is None else (
            f"**{c['difference']:+.1f}**" + (f" [{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else ""))
        rel, cand = c["released"], c["candidates"]
        cells = base.get(name, {}).get(OVERALL, {})
        lines.append(f"| {label(name)} | {_em(rel)} (n={rel['n']:,}) | {_em(cand)} "
                     f"(n={cand['n']:,}) | {diff} | {_cell(cells.get('released'))} | "
                     f"{_cell(cells.get('candidates'))} |")
        if not c.get("within_bar"):
            over.append(label(name))
    verdict = (f"every shortcut baseline is at or below its candidates' figure + {bar:g}"
               if not over else f"{over[0]} is above its candidates' figure + {bar:g}"
               if len(over) == 1 else f"{', '.join(over[:-1])} and {over[-1]} are above "
               f"their candidates' figures + {bar:g}")
    small = (base.get("query_only", {}).get(OVERALL, {}).get("released") or {})
    beside = ""
    if small.get("n") and small.get("exact_match_ci95"):
        lo, hi = small["exact_match_ci95"]
        beside = (f" (query only there: n={small['n']:,}, interval +/- "
                  f"{(hi - lo) / 2:.0f} points)")
    lines += ["", f"The bar \"each shortcut baseline on released <= its candidates' figure + "
              f"{bar:g} points\" is read on this out-of-fold difference (n={o['released']:,} "
              f"released queries), not on the report's dev + test cells{beside}: out of fold "
              f"(point estimates), {verdict} points."]
    return lines


def reference_lines(h: dict) -> list:
    """Released passages beside ReCoRD's, and ReCoRD's figures with their sources."""
    ref = h.get("record") or {}
    lines = ["| released passages | entities/passage | entity clusters/passage |",
             "|---|---:|---:|"]
    for split in SPLITS:
        p = h.get("passages", {}).get(split)
        if p:
            lines.append(f"| {split} ({p['passages']:,}) | {p['entities_per_passage']:.1f} | "
                         f"{p['clusters_per_passage']:.1f} |")
    for group in ("dev", "train"):
        r = ref.get(group)
        if r:
            lines.append(f"| ReCoRD {group} sample ({r['passages']:,} real passages) | "
                         f"{r['entities_per_passage']:.1f} | {r['clusters_per_passage']:.1f} |")
    paper = ref.get("paper")
    if paper:
        lines.append(f"| ReCoRD dev, {paper['source']} | {paper['entities_per_passage_dev']} "
                     "| - |")
    rows = [(g, ref[g]) for g in ("dev", "train") if ref.get(g)]
    if rows:
        lines += ["", "ReCoRD measured with this report's code on real ReCoRD files (95% "
                  "interval in brackets):", "",
                  "| ReCoRD sample | queries | most-frequent share | most frequent entity EM "
                  "| first entity EM | random entity EM (expected) |",
                  "|---|---:|---:|---:|---:|---:|"]
        for g, r in rows:
            lines.append(
                f"| {g} | {r['queries']:,} | {r['most_frequent_share']:.2f} "
                f"[{r['most_frequent_share_ci95'][0]:.2f}, {r['most_frequent_share_ci95'][1]:.2f}] "
                f"| {r['most_frequent_em']:.1f} [{r['most_frequent_em_ci95'][0]:.1f}, "
                f"{r['most_frequent_em_ci95'][1]:.1f}] | {r['first_entity_em']:.1f} | "
                f"{r['random_expected_em']:.1f} |")
        lines += ["", "Sources: " + "; ".join(
            f"{s['origin']} ({s['queries']} queries)" for s in ref.get("sources", [])) + "."]
    return lines


def hardness_lines(stats: dict) -> list:
    """Markdown lines of the hardness section (empty when stats has no report)."""
    h = stats.get("hardness")
    if not h:
        return []
    iv = h.get("interval") or {}
    shared = bool((stats.get("filter") or {}).get("restates_passage"))
    reader = ("of a reader whose encoder (frozen MiniLM) the release rule `restates_passage` "
              "also used, so its drop from candidates to release partly measures that rule, "
              if shared else "of a reader the adversarial filter never used, ")
    lines = ["## Hardness", "",
             "ReCoRD EM / F1 (x100, the official metric) of shortcuts and " + reader +
             "on every candidate query of a split's articles, "
             "on those the filter dropped, and on the released queries; in brackets the "
             f"{iv.get('level', 95)}% interval of EM ({iv.get('method', 'bootstrap')}, "
             f"{iv.get('replicates', '?')} replicates, weights seeded by query id); n is the "
             f"number of queries. A cell of fewer than {iv.get('min_readable_n', 30)} queries "
             "is too few to read (its figures stay in `stats.json`). The trained baselines "
             "learn on released train, so they and the reader are scored on dev and test.", ""]
    oof = out_of_fold_lines(h)
    lines += oof + [""] if oof else []
    lines += baseline_lines(h)
    lines += ["", "Share of answers that are the passage's most frequent entity (alias texts "
              "counted together, as `most_frequent` counts them):", ""]
    lines += _table(h.get("most_frequent_share", {}), _share, "split")
    agree = (h.get("passage_only_agrees") or {}).get("overall", {}).get("released")
    if agree and agree.get("n"):
        lines += ["", "The passage-only ranker predicts the most frequent entity's text on a "
                  f"share {_share(agree)} of the released dev and test queries: it learns the "
                  "frequency prior `most_frequent` hard-codes (with highlights, first position "
                  "and type), so on a small split the two can score alike; where they differ "
                  "the table above shows it."]
    if h.get("adversary_answered"):
        lines += ["", "Queries the adversary answered (`adversary_correct`: its prediction, a "
                  "fold reader's or AFLite's, was a gold answer), from `filtered/scored/`:", ""]
        lines += _table(h["adversary_answered"], _answered, "split")
    lines += [""] + reference_lines(h) + [""]
    return lines
