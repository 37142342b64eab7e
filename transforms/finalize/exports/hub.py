"""Hugging Face conventions of the release: the dataset card's YAML metadata, the split
names each layout uses, and the citation section.

The pipeline's own split names are `train`, `dev`, `test` (the Parquet files, the `split`
column, `record/<split>.json` as ReCoRD's release names them). The hub and `datasets` call
the middle one `validation` (the card's `configs` map `dev-*.parquet` to it); SuperGLUE's
files call it `val` (exports.SUPERGLUE_SPLIT). docs/dataset-contract.md has the table.
"""
import hashlib
import json

HUB_SPLIT = {"train": "train", "dev": "validation", "test": "test"}
RECORD_BIBTEX = """@article{zhang2018record,
  title   = {{ReCoRD}: Bridging the Gap between Human and Machine Commonsense Reading Comprehension},
  author  = {Zhang, Sheng and Liu, Xiaodong and Liu, Jingjing and Gao, Jianfeng and Duh, Kevin and Van Durme, Benjamin},
  journal = {arXiv preprint arXiv:1810.12885},
  year    = {2018}
}"""
DEFAULT_PRETTY_NAME = "ReCoRD-style cloze reading comprehension"
# (upper bound, hub size category), the hub's own bins
_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
          (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"),
          (1_000_000_000, "100M<n<1B"))


def size_category(n: int) -> str:
    for bound, name in _SIZES:
        if n < bound:
            return name
    return "n>1B"


def card_settings(stats: dict) -> dict:
    """The card's settings (license, pretty_name, source_datasets) as the stage recorded
    them in stats.json, with their defaults where an older stats.json lacks them."""
    settings = (stats.get("config") or {}).get("settings") or {}
    sources = settings.get("source_datasets") or "original"
    return {"license": settings.get("license") or "unknown",
            "pretty_name": settings.get("pretty_name") or DEFAULT_PRETTY_NAME,
            "source_datasets": [s.strip() for s in sources.split(",") if s.strip()]}


def card_metadata(stats: dict) -> dict:
    """The YAML block's fields, in the order the hub's card template lists them."""
    card = card_settings(stats)
    validated = bool((stats.get("config") or {}).get("validated"))
    queries = stats["table1"]["overall"]["queries"]
    return {
        "license": card["license"],
        "pretty_name": card["pretty_name"],
        "language": ["en"],
        "multilinguality": ["monolingual"],
        "annotations_creators": ["machine-generated"] + (["crowdsourced"] if validated else []),
        "language_creators": ["found"],
        "task_categories": ["question-answering"],
        "task_ids": ["extractive-qa"],
        "size_categories": [size_category(queries)],
        "source_datasets": card["source_datasets"],
        "tags": ["cloze", "commonsense-reasoning", "record"],
        "configs": [{"config_name": "default", "default": True, "data_files": [
            {"split": HUB_SPLIT[s], "path": f"{s}-*.parquet"} for s in HUB_SPLIT]}],
    }


def card_yaml(stats: dict) -> list:
    """The card's opening `---` block, as lines."""
    import yaml
    text = yaml.safe_dump(card_metadata(stats), sort_keys=False, default_flow_style=False,
                          allow_unicode=False, width=1000)
    return ["---", text.rstrip("\n"), "---"]


def parse_card_yaml(text: str) -> dict:
    """The YAML block a card opens with; raises ValueError with one line when there is
    none or it does not parse."""
    import yaml
    if not text.startswith("---\n"):
        raise ValueError("README.md does not open with a YAML block (---)")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise ValueError("README.md's YAML block has no closing ---")
    try:
        meta = yaml.safe_load(text[4:end])
    except yaml.YAMLError as err:
        raise ValueError(f"README.md's YAML block does not parse: {err}".splitlines()[0]) \
            from None
    if not isinstance(meta, dict):
        raise ValueError("README.md's YAML block is not a mapping")
    return meta


def release_key(stats: dict) -> str:
    """A citation key fixed by what was released: the split policy and the counts (no date
    or path: same input, same bytes; layout settings such as the shard count leave it)."""
    blob = json.dumps({"split": (stats.get("config") or {}).get("split"),
                       "summary": stats.get("summary"), "table1": stats.get("table1")},
                      sort_keys=True, default=str)
    return "record_builder_" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:10]


def citation_lines(stats: dict) -> list:
    """The card's citation section: this release's own entry, then ReCoRD's."""
    card, summary = card_settings(stats), stats.get("summary") or {}
    queries = sum(summary.get(f"{s}_queries", 0) for s in HUB_SPLIT)
    own = ("@misc{%s,\n  title = {%s},\n  note  = {A ReCoRD-style cloze reading-comprehension "
           "dataset (%d queries over %d passages) built with record-builder following "
           "Zhang et al. (2018)}\n}") % (release_key(stats), card["pretty_name"], queries,
                                        summary.get("passages", 0))
    return ["## Citation", "",
            "If you use this dataset, cite it and the ReCoRD paper whose construction it "
            "follows:", "", "```bibtex", own, "", RECORD_BIBTEX, "```", ""]


def split_names_lines() -> list:
    """The card's table of what each layout calls the splits."""
    from transforms.finalize.exports.layouts import SUPERGLUE_SPLIT
    lines = ["| split | Parquet files and `split` column | `datasets` / hub | "
             "`record/` (ReCoRD JSON) | `superglue/` |", "|---|---|---|---|---|"]
    for s in HUB_SPLIT:
        lines.append(f"| {s} | `{s}-*.parquet` | `{HUB_SPLIT[s]}` | `{s}.json` | "
                     f"`{SUPERGLUE_SPLIT[s]}.jsonl` |")
    return lines
