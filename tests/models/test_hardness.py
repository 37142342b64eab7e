"""The hardness report's pieces without a pipeline: entity clusters and the most frequent
entity, the ReCoRD metric of a prediction, the query-only and passage-only baselines
(what each may see, and that each learns its own shortcut), the frozen MiniLM reader,
the report's assembly and the ReCoRD reference measured on the real files."""
import random

import numpy as np
import pytest

from models import baselines, embedding_reader, hardness
from models.features import candidates
from transforms.finalize.report import hardness as report_mod
from transforms.finalize.report.hardness_card import hardness_lines


def make_row(parts, query, answer, qid="q", labels=None):
    """A row from passage pieces: strings, or (entity text,) tuples marking a mention."""
    labels = labels or {}
    text, ents = "", []
    for p in parts:
        if isinstance(p, tuple):
            ents.append({"start": len(text), "end": len(text) + len(p[0]), "text": p[0],
                         "label": labels.get(p[0], "PERSON")})
            text += p[0]
        else:
            text += p
    answers = [{"start": e["start"], "end": e["end"], "text": e["text"]} for e in ents
               if e["text"] in answer]
    return {"id": qid, "passage_id": "p-" + qid, "article_id": "a-" + qid, "passage": text,
            "entities": ents, "query": query, "answers": answers}


ROW = make_row([("Barack Obama",), " met ", ("Angela Merkel",), " in ", ("Berlin",), ". ",
                ("Obama",), " praised ", ("Merkel",), ". ", ("Obama",), " left ",
                ("Berlin",), ".\n@highlight\n", ("Obama",), " visits ", ("Berlin",)],
               "@placeholder flew home on Friday .", {"Angela Merkel", "Merkel"},
               labels={"Berlin": "GPE"})


def test_alias_clusters_join_texts_whose_words_contain_each_other():
    groups = hardness.alias_clusters(candidates(ROW))
    assert [[c.text for c in g] for g in groups] == [
        ["Barack Obama", "Obama"], ["Angela Merkel", "Merkel"], ["Berlin"]]
    assert hardness.passage_counts(ROW) == (9, 3)


def test_most_frequent_entity_counts_clusters_and_breaks_ties_by_first_mention():
    # Obama: 4 mentions (1 + 3), Berlin 3, Merkel 2; the prediction is the cluster's
    # most mentioned text
    assert hardness.most_frequent_entity(ROW) == "Obama"
    assert not hardness.answer_is_most_frequent(ROW)
    assert hardness.stratum(ROW) == hardness.OTHER
    on_obama = dict(ROW, answers=[{"start": 0, "end": 12, "text": "Barack Obama"}])
    assert hardness.answer_is_most_frequent(on_obama)
    assert hardness.stratum(on_obama) == hardness.MOST_FREQUENT
    tie = make_row([("Ann",), " and ", ("Bob",), " and ", ("Bob",), " and ", ("Ann",)],
                   "@placeholder won .", {"Ann"})
    assert hardness.most_frequent_entity(tie) == "Ann"


def test_record_scores_use_the_official_normalisation():
    assert hardness.record_scores("the Merkel", ROW) == (1.0, 1.0)
    em, f1 = hardness.record_scores("Angela", ROW)
    assert em == 0.0 and f1 == pytest.approx(2 / 3)
    assert hardness.record_scores(None, ROW) == (0.0, 0.0)


