"""stats.json, the histograms and the dataset card, and the checks the stage runs on them.

`stats.json["funnel"]` is ONE chain from the files read to the released queries: the
generate steps (DIR/stats/generate.json), `adversary` (the filter's stats), then
finalize's own `dedupe`, `human_validation`, `split` and `write` (rows in the shards);
each account names its `job`, and `gaps` lists every break (`funnel.chain_gaps`): each
step's `in` must equal the previous step's `out`. The writer runs once, in the pipeline, from small side inputs (the
summed counts, Table 1's figures, the shard and export tallies); `problems` is what the
driver checks before it publishes.
"""
import json

import apache_beam as beam

from transforms.core import io_utils
from transforms.core.accounting import SumCounts
from transforms.core.funnel import Step, chain_gaps, funnel
from transforms.finalize import NAME
from transforms.finalize.exports.files import write_bytes, write_text
from transforms.finalize.report import dataset_card, dataset_stats, item_quality
from transforms.finalize.splits.rules import SPLITS

STEPS = (Step("dedupe", "query"), Step("human_validation", "query"), Step("split", "query"),
         Step("write", "query"))
GENERATE_STATS = "stats/generate.json"
FILTER_STATS = "stats/adversarial_filter.json"
TRAIN_STATS = "adversary/stats/train_folds.json"


def upstream_files(run_dir: str, filtered: str) -> dict:
    return {"generate": io_utils.join(run_dir, GENERATE_STATS),
            "adversarial_filter": io_utils.join(filtered, FILTER_STATS)}


def chain(upstream: dict, own: dict) -> dict:
    """{step: account with its job} in pipeline order: upstream jobs' stages, then ours.
    A step name two jobs share is written `job.step` for the later one."""
    out = {}
    for job, accounts in list(upstream.items()) + [(NAME, own)]:
        for step, a in accounts.items():
            name = step if step not in out else f"{job}.{step}"
            out[name] = dict(a, job=job)
    return out


def fate_summary(flat: dict) -> dict:
    """The `articles.*` counts: rows, candidates, kept, released, where the others stopped."""
    out = {k.split(".", 1)[1]: v for k, v in flat.items() if k.startswith("articles.")}
    stopped = {k.split(":", 1)[1]: out.pop(k) for k in list(out) if k.startswith("stopped:")}
    out["stopped"] = dict(sorted(stopped.items(), key=lambda kv: (-kv[1], kv[0])))
    return out


# what differs between two runs of the same data (times, memory, where it ran): left out
# of the release so that stats.json and the card are the same bytes for the same input
RUN_DETAILS = frozenset(("candidates", "output", "elapsed_s", "seconds", "rss_mb_at_start",
                         "rss_mb_peak", "started", "finished_at"))


def without_run_details(summary):
    """`summary` (train_folds' stats) without RUN_DETAILS at any depth; the full file stays
    in DIR/adversary/stats/."""
    if isinstance(summary, dict):
        return {k: without_run_details(v) for k, v in summary.items() if k not in RUN_DETAILS}
    if isinstance(summary, list):
        return [without_run_details(v) for v in summary]
    return summary


def build_stats(flat, figures, shards, exported, upstream, meta, hardness=None) -> dict:
    """(the stats.json dict, the histogram counts, {split: shard file names}); see the
    module docstring and docs/finalize.md for the layout."""
    own = funnel(flat, STEPS)
    accounts = chain({job: d.get("stages", {}) for job, d in upstream.items()
                      if job != "train_folds"}, own)
    table = dataset_stats.table1(figures)
    dist = dataset_stats.distributions(figures)
    shard_files = {s: sorted(name for split, name, _ in shards if split == s) for s in SPLITS}
    return {
        "summary": dict({f"{s}_queries": table[s]["queries"] for s in SPLITS},
                        passages=table["overall"]["unique_passages"],
                        rejected=sum(own[step.name]["rejected"] for step in STEPS)),
        "table1": table,
        "distributions": {s: {k: dataset_stats.summarize_counts(v) for k, v in d.items()}
                          for s, d in dist.items()},
        "config": meta,
        "funnel": {"stages": accounts, "gaps": chain_gaps(accounts)},
        "articles": fate_summary(flat),
        "adversary": without_run_details(upstream.get("train_folds")),
        "filter": {k: (upstream.get("adversarial_filter") or {}).get(k)
                   for k in ("adversary", "balance", "restates_passage")},
        "shards": {s: {"files": shard_files[s],
                       "rows": sum(n for split, _, n in shards if split == s)} for s in SPLITS},
        "exports": {s: dict(zip(("passages", "queries"), dict(exported).get(s, (0, 0))))
                    for s in SPLITS},
        "hardness": hardness,
        "item_quality": item_quality.section(flat),
    }, dist, shard_files


