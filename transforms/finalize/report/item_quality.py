"""Item quality in stats.json and on the dataset card (issue 32).

- the automated flags (`transforms/quality/flags.py`) over every released query, counted
  in the finalize graph per passage (`item_flag_counts`, the `item_flags.*` counts), beside
  real ReCoRD measured with the same code (`RECORD_FLAGS`);
- a person's reading labels, when the run has them (`<run>/audit/labels.json`, written by
  `python -m beam_pipelines.audit RUN --labels FILE`): each class's share of the labelled
  released queries with n and a 95% interval. finalize applies them after its pipeline,
  and the audit applies them to a written release the same way, so the card and
  stats.json are the same bytes either way.
"""
import json

from transforms.core import io_utils
from transforms.quality import flags
from transforms.quality.labels import CLASSES, quality

STEP = "item_flags"
LABELS_FILE = ("audit", "labels.json")
#: the flags over the real ReCoRD samples in ../shared/corpus/record_format (official JSON
#: and SuperGLUE train/val lines; test has no answers), `python -m benchmarks.item_flags`;
#: tests/quality/test_item_quality.py recomputes them.
RECORD_FLAGS = {
    "source": "ReCoRD samples in record_format (allennlp_models_record.json, SuperGLUE "
              "train/val lines), python -m benchmarks.item_flags",
    "queries": 11, "passages": 5,
    "only_entity_of_label": 0, "answer_in_query": 2, "copied_context": 0,
    "incomplete_answers": 1, "sibling": 5, "caption_like": 0, "promotion_line": 1,
}
#: the same flags over 123 real ReCoRD dev queries: the official ReCoRD explorer's examples
#: (github:sheng-z/ReCoRD-explorer `dataset/examples.json`, sha256 06142dd0e3c6...,
#: converted to the official JSON layout; kept outside the repository), measured with
#: `python -m benchmarks.item_flags --record_json FILE`. The explorer shows one query per
#: passage, so its sibling share is not measurable (None).
RECORD_DEV_FLAGS = {
    "source": "the official ReCoRD explorer's 123 dev examples (github:sheng-z/ReCoRD-explorer "
              "dataset/examples.json), python -m benchmarks.item_flags",
    "queries": 123, "passages": 122,
    "only_entity_of_label": 13, "answer_in_query": 16, "copied_context": 0,
    "incomplete_answers": 9, "sibling": None, "caption_like": 0, "promotion_line": 4,
}
FLAG_NAMES = {
    "only_entity_of_label": "the answer is the only passage entity of its label",
    "answer_in_query": "an answer alias is written elsewhere in the query",
    "copied_context": "two or more context words copied next to an answer mention",
    "incomplete_answers": "a passage mention sharing an answer's name words is left out",
    "sibling": "the query's sentence gave another released query",
    "caption_like": "the query reads as a photo caption",
    "promotion_line": "the passage holds a promotion line",
}


def item_flag_counts(released):
    """Released rows -> one count dict per passage (`item_flags.<flag>`: n)."""
    import apache_beam as beam
    return (released
            | "FlagsByPassage" >> beam.Map(lambda r: (r["passage_id"], r))
            | "GroupFlagPassage" >> beam.GroupByKey()
            | "CountFlags" >> beam.Map(
                lambda kv: {f"{STEP}.{k}": v for k, v in flags.flag_counts(kv[1]).items()}))


def section(flat: dict) -> dict:
    """stats.json `item_quality` from the summed counts (labels: none yet)."""
    counts = {k.split(".", 1)[1]: v for k, v in flat.items() if k.startswith(STEP + ".")}
    return {"flags": flags.summarise(counts), "record": RECORD_FLAGS,
            "record_dev": RECORD_DEV_FLAGS, "labels": None}


def _released_ids(dataset: str) -> set:
    from transforms.quality.release_rows import iter_rows
    return {r["id"] for r in iter_rows(dataset, columns=["id"])}


def read_labels(run_dir: str) -> dict:
    """{query id: class} recorded for the run (empty when none)."""
    path = io_utils.join(run_dir, *LABELS_FILE)
    if not io_utils.glob(path):
        return {}
    return dict(io_utils.read_json(path).get("labels", {}))


