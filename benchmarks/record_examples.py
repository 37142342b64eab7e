"""Real ReCoRD examples in any of their released layouts, read into one shape.

- official ReCoRD JSON (`{"data": [{"passage": {"text", "entities"}, "qas": [...]}]}`,
  entity and answer `end` inclusive), `--record_json`;
- SuperGLUE JSON lines (one passage a line, the same fields), `--superglue_jsonl`;
- Hugging Face `super_glue/record` rows (`passage`, `query`, `entities` and `answers` as
  strings), `--hf_jsonl`: spans are every whole-word occurrence of an entity string.

Each passage comes once (SuperGLUE's val lines repeat train passages), with its entity
spans (end exclusive), its queries, each with its gold answer spans, and its split:
`train`, `dev` (SuperGLUE's `val`) or `test`, read from the file name (a name that says
none of them is dev: the official release is train.json and dev.json). ReCoRD made its
train split from the public CNN/Daily Mail articles and dev/test from articles it crawled
(paper section 3.1): `origin` gives the project's name for each.
"""
import json
import pathlib
import re
from dataclasses import dataclass

HIGHLIGHT = "\n@highlight\n"
PLACEHOLDER = "@placeholder"


@dataclass(frozen=True)
class GoldQuery:
    qid: str
    query: str
    answers: tuple      # (start, end exclusive, text) in the passage


@dataclass(frozen=True)
class GoldPassage:
    pid: str
    source: str         # "cnn" / "dailymail" / None
    text: str
    entities: tuple     # (start, end exclusive)
    queries: tuple      # of GoldQuery
    split: str = "dev"  # train / dev / test

    @property
    def origin(self) -> str:
        """The project's origin of the article: train came from the public corpus,
        dev and test from crawled pages."""
        return "public" if self.split == "train" else "crawled"

    @property
    def body(self) -> str:
        return self.text.split(HIGHLIGHT)[0]

    @property
    def highlights(self) -> tuple:
        return tuple(self.text.split(HIGHLIGHT)[1:])


def split_of(path) -> str:
    """train / test / dev from a file name ("val" is SuperGLUE's dev); dev otherwise."""
    name = pathlib.Path(path).name.lower()
    for split in ("train", "test"):
        if split in name:
            return split
    return "dev"


def source_key(source) -> str:
    s = (source or "").lower().replace(" ", "")
    return "cnn" if s.startswith("cnn") else "dailymail" if "mail" in s else None


def _answers(qa, text):
    out = []
    for a in qa.get("answers", ()):
        s, e = a["start"], a["end"] + 1
        out.append((s, e, text[s:e]))
    return tuple(sorted(set(out)))


def _from_official(item, pid, split="dev") -> GoldPassage:
    p = item["passage"]
    text = p["text"]
    ents = tuple(sorted({(e["start"], e["end"] + 1) for e in p["entities"]}))
    queries = tuple(GoldQuery(str(q.get("id", q.get("idx", f"{pid}-{i}"))), q["query"],
                              _answers(q, text))
                    for i, q in enumerate(item.get("qas", ())))
    return GoldPassage(pid, source_key(item.get("source")), text, ents, queries, split)


def read_record_json(path) -> list:
    data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))["data"]
    return [_from_official(item, item.get("id", f"{path}:{i}"), split_of(path))
            for i, item in enumerate(data)]


def read_superglue_jsonl(path) -> list:
    out = []
    for i, line in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines()):
        if line.strip():
            item = json.loads(line)
            out.append(_from_official(item, f"{pathlib.Path(path).name}:{item.get('idx', i)}",
                                      split_of(path)))
    return out


def word_spans(text: str, name: str) -> list:
    return [(m.start(), m.end()) for m in
            re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)]


def read_hf_jsonl(path) -> list:
    """Rows of the Hugging Face layout; one row per query, grouped by passage."""
    by_text = {}
    for i, line in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        row = json.loads(line)
        text = row["passage"]
        spans = {s for name in row["entities"] for s in word_spans(text, name)}
        # a shorter name inside a longer one ("Paul" in "Ron Paul") is not a span
        spans = {s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1]
                                             for o in spans)}
        answers = tuple(sorted((s, e, text[s:e]) for s, e in spans
                               if text[s:e] in set(row.get("answers", ()))))
        idx = row.get("idx", {})
        q = GoldQuery(str(idx.get("query", i)), row["query"], answers)
        prev = by_text.get(text)
        queries = (prev.queries if prev else ()) + (q,)
        by_text[text] = GoldPassage(str(idx.get("passage", i)), None, text,
                                    tuple(sorted(spans)), queries, split_of(path))
    return list(by_text.values())


def merge(passages) -> list:
    """One passage per text, its queries merged (a query once per text)."""
    out = {}
    for p in passages:
        if p.text not in out:
            out[p.text] = p
            continue
        have = {q.query for q in out[p.text].queries}
        extra = tuple(q for q in p.queries if q.query not in have)
        first = out[p.text]
        out[p.text] = GoldPassage(first.pid, first.source, p.text, first.entities,
                                  first.queries + extra, first.split)
    return list(out.values())


def read_all(record_json=(), superglue_jsonl=(), hf_jsonl=()) -> list:
    passages = []
    for f in record_json:
        passages += read_record_json(f)
    for f in superglue_jsonl:
        passages += read_superglue_jsonl(f)
    for f in hf_jsonl:
        passages += read_hf_jsonl(f)
    return merge(passages)


def local_samples(record_dir) -> dict:
    """The arguments that read the samples in ../shared/corpus/record_format."""
    record_dir = pathlib.Path(record_dir)
    return {"record_json": [str(record_dir / "allennlp_models_record.json")],
            "superglue_jsonl": [str(f) for f in sorted((record_dir / "superglue_jsonl")
                                                       .glob("*.jsonl"))]}
