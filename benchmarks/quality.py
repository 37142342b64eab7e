"""Quality of generation on real text, in plain Python (no Beam).

Runs the pure chain the generate job runs,

    readers.parse_story / parse_jsonl -> clean_article -> Annotator.annotate
    -> build_passage -> select_sentence -> queries_for_sentence

over the real corpus in ../shared/corpus (20 CNN stories and the 250 CNN/Daily Mail test
articles) and prints:
- queries per article (before adversarial filtering; ReCoRD: ~4.5), and per passage;
- artefacts: queries opening with a caption label or containing "Scroll down",
  "(pictured)", "(left)", "(right)" or a position between commas (", left,"); answers
  that include a title ("Mr Docherty");
- the share of queries over 60 tokens and tokens per query against the real ReCoRD samples
  in record_format (both counted with spaCy's blank English tokenizer);
- exact-span precision and recall of our passage entities against ReCoRD's own, on the
  ReCoRD and SuperGLUE samples: each article is rebuilt from the ReCoRD passage (body
  before the first "@highlight", highlights after) and annotated with our pipeline;
- per input layout (benchmarks/layouts.py: `jsonl`, `story`, `hf_csv` made from stories
  by the Hugging Face loader's transformation, `html`): queries per article, share over 60
  tokens, wrap dots in queries and passages, glued sentences, caption and video remains;
- `--sample N`: N random queries (fixed `--seed`) of each layout to read as an annotator would.

    python -m benchmarks.quality [--rules record|paper] [--sample 30] [--seed 13] [--json F]
                                 [--dailymail 40] [--no_layouts]
"""
import argparse
import collections
import json
import pathlib
import random
import re
import sys
import time

from benchmarks import corpus, layouts
from transforms.core.rules import is_rejected
from transforms.curation import wraps
from transforms.curation.annotation import AnnotateConfig, Annotator
from transforms.curation.clean import CleanConfig, clean_article
from transforms.curation.coref import RuleBasedResolver
from transforms.curation.names import OFFICE_TITLES, TITLE_ABBREVIATIONS
from transforms.generation.cloze import (
    PLACEHOLDER,
    QueryConfig,
    passage_row,
    queries_for_sentence,
)
from transforms.generation.passages import HIGHLIGHT_SEP, PassageConfig, build_passage
from transforms.generation.sentences import (
    SentenceConfig,
    passage_ngrams,
    select_sentence,
    singletons_unchecked,
)
from transforms.ingestion.articles import Article

# Independent of the cleaning rules on purpose: what a reader sees as an artefact. A
# caption label is a short capitalised label and a colon; "He said: '...'" is speech.
CAPTION_OPENING = re.compile(r"^[A-Z][\w'’-]*(?: [\w'’-]+){0,4}: (?=\S)")
SPEECH = re.compile(r"\b(?:said|says|added|adds|told|tells|explained|wrote|writes|asked|"
                    r"replied|insisted|admitted|warned|tweeted|continued|stated|reads|read|"
                    r"states|posted|announced)\b")


# a writer's lead-in addressed to the reader, not a label: "Just look at the numbers: ..."
LEAD_IN = re.compile(r"\b(?:look at|consider|remember|imagine|think about|note|take)\b",
                     re.IGNORECASE)


def caption_opening(query: str) -> bool:
    m = CAPTION_OPENING.match(query)
    return bool(m) and not SPEECH.search(m.group(0)) and not LEAD_IN.search(m.group(0))
ARTEFACTS = ("Scroll down", "(pictured)", "(left)", "(right)")
# the same photo positions written between commas ("Hussen, left, took his daughter")
COMMA_POSITION = re.compile(r", (?:left|right|centre|center|pictured)[,;]")
LONG_QUERY = 60
# a sentence end inside a query (outside a quotation): ".", "!" or "?" (or a wrap dot
# " ."), a space and a capital, after a word that is no abbreviation ("U.S.", "Mr.")
_INNER_END = re.compile(r"(\S+?) ?[.!?]['\"’”)]*\s+(?=[A-Z‘“'\"@])")
_ABBREVIATION = re.compile(r"^(?:[A-Za-z]\.)*[A-Z]$|^(?:Mr|Mrs|Ms|Dr|St|No|Sen|Rep|Gov|Gen|Lt|"
                           r"Col|Sgt|Capt|Prof|Rev|Jr|Sr|Inc|Co|Corp|Ltd|vs|Jan|Feb|Mar|Apr|"
                           r"Jun|Jul|Aug|Sept?|Oct|Nov|Dec|Mt|Ft|Ave|etc)$")


def glued_sentences(query: str) -> bool:
    """The query holds a sentence end inside it: two sentences glued into one."""
    for m in _INNER_END.finditer(query):
        word = m.group(1).lstrip("('\"‘“")
        if not _ABBREVIATION.match(word) and not wraps.in_quote(query[:m.start(1)]):
            return True
    return False


