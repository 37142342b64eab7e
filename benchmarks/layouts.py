"""Generation quality per input layout (benchmarks/quality.py): the same chain on the
layouts users hold the corpus in.

- `jsonl`: the 250 CNN/Daily Mail test articles (no paragraph breaks, no line wraps);
- `story`: the 20 real CNN rc-data stories and Daily Mail-style `.story` files made from
  real Daily Mail text (benchmarks/hf_layout.py: lines broken mid-sentence, captions and
  video lines put in, seeded);
- `hf_csv`: the same `.story` files through the Hugging Face `cnn_dailymail` loader's
  transformation, exported as CSV (`article`, `highlights`, `id`) and read by the CSV reader;
- `html`: the crawled pages in news_html (those without highlight bullets are rejected by
  the reader, as the job rejects them).

Per layout: queries per article, the share over 60 tokens, wrap dots (" ." where a line
ended) in queries and in passages, queries gluing two sentences, caption and video
remains (the captions and video lines put in that reach a passage; queries opening with a
caption label; "Scroll down" or "VIDEO" in a passage).
"""
import json
import pathlib
import random
import re
import tempfile

from benchmarks import hf_layout
from transforms.curation import wraps
from transforms.curation.clean import clean_paragraph
from transforms.ingestion import readers, web

_END_MARK = re.compile(r"[.!?…]['\"’”)\]]*$")
_VIDEO = re.compile(r"(?i:scroll (?:down|up))|\bVIDEO\b")


def layout_inputs(root: pathlib.Path, tmp: pathlib.Path, n_dailymail: int) -> tuple:
    """({layout: articles} for story, hf_csv and html; the lines put into the stories)."""
    stories = sorted((root / "cnn_stories").glob("*.story"))
    rows = [json.loads(line) for line in open(root / "cnndm_test250.jsonl", encoding="utf-8")]
    dailymail = [r for r in rows if r["source"] == "dailymail"][:n_dailymail]
    inserted = []
    for i, row in enumerate(dailymail):
        text, put_in = hf_layout.dailymail_story(row["article"], row["highlights"], seed=i)
        inserted += put_in
        path = tmp / f"{row['id']}.story"
        path.write_text(text, encoding="utf-8")
        stories.append(path)
    csv_path = hf_layout.write_csv(stories, tmp / "cnn_dailymail.csv")
    with open(csv_path, newline="", encoding="utf-8") as f:
        hf = list(readers.parse_csv(f, str(csv_path), "public"))
    html = []
    for page in sorted((root / "news_html").glob("*.html")):
        html += list(web.parse_html(page.read_bytes(), str(page), "public"))
    out = {"story": [readers.parse_story(p.read_bytes(), str(p), "public") for p in stories],
           "hf_csv": hf, "html": html}
    return out, inserted


def layout_report(parsed, queries, counts, tok, inserted, quality) -> dict:
    """The numbers of one layout (`parsed`: what its reader gave, rejected rows included)."""
    n = len(queries) or 1
    passages = list({q["passage_id"]: q["passage"] for q in queries}.values())
    lengths = [quality.n_tokens(tok, q["query"]) for q in queries]
    over = sum(1 for x in lengths if x > quality.LONG_QUERY)
    wrapped_q = sum(1 for q in queries if wraps.WRAP_DOT.search(q["query"]))
    n_passages = counts.get("passages", 0) or 1
    wrapped_p = counts.get("passages_with_wrap_dot", 0)
    glued = [q["query"] for q in queries if quality.glued_sentences(q["query"])]
    needles = [clean_paragraph(line) for line in inserted]
    caption_left = sorted({x for x in needles if any(x in p for p in passages)})
    articles = [a for a in parsed if not isinstance(a, dict)]
    return {
        "articles": len(articles), "read_rejected": len(parsed) - len(articles),
        "passages": counts.get("passages", 0), "queries": len(queries),
        "queries_per_article": round(len(queries) / len(articles), 2) if articles else None,
        "over_60_tokens": over, "over_60_share": round(over / n, 4),
        "queries_with_wrap_dot": wrapped_q,
        "passages_with_wrap_dot": wrapped_p,
        "passages_with_wrap_dot_share": round(wrapped_p / n_passages, 4),
        "glued_queries": len(glued), "glued_share": round(len(glued) / n, 4),
        # a sentence broken where a line broke: its tail opens lower-case, its head has no end
        "queries_opening_lower_case": sum(1 for q in queries if q["query"][:1].islower()),
        "queries_without_end_mark": sum(1 for q in queries
                                        if not _END_MARK.search(q["query"].rstrip())),
        "glued_examples": glued[:3],
        "lines_put_in": len(inserted), "captions_or_video_left_in_passages": caption_left,
        "caption_label_openings": sum(1 for q in queries if quality.caption_opening(q["query"])),
        "video_in_passages": sum(1 for p in passages if _VIDEO.search(p)),
        "pieces_dropped": {k[len("clean_piece:"):]: v for k, v in sorted(counts.items())
                           if k.startswith("clean_piece:")},
    }


def run(root, annotator, tok, quality, rules="record", n_dailymail=40, jsonl=None) -> dict:
    """{layout: (report, queries)}; `jsonl` = (articles, queries, counts) of the run on
    cnndm_test250 already made, reported as the `jsonl` layout."""
    out = {}
    if jsonl is not None:
        articles, queries, counts = jsonl
        report = layout_report(articles, queries, counts, tok, [], quality)
        for key in ("passages", "passages_with_wrap_dot", "passages_with_wrap_dot_share",
                    "pieces_dropped"):
            report.pop(key)        # counted for the whole run (stories and jsonl together)
        out["jsonl"] = (report, queries)
    with tempfile.TemporaryDirectory() as tmp:
        inputs, inserted = layout_inputs(pathlib.Path(root), pathlib.Path(tmp), n_dailymail)
    for layout, parsed in inputs.items():
        articles = [a for a in parsed if not isinstance(a, dict)]
        queries, counts = quality.run_chain(articles, annotator, rules)
        lines = inserted if layout in ("story", "hf_csv") else []
        out[layout] = (layout_report(parsed, queries, counts, tok, lines, quality), queries)
    return out


def print_samples(results: dict, k: int, seed: int, show) -> None:
    """`k` random queries of each layout, to read as an annotator would."""
    for layout, (_, queries) in results.items():
        rng = random.Random(seed)
        print("=" * 40, layout, "=" * 40)
        for q in rng.sample(sorted(queries, key=lambda q: q["id"]), min(k, len(queries))):
            print("-" * 100)
            print(show(q))