def test_record_reference_is_measured_on_the_files_it_names(record_format_dir):
    """The card's ReCoRD figures: every source file present here has the sha256 stored
    with the figures, and the figures are what the benchmark measures again from them
    (the third-party files outside the corpus are checked where they are present)."""
    import hashlib

    from benchmarks import record_reference as rr
    from transforms.finalize.report.record_reference import RECORD_REFERENCE as REF
    stored = {s["file"]: s for s in REF["sources"]}
    assert set(stored) >= {"allennlp_models_record.json", "train.jsonl", "examples.json"}
    present = 0
    for i, (group, kind, default, origin) in enumerate(rr.SOURCES):
        path = default if default.__class__ is not str else record_format_dir / default
        if path.is_file():
            present += 1
            assert hashlib.sha256(path.read_bytes()).hexdigest() == stored[path.name]["sha256"]
    assert present >= 2
    groups, sources = rr.collect(record_format_dir, {})
    if len(sources) == len(rr.SOURCES):          # every source here: the figures repeat
        assert rr.reference(groups, sources) == REF
    assert REF["dev"]["queries"] >= 120 and 0.25 <= REF["dev"]["most_frequent_share"] <= 0.45
    lo, hi = REF["dev"]["most_frequent_share_ci95"]
    assert lo < REF["dev"]["most_frequent_share"] < hi


def test_explorer_pages_read_back_into_passages_with_their_offsets():
    """The explorer's HTML layout (a page written here in its shape): the body and the
    highlights rebuild the passage so that every entity offset reads its text; the
    correct-answer mentions are the answers; the placeholder span is the placeholder."""
    from benchmarks.record_explorer import parse_example

    def ent(n, start, text, gold=False):
        cls = "btn entity correct-answer" if gold else "btn entity"
        return (f'<a class="{cls}"><input name="answer" value="{n}-{start}-'
                f'{start + len(text)}-{text}" type="radio"/>{text}</a>')
    body = f"{ent(0, 0, 'Ann Lee')} met {ent(1, 12, 'Bob Ray', True)} in {ent(2, 23, 'Oslo')}. "
    page = (f'<fieldset><div id="context"><p>{body}</p><ul class="highlights"><li> '
            f'{ent(3, 40, "Bob Ray", True)} &amp; friends </li></ul></div></fieldset>'
            '<fieldset><div id="query">Later Mr\xa0<span id="placeholder">X</span> left.'
            '</div></fieldset>')
    p = parse_example({"idx": "0", "id": "q-1", "html": page})
    assert p.text == "Ann Lee met Bob Ray in Oslo.\n@highlight\nBob Ray & friends"
    assert [p.text[s:e] for s, e in p.entities] == ["Ann Lee", "Bob Ray", "Oslo", "Bob Ray"]
    (q,) = p.queries
    assert q.query == "Later Mr @placeholder left."
    assert q.answers == ((12, 19, "Bob Ray"), (40, 47, "Bob Ray"))
    with pytest.raises(ValueError, match="offsets do not match"):
        parse_example({"idx": "1", "id": "q-2", "html": page.replace("-12-19-", "-13-20-")})


def _example_by_text(fn, row):
    cands, ex = fn(row)
    return {c.text: (tuple(ex["dense"][i]), tuple(ex["sparse"][i])) for i, c in enumerate(cands)}


def test_query_only_never_sees_the_passage_and_passage_only_never_sees_the_query():
    # Same entity list, other passage (counts, order, highlights, context all change)
    other_passage = make_row([("Berlin",), " is where ", ("Merkel",), " and ",
                              ("Angela Merkel",), " saw ", ("Barack Obama",), " and ",
                              ("Obama",), "."], ROW["query"], {"Merkel"},
                             labels={"Berlin": "GPE"})
    assert (_example_by_text(baselines.query_only_features, ROW)
            == _example_by_text(baselines.query_only_features, other_passage))
    assert (_example_by_text(baselines.passage_only_features, ROW)
            != _example_by_text(baselines.passage_only_features, other_passage))
    other_query = dict(ROW, query="Officials said @placeholder met Obama in Berlin .")
    assert (_example_by_text(baselines.passage_only_features, ROW)
            == _example_by_text(baselines.passage_only_features, other_query))
    assert (_example_by_text(baselines.query_only_features, ROW)
            != _example_by_text(baselines.query_only_features, other_query))


NAMES = ["Ann Lee", "Bob Ray", "Cid Moe", "Dee Fox", "Eve Poe", "Fay Orr"]
PLACES = ["Paris", "Rome", "Oslo", "Lima", "Kyiv", "Doha"]


