"""ReCoRD's own figures for the dataset card, measured with the SAME code as the hardness
report (models.hardness, record_metric, transforms/finalize/report/bootstrap.py) on real ReCoRD
files, and written with their sources to transforms/finalize/report/record_reference.py.

    python -m benchmarks.record_reference [--corpus ../shared/corpus/record_format]
        [--explorer examples.json] [--train_jsonl F]... [--write]

- dev: the official ReCoRD explorer's 123 dev examples (github:sheng-z/ReCoRD-explorer,
  `dataset/examples.json`, read by benchmarks/record_explorer.py) and the corpus' two
  allennlp dev passages (SuperGLUE val.jsonl repeats them);
- train: SuperGLUE ReCoRD train lines: FewGLUE's 32 (github:timoschick/fewglue,
  `FewGLUE/ReCoRD/train.jsonl`), FewGLUE_32dev's 32 others (github:THUDM/P-tuning,
  `FewGLUE_32dev/ReCoRD/dev32.jsonl`) and the corpus sample's `train.jsonl`.

Per group: passages and queries (a passage once, by text), entity mentions and alias
clusters per passage (models.hardness.passage_counts), the most-frequent share, the
`most_frequent` and `first_entity` baselines' EM / F1 and the random baseline's expected EM,
each with its 95% Poisson-bootstrap interval (bootstrap.interval, seeded by query id).
The third-party files stay outside the repository (/work/heldout/card/ here); only the
figures, the files' sha256 and where they came from are written.
"""
import argparse
import hashlib
import json
import pathlib
import pprint
import sys

from benchmarks import record_examples as rx
from benchmarks.record_explorer import read_explorer
from models import hardness as H
from transforms.core.record_metric import exact_match_score, max_over_golds
from transforms.finalize.report import bootstrap

REPO = pathlib.Path(__file__).resolve().parents[1]
OUT = REPO / "transforms" / "finalize" / "record_reference.py"
HELD = pathlib.Path("/work/heldout/card")
# (group, how to read, default path, where it came from)
SOURCES = (
    ("dev", "explorer", HELD / "explorer" / "examples.json",
     "github:sheng-z/ReCoRD-explorer@a029c2efcd18929152dc93a9fbb7d1659a034f23 "
     "dataset/examples.json: the official ReCoRD explorer's 123 dev examples"),
    ("dev", "record_json", "allennlp_models_record.json",
     "../shared/corpus/record_format (allenai/allennlp-models test fixture): 2 dev passages"),
    ("train", "superglue_jsonl", HELD / "fewglue" / "ReCoRD_train.jsonl",
     "github:timoschick/fewglue@f52d9515de38cad663869c9e25b79107cda1d345 "
     "FewGLUE/ReCoRD/train.jsonl: 32 SuperGLUE train lines"),
    ("train", "superglue_jsonl", HELD / "fewglue" / "ReCoRD_dev32_P-tuning.jsonl",
     "github:THUDM/P-tuning@f4225d4d8003868b31ed659dfe9732a351ad42d9 "
     "FewGLUE_32dev/ReCoRD/dev32.jsonl: 32 other SuperGLUE train lines"),
    ("train", "superglue_jsonl", "superglue_jsonl/train.jsonl",
     "../shared/corpus/record_format (huggingface/datasets dummy data): SuperGLUE train lines"),
)
READERS = {"explorer": read_explorer, "record_json": rx.read_record_json,
           "superglue_jsonl": rx.read_superglue_jsonl}
NAMES = ("most_frequent_share", "most_frequent_em", "most_frequent_f1", "first_entity_em",
         "random_expected_em")


def base_row(p: rx.GoldPassage) -> dict:
    return {"passage": p.text, "entities": [{"start": s, "end": e, "text": p.text[s:e],
                                             "label": ""} for s, e in p.entities]}