def tokenizer():
    import spacy
    return spacy.blank("en").tokenizer


def n_tokens(tok, text: str) -> int:
    return sum(1 for t in tok(text) if not t.is_space)


def starts_with_title(text: str, label: str = "PERSON") -> bool:
    """An answer that includes a title: "Mr Docherty", "President Chavez" (a word title
    counts for a person only: "General Election" is a name)."""
    first = text.split()[0].rstrip(".").lower() if text.split() else ""
    return first in TITLE_ABBREVIATIONS or (label == "PERSON" and first in OFFICE_TITLES)


def run_chain(articles, annotator, rules="record", resolver=None):
    """The generate job's pure chain; returns (queries, funnel counts, per-article counts)."""
    resolver = resolver or RuleBasedResolver()
    sconf = SentenceConfig(rules=rules)
    qconf = QueryConfig()
    counts = collections.Counter(articles=len(articles))
    cleaned = []
    for a in articles:
        pieces = collections.Counter()
        c = clean_article(a, CleanConfig(), pieces)
        counts.update({"clean_piece:" + k: v for k, v in pieces.items()})
        if is_rejected(c):
            counts["clean:" + c.reason] += 1
        else:
            cleaned.append(c)
    queries = []
    for i in range(0, len(cleaned), 16):
        for annotated in annotator.annotate(cleaned[i:i + 16]):
            p = build_passage(annotated, PassageConfig(), resolver, rules)
            if is_rejected(p):
                counts["passage:" + p.reason] += 1
                continue
            counts["passages"] += 1
            counts["passages_with_wrap_dot"] += bool(wraps.WRAP_DOT.search(p.text))
            counts["passage_tokens"] += p.n_tokens
            grams, clusters = passage_ngrams(p, sconf), p.clusters()
            unchecked = singletons_unchecked(p, sconf)
            shared = passage_row(p, qconf)
            for s in p.sentences:
                counts["sentences"] += 1
                reason = select_sentence(s, grams, clusters, sconf, unchecked)
                if reason:
                    counts["sentence:" + reason] += 1
                    continue
                counts["sentences_kept"] += 1
                for _, row in queries_for_sentence(p, s, shared):
                    if is_rejected(row):
                        counts["query:" + row.reason] += 1
                    else:
                        queries.append(row)
    return queries, counts


def artefacts(queries, tok) -> dict:
    out = collections.Counter({k: 0 for k in ("caption_label_opening",) + ARTEFACTS
                               + ("position_between_commas", "answer_with_title")})
    lengths = []
    for q in queries:
        text = q["query"]
        if caption_opening(text):
            out["caption_label_opening"] += 1
        for a in ARTEFACTS:
            if a in text:
                out[a] += 1
        if COMMA_POSITION.search(text):
            out["position_between_commas"] += 1
        labels = {(e["start"], e["end"]): e["label"] for e in q["entities"]}
        if any(starts_with_title(a["text"], labels.get((a["start"], a["end"]), "PERSON"))
               for a in q["answers"]):
            out["answer_with_title"] += 1
        lengths.append(n_tokens(tok, text))
    n = len(queries) or 1
    out = dict(out)
    out["over_60_tokens"] = sum(1 for x in lengths if x > LONG_QUERY)
    out["over_60_share"] = round(out["over_60_tokens"] / n, 4)
    out["tokens_per_query"] = round(sum(lengths) / n, 2)
    return out


# ------------------------------------------------------------- ReCoRD samples
def record_samples(record_dir: pathlib.Path) -> list:
    """Unique (passage text, [(start, end exclusive)], queries) of the real samples."""
    seen, out = set(), []

    def add(passage, qas):
        text = passage["text"]
        if text in seen:
            return
        seen.add(text)
        spans = sorted({(e["start"], e["end"] + 1) for e in passage["entities"]})
        out.append((text, spans, [q["query"] for q in qas]))

    official = record_dir / "allennlp_models_record.json"
    if official.exists():
        for a in json.loads(official.read_text())["data"]:
            add(a["passage"], a["qas"])
    for f in sorted((record_dir / "superglue_jsonl").glob("*.jsonl")):
        for line in f.read_text().splitlines():
            if line.strip():
                a = json.loads(line)
                add(a["passage"], a["qas"])
    return out


def article_from_passage(i: int, text: str) -> Article:
    body, *highlights = text.split(HIGHLIGHT_SEP)
    return Article(f"record-{i}", (body,), tuple(highlights), None, None, "record", "record")


