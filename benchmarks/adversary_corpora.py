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
import re

from benchmarks.corpus import corpus_dir, real_inputs
from benchmarks.hf_layout import sentences_of

TOPICS = ("business", "entertainment", "politics", "sport", "tech")


# a prose paragraph ends as a sentence does; a BBC subheading ("Arsenal win 4-2 on
# penalties") or match-fact line ("Griffin Park", "1945 GMT") does not
_PROSE_END = re.compile(r"[.!?:;][\"'’”)\]]*$")
_ELLIPSIS_END = re.compile(r"(?:\.\.\.|…)[\"'’”]?$")


MAX_HEADING_WORDS = 16     # as fragments.MAX_HEADLINE_WORDS


def is_heading(paragraph: str) -> bool:
    """A short paragraph with no sentence end: a subheading or a fact line, never a
    sentence (joined to the next paragraph it would glue a title onto a sentence)."""
    return (len(paragraph.split()) <= MAX_HEADING_WORDS
            and not _PROSE_END.search(paragraph.strip()))


def lead_sentences(paragraph: str) -> list:
    """The paragraph's sentences; an ellipsis inside a name or a quote never ends one
    ("ITV1's I'm a Celebrity... Get Me Out of Here drew ...")."""
    out = []
    for piece in sentences_of(paragraph):
        if out and _ELLIPSIS_END.search(out[-1]):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


def bbc_row(path: pathlib.Path) -> dict:
    """One BBC text file -> {"id", "source", "article", "highlights"}: the title and the
    first sentence of the first prose paragraph as highlights, the rest of the body as the
    article (None when too short). Headings and fact lines (`is_heading`) are left out:
    they are not sentences, and run together with the next paragraph they gave
    highlights such as "Arsenal win 4-2 on penalties The Spanish goalkeeper saved ..."."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252")
    title, _, body = text.strip().partition("\n")
    paragraphs = [" ".join(p.split()) for p in body.strip().split("\n\n") if p.strip()]
    paragraphs = [p for p in paragraphs if not is_heading(p)]
    if not paragraphs or len(sentences_of(" ".join(paragraphs))) < 6:
        return None
    lead = lead_sentences(paragraphs[0])
    first = lead[0]
    rest = [" ".join(lead[1:])] + paragraphs[1:]
    return {"id": f"bbc-{path.parent.name}-{path.stem}", "source": "bbc",
            "article": "\n\n".join(p for p in rest if p), "highlights": [title.strip(), first]}


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
