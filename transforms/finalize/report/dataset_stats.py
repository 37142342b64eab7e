"""ReCoRD Table 1 per split and overall, with exact figures from Distinct and sums.

Tokens are spaCy's blank English tokenizer's non-space tokens (the generator's
en_core_web_sm tokenizer follows identical rules); vocabularies are case-sensitive token
types; entities/passage counts entity mentions.

Beam: one pass over the passage records emits (split, kind, token) pairs, which
`Distinct` and a per-key count turn into exact vocabulary sizes (no set in any
accumulator); integer sums per (split, figure); and one count per (split, figure, value)
for the histograms and min/median/max, bounded by the number of distinct lengths, not by
the corpus.
"""
import apache_beam as beam

from transforms.core.accounting import SumCounts
from transforms.core.constants import OVERALL, SPLITS

STAT_SPLITS = SPLITS
TABLE1_ROWS = ("queries", "unique_passages", "passage_vocab", "query_vocab",
               "tokens_per_passage", "entities_per_passage", "tokens_per_query")
#: distributions of the dataset card: per passage, per passage, per query
DISTRIBUTIONS = ("passage_tokens", "query_tokens", "entities")
VOCAB, SUMS, VALUES = "vocab", "sums", "values"


class Tokenizer:
    """Lazily built `spacy.blank("en")`, so DoFns can hold one per worker."""

    def __init__(self):
        self._nlp = None

    def tokens(self, text: str) -> list:
        if self._nlp is None:
            import spacy
            self._nlp = spacy.blank("en")
        return [t.text for t in self._nlp.make_doc(text) if not t.is_space]


def passage_figures(passage: dict, tokenizer: Tokenizer):
    """(tag, value) pairs one passage record (exports.passage_record) adds to Table 1."""
    split = passage["split"]
    p_tokens = tokenizer.tokens(passage["passage"])
    q_tokens = [tokenizer.tokens(qa["query"]) for qa in passage["qas"]]
    for where in (split, OVERALL):
        for token in set(p_tokens):
            yield VOCAB, (where, "passage", token)
        for token in set(t for q in q_tokens for t in q):
            yield VOCAB, (where, "query", token)
        for name, n in (("passages", 1), ("queries", len(q_tokens)),
                        ("passage_tokens", len(p_tokens)),
                        ("entities", len(passage["entities"])),
                        ("query_tokens", sum(len(q) for q in q_tokens))):
            yield SUMS, ((where, name), n)
    yield VALUES, (split, "passage_tokens", len(p_tokens))
    yield VALUES, (split, "entities", len(passage["entities"]))
    for q in q_tokens:
        yield VALUES, (split, "query_tokens", len(q))


class PassageFiguresFn(beam.DoFn):
    def setup(self):
        self.tokenizer = Tokenizer()

    def process(self, passage):
        for tag, value in passage_figures(passage, self.tokenizer):
            yield beam.pvalue.TaggedOutput(tag, value)


class Table1(beam.PTransform):
    """Passage records -> one dict {"vocab": {(split, kind): n}, "sums": {(split, name):
    n}, "values": {(split, figure, value): n}}; `table1` and `distributions` read it."""

    def expand(self, passages):
        figures = passages | "PassageFigures" >> beam.ParDo(PassageFiguresFn()).with_outputs(
            VOCAB, SUMS, VALUES)
        vocab = (figures[VOCAB]
                 | "DistinctTokens" >> beam.Distinct()
                 | "TokenTypes" >> beam.Map(lambda t: ((t[0], t[1]), 1))
                 | "VocabSizes" >> beam.CombinePerKey(sum))
        sums = figures[SUMS] | "Sums" >> beam.CombinePerKey(sum)
        values = figures[VALUES] | "ValueCounts" >> beam.combiners.Count.PerElement()
        tagged = [pc | f"Tag{tag.title()}" >> beam.Map(lambda kv, tag=tag: {(tag, kv[0]): kv[1]})
                  for tag, pc in ((VOCAB, vocab), (SUMS, sums), (VALUES, values))]
        return (tagged
                | "AllFigures" >> beam.Flatten()
                | "FiguresDict" >> beam.CombineGlobally(SumCounts())
                | "ByTag" >> beam.Map(by_tag))


def by_tag(sums: dict) -> dict:
    """{(tag, key): n} -> {tag: {key: n}}: bounded by splits x figures x distinct values."""
    out = {VOCAB: {}, SUMS: {}, VALUES: {}}
    for (tag, key), n in sums.items():
        out[tag][key] = n
    return out


def _mean(total, n):
    return round(total / n, 1) if n else 0.0


def table1(figures: dict) -> dict:
    """{split: Table 1 row} for train, dev, test and overall."""
    sums, vocab = figures[SUMS], figures[VOCAB]
    out = {}
    for where in STAT_SPLITS + (OVERALL,):
        def s(name):
            return sums.get((where, name), 0)
        out[where] = {"queries": s("queries"), "unique_passages": s("passages"),
                      "passage_vocab": vocab.get((where, "passage"), 0),
                      "query_vocab": vocab.get((where, "query"), 0),
                      "tokens_per_passage": _mean(s("passage_tokens"), s("passages")),
                      "entities_per_passage": _mean(s("entities"), s("passages")),
                      "tokens_per_query": _mean(s("query_tokens"), s("queries"))}
    return out


def distributions(figures: dict) -> dict:
    """{split: {figure: {value: count}}} (values sorted)."""
    out = {s: {k: {} for k in DISTRIBUTIONS} for s in STAT_SPLITS}
    for (split, name, value), n in sorted(figures[VALUES].items()):
        out[split][name][value] = n
    return out


def summarize_counts(counts: dict) -> dict:
    """min, median (as `statistics.median` gives it) and max of a {value: count} table."""
    if not counts:
        return {"min": None, "median": None, "max": None}
    values = sorted(counts)
    total = sum(counts.values())

    def nth(i):   # the i-th value (0-based) of the sorted multiset
        seen = 0
        for v in values:
            seen += counts[v]
            if i < seen:
                return v
        raise IndexError(i)
    half = total // 2
    median = nth(half) if total % 2 else (nth(half - 1) + nth(half)) / 2
    return {"min": values[0], "median": median, "max": values[-1]}
