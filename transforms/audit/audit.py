"""The reading audit (issue 32): a reproducible random sample of released queries to read,
as a Markdown sheet (every piece of text escaped) with a labels template, and the labels
read back into the release's stats.json and card.

The sample: the `n` released queries with the smallest salted stable hash of their id
(salt `audit:<seed>`), whatever the shard layout or worker count; each with its passage
(answer mentions in bold), query, answers, the passage entities and their labels, and
the automated flags (`flags.py`).

Labels: `record(run, dataset, file)` merges the file's labels into `<run>/audit/
labels.json` (a later label for an id replaces an earlier one) and applies them to the
written release through `finalize/report/item_quality.py` (what finalize does when it runs), then
rewrites the release's `_MANIFEST.json` and re-records finalize's completion marker, so
`validate` passes and `build` does not take the release for a damaged one.
"""
import collections
import heapq
import json
import re

from transforms.core import io_utils, manifest
from transforms.core.constants import HIGHLIGHT_SEP as HIGHLIGHT
from transforms.core.hashing import stable_hash
from transforms.quality import flags
from transforms.quality.aliases import PLACEHOLDER
from transforms.quality.labels import CLASSES, parse_labels
from transforms.quality.release_rows import iter_rows

AUDIT_DIR = "audit"
_MD_INLINE = re.compile(r"([\\`*_{}\[\]|~])")
_ENTITY_START = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_MD_LINE_START = re.compile(r"^(?=[-+#>=])|^(\d+)(?=[.)])")


def escape(text: str) -> str:
    """Text shown as itself in Markdown (and never as HTML): inline markup characters
    backslash-escaped, a list, heading or quote marker at the start too, < and > as
    entities (so no tag or link is ever made), & only where it would open an entity
    ("&lt;" shown as written; "AT&T" stays as a reader reads it), whitespace runs one
    space."""
    text = " ".join(str(text).split())
    text = _ENTITY_START.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_INLINE.sub(r"\\\1", text)
    return _MD_LINE_START.sub(lambda m: (m.group(1) or "") + "\\", text, count=1)


def sample(dataset: str, n: int, seed: int) -> list:
    """The n released rows of smallest `stable_hash(id, 'audit:<seed>')`, in that order,
    with `split` and `flags` ({flag: detail}, siblings among the whole release)."""
    salt = f"audit:{seed}"
    top = heapq.nsmallest(n, ((stable_hash(r["id"], salt), r["id"])
                              for r in iter_rows(dataset, columns=["id"])))
    wanted = {qid: k for k, (_, qid) in enumerate(top)}
    rows = [r for r in iter_rows(dataset) if r["id"] in wanted]
    passages = {r["passage_id"] for r in rows}
    peers = collections.defaultdict(list)
    for r in iter_rows(dataset, columns=["id", "passage_id", "query"]):
        if r["passage_id"] in passages:
            peers[r["passage_id"]].append(r)
    out = []
    for r in sorted(rows, key=lambda r: wanted[r["id"]]):
        raised = flags.row_flags(r)
        sib = flags.siblings(peers[r["passage_id"]])
        if r["id"] in sib:
            raised["sibling"] = ", ".join(sorted(p["id"] for p in peers[r["passage_id"]]
                                                 if p["id"] in sib and p["id"] != r["id"]))
        out.append(dict(r, flags=raised))
    return out


def marked_passage(row: dict) -> list:
    """The passage as Markdown lines: body, then highlights as bullets; answers in bold."""
    text, answers = row["passage"], sorted({(a["start"], a["end"]) for a in row["answers"]})
    pieces, at = [], 0
    for s, e in answers:
        if s < at:
            continue
        pieces += [escape_keep(text[at:s]), "**" + escape(text[s:e]) + "**"]
        at = e
    pieces.append(escape_keep(text[at:]))
    marked = "".join(pieces)
    parts = marked.split(escape_keep(HIGHLIGHT))
    return [parts[0]] + ([""] + [f"- {h}" for h in parts[1:]] if len(parts) > 1 else [])


