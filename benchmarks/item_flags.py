"""The automated item-quality flags (transforms/quality/flags.py) over whole sets: any
written release, and real ReCoRD files, with the same code.

    python -m benchmarks.item_flags [DATASET_DIR]... [--record_json F]...
        [--superglue_jsonl F]... [--hf_jsonl F]... [--json OUT]

With no file or folder given it reads the ReCoRD samples in ../shared/corpus/record_format.
ReCoRD files carry entity spans without labels: each span takes the label of the job's own
annotation (`Annotator`, the spaCy pipeline generate uses) of the mention overlapping it
most, none where no mention overlaps (such an answer is never "the only entity of its
label": the flag stays a lower bound). Prints one JSON object: per input, the queries,
passages and each flag's count and share.
"""
import argparse
import json
import pathlib
import sys

from benchmarks import record_examples as rx
from transforms.quality import flags
from transforms.quality.release_rows import iter_rows


def labelled_mentions(p: rx.GoldPassage, annotator) -> list:
    """(start, end, label) of the job's mentions over ReCoRD's passage text (body as one
    paragraph, then the highlights, joined as ReCoRD joins them)."""
    from transforms.ingestion.articles import Article
    annotated = annotator.annotate([Article(f"record-{p.pid}", (p.body,), p.highlights,
                                            p.source, None, "record", "record")])[0]
    out, offset = [], 0
    segments = list(annotated.paragraphs[:1]) + list(annotated.highlights)
    for k, seg in enumerate(segments):
        if k:
            offset += len(rx.HIGHLIGHT)
        out += [(m.start + offset, m.end + offset, m.label) for m in seg.mentions]
        offset += len(seg.text)
    return out


def label_of(span: tuple, mentions: list):
    best, label = 0, None
    for s, e, lab in mentions:
        overlap = min(span[1], e) - max(span[0], s)
        if overlap > best:
            best, label = overlap, lab
    return label


def record_rows(passages, annotator) -> list:
    """ReCoRD passages -> rows in the release's layout (id, passage_id, passage,
    entities with labels, query, answers); queries without answers (a hidden test
    split) are left out."""
    rows = []
    for p in passages:
        mentions = labelled_mentions(p, annotator)
        entities = [{"start": s, "end": e, "text": p.text[s:e], "label": label_of((s, e), mentions)}
                    for s, e in p.entities]
        for q in p.queries:
            if not q.answers:
                continue
            rows.append({"id": q.qid, "passage_id": p.pid, "passage": p.text,
                         "entities": entities, "query": q.query,
                         "answers": [{"start": s, "end": e, "text": t} for s, e, t in q.answers]})
    return rows


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="*", help="released dataset folders (DIR/dataset)")
    ap.add_argument("--record_json", action="append", default=[],
                    help="official ReCoRD JSON (repeatable)")
    ap.add_argument("--superglue_jsonl", action="append", default=[],
                    help="SuperGLUE ReCoRD JSON lines (repeatable)")
    ap.add_argument("--hf_jsonl", action="append", default=[],
                    help="Hugging Face super_glue/record rows as JSON lines (repeatable)")
    ap.add_argument("--json", default=None, help="write the numbers to this file")
    args = ap.parse_args(argv)
    result = {}
    for folder in args.datasets:
        result[folder] = flags.measure(iter_rows(folder))
    files = {"record_json": args.record_json, "superglue_jsonl": args.superglue_jsonl,
             "hf_jsonl": args.hf_jsonl}
    if not any(files.values()) and not args.datasets:
        from benchmarks import corpus
        files = rx.local_samples(corpus.corpus_dir() / "record_format")
    if any(files.values()):
        from transforms.curation.annotation import Annotator
        rows = record_rows(rx.read_all(**files), Annotator())
        result["record"] = dict(flags.measure(rows), files=sorted(
            pathlib.Path(f).name for fs in files.values() for f in fs))
    print(json.dumps(result, indent=1, ensure_ascii=False))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False))
    return result


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