def filter_rejected_problems(stages: dict, fates: dict) -> list:
    """The filter's rejected rows the fates joined (`articles.filter_rejected`, counted when
    DIR/filtered/rejected has rows) must be the rejections of the filter's funnel."""
    joined = fates.get("filter_rejected")
    want = sum(a["rejected"] for a in stages.values() if a.get("job") == "adversarial_filter")
    if joined is None or joined == want:
        return []
    return [f"article fates: {joined} rejected rows of DIR/filtered/rejected name an article, "
            f"the filter's funnel rejected {want} (is DIR/filtered/rejected stale?)"]


def problems(stats: dict, kept_rows: int, partial_validation: bool, group_rounds: int) -> list:
    """Why the stage must not publish this output (empty: it may)."""
    out = list(stats["funnel"]["gaps"])
    stages = stats["funnel"]["stages"]
    if stages["dedupe"]["in"] != kept_rows:
        out.append(f"dedupe: in {stages['dedupe']['in']} != {kept_rows} rows in the kept "
                   "queries' manifest")
    hv = stages["human_validation"]
    missing = hv["reasons"].get("not_human_validated", 0)
    if missing and not partial_validation:
        out.append(f"human validation covers {hv['in'] - missing} of the {hv['in']} kept "
                   f"queries ({missing} have no verdict): pass --partial_validation to "
                   "release only the validated ones")
    for key in ("invalid_verdicts", "conflicting_verdicts"):
        if hv.get(key):
            out.append(f"human validation: {hv[key]} {key.replace('_', ' ')} (valid_for must "
                       "be one of train, dev_test, none, one value per query id)")
    if stages["split"].get("unsettled"):
        out.append(f"article groups: {stages['split']['unsettled']} article(s) still changed "
                   f"group in round {group_rounds}: groups of articles sharing passage texts "
                   "or URLs are deeper than --group_rounds allows (raise it)")
    released = stages["write"]["out"]
    fates = stats["articles"]
    if fates.get("kept_without_fate"):
        out.append(f"article fates: {fates['kept_without_fate']} kept queries belong to "
                   "articles generate gave no candidates for (DIR/articles is stale)")
    from transforms.finalize.report.fates import FILTER_STEPS
    filtered = next((stages[s] for s in reversed(FILTER_STEPS) if s in stages), None)
    for key, want in (("kept", filtered["out"] if filtered else None),
                      ("released", released)):
        if want is not None and fates.get(key, 0) != want:
            out.append(f"article fates: {key} queries add up to {fates.get(key, 0)}, "
                       f"the funnel says {want}")
    out += filter_rejected_problems(stages, fates)
    for s in SPLITS:
        n = stats["table1"][s]["queries"]
        for what, got in (("shards", stats["shards"][s]["rows"]),
                          ("exports", stats["exports"][s]["queries"])):
            if got != n:
                out.append(f"{s}: {what} hold {got} queries, Table 1 counts {n}")
    if stats["table1"]["overall"]["queries"] != released:
        out.append(f"Table 1 counts {stats['table1']['overall']['queries']} queries, the "
                   f"shards hold {released}")
    return out