def escape_keep(text: str) -> str:
    """`escape` line by line, keeping the newlines and a space at either end (the text is
    a piece of a paragraph, between two answers)."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        piece = escape(line)
        if i == 0 and line[:1].isspace():
            piece = " " + piece
        if i == len(lines) - 1 and line[-1:].isspace() and piece.strip():
            piece += " "
        out.append(piece)
    return "\n".join(out)


def render_item(k: int, row: dict) -> list:
    query = row["query"]
    i = query.find(PLACEHOLDER)
    q = (escape_keep(query[:i]) + "**@placeholder**" + escape_keep(query[i + len(PLACEHOLDER):])
         if i >= 0 else escape(query))
    answers = ", ".join(escape(a) for a in dict.fromkeys(a["text"] for a in row["answers"]))
    labels = collections.defaultdict(set)
    for e in row["entities"]:
        labels[e["label"]].add(e["text"])
    ents = "; ".join(f"{escape(lab)}: " + ", ".join(escape(t) for t in sorted(texts))
                     for lab, texts in sorted(labels.items()))
    raised = "; ".join(f"{name} ({escape(detail)})" for name, detail in row["flags"].items())
    return [f"### {k}. {escape(row['id'])} ({escape(row.get('split') or '?')}, "
            f"{escape(row.get('source') or '?')})", ""] + marked_passage(row) + [
        "", f"**Query:** {q}", "", f"**Answers:** {answers}", "",
        f"**Entities:** {ents}", "", f"**Flags:** {raised or 'none'}", "",
        "**Label:** good / artefact / wrong_answers / trivial / ambiguous", "", "---", ""]


def render_sheet(rows: list, dataset: str, seed: int, total: int) -> str:
    counts = collections.Counter(f for r in rows for f in r["flags"])
    lines = [f"# Reading audit: {len(rows)} of {total:,} released queries (seed {seed})", "",
             f"Release: {escape(dataset)}. Read each item with its passage and give it one "
             "label in the labels file beside this sheet: " + ", ".join(CLASSES) + " (clean "
             "and non-trivial; a caption, promotion or broken text; a wrong or incomplete "
             "answer set; answerable without reading; more than one right answer). Then: "
             "`python -m beam_pipelines.audit RUN --labels FILE`.", "",
             "Automated flags in this sample: " + (", ".join(
                 f"{f} {counts[f]}" for f in flags.FLAGS if counts[f]) or "none") + ".", ""]
    for k, row in enumerate(rows, 1):
        lines += render_item(k, row)
    return "\n".join(lines)


def template_csv(rows: list) -> str:
    return "id,label,notes\n" + "".join(f"{r['id']},," + "\n" for r in rows)


def write_sample(run: str, dataset: str, n: int, seed: int, out=None) -> dict:
    """Draw the sample, write the sheet (always) and the labels template (unless it is
    there already: it may hold a reader's labels); returns paths and the sheet text."""
    total = sum(1 for _ in iter_rows(dataset, columns=["id"]))
    rows = sample(dataset, n, seed)
    folder = out or io_utils.join(run, AUDIT_DIR)
    sheet = render_sheet(rows, dataset, seed, total)
    stem = f"sample-seed{seed}-n{n}"
    sheet_path = io_utils.join(folder, stem + ".md")
    labels_path = io_utils.join(folder, stem + ".labels.csv")
    from transforms.finalize.exports.files import write_text
    write_text(sheet_path, sheet + "\n")
    kept_labels = bool(io_utils.glob(labels_path))
    if not kept_labels:
        write_text(labels_path, template_csv(rows))
    return {"sheet": sheet_path, "labels": labels_path, "kept_labels": kept_labels,
            "text": sheet, "rows": len(rows), "total": total}


def record(run: str, dataset: str, labels_file: str) -> dict:
    """Merge the labels into the run's labels.json, apply them to the release, rewrite its
    manifest and re-record finalize's marker; returns the release's `item_quality`."""
    import fsspec

    from transforms.finalize.exports.files import write_text
    from transforms.finalize.report.item_quality import (
        LABELS_FILE,
        apply_labels,
        read_labels,
    )
    with fsspec.open(labels_file, "r", encoding="utf-8") as f:
        new = parse_labels(f.read(), labels_file)
    released = {r["id"] for r in iter_rows(dataset, columns=["id"])}
    unknown = sorted(set(new) - released)
    if unknown:
        raise ValueError(f"{labels_file}: {len(unknown)} labelled id(s) are not released "
                         f"queries of {dataset} (e.g. {unknown[0]})")
    if not new:
        raise ValueError(f"{labels_file} has no label yet: fill the label column in")
    labels = dict(read_labels(run), **new)
    write_text(io_utils.join(run, *LABELS_FILE),
               json.dumps({"labels": dict(sorted(labels.items()))}, indent=1) + "\n")
    before = manifest.read(dataset)
    stats = apply_labels(dataset, labels)
    from transforms.finalize.exports import fingerprint
    _, described = fingerprint.stamp(dataset)       # the card changed: a new fingerprint
    after = manifest.write(dataset, described)
    rerecord_finalize(run, before, after)
    return stats["item_quality"]


def rerecord_finalize(run: str, before, after: dict) -> None:
    """Point finalize's completion marker at the rewritten release, when the marker
    described the release as it was (else `build` reruns finalize, which applies the
    same labels)."""
    from transforms.core.rundir import RunDir
    rd = RunDir(run)
    marker = rd.marker("finalize")
    if marker is None or before is None:
        return
    outputs = dict(marker.get("outputs") or {})
    if outputs.get("dataset") != manifest.digest(before):
        return
    outputs["dataset"] = manifest.digest(after)
    marker = dict(marker, outputs=outputs, outputs_digest=manifest.digest(outputs))
    rd.write_marker("finalize", marker)


# -- what the command calls

def locate(path: str) -> tuple:
    """(run folder, release folder) of a run folder or a release folder; InputError when
    neither holds a finished release."""
    from transforms.core.preflight import InputError
    path = path.rstrip("/")
    for run, dataset in ((path, io_utils.join(path, "dataset")),
                         (path.rsplit("/", 1)[0] if "/" in path else ".", path)):
        if io_utils.glob(io_utils.join(dataset, "stats.json")) and manifest.read(dataset):
            return run, dataset
    raise InputError(f"{path} holds no finished release (no dataset/stats.json with its "
                     "_MANIFEST.json): run build or finalize first")


def main_sample(run: str, dataset: str, n: int, seed: int, out=None) -> str:
    manifest.check(dataset, "release")
    result = write_sample(run, dataset, n, seed, out)
    note = ("kept the labels file already there" if result["kept_labels"]
            else "fill in the label column")
    return (result["text"] + f"\n\nSheet: {result['sheet']}\nLabels: {result['labels']} "
            f"({note}), then: python -m beam_pipelines.audit {run} --labels "
            f"{result['labels']}")


def main_labels(run: str, dataset: str, labels_file: str) -> str:
    from transforms.core.preflight import InputError
    from transforms.quality.labels import LabelsError
    manifest.check(dataset, "release")
    try:
        iq = record(run, dataset, labels_file)
    except (LabelsError, ValueError, UnicodeDecodeError) as err:
        raise InputError(str(err)) from None
    q = iq["labels"]
    cells = ", ".join(f"{c} {q[c]['n']} ({100 * q[c]['share']:.1f}%, 95% "
                      f"{100 * q[c]['ci95'][0]:.1f}-{100 * q[c]['ci95'][1]:.1f}%)"
                      for c in CLASSES)
    return (f"item quality of {q['n']} labelled released queries: {cells}"
            + (f"; {q['not_released']} labels of queries no longer released not counted"
               if q["not_released"] else "")
            + f"\nrecorded in {dataset}/stats.json and README.md (manifest rewritten)")
