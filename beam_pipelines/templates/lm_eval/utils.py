"""lm-evaluation-harness task helpers for a record-builder release.

Ships inside the released dataset (`<dataset>/lm_eval/`), so it needs only lm-eval and
`datasets`: the Parquet shards are found beside this folder. The framing is lm-eval's own
`record` task (super_glue/record): the passage, its highlights as a list, then one
continuation per passage entity with the query filled in; the answer is the likeliest
continuation, scored with ReCoRD's official max-over-answers exact match and token F1.
"""
import collections
import glob
import os
import re
import string

import datasets
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# The release's Parquet shards are named by the project's split names; the hub's are these.
SPLIT_FILES = {"train": "train-*.parquet", "validation": "dev-*.parquet", "test": "test-*.parquet"}


def load_release(**_kwargs):
    """The release's splits as a DatasetDict (splits with no shard are left out)."""
    root = os.path.dirname(HERE)
    files = {split: sorted(glob.glob(os.path.join(root, pattern)))
             for split, pattern in SPLIT_FILES.items()}
    return datasets.load_dataset("parquet", data_files={s: f for s, f in files.items() if f})


def _process_doc(doc):
    return {"passage": doc["passage"], "query": doc["query"],
            "entities": sorted({e["text"] for e in doc["entities"]}),
            "answers": sorted({a["text"] for a in doc["answers"]})}


def process_docs(dataset):
    return dataset.map(_process_doc, remove_columns=["entities", "answers"])


def doc_to_text(doc):
    initial_text, *highlights = doc["passage"].strip().split("\n@highlight\n")
    text = initial_text + "\n\n"
    for highlight in highlights:
        text += f"  - {highlight}.\n"
    return text


def format_answer(query, entity):
    return f"  - {query}".replace("@placeholder", entity)


def doc_to_target(doc):
    return format_answer(doc["query"], doc["answers"][0])


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
    prediction = doc["entities"][int(np.argmax([result[0] for result in results]))]
    return {"f1": max(f1_score(prediction, gold) for gold in doc["answers"]),
            "em": max(exact_match(prediction, gold) for gold in doc["answers"])}