def empty_split_warning(stats: dict, split: str, split_config) -> str:
    """The warning for a split that released no query, naming its cause: after a partial
    human-validation ingest it is the unvalidated queries (dev and test take only queries
    validated for dev/test), not the split policy."""
    stages = stats["funnel"]["stages"]
    hv = stages.get("human_validation", {})
    reasons = hv.get("reasons", {})
    missing, failed = reasons.get("not_human_validated", 0), reasons.get("failed_human_validation", 0)
    dev_test, train_only = hv.get("valid_for_dev_test", 0), hv.get("valid_for_train", 0)
    validated = (stats.get("config") or {}).get("validated")
    if validated and split != "train" and (missing or not dev_test):
        return (f"finalize: {split} is empty because human validation covers too few "
                f"queries, not because of the split policy: of {hv.get('in', 0)} kept queries "
                f"{missing} have no verdict (not released), {failed} failed, {train_only} are "
                f"valid only for train and {dev_test} for dev/test; dev and test take only "
                "queries two workers answered correctly (valid_for dev_test): ingest more "
                "verdicts (human_validation ingest) and rerun finalize")
    split_reasons = stages.get("split", {}).get("reasons", {})
    top = ", ".join(f"{k} {v}" for k, v in list(split_reasons.items())[:3])
    return (f"finalize: {split} is empty; check the split policy against the input's origins "
            f"and size ({split_config})" + (f"; the split step rejected: {top}" if top else ""))


def read_upstream(run_dir: str, filtered: str) -> dict:
    """{job: stats dict} of generate and the adversarial filter (and train_folds when its
    summary exists); raises FileNotFoundError naming a missing file."""
    out = {}
    for job, path in upstream_files(run_dir, filtered).items():
        if not io_utils.glob(path):
            raise FileNotFoundError(f"{path} is missing: finalize chains the funnel of "
                                    f"{job} (rerun {job})")
        out[job] = io_utils.read_json(path)
    train = io_utils.join(run_dir, TRAIN_STATS)
    if io_utils.glob(train):
        out["train_folds"] = io_utils.read_json(train)
    return out


def write_outputs(out_dir: str, stats: dict, dist: dict, shard_files: dict) -> None:
    write_text(io_utils.join(out_dir, "stats.json"), json.dumps(stats, indent=2) + "\n")
    for file, key, label in dataset_card.HISTOGRAMS:
        write_bytes(io_utils.join(out_dir, file), dataset_card.histogram_png(dist, key, label))
    write_text(io_utils.join(out_dir, "README.md"), dataset_card.render_card(stats, shard_files))


class WriteReport(beam.PTransform):
    """Counts, Table 1 figures, shard and export tallies -> stats.json, PNGs, README.md.
    Upstream stats are read when it runs (not when the graph is built)."""

    def __init__(self, out_dir: str, run_dir: str, filtered: str, meta: dict):
        super().__init__()
        self.out_dir, self.run_dir, self.filtered, self.meta = out_dir, run_dir, filtered, meta

    def expand(self, inputs):
        counts, figures, shards, exported = inputs[:4]
        hardness = inputs[4] if len(inputs) > 4 else None    # the hardness report
        out_dir, run_dir, filtered, meta = self.out_dir, self.run_dir, self.filtered, self.meta

        def write(_, flat, figures, shards, exported, hard=None):
            upstream = read_upstream(run_dir, filtered)
            stats, dist, shard_files = build_stats(flat, figures, shards, exported, upstream,
                                                   meta, hard)
            write_outputs(out_dir, stats, dist, shard_files)
            return stats["summary"]

        summed = counts | "SumCounts" >> beam.CombineGlobally(SumCounts())
        return (counts.pipeline
                | "Once" >> beam.Create([None])
                | "WriteStatsAndCard" >> beam.Map(
                    write, beam.pvalue.AsSingleton(summed), beam.pvalue.AsSingleton(figures),
                    beam.pvalue.AsList(shards), beam.pvalue.AsList(exported),
                    *([beam.pvalue.AsSingleton(hardness)] if hardness is not None else [])))
