"""The dataset card's hardness section, from stats.json `hardness`."""

NAMES = {
    "most_frequent": "most frequent entity (no training)",
    "query_only": "query only (query + entity list; trained on train)",
    "passage_only": "passage only (passage, no query; trained on train)",
    "reader": "held-out reader (frozen MiniLM similarity; never used by the filter)",
}
SPLITS = ("train", "dev", "test")
SECTIONS = (("candidates", "candidates"), ("dropped", "dropped by the filter"),
            ("released", "released"))


def _cell(d) -> str:
    if not d or not d.get("n"):
        return "-"
    return f"{d['exact_match']:.1f} / {d['f1']:.1f} (n={d['n']:,})"


def _share(d) -> str:
    return f"{d['share']:.2f} (n={d['n']:,})" if d and d.get("n") else "-"


def hardness_lines(stats: dict) -> list:
    """Markdown lines of the hardness section (empty when stats has no report)."""
    h = stats.get("hardness")
    if not h:
        return []
    lines = ["## Hardness", "",
             "ReCoRD EM / F1 (x100, the official metric) of shortcuts and of a reader the "
             "adversarial filter never used, on every candidate query of a split's articles, "
             "on those the filter dropped, and on the released queries. The trained "
             "baselines learn on released train, so they and the reader are scored on dev and "
             "test. A random candidate scores about 1 / (candidates per query).", "",
             "| baseline | split | " + " | ".join(n for _, n in SECTIONS) + " |",
             "|---|---|" + "---:|" * len(SECTIONS)]
    for name, label in NAMES.items():
        per = h.get("baselines", {}).get(name, {})
        for split in SPLITS:
            if split in per:
                lines.append(f"| {label} | {split} | "
                             + " | ".join(_cell(per[split].get(k)) for k, _ in SECTIONS) + " |")
    shares = h.get("most_frequent_share", {})
    lines += ["", "Share of answers that are the passage's most frequent entity (entity "
              "texts joined into clusters when one's words are all in the other's; ReCoRD "
              f"dev: about {h['record']['most_frequent_share']}):", "",
              "| split | " + " | ".join(n for _, n in SECTIONS) + " |",
              "|---|" + "---:|" * len(SECTIONS)]
    for split in SPLITS + ("overall",):
        if split in shares:
            lines.append(f"| {split} | " + " | ".join(_share(shares[split].get(k))
                                                      for k, _ in SECTIONS) + " |")
    ref, sample = h["record"], h["record"]["sample"]
    lines += ["", "| released passages | entities/passage | entity clusters/passage |",
              "|---|---:|---:|"]
    for split in SPLITS:
        p = h.get("passages", {}).get(split)
        if p:
            lines.append(f"| {split} ({p['passages']:,}) | {p['entities_per_passage']:.1f} | "
                         f"{p['clusters_per_passage']:.1f} |")
    lines += [f"| ReCoRD | {ref['entities_per_passage']} | {ref['clusters_per_passage']} |",
              f"| ReCoRD sample ({sample['passages']} real passages) | "
              f"{sample['entities_per_passage']} | {sample['clusters_per_passage']} |", "",
              f"ReCoRD: entities/passage from {ref['entities_per_passage_source']}; clusters "
              f"from {ref['clusters_per_passage_source']}; the sample row is measured the "
              f"same way as this dataset on {sample['source']} (most-frequent share "
              f"{sample['most_frequent_share']} on its {sample['queries']} queries).", ""]
    return lines
