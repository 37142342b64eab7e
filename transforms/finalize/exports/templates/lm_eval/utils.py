"""lm-evaluation-harness task helpers for a record-builder release.

Ships inside the released dataset (`<dataset>/lm_eval/`), so it needs only lm-eval and
`datasets`: the Parquet shards are found beside this folder. The framing is lm-eval's own
`record` task (super_glue/record): the passage, its highlights as a list, then one
continuation per passage entity with the query filled in; the answer is the likeliest
continuation, scored with ReCoRD's official max-over-answers exact match and token F1.

Before reading, the shards beside this folder are checked against `RELEASE_SHARDS` (the
shards this task was released with, by sha256) and, with this file itself, against the
`_MANIFEST.json` beside them: an extra, missing, changed or foreign shard, or this folder
moved away from (or copied beside) another release, stops with one line. Rows without
answers (none in a valid release) are left out, with a warning.
"""
import collections
import glob
import hashlib
import json
import logging
import os
import re
import string

import datasets
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# The release's Parquet shards are named by the project's split names; the hub's are these.
SPLIT_FILES = {"train": "train-*.parquet", "validation": "dev-*.parquet", "test": "test-*.parquet"}
# {shard file name: sha256} of the release this task belongs to (written by finalize).
RELEASE_SHARDS = {}


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def release_problem(root, here=HERE):
    """Why the shards under `root` are not this task's release (None: they are)."""
    manifest_path = os.path.join(root, "_MANIFEST.json")
    try:
        with open(manifest_path, encoding="utf-8") as f:
            files = json.load(f)["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return (f"no readable _MANIFEST.json beside this lm_eval folder ({root}): keep the "
                "folder inside the release it came with")
    if not RELEASE_SHARDS:
        return "RELEASE_SHARDS is empty: this utils.py is a template, not a release's"
    for name in sorted(os.listdir(here)):
        if name.endswith((".py", ".yaml")):
            rel = os.path.relpath(os.path.join(here, name), root).replace(os.sep, "/")
            entry = files.get(rel) if isinstance(files, dict) else None
            if not isinstance(entry, dict) or entry.get("sha256") != _sha256(os.path.join(here, name)):
                return (f"{rel} is not listed with this content in {manifest_path}: this "
                        "lm_eval folder does not belong to the release beside it")
    found = sorted(os.path.basename(p) for pattern in SPLIT_FILES.values()
                   for p in glob.glob(os.path.join(root, pattern)))
    for name in found:
        if name not in RELEASE_SHARDS:
            return f"{os.path.join(root, name)} is not a shard of this release (extra or foreign file)"
    for name, digest in sorted(RELEASE_SHARDS.items()):
        path = os.path.join(root, name)
        if name not in found:
            return f"{path} is missing: the release is incomplete"
        got = _sha256(path)
        if got != digest or (files.get(name) or {}).get("sha256") != got:
            return f"{path} differs from the shard released with this task (sha256)"
    return None


def load_release(**_kwargs):
    """The release's splits as a DatasetDict (splits with no shard are left out), after
    checking the shards belong to this task's release."""
    root = os.path.dirname(HERE)
    problem = release_problem(root)
    if problem:
        raise SystemExit(f"error: {problem}")
    files = {split: sorted(glob.glob(os.path.join(root, pattern)))
             for split, pattern in SPLIT_FILES.items()}
    return datasets.load_dataset("parquet", data_files={s: f for s, f in files.items() if f})


def _process_doc(doc):
    return {"passage": doc["passage"], "query": doc["query"],
            "entities": sorted({e["text"] for e in doc["entities"]}),
            "answers": sorted({a["text"] for a in doc["answers"]})}


def process_docs(dataset):
    answered = dataset.filter(lambda doc: bool(doc["answers"]) and bool(doc["entities"]))
    if len(answered) != len(dataset):
        logging.getLogger(__name__).warning(
            "%d row(s) without answers or entities left out", len(dataset) - len(answered))
    return answered.map(_process_doc, remove_columns=["entities", "answers"])


def doc_to_text(doc):
    initial_text, *highlights = doc["passage"].strip().split("\n@highlight\n")
    text = initial_text + "\n\n"
    for highlight in highlights:
        text += f"  - {highlight}.\n"
    return text


def format_answer(query, entity):
    return f"  - {query}".replace("@placeholder", entity)


def doc_to_target(doc):
    answers = doc["answers"] or [""]
    return format_answer(doc["query"], answers[0])


def doc_to_choice(doc):
    return [format_answer(doc["query"], entity) for entity in doc["entities"]]


def normalize_answer(text):
    """ReCoRD's official normalisation: lower case, no punctuation, articles or extra spaces."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def f1_score(prediction, truth):
    pred, gold = normalize_answer(prediction).split(), normalize_answer(truth).split()
    common = collections.Counter(pred) & collections.Counter(gold)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(gold)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction, truth):
    return float(normalize_answer(prediction) == normalize_answer(truth))


def process_results(doc, results):
    if not doc["answers"] or not doc["entities"]:
        return {"f1": 0.0, "em": 0.0}
    prediction = doc["entities"][int(np.argmax([result[0] for result in results]))]
    return {"f1": max(f1_score(prediction, gold) for gold in doc["answers"]),
            "em": max(exact_match(prediction, gold) for gold in doc["answers"])}