def apply_labels(dataset: str, labels: dict) -> dict:
    """Put the labelled released queries' quality into `dataset`'s stats.json and card;
    returns stats.json. Labels of ids not in the release are counted, not used."""
    from transforms.finalize.exports.files import write_text
    from transforms.finalize.report.dataset_card import render_card
    stats = io_utils.read_json(io_utils.join(dataset, "stats.json"))
    released = _released_ids(dataset)
    used = {q: c for q, c in labels.items() if q in released}
    section_ = dict(stats.get("item_quality") or {})
    section_["labels"] = dict(quality(used), not_released=len(labels) - len(used)) \
        if labels else None
    stats["item_quality"] = section_
    write_text(io_utils.join(dataset, "stats.json"), json.dumps(stats, indent=2) + "\n")
    shard_files = {s: v["files"] for s, v in stats["shards"].items()}
    write_text(io_utils.join(dataset, "README.md"), render_card(stats, shard_files))
    return stats


def record_labels(dataset: str, run_dir: str, stats: dict) -> dict:
    """finalize's hook: the run's labels (if any) applied to the release it just wrote."""
    labels = read_labels(run_dir)
    return apply_labels(dataset, labels) if labels else stats


def release_sentence(stats: dict) -> str:
    """What the release rules dropped, from the funnel's `release` step."""
    r = stats.get("funnel", {}).get("stages", {}).get("release")
    if not r:
        return ""
    reasons = ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in r["reasons"].items())
    return (f" Before these, the release rules (docs/adversary.md, \"Release rules\") dropped "
            f"{r['rejected']:,} of the {r['in']:,} queries the adversary left"
            + (f" ({reasons})" if reasons else "") + ".")


def _pct(k, n) -> str:
    return f"{100 * k / n:.1f}% ({k:,}/{n:,})" if n else "-"


def item_quality_lines(stats: dict) -> list:
    """The card's "Item quality" section (empty for a stats.json without it)."""
    iq = stats.get("item_quality")
    if not iq:
        return []
    f, rec = iq["flags"], iq["record"]
    dev = iq.get("record_dev")
    n = f["queries"]
    lines = ["## Item quality", "",
             f"Automated flags over all {n:,} released queries (lower bounds on each "
             "defect; `transforms/quality/flags.py`), beside real ReCoRD measured with the "
             "same code" + (f" on {dev['source']} (dev, n = {dev['queries']})" if dev else "")
             + f" and on {rec['source']} (n = {rec['queries']} queries, so its shares are "
             "rough)." + release_sentence(stats), "",
             "| flag | this release | " + ("ReCoRD dev | " if dev else "") + "ReCoRD samples |",
             "|---|---:|" + ("---:|" if dev else "") + "---:|"]
    for key, name in FLAG_NAMES.items():
        cells = [_pct(f[key]["n"], n)]
        if dev:
            cells.append("-" if dev.get(key) is None else _pct(dev[key], dev["queries"]))
        cells.append(_pct(rec[key], rec["queries"]))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    labels = iq.get("labels")
    if labels and labels["n"]:
        m = labels["n"]
        cells = []
        for cls in CLASSES:
            c = labels[cls]
            lo, hi = c["ci95"]
            cells.append(f"| {cls} | {c['n']} | {100 * c['share']:.1f}% | "
                         f"{100 * lo:.1f}-{100 * hi:.1f}% |")
        lines += [f"Read by a person: {m} random released queries labelled with `python -m "
                  "beam_pipelines.audit` (95% Wilson intervals"
                  + ("" if m >= 30 else "; under 30 items: read more before trusting it")
                  + (f"; {labels['not_released']} labelled queries are no longer released "
                     "and not counted" if labels.get("not_released") else "") + ").", "",
                  "| class | n | share | 95% interval |", "|---|---:|---:|---:|"] + cells
    else:
        lines.append("Not yet read by a person: `python -m beam_pipelines.audit RUN --sample "
                     "40 --seed S` draws a sample to read, `--labels FILE` records the labels "
                     "here.")
    return lines + [""]
