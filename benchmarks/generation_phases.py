"""CPU seconds of each of generate's per-article phases on the real corpus, in-process and
without Beam (no profiler: cProfile's per-call cost inflates Python-heavy functions).

    python -m benchmarks.generation_phases [--gc]
    PYTHONPATH=BASE python benchmarks/generation_phases.py     # a baseline checkout's code

Phases, in the job's order: read, clean (`clean_article`), spaCy load, `nlp.pipe` over
every paragraph and highlight (the bare loop's work), drafts (`_draft_from_doc`), finish
(`finish_article`: label consistency, person spans), passages (`build_passage`:
coreference, mention cues), sentences (the profile's rules), queries, signatures (MinHash
of the articles that gave queries). Every Doc is held at once here, so a phase that
allocates pays more garbage collection than in the job; `--gc` reports collections.
Prints one JSON line.
"""
import argparse
import gc
import json
import time


def _phases(timer):
    from benchmarks import corpus
    from transforms.core.rules import first_rejection, is_rejected
    from transforms.core.signing import SignatureConfig
    from transforms.curation import annotation
    from transforms.curation.coref import RuleBasedResolver
    from transforms.generation.cloze import (
        QueryConfig,
        passage_row,
        queries_for_sentence,
    )
    from transforms.generation.generate import article_signature
    from transforms.generation.passages import PassageConfig, build_passage
    from transforms.generation.sentences import (
        SENTENCE_RULES,
        SentenceConfig,
        sentence_context,
    )

    raw = timer("read", corpus.read_articles, corpus.real_inputs())
    articles = timer("clean", corpus.clean_articles, raw)
    nlp = timer("spacy_load", annotation.load_spacy, annotation.AnnotateConfig())
    texts = [t for a in articles for t in (*a.paragraphs, *a.highlights)]
    docs = timer("nlp_pipe", lambda: list(nlp.pipe(texts, batch_size=16)))
    drafts = timer("drafts", lambda: [annotation._draft_from_doc(d, annotation.ENTITY_LABELS, t)
                                      for d, t in zip(docs, texts)])

    def finish():
        out, i = [], 0
        for a in articles:
            n, k = len(a.paragraphs) + len(a.highlights), len(a.paragraphs)
            segments = annotation.finish_article(drafts[i:i + n])
            out.append(annotation.AnnotatedArticle(a, tuple(segments[:k]), tuple(segments[k:])))
            i += n
        return out
    annotated = timer("finish", finish)
    resolver = RuleBasedResolver()
    passages = timer("passages", lambda: [build_passage(x, PassageConfig(), resolver, "record")
                                          for x in annotated])
    passages = [p for p in passages if not is_rejected(p)]
    config = SentenceConfig()
    rules = SENTENCE_RULES[config.rules]

    def kept_sentences(p):
        context = sentence_context(p, config)
        return [s for s in p.sentences if first_rejection(rules, s, context, config) is None]
    kept = timer("sentences", lambda: [(p, kept_sentences(p)) for p in passages])
    timer("queries", lambda: [list(queries_for_sentence(p, s, passage_row(p, QueryConfig())))
                              for p, ss in kept for s in ss])
    timer("signatures", lambda: [article_signature(p.article, SignatureConfig())
                                 for p, ss in kept if ss])
    return len(articles), len(passages)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gc", action="store_true", help="also report garbage collections")
    args = ap.parse_args(argv)
    seconds, collections, started = {}, [0, 0.0], [0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0] = time.process_time()
        else:
            collections[0] += 1
            collections[1] += time.process_time() - started[0]

    def timer(name, fn, *a):
        t0 = time.process_time()
        out = fn(*a)
        seconds[name] = round(time.process_time() - t0, 3)
        return out
    if args.gc:
        gc.callbacks.append(on_gc)
    n_articles, n_passages = _phases(timer)
    pipe = seconds["nlp_pipe"]
    beyond = sum(v for k, v in seconds.items() if k not in ("nlp_pipe", "read", "spacy_load"))
    out = {"articles": n_articles, "passages": n_passages, "cpu_s": seconds,
           "per_article_beyond_pipe_s": round(beyond, 3),
           "beyond_over_pipe": round(beyond / pipe, 3) if pipe else None}
    if args.gc:
        out["gc"] = {"collections": collections[0], "cpu_s": round(collections[1], 3)}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
