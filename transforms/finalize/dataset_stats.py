"""ReCoRD Table 1 statistics per split, and the merged funnel.

Tokens are spaCy's blank English tokenizer's non-space tokens (the generator's
en_core_web_sm tokenizer follows identical rules); vocabularies are case-sensitive
token types; entities/passage counts entity mentions.
"""
import statistics

import apache_beam as beam

STAT_SPLITS = ("train", "dev", "test")
TABLE1_ROWS = ("queries", "unique_passages", "passage_vocab", "query_vocab",
               "tokens_per_passage", "entities_per_passage", "tokens_per_query")


class Tokenizer:
    """Lazily built `spacy.blank("en")`, so DoFns can hold one per worker."""

    def __init__(self):
        self._nlp = None

    def tokens(self, text: str) -> list:
        if self._nlp is None:
            import spacy
            self._nlp = spacy.blank("en")
        return [t.text for t in self._nlp.make_doc(text) if not t.is_space]


def passage_summary(passage: dict, tokenizer: Tokenizer) -> dict:
    """The counts one passage record (see exports.passage_record) adds to its split."""
    p_tokens = tokenizer.tokens(passage["passage"])
    q_tokens = [tokenizer.tokens(qa["query"]) for qa in passage["qas"]]
    return {"split": passage["split"], "passage_tokens": len(p_tokens),
            "passage_vocab": set(p_tokens), "entities": len(passage["entities"]),
            "query_tokens": [len(q) for q in q_tokens],
            "query_vocab": set(t for q in q_tokens for t in q)}


def _empty():
    return {"passages": 0, "passage_vocab": set(), "query_vocab": set(),
            "passage_tokens": [], "entities": [], "query_tokens": []}


def _merge_into(acc: dict, other: dict) -> dict:
    acc["passages"] += other["passages"]
    acc["passage_vocab"] |= other["passage_vocab"]
    acc["query_vocab"] |= other["query_vocab"]
    for key in ("passage_tokens", "entities", "query_tokens"):
        acc[key].extend(other[key])
    return acc


def add_summary(acc: dict, summary: dict) -> dict:
    split = acc.setdefault(summary["split"], _empty())
    split["passages"] += 1
    split["passage_vocab"] |= summary["passage_vocab"]
    split["query_vocab"] |= summary["query_vocab"]
    split["passage_tokens"].append(summary["passage_tokens"])
    split["entities"].append(summary["entities"])
    split["query_tokens"].extend(summary["query_tokens"])
    return acc


def _mean(values):
    return round(sum(values) / len(values), 1) if values else 0.0


def table1_row(acc: dict) -> dict:
    return {"queries": len(acc["query_tokens"]), "unique_passages": acc["passages"],
            "passage_vocab": len(acc["passage_vocab"]), "query_vocab": len(acc["query_vocab"]),
            "tokens_per_passage": _mean(acc["passage_tokens"]),
            "entities_per_passage": _mean(acc["entities"]),
            "tokens_per_query": _mean(acc["query_tokens"])}


def extract(acc: dict) -> dict:
    """{"table1": {split: row, ..., "overall": row}, "distributions": {split: lists}}."""
    splits = {s: acc.get(s, _empty()) for s in STAT_SPLITS}
    overall = _empty()
    for s in STAT_SPLITS:
        _merge_into(overall, splits[s])   # mutates `overall` only
    table = {s: table1_row(splits[s]) for s in STAT_SPLITS}
    table["overall"] = table1_row(overall)
    distributions = {s: {k: sorted(splits[s][k]) for k in ("passage_tokens", "query_tokens", "entities")}
                     for s in STAT_SPLITS}
    return {"table1": table, "distributions": distributions}


def summarize_distribution(values) -> dict:
    if not values:
        return {"min": None, "median": None, "max": None}
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


class DatasetStatsFn(beam.CombineFn):
    """Combines passage summaries into Table 1 rows per split and overall."""

    def create_accumulator(self):
        return {}

    def add_input(self, acc, summary):
        return add_summary(acc, summary)

    def merge_accumulators(self, accs):
        out = {}
        for acc in accs:
            for split, part in acc.items():
                _merge_into(out.setdefault(split, _empty()), part)
        return out

    def extract_output(self, acc):
        return extract(acc)


def merge_funnel(named_dicts) -> dict:
    """{job: stats dict} from (path, dict) pairs of the earlier stages' stats files.

    The dicts stay opaque; each is keyed by its `job` field (else the file name), with
    `#2`, `#3`... appended when a job appears twice."""
    funnel = {}
    for path, d in named_dicts:
        name = d.get("job") if isinstance(d, dict) and isinstance(d.get("job"), str) else None
        name = name or path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
        key, n = name, 1
        while key in funnel:
            n += 1
            key = f"{name}#{n}"
        funnel[key] = d
    return funnel


def stage_rows(funnel: dict):
    """(job, stage, in, out, rejected, reasons) for every stage account in the funnel."""
    for job, d in funnel.items():
        stages = d.get("stages") if isinstance(d, dict) else None
        totals = d.get("totals") if isinstance(d, dict) else None
        if isinstance(totals, dict) and {"in", "kept", "dropped"} <= set(totals):
            # the adversarial filter: queries its fold readers answered are dropped
            reasons = {"answered_by_adversary": totals["dropped"],
                       "scoring_error": totals.get("errors", 0)}
            yield (job, "adversary", totals["in"], totals["kept"],
                   totals["dropped"] + totals.get("errors", 0),
                   {k: v for k, v in reasons.items() if v})
        if not isinstance(stages, dict):
            continue
        for stage, a in stages.items():
            if isinstance(a, dict) and {"in", "out"} <= set(a):
                yield job, stage, a["in"], a["out"], a.get("rejected", 0), a.get("reasons", {})
