"""The corpora the adversaries are compared on (benchmarks/adversary_compare.py):

- `cnn`: the real corpus with highlights (20 CNN stories + the 250 CNN/Daily Mail test
  articles; the corpus every default of this project was tuned on);
- `bbc`: real BBC News articles (../shared/corpus/bbc_news, 2004-2005, five topics), a
  corpus no filter setting was tuned on. The BBC layout has no highlights, so each
  article's title and first body sentence become its two highlights and the article is the
  rest of the body (a lede-summary, as CNN's bullets summarise the story).

    python -m benchmarks.adversary_corpora --output /tmp/bbc.jsonl [--per_topic 60]

Nothing here is copied into the repository: the JSON lines go where --output says.
"""
import argparse
import json
import pathlib

from benchmarks.corpus import corpus_dir, real_inputs
from benchmarks.hf_layout import sentences_of

TOPICS = ("business", "entertainment", "politics", "sport", "tech")


def bbc_row(path: pathlib.Path) -> dict:
    """One BBC text file -> {"id", "source", "article", "highlights"}: title and first
    sentence as highlights, the rest of the body as the article (None when too short)."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252")
    title, _, body = text.strip().partition("\n")
    paragraphs = [" ".join(p.split()) for p in body.strip().split("\n\n") if p.strip()]
    sents = sentences_of(" ".join(paragraphs))
    if len(sents) < 6:
        return None
    first = sents[0]
    rest = "\n\n".join(paragraphs)
    rest = rest[rest.find(first) + len(first):].strip() if first in rest else " ".join(sents[1:])
    return {"id": f"bbc-{path.parent.name}-{path.stem}", "source": "bbc",
            "article": rest, "highlights": [title.strip(), first]}


def bbc_rows(per_topic: int, root=None) -> list:
    """The first `per_topic` usable articles of each topic folder, in file-name order."""
    root = pathlib.Path(root) if root else corpus_dir()
    out = []
    for topic in TOPICS:
        rows = (bbc_row(p) for p in sorted((root / "bbc_news" / topic).glob("*.txt")))
        out.extend([r for r in rows if r][:per_topic])
    return out


def write_bbc(output: str, per_topic: int = 60, root=None) -> str:
    with open(output, "w", encoding="utf-8") as f:
        for row in bbc_rows(per_topic, root):
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return output


def inputs(corpus: str, workdir: str, per_topic: int = 60) -> list:
    """The generate job's --input patterns of `corpus` ("cnn" or "bbc")."""
    if corpus == "cnn":
        return real_inputs()
    if corpus == "bbc":
        return [write_bbc(str(pathlib.Path(workdir) / "bbc.jsonl"), per_topic)]
    raise ValueError(f"unknown corpus {corpus!r}; expected cnn or bbc")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--output", required=True)
    ap.add_argument("--per_topic", type=int, default=60)
    a = ap.parse_args()
    print(write_bbc(a.output, a.per_topic))


if __name__ == "__main__":
    main()