def synthetic(n, seed, answer_is):
    """Rows with 3 people and 2 places. `answer_is`: "type" (the answer is always the
    place after "in", the most mentioned entity is a person), or "frequent" (the answer
    is the most mentioned person; the query's words say nothing about which)."""
    rng, rows = random.Random(seed), []
    for i in range(n):
        people, places = rng.sample(NAMES, 3), rng.sample(PLACES, 2)
        counts = {people[0]: 4, people[1]: 2, people[2]: 1, places[0]: 1, places[1]: 1}
        order = [e for e, k in counts.items() for _ in range(k)]
        rng.shuffle(order)
        parts = []
        for e in order:
            parts += [(e,), " spoke . "]
        if answer_is == "type":
            query, answer = "The talks took place in @placeholder on Monday .", places[1]
        else:
            query, answer = "@placeholder spoke again later .", people[0]
        rows.append(make_row(parts, query, {answer}, qid=f"{answer_is}{seed}-{i:03d}",
                             labels={p: "GPE" for p in PLACES}))
    return rows


def accuracy(predict, rows):
    return float(np.mean([hardness.record_scores(predict(r), r)[0] for r in rows]))


def test_each_partial_baseline_learns_its_own_shortcut_only():
    type_train, type_test = synthetic(120, 1, "type"), synthetic(60, 2, "type")
    freq_train, freq_test = synthetic(120, 3, "frequent"), synthetic(60, 4, "frequent")
    q_type = baselines.Predictor(baselines.train("query_only", type_train))
    p_type = baselines.Predictor(baselines.train("passage_only", type_train))
    q_freq = baselines.Predictor(baselines.train("query_only", freq_train))
    p_freq = baselines.Predictor(baselines.train("passage_only", freq_train))
    # type fit needs the query: query-only picks a place, and among two places is at chance
    assert 0.35 <= accuracy(q_type, type_test) <= 0.65
    assert accuracy(p_type, type_test) <= 0.65
    # "the most mentioned person" needs the passage's counts: passage-only learns it
    assert accuracy(p_freq, freq_test) >= 0.95
    assert accuracy(q_freq, freq_test) <= 0.5
    assert accuracy(hardness.most_frequent_entity, freq_test) == 1.0
    assert accuracy(hardness.most_frequent_entity, type_test) == 0.0


def test_trained_baselines_are_deterministic():
    rows = synthetic(40, 5, "frequent")
    a = baselines.train("passage_only", rows, seed=3)
    b = baselines.train("passage_only", rows, seed=3)
    assert a["queries"] == 40
    assert all(np.array_equal(a["state"][k].numpy(), b["state"][k].numpy()) for k in a["state"])


@pytest.fixture(scope="module")
def encoder():
    return embedding_reader.SentenceEncoder()


def test_minilm_reader_finds_the_sentence_the_query_restates(encoder):
    row = make_row([("Maria Lopez",), " won the chess final in ", ("Madrid",),
                    " on Sunday. ", ("John Smith",), " cooked pasta for ", ("Kate Brown",),
                    " at home. ", ("John Smith",), " said the weather was cold."],
                   "The chess championship in Madrid was won by @placeholder .",
                   {"Maria Lopez"}, labels={"Madrid": "GPE"})
    assert embedding_reader.predict(row, encoder) == "Maria Lopez"
    vecs = encoder(["a b", "a much longer sentence than the other one"])
    assert vecs.shape == (2, 384) and np.allclose(np.linalg.norm(vecs, axis=1), 1, atol=1e-5)


def test_sentence_cache_encodes_a_passage_once_and_keeps_a_few():
    calls = []

    def encode(texts):          # a bag-of-letters encoder: real, cheap, normalised
        calls.append(len(texts))
        out = np.array([[t.lower().count(ch) for ch in "abcdefghijklmnopqrstuvwxyz"]
                        for t in texts], dtype=np.float32) + 1e-3
        return out / np.linalg.norm(out, axis=1, keepdims=True)
    cache = embedding_reader.SentenceCache(encode, size=2)
    first = cache(ROW["passage"])
    assert cache(ROW["passage"]) is first and len(calls) == 1
    cache("One. Two.")
    cache("Three.")
    cache(ROW["passage"])
    assert len(calls) == 4                   # evicted after two other passages
    assert embedding_reader.predict(ROW, encode, cache) in {c.text for c in candidates(ROW)}


