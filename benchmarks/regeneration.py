"""Regeneration of real ReCoRD queries: does the generate job, given the article a ReCoRD
query came from, select the same sentence and put the placeholder where ReCoRD did?

Each ReCoRD passage is rebuilt into an article: the passage body (before the first
"@highlight") is the first paragraph, the highlights are the highlights, and each of its
queries, with "@placeholder" filled by its most frequent gold answer, is a paragraph of
the rest of the article. The job's own functions then run on it, as the Beam job runs
them: `clean_article` -> `Annotator.annotate` -> `build_passage` (the prefix is the
body: ReCoRD's passage) -> `select_sentence` -> `queries_for_sentence`.

Reported, per rule profile:
- `regenerated`: share of real queries the job makes too (same sentence kept, the
  placeholder at a gold answer: the query text is ReCoRD's); `removed_on_purpose`: real
  queries made of what the project drops as no sentence of the story (a photo caption,
  its label, a promotion: cause `removed:<reason>`), and `regenerated_share_of_story_
  sentences`, the share regenerated of the others;
- `answers_cover_gold`: share of those whose answers include every gold answer span;
  with `--gold_defects FILE` (JSON {query id: why}: queries a reader judged ReCoRD's gold
  wrong or over-inclusive for, by issue 32's standard: a president answered by his
  daughter's name, a city by its clubs), also `answers_cover_gold_corrected`, those
  counted as covered, and `gold_defects`, the ids that were used;
- `entities`: exact-span precision and recall of the passage entities against ReCoRD's;
- `misses`: the cause of each real query not made (the rule that rejected its sentence,
  or `clean_changed_sentence` (cleaning cut a piece off it), `sentence_split`,
  `ner_miss`, `span_boundary`, `no_answer` (coreference), a passage or cleaning reject).

    python -m benchmarks.regeneration [--record_json F]... [--superglue_jsonl F]...
        [--hf_jsonl F]... [--rules record|paper] [--gold_defects F] [--show] [--json OUT]

With no file given it reads the samples in ../shared/corpus/record_format.
"""
import argparse
import collections
import json
import pathlib
import re
import sys

from benchmarks import record_examples as rx
from transforms.core.rules import is_rejected
from transforms.curation.annotation import AnnotateConfig, Annotator
from transforms.curation.clean import clean_article
from transforms.curation.coref import RuleBasedResolver
from transforms.generation.cloze import QueryConfig, passage_row, queries_for_sentence
from transforms.generation.passages import (
    PassageConfig,
    build_passage,
    ngrams,
    written_ngrams,
)
from transforms.generation.sentences import (
    SentenceConfig,
    passage_ngrams,
    select_sentence,
    singletons_unchecked,
)
from transforms.ingestion.articles import Article

_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_QUOTES)).strip()


def filled(q: rx.GoldQuery):
    """(sentence, placeholder start, answer text): the query with its most frequent gold
    answer in the placeholder (ties: the longer text), or None without answers."""
    if not q.answers or rx.PLACEHOLDER not in q.query:
        return None
    counts = collections.Counter(a[2] for a in q.answers)
    answer = max(counts, key=lambda t: (counts[t], len(t), t))
    start = q.query.index(rx.PLACEHOLDER)
    return q.query.replace(rx.PLACEHOLDER, answer, 1), start, answer


def rebuild(p: rx.GoldPassage, sentence: str) -> Article:
    """One article per query: the passage body, its highlights, and the filled query as
    the rest of the article (queries of one passage never meet, as their fills may
    differ from the words the original sentence had)."""
    return Article(f"record-{p.pid}", (p.body, sentence), p.highlights,
                   p.source, None, p.origin, "record")


def body_paragraphs(p: rx.GoldPassage, dropped=None) -> int:
    """How many paragraphs the cleaned body is (cleaning may cut pieces out of it)."""
    cleaned = clean_article(Article("b", (p.body,), p.highlights or ("x",), p.source, None,
                                    "record", "record"), dropped=dropped)
    return 0 if is_rejected(cleaned) else len(cleaned.paragraphs)


# what the project removes on purpose (issue 32: photo captions, their labels and
# promotions are not sentences of the story), though ReCoRD made queries of them
REMOVED_ON_PURPOSE = ("caption", "caption_label", "wrap_caption", "promotion", "scroll_line",
                      "video_line")


def removed_on_purpose(p: rx.GoldPassage, fill, dropped) -> str:
    """The reason cleaning removed the filled query (or a piece of it) on purpose, if any:
    what it dropped from the rebuilt article and not from the body alone."""
    alone = collections.Counter()
    body_paragraphs(p, alone)
    for reason in REMOVED_ON_PURPOSE:
        if dropped[reason] > alone[reason]:
            return reason
    return ""


