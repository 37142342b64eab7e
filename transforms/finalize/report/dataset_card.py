"""The dataset card (README.md) and its histograms."""
import io
import json

from transforms.finalize.exports import fingerprint, hub
from transforms.finalize.report import filter_card
from transforms.finalize.report.hardness_card import hardness_lines
from transforms.finalize.report.human_card import human_lines
from transforms.finalize.report.item_quality import item_quality_lines
from transforms.finalize.report.near_dup_card import near_dup_lines
from transforms.finalize.splits import split_warnings

HISTOGRAMS = (  # (file, distribution key, x label)
    ("passage_length.png", "passage_tokens", "tokens per passage"),
    ("query_length.png", "query_tokens", "tokens per query"),
    ("entities_per_passage.png", "entities", "entity mentions per passage"),
)
_ROW_NAMES = {
    "queries": "queries", "unique_passages": "unique passages", "passage_vocab": "passage vocab.",
    "query_vocab": "query vocab.", "tokens_per_passage": "tokens/passage",
    "entities_per_passage": "entities/passage", "tokens_per_query": "tokens/query",
}


def histogram_png(distributions: dict, key: str, xlabel: str) -> bytes:
    """One PNG overlaying the splits' histograms of `key`, from {split: {key: {value:
    count}}} (the counts weigh each distinct value, so no list of lengths is needed)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    values = sorted({v for d in distributions.values() for v in d[key]})
    bins = min(40, max(1, len(values))) if values else 1
    for split, dist in distributions.items():
        counts = dist[key]
        if counts:
            xs = sorted(counts)
            weights = [counts[x] for x in xs]
            ax.hist(xs, weights=weights, bins=bins, range=(values[0], values[-1] + 1),
                    histtype="step", linewidth=1.5, label=f"{split} (n={sum(weights)})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    if values:
        ax.legend()
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _flatten(d, prefix=""):
    for k in sorted(d):
        v = d[k]
        if isinstance(v, dict):
            yield from _flatten(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


def _fmt(v):
    if isinstance(v, float):
        return f"{v:,.1f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return json.dumps(v) if not isinstance(v, str) else v


def header_lines(stats: dict, shard_files: dict) -> list:
    return hub.card_yaml(stats) + [
        "",
        f"# {hub.card_settings(stats)['pretty_name']}",
        "",
        "Passages are the first part of a news article followed by its highlights; each "
        "query is a later sentence of the article with one entity replaced by `@placeholder`, "
        "and the answers are every passage mention of that entity (Zhang et al., 2018).",
        "",
    ]


def table1_lines(stats: dict, shard_files: dict) -> list:
    table = stats["table1"]
    columns = ["train", "dev", "test", "overall"]
    lines = ["## Statistics (ReCoRD Table 1)", "",
             "| | " + " | ".join(columns) + " |",
             "|---|" + "---:|" * len(columns)]
    for key, name in _ROW_NAMES.items():
        lines.append(f"| {name} | " + " | ".join(_fmt(table[c][key]) for c in columns) + " |")
    return lines + ["", "Tokens are spaCy's English tokenizer's non-space tokens; "
                    "vocabularies are case-sensitive token types; entities/passage counts "
                    "mentions.", ""]


def distribution_lines(stats: dict, shard_files: dict) -> list:
    lines = ["## Distributions", ""]
    for file, _, label in HISTOGRAMS:
        lines.append(f"![{label}]({file})")
    return lines + [""]


def split_policy_lines(stats: dict, shard_files: dict) -> list:
    lines = ["## Split policy", "",
             "Articles sharing an exact passage text or URL are grouped; every group lands in "
             "exactly one split, chosen by a salted stable hash of its smallest article id; "
             "with an origin ratio or size caps, dev and test keep, in a second hash order, "
             "the groups that fit (the others go to train where their origins allow).", "",
             "| setting | value |", "|---|---|"]
    for k, v in _flatten(stats["config"]["split"]):
        lines.append(f"| {k} | {_fmt(v)} |")
    return lines + [""]


def funnel_lines(stats: dict, shard_files: dict) -> list:
    lines = ["## Funnel", "", "One chain from the files read to the released queries: each "
             "step's `in` is the previous step's `out` (a step marked * changes the unit "
             "counted). Gaps: " + ("; ".join(stats["funnel"]["gaps"]) or "none") + ".", "",
             "| job | step | unit | in | out | rejected | top 3 reasons |",
             "|---|---|---|---:|---:|---:|---|"]
    for step, a in stats["funnel"]["stages"].items():
        top = list(a.get("reasons", {}).items())[:3]
        mark = "*" if a.get("expand") else ""
        lines.append(f"| {a.get('job', '')} | {step}{mark} | {a.get('unit', '')} | "
                     f"{_fmt(a['in'])} | {_fmt(a['out'])} | {_fmt(a['rejected'])} | "
                     + ", ".join(f"{k} {_fmt(v)}" for k, v in top) + " |")
    adversary = stats.get("adversary")
    if isinstance(adversary, dict) and adversary.get("heldout_accuracy") is not None:
        lines += ["", f"Adversary: {adversary.get('folds')}-fold `{adversary.get('model')}` "
                  f"readers, held-out accuracy {adversary['heldout_accuracy']:.3f} against "
                  f"{adversary.get('random_baseline') or 0:.3f} for a random candidate "
                  f"(on {adversary.get('heldout_n')} queries)."]
    fates = stats.get("articles") or {}
    if fates:
        lines += ["", f"Articles: {_fmt(fates.get('rows', 0))} input articles or records, "
                  f"{_fmt(fates.get('released_articles', 0))} with released queries; "
                  "`articles/*.parquet` says where each other one stopped."]
    return lines + [""] + fingerprint.card_lines() + [""]


def files_lines(stats: dict, shard_files: dict) -> list:
    hidden = hidden_test(stats)
    return [
        "## Files", "",
        "- Parquet shards, one row per query (`entities`/`answers` `end` exclusive"
        + ("; the test shards' `answers` are empty: a hidden test set" if hidden else "")
        + "): " + ", ".join(f"`{f}`" for split in ("train", "dev", "test")
                            for f in shard_files.get(split, [])),
        "- `record/{train,dev,test}.json`: official ReCoRD JSON (`end` inclusive"
        + ("; `test.json` without answers" if hidden else "") + ")",
        "- `superglue/{train,val,test}.jsonl`: SuperGLUE ReCoRD layout (`end` inclusive; "
        "the test file carries no answers)",
        "- `stats.json`: the table above, the hardness report, the split policy and the "
        "funnel",
        "- `rejected/*.parquet`: queries dropped at this stage, with their step and reason",
        "- `articles/*.parquet`: one row per input article or record: where it stopped "
        "contributing (stage, reason), or its released queries and split; `source_file` is "
        "relative to the folder the input files share",
        "- `_MANIFEST.json`: every file's size, Parquet row count and sha256 "
        "(`python -m beam_pipelines.validate DIR` recomputes them)", ""]


def loading_lines(stats: dict, shard_files: dict) -> list:
    return (["## Loading", "", "```python",
             "from datasets import load_dataset",
             "ds = load_dataset(\"DIR/dataset\")   # or the hub repo id: train, validation, test",
             "```", "", "The splits' names in each layout:", ""]
            + hub.split_names_lines() + [""])


def evaluation_lines(stats: dict, shard_files: dict) -> list:
    lines = ["## Evaluation", "",
             "`python -m beam_pipelines.evaluate --data record/dev.json --predictions PREDS.json` "
             "computes the official ReCoRD exact match and F1 (x100); `--baseline NAME` scores "
             "a baseline under the name the hardness tables use."]
    if hidden_test(stats):
        lines += ["", "The test answers are not published: the maintainers score test "
                  "predictions against their private answer file (`evaluate --data "
                  "PRIVATE/test.json --predictions PREDS.json`)."]
    return lines + [""]


def _only_stats(fn):
    return lambda stats, shard_files: fn(stats)


def hidden_test(stats: dict) -> bool:
    return bool(((stats.get("config") or {}).get("settings") or {}).get("hide_test_answers"))


#: The card, in order: each section is `fn(stats, shard_files) -> lines` (empty: left
#: out). A new section is one function added here.
SECTIONS = [
    header_lines,
    _only_stats(filter_card.card_lines),
    _only_stats(split_warnings.card_lines),
    table1_lines,
    _only_stats(hardness_lines),
    _only_stats(human_lines),
    _only_stats(item_quality_lines),
    distribution_lines,
    split_policy_lines,
    _only_stats(near_dup_lines),
    funnel_lines,
    files_lines,
    loading_lines,
    evaluation_lines,
    _only_stats(hub.citation_lines),
]


def render_card(stats: dict, shard_files: dict) -> str:
    """Markdown of the card. `stats` is stats.json; `shard_files` maps split to file names."""
    lines = []
    for section in SECTIONS:
        lines += section(stats, shard_files)
    return "\n".join(lines)
