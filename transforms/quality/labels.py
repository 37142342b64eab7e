"""A person's reading labels for released queries, and the item quality they measure.

A labels file has one label per query id, in CSV (`id,label[,notes]`, a header line) or
JSON lines (`{"id": ..., "label": ...}`); the classes are issue 32's: `good` (clean and
non-trivial), `artefact`, `wrong_answers` (wrong or incomplete answer set), `trivial`,
`ambiguous`. Item quality is each class's share of the n labelled released queries with
its 95% Wilson score interval (a binomial proportion's interval that stays inside [0, 1]
for small n and shares near 0 or 1).
"""
import csv
import io
import json
import math

CLASSES = ("good", "artefact", "wrong_answers", "trivial", "ambiguous")
_ALIASES = {"wrong answers": "wrong_answers", "wrong": "wrong_answers",
            "wrong or incomplete": "wrong_answers", "incomplete": "wrong_answers",
            "clean": "good", "artifact": "artefact"}
MAX_BYTES = 10 << 20


class LabelsError(ValueError):
    """A labels file that cannot be used, said in one line."""


def normalise_label(text: str) -> str:
    key = " ".join(str(text).strip().lower().replace("-", " ").split())
    key = _ALIASES.get(key, key.replace(" ", "_"))
    return key


def _records(text: str, name: str):
    stripped = text.lstrip()
    if stripped.startswith("{"):
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    item = json.loads(line)
                except ValueError:
                    raise LabelsError(f"{name} line {n} is not JSON") from None
                if not isinstance(item, dict):
                    raise LabelsError(f"{name} line {n} is not a JSON object")
                yield n, item.get("id"), item.get("label")
        return
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or not {"id", "label"} <= {f.strip() for f in reader.fieldnames}:
        raise LabelsError(f"{name} needs a header line with the columns id and label (CSV), "
                          "or one JSON object a line")
    for n, item in enumerate(reader, 2):
        item = {(k or "").strip(): v for k, v in item.items()}
        yield n, item.get("id"), item.get("label")


def parse_labels(text: str, name: str = "labels") -> dict:
    """{query id: class} of a labels file's text; rows without a label are skipped (a
    template not filled in yet); an unknown class or an id labelled twice differently
    raises LabelsError."""
    if len(text) > MAX_BYTES:
        raise LabelsError(f"{name} is over {MAX_BYTES >> 20} MB: not a labels file")
    out = {}
    for n, qid, label in _records(text, name):
        qid = (qid or "").strip() if isinstance(qid, str) else qid
        if not qid or not isinstance(qid, str):
            raise LabelsError(f"{name} line {n} has no query id")
        if label is None or not str(label).strip():
            continue
        cls = normalise_label(label)
        if cls not in CLASSES:
            raise LabelsError(f"{name} line {n}: label {str(label)[:40]!r} of {qid} is not one "
                              f"of {', '.join(CLASSES)}")
        if out.get(qid, cls) != cls:
            raise LabelsError(f"{name} line {n}: {qid} is labelled both {out[qid]} and {cls}")
        out[qid] = cls
    return out


def wilson(k: int, n: int, z: float = 1.959964) -> tuple:
    """The 95% Wilson score interval of k successes in n trials (None, None when n is 0)."""
    if n <= 0:
        return None, None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def quality(labels: dict) -> dict:
    """{'n', class: {'n', 'share', 'ci95'}} of the labelled queries."""
    n = len(labels)
    out = {"n": n}
    for cls in CLASSES:
        k = sum(1 for v in labels.values() if v == cls)
        out[cls] = {"n": k, "share": round(k / n, 4) if n else None, "ci95": list(wilson(k, n))}
    return out