def spans_of(annotated, n_body: int) -> list:
    """Entity spans over body paragraphs + highlights joined as a ReCoRD passage."""
    spans, offset, first = [], 0, True
    segs = list(annotated.paragraphs[:n_body]) + list(annotated.highlights)
    for k, seg in enumerate(segs):
        if not first:
            offset += len(rx.HIGHLIGHT) if k >= n_body else 1
        first = False
        spans += [(m.start + offset, m.end + offset) for m in seg.mentions]
        offset += len(seg.text)
    return sorted(set(spans))


def _locate(sentences, text):
    """The candidate sentence with this text, else a cause for its absence."""
    for s in sentences:
        if norm(s.text) == norm(text):
            return s, None
    n = norm(text)
    if any(norm(s.text) in n or n in norm(s.text) for s in sentences):
        return None, "sentence_split"
    return None, "sentence_not_found"


def why_no_query(passage, sentence, fill, rows) -> str:
    """Why a kept sentence gave no query with the placeholder where ReCoRD put it."""
    text, _, answer = fill
    start = sentence.text.find(answer)
    end = start + len(answer)
    for m in sentence.mentions:
        if (m.start, m.end) == (start, end):
            bad = [r.reason for _, r in rows if is_rejected(r)]
            if "ambiguous_name" in bad:
                return "ambiguous_name"
            return "no_answer" if bad else "query_differs"
    if any(m.start < end and start < m.end for m in sentence.mentions):
        return "span_boundary"
    return "ner_miss"


def detail(passage, sentence, reason, config) -> str:
    """What made a rule reject the sentence, for reading."""
    if reason == "entity_not_in_passage":
        clusters = passage.clusters()
        return "no antecedent: " + ", ".join(m.text for m in sentence.mentions
                                             if m.cluster not in clusters)
    if reason.startswith("shares_"):
        grams = passage_ngrams(passage, config)
        n = config.max_shared_ngram
        mine = (written_ngrams(sentence.text, [(m.start, m.end) for m in sentence.mentions], n)
                if config.rules == "record" else ngrams(sentence.words, n))
        return "shared: " + "; ".join(" ".join(g) for g in mine if g in grams)
    return ""


def entity_spans(p: rx.GoldPassage, annotator) -> list:
    """Our passage entity spans over ReCoRD's passage text: from the cleaned article, as
    the job marks them; from the raw text where cleaning changed the passage."""
    article = Article(f"record-{p.pid}", (p.body,), p.highlights, p.source, None,
                      "record", "record")
    cleaned = clean_article(article)
    if not is_rejected(cleaned):
        annotated = annotator.annotate([cleaned])[0]
        n = len(annotated.paragraphs)
        joined = rx.HIGHLIGHT.join([" ".join(x.text for x in annotated.paragraphs)]
                                   + [h.text for h in annotated.highlights])
        if joined == p.text:
            return spans_of(annotated, n), False
    return spans_of(annotator.annotate([article])[0], 1), True


def query_outcome(p: rx.GoldPassage, q: rx.GoldQuery, fill, annotator, config, resolver):
    """(cause or None when regenerated, answers cover gold, detail) for one real query."""
    dropped = collections.Counter()
    cleaned = clean_article(rebuild(p, fill[0]), dropped=dropped)
    if is_rejected(cleaned) or not body_paragraphs(p):
        return "clean:" + (cleaned.reason if is_rejected(cleaned) else "body"), None, ""
    found = [i for i, x in enumerate(cleaned.paragraphs) if norm(x) == norm(fill[0])]
    if not found:       # cleaning cut the sentence: a caption or its label, a promotion
        why = removed_on_purpose(p, fill, dropped)
        return ("removed:" + why if why else "clean_changed_sentence"), None, \
            " | ".join(cleaned.paragraphs[-1:])
    n_body = found[-1]
    annotated = annotator.annotate([cleaned])[0]
    pconf = PassageConfig(min_prefix_tokens=max(1, sum(x.n_tokens for x in
                                                       annotated.paragraphs[:n_body])),
                          max_paragraph_tokens=10 ** 9)
    passage = build_passage(annotated, pconf, resolver, config.rules)
    if is_rejected(passage):
        return "passage:" + passage.reason, None, passage.detail or ""
    sentence, cause = _locate(passage.sentences, fill[0])
    if sentence is None:
        return cause, None, ""
    reason = select_sentence(sentence, passage_ngrams(passage, config), passage.clusters(),
                             config, singletons_unchecked(passage, config))
    if reason in REMOVED_ON_PURPOSE:
        return "removed:" + reason, None, ""
    if reason:
        return reason, None, detail(passage, sentence, reason, config)
    rows = list(queries_for_sentence(passage, sentence, passage_row(passage, QueryConfig())))
    hit = [r for _, r in rows if not is_rejected(r) and norm(r["query"]) == norm(q.query)]
    if not hit:
        return (why_no_query(passage, sentence, fill, rows), None,
                "mentions: " + ", ".join(m.text for m in sentence.mentions))
    got = {(a["start"], a["end"], a["text"]) for a in hit[0]["answers"]}
    want = set(q.answers)
    if passage.text == p.text:
        missing = want - got
    else:
        missing = {a for a in want if a[2] not in {g[2] for g in got}}
    return None, not missing, ("missing: " + ", ".join(sorted({a[2] for a in missing}))
                               if missing else "")