def query_values(row: dict) -> tuple:
    """(answer is the most frequent entity, most_frequent EM, F1, first_entity EM, random
    expected EM) of one query row, with the report's own functions."""
    golds = sorted(H.answer_texts(row))
    texts = list(dict.fromkeys(e["text"] for e in sorted(row["entities"],
                                                         key=lambda e: e["start"])))
    em, f1 = H.record_scores(H.most_frequent_entity(row), row)
    first = max_over_golds(exact_match_score, texts[0], golds)
    rand = sum(max_over_golds(exact_match_score, t, golds) for t in texts) / len(texts)
    return float(H.answer_is_most_frequent(row)), em, f1, first, rand


def measure(passages: list) -> dict:
    """The figures of one group of passages (one per text)."""
    counts, values = [], {}
    for p in passages:
        base = base_row(p)
        counts.append(H.passage_counts(base))
        for q in p.queries:
            if q.answers:
                row = dict(base, answers=[{"start": s, "end": e, "text": t}
                                          for s, e, t in q.answers])
                values[f"{p.pid}/{q.qid}"] = query_values(row)
    summary = bootstrap.interval(values)
    out = {"passages": len(passages), "queries": summary["n"],
           "entities_per_passage": round(sum(m for m, _ in counts) / len(counts), 1),
           "clusters_per_passage": round(sum(c for _, c in counts) / len(counts), 1)}
    for name, mean, (lo, hi) in zip(NAMES, summary["mean"], summary["ci"]):
        pct = name != "most_frequent_share"
        scale = (lambda x: round(100 * x, 1)) if pct else (lambda x: round(x, 3))
        out[name], out[f"{name}_ci95"] = scale(mean), [scale(lo), scale(hi)]
    return out


def sha256(path) -> str:
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def collect(corpus, overrides: dict) -> tuple:
    """({group: [passages]}, [source records]) from the files that exist."""
    groups, sources, seen = {}, [], set()
    for i, (group, kind, default, origin) in enumerate(SOURCES):
        path = pathlib.Path(overrides.get(i) or (default if pathlib.Path(default).is_absolute()
                                                 else pathlib.Path(corpus) / default))
        if not path.is_file():
            print(f"skipped (not found): {path}", file=sys.stderr)
            continue
        passages = READERS[kind](path)
        new = [p for p in passages if p.text not in seen]
        seen.update(p.text for p in new)
        groups.setdefault(group, []).extend(new)
        sources.append({"group": group, "file": path.name, "origin": origin,
                        "sha256": sha256(path), "passages": len(new),
                        "queries": sum(1 for p in new for q in p.queries if q.answers)})
    return groups, sources


def reference(groups: dict, sources: list) -> dict:
    out = {"method": "measured by benchmarks/record_reference.py with the hardness report's "
                     "code (models.hardness, record_metric, bootstrap: 95% Poisson bootstrap, "
                     f"{bootstrap.REPLICATES} replicates, seeded by query id)",
           "paper": {"entities_per_passage_dev": 17.5,
                     "source": "Zhang et al. 2018, Table 1 (all of ReCoRD dev)"},
           "sources": sources}
    for group in ("dev", "train"):
        if groups.get(group):
            out[group] = measure(groups[group])
    return out


def write_module(ref: dict, path=OUT) -> None:
    text = ('"""ReCoRD\'s own figures, measured with this project\'s code on real ReCoRD '
            'files.\n\nWritten by `python -m benchmarks.record_reference --write` (see that '
            'module for the sources);\ndo not edit by hand.\n"""\n\nRECORD_REFERENCE = '
            + pprint.pformat(ref, width=96, sort_dicts=False) + "\n")
    pathlib.Path(path).write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(REPO.parent / "shared" / "corpus" / "record_format"))
    ap.add_argument("--explorer", default=None, help="the explorer's examples.json")
    ap.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(REPO)}")
    args = ap.parse_args(argv)
    groups, sources = collect(args.corpus, {0: args.explorer} if args.explorer else {})
    ref = reference(groups, sources)
    print(json.dumps({k: ref[k] for k in ("dev", "train") if k in ref}, indent=1))
    if args.write:
        write_module(ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
