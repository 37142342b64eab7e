"""Benchmark inputs: the real corpus in ../shared/corpus, cleaned exactly as the generation
job cleans it, and replicated copies of it (with fresh ids) for the scaling benchmark.

Nothing here is copied into the repository: replicated corpora go to a temporary folder.
"""
import glob
import json
import os
import pathlib

from transforms.core.rules import is_rejected
from transforms.curation.clean import CleanConfig, clean_article
from transforms.ingestion import readers

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS = pathlib.Path(os.environ.get("RECORD_CORPUS_DIR", REPO.parent / "shared" / "corpus"))


def corpus_dir() -> pathlib.Path:
    """The real corpus, or an error saying where it was looked for."""
    if not CORPUS.is_dir():
        raise FileNotFoundError(f"real corpus not found at {CORPUS} (set RECORD_CORPUS_DIR)")
    return CORPUS


def real_inputs(root=None) -> list:
    """The input patterns of the real corpus with highlights: 20 CNN rc-data stories and
    the 250 CNN/Daily Mail test articles (270 articles)."""
    root = pathlib.Path(root) if root else corpus_dir()
    return [str(root / "cnn_stories" / "*.story"), str(root / "cnndm_test250.jsonl")]


def read_articles(patterns, origin="public") -> list:
    """Parse the files matching `patterns` with transforms.ingestion.readers, as the job's ReadFile
    does (.story and .jsonl only; the benchmarks need no other layout). Rejected records
    are dropped."""
    out = []
    for pattern in patterns:
        for path in sorted(glob.glob(pattern)):
            kind = readers.file_type(path)
            with open(path, "rb") as f:
                if kind == "story":
                    parsed = [readers.parse_story(f.read(), path, origin)]
                elif kind == "jsonl":
                    parsed = list(readers.parse_jsonl(f, path, origin))
                else:
                    raise ValueError(f"{path}: the benchmarks read .story and .jsonl only")
            out.extend(a for a in parsed if not isinstance(a, dict))
    return out


def clean_articles(articles, config: CleanConfig = CleanConfig()) -> list:
    """The articles the job annotates: cleaned with transforms.curation.clean.clean_article, cleaning
    rejects dropped, and one article per id (the copy with the smallest content digest, as
    the job's KeepOnePerId keeps)."""
    from transforms.curation.curate import content_key
    by_id = {}
    for a in articles:
        c = clean_article(a, config)
        if is_rejected(c):
            continue
        kept = by_id.get(c.article_id)
        if kept is None or content_key(c) < content_key(kept):
            by_id[c.article_id] = c
    return [by_id[k] for k in sorted(by_id)]


def texts_of(articles) -> list:
    """The texts the Annotator sends to nlp.pipe: each article's paragraphs, then its
    highlights."""
    texts = []
    for a in articles:
        texts.extend(a.paragraphs)
        texts.extend(a.highlights)
    return texts


def count_words(texts) -> int:
    """Whitespace-split words."""
    return sum(len(t.split()) for t in texts)


def cleaned_texts(patterns) -> list:
    """Read + clean + dedupe the inputs, then the texts the job's annotator sees."""
    return texts_of(clean_articles(read_articles(patterns)))


def _record(article, article_id, copy: int = 1) -> dict:
    """Copy k > 1 differs from the original: its URL gets a `/copy-k` path part and its body a
    paragraph `Copy k.` before its last, so the job's duplicate-text and duplicate-URL steps keep it (a
    sentence of 2 tokens, rejected by the 10-token rule; the passage is unchanged)."""
    paragraphs = list(article.paragraphs)
    if copy > 1:   # after the first and before the last paragraph, whose cleaning rules stay
        paragraphs.insert(max(len(paragraphs) - 1, 1), f"Copy {copy}.")
    url = article.url
    if url and copy > 1:
        path, sep, query = url.partition("?")
        url = path.rstrip("/") + f"/copy-{copy}" + sep + query
    return {"id": article_id, "article": "\n\n".join(paragraphs),
            "highlights": list(article.highlights), "source": article.source, "url": url}


def write_replicated(patterns, factor: int, out_dir) -> str:
    """Write `factor` copies of the raw (uncleaned) articles of `patterns` as JSON lines,
    one file per copy: copy 1 keeps the original ids, copy k gets `<id>-r<k>`. The job's
    JSONL reader rebuilds the same paragraphs and highlights (paragraphs are joined with
    blank lines, which split_story splits on); copies differ by one short last paragraph and
    their URL (see `_record`), so the job keeps every copy.
    Returns the input pattern of the replicated corpus."""
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    articles = read_articles(patterns)
    for k in range(1, factor + 1):
        with open(out / f"copy-{k:03d}.jsonl", "w", encoding="utf-8") as f:
            for a in articles:
                article_id = a.article_id if k == 1 else f"{a.article_id}-r{k}"
                f.write(json.dumps(_record(a, article_id, k), ensure_ascii=False) + "\n")
    return str(out / "*.jsonl")