def evaluate(passages, annotator, config: SentenceConfig, resolver=None,
             gold_defects=None) -> dict:
    resolver = resolver or RuleBasedResolver()
    gold_defects = gold_defects or {}
    result = collections.Counter()
    misses, causes, defects = [], collections.Counter(), []
    for p in passages:
        ours, changed = entity_spans(p, annotator)
        gold = set(p.entities)
        result["gold_spans"] += len(gold)
        result["our_spans"] += len(ours)
        result["matched_spans"] += len(gold & set(ours))
        result["passages_changed_by_cleaning"] += changed
        for q in p.queries:
            fill = filled(q)
            if fill is None:
                continue     # a test query: no answers to fill in
            result["queries"] += 1
            cause, cover, why = query_outcome(p, q, fill, annotator, config, resolver)
            if cause is None:
                result["regenerated"] += 1
                result["answers_cover_gold"] += cover
                if not cover:
                    misses.append({"id": q.qid, "query": q.query, "cause": "answers",
                                   "detail": why})
                    if q.qid in gold_defects:
                        defects.append(q.qid)
                continue
            causes[cause] += 1
            misses.append({"id": q.qid, "query": q.query, "cause": cause, "detail": why})
    n = result["queries"] or 1
    removed = sum(v for k, v in causes.items() if k.startswith("removed:"))
    corrected = {} if not gold_defects else {
        "answers_cover_gold_corrected": round(
            (result["answers_cover_gold"] + len(defects)) / max(result["regenerated"], 1), 3),
        "gold_defects": sorted(defects)}
    return {
        "rules": config.rules, "passages": len(passages), "queries": result["queries"],
        "regenerated": result["regenerated"],
        "regenerated_share": round(result["regenerated"] / n, 3),
        "removed_on_purpose": removed,
        "regenerated_share_of_story_sentences": round(
            result["regenerated"] / max(result["queries"] - removed, 1), 3),
        "answers_cover_gold": round(result["answers_cover_gold"]
                                    / max(result["regenerated"], 1), 3),
        **corrected,
        "entities": {
            "gold": result["gold_spans"], "ours": result["our_spans"],
            "precision": round(result["matched_spans"] / max(result["our_spans"], 1), 3),
            "recall": round(result["matched_spans"] / max(result["gold_spans"], 1), 3)},
        "passages_changed_by_cleaning": result["passages_changed_by_cleaning"],
        "miss_causes": dict(causes.most_common()),
        "misses": misses,
    }


def read_gold_defects(path):
    """{query id: why} from a JSON file, or None when it is not one."""
    try:
        data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in data.items()):
        return None
    return data


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--record_json", action="append", default=[],
                    help="official ReCoRD JSON (repeatable)")
    ap.add_argument("--superglue_jsonl", action="append", default=[],
                    help="SuperGLUE ReCoRD JSON lines (repeatable)")
    ap.add_argument("--hf_jsonl", action="append", default=[],
                    help="Hugging Face super_glue/record rows as JSON lines (repeatable)")
    ap.add_argument("--rules", default="record", choices=("record", "paper"))
    ap.add_argument("--gold_defects", default=None,
                    help="JSON {query id: why}: queries whose gold a reader judged wrong or "
                    "over-inclusive (adds answers_cover_gold_corrected)")
    ap.add_argument("--show", action="store_true", help="print every miss")
    ap.add_argument("--json", default=None, help="write the numbers to this file")
    args = ap.parse_args(argv)
    files = {"record_json": args.record_json, "superglue_jsonl": args.superglue_jsonl,
             "hf_jsonl": args.hf_jsonl}
    if not any(files.values()):
        from benchmarks import corpus
        files = rx.local_samples(corpus.corpus_dir() / "record_format")
    passages = rx.read_all(**files)
    defects = read_gold_defects(args.gold_defects) if args.gold_defects else {}
    if defects is None:
        print(f"error: {args.gold_defects} is not a JSON object of query id -> reason",
              file=sys.stderr)
        return None
    result = evaluate(passages, Annotator(AnnotateConfig()), SentenceConfig(rules=args.rules),
                      gold_defects=defects)
    shown = dict(result) if args.show else {k: v for k, v in result.items() if k != "misses"}
    print(json.dumps(shown, indent=1, ensure_ascii=False))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False))
    return result


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