def passage_spans(annotated) -> list:
    """Our entity spans over the ReCoRD passage text (body, then highlights, as the
    passage joins them), with no prefix cut."""
    spans, offset = [], 0
    segments = list(annotated.paragraphs) + list(annotated.highlights)
    for k, seg in enumerate(segments):
        if k:
            offset += len(HIGHLIGHT_SEP) if k >= len(annotated.paragraphs) else 1
        spans += [(m.start + offset, m.end + offset) for m in seg.mentions]
        offset += len(seg.text)
    return sorted(set(spans))


def span_scores(samples, annotator, show=False) -> dict:
    tp = n_ours = n_gold = 0
    misses = []
    for i, (text, gold, _) in enumerate(samples):
        annotated = annotator.annotate([article_from_passage(i, text)])[0]
        ours = passage_spans(annotated)
        joined = HIGHLIGHT_SEP.join([annotated.paragraphs[0].text]
                                    + [h.text for h in annotated.highlights])
        assert joined == text, "the rebuilt article must keep the passage text"
        g, o = set(gold), set(ours)
        tp += len(g & o)
        n_ours += len(o)
        n_gold += len(g)
        misses += [("missed", text[s:e]) for s, e in sorted(g - o)]
        misses += [("extra", text[s:e]) for s, e in sorted(o - g)]
    result = {"passages": len(samples), "gold_spans": n_gold, "our_spans": n_ours,
              "precision": round(tp / n_ours, 3) if n_ours else None,
              "recall": round(tp / n_gold, 3) if n_gold else None}
    if show:
        result["differences"] = misses
    return result


def sample_tokens(samples, tok) -> float:
    lengths = [n_tokens(tok, q) for _, _, qs in samples for q in qs]
    return round(sum(lengths) / len(lengths), 2) if lengths else 0.0


# ------------------------------------------------------------- reading
def show_query(q: dict) -> str:
    passage = q["passage"]
    answers = ", ".join(sorted({a["text"] for a in q["answers"]}))
    query = q["query"].replace(PLACEHOLDER, ">>@placeholder<<")
    return f"[{q['id']}] ({q['source']})\n{passage}\nQUERY: {query}\nANSWERS: {answers}\n"


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="record", choices=("record", "paper"))
    ap.add_argument("--corpus", default=None, help="the shared corpus folder")
    ap.add_argument("--sample", type=int, default=0, help="random queries to print")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--spans", action="store_true", help="list span differences")
    ap.add_argument("--json", default=None, help="write the numbers to this file")
    ap.add_argument("--dailymail", type=int, default=40,
                    help="Daily Mail-style stories made for the story and hf_csv layouts")
    ap.add_argument("--no_layouts", action="store_true",
                    help="skip the per-layout report (story, hf_csv, html)")
    args = ap.parse_args(argv)
    root = pathlib.Path(args.corpus) if args.corpus else corpus.corpus_dir()
    t0 = time.perf_counter()
    annotator = Annotator(AnnotateConfig())
    tok = tokenizer()
    articles = corpus.read_articles(corpus.real_inputs(root))
    queries, counts = run_chain(articles, annotator, args.rules)
    samples = record_samples(root / "record_format")
    n_articles = counts["articles"]
    result = {
        "rules": args.rules, "articles": n_articles, "passages": counts["passages"],
        "queries": len(queries),
        "queries_per_article": round(len(queries) / n_articles, 2) if n_articles else None,
        "queries_per_passage": round(len(queries) / counts["passages"], 2)
        if counts["passages"] else None,
        "tokens_per_passage": round(counts["passage_tokens"] / counts["passages"], 1)
        if counts["passages"] else None,
        "artefacts": artefacts(queries, tok),
        "record_tokens_per_query": sample_tokens(samples, tok),
        "spans": span_scores(samples, annotator, show=args.spans),
        "funnel": dict(sorted(counts.items())),
    }
    ours, theirs = result["artefacts"]["tokens_per_query"], result["record_tokens_per_query"]
    result["tokens_per_query_ratio"] = round(ours / theirs, 3) if theirs else None
    per_layout = {}
    if not args.no_layouts:
        jsonl_ids = {a.article_id for a in articles if a.source_file.endswith(".jsonl")}
        jsonl = ([a for a in articles if a.article_id in jsonl_ids],
                 [q for q in queries if q["article_id"] in jsonl_ids], {})
        per_layout = layouts.run(root, annotator, tok, sys.modules[__name__], args.rules,
                                 args.dailymail, jsonl)
        result["layouts"] = {k: report for k, (report, _) in per_layout.items()}
    result["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(result, indent=1, ensure_ascii=False))
    if args.sample and per_layout:
        layouts.print_samples(per_layout, args.sample, args.seed, show_query)
    elif args.sample:
        rng = random.Random(args.seed)
        for q in rng.sample(sorted(queries, key=lambda q: q["id"]), min(args.sample, len(queries))):
            print("-" * 100)
            print(show_query(q))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False))
    return result


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