def test_fates_tag_each_candidate_with_its_articles_split():
    rel = [dict(ROW, id="r1", split="dev")]
    cands = [dict(ROW, id=i, adversary_correct=c) for i, c in
             (("r1", False), ("k1", False), ("d1", True), ("e1", None))]
    got = list(report_mod.fates(("a", {"released": rel, "kept": [{"id": "r1"}, {"id": "k1"}],
                                       "cand": cands})))
    assert [(r["id"], s, f) for r, s, f in got] == [
        ("r1", "dev", "released"), ("k1", "dev", "kept"), ("d1", "dev", "dropped")]
    alone = list(report_mod.fates(("a", {"released": rel, "kept": [], "cand": []})))
    assert [(r["id"], s, f) for r, s, f in alone] == [("r1", "dev", "released")]


def test_report_cells_carry_n_and_intervals_and_small_cells_are_marked():
    from transforms.finalize.report import bootstrap
    em = {f"q{i:03d}": (float(i % 4 == 0), 0.5 + 0.5 * (i % 4 == 0)) for i in range(40)}
    cells = []
    for name in report_mod.BASELINES:
        for split, n in (("dev", 40), ("test", 12)):
            for section in report_mod.SECTIONS:
                cells.append(((name, split, section), bootstrap.interval(dict(
                    list(em.items())[:n]))))
    hits = {q: (v[0],) for q, v in em.items()}
    cells += [(("most_frequent_share", "dev", s), bootstrap.interval(hits))
              for s in report_mod.SECTIONS]
    cells += [(("adversary_answered", "dev", s), bootstrap.interval(
        {q: (float(s == "dropped"),) for q in em})) for s in report_mod.SECTIONS]
    rep = report_mod.report(cells, [("dev", 30, 16, 2)], [{"name": "query_only", "queries": 9}])
    dev = rep["baselines"]["reader"]["dev"]["released"]
    assert dev["n"] == 40 and dev["exact_match"] == 25.0 and dev["f1"] == 62.5
    lo, hi = dev["exact_match_ci95"]
    assert 10 < lo < 25.0 < hi <= 42 and dev["readable"] is True
    assert rep["baselines"]["reader"]["test"]["released"]["readable"] is False
    assert rep["most_frequent_share"]["dev"]["dropped"]["share"] == 0.25
    assert rep["adversary_answered"]["dev"]["dropped"]["answered"] == 40
    assert rep["adversary_answered"]["dev"]["released"]["answered"] == 0
    assert rep["passages"]["dev"] == {"passages": 2, "entities_per_passage": 15.0,
                                      "clusters_per_passage": 8.0}
    assert set(rep["definitions"]) == set(report_mod.BASELINES)
    card = "\n".join(hardness_lines({"hardness": rep}))
    for label in ("most frequent entity", "query only", "passage only", "held-out reader"):
        assert f"| {label} | dev | 25.0 / 62.5 [" in card
        assert f"| {label} | test | too few to read (n=12) |" in card
    assert "| dev | 0.25 [" in card and "| 40 of 40 (1.00) | 0 of 40 (0.00) |" in card
    ref = rep["record"]["dev"]
    assert f"| dev | {ref['queries']:,} | {ref['most_frequent_share']:.2f} [" in card
    assert "github:sheng-z/ReCoRD-explorer" in card
    assert "a reader the adversarial filter never used" in card
    # where the release rule restates_passage read the same encoder, the card says so
    shared = "\n".join(hardness_lines({"hardness": rep, "filter": {"restates_passage": True}}))
    assert "a reader the adversarial filter never used" not in shared
    assert "partly measures that rule" in shared
    assert hardness_lines({"hardness": None}) == []
