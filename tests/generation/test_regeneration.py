"""The regeneration benchmark (benchmarks/regeneration.py): real ReCoRD examples rebuilt
into articles and run through the job's own curation and generation functions. On the
real samples in ../shared/corpus/record_format (both released layouts) the `record`
profile regenerates ReCoRD's queries; the full numbers are in docs/rules.md."""
import json

import pytest

from benchmarks import record_examples as rx
from benchmarks import regeneration
from transforms.generation.sentences import SentenceConfig


@pytest.fixture(scope="module")
def samples(record_format_dir):
    return rx.read_all(**rx.local_samples(record_format_dir))


def test_both_layouts_read_with_exclusive_ends(record_format_dir, samples):
    official = rx.read_record_json(record_format_dir / "allennlp_models_record.json")
    first = official[0]
    assert [first.text[s:e] for s, e in first.entities][:2] == ["Tracy Morgan", "New Jersey"]
    for p in samples:
        assert rx.PLACEHOLDER not in p.text and p.highlights
        for q in p.queries:
            assert q.query.count(rx.PLACEHOLDER) == 1
            assert all(p.text[s:e] == t for s, e, t in q.answers)
            assert all((s, e) in set(p.entities) for s, e, _ in q.answers)
    # the SuperGLUE val lines repeat the official passages: each passage comes once
    assert len(samples) == len({p.text for p in samples}) == 6


def test_hugging_face_rows_get_spans_from_their_entity_strings(tmp_path, samples):
    p = next(x for x in samples if x.text.startswith("Tracy Morgan"))
    q = p.queries[0]
    names = sorted({p.text[s:e] for s, e in p.entities})
    row = {"passage": p.text, "query": q.query, "entities": names,
           "answers": sorted({t for _, _, t in q.answers}), "idx": {"passage": 1, "query": 2}}
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(row) + "\n")
    (got,) = rx.read_hf_jsonl(path)
    assert set(got.queries[0].answers) == set(q.answers)
    # every marked span is found (an inner "Morgan" of "Tracy Morgan" is not a span)
    assert set(p.entities) <= set(got.entities)
    assert (6, 12) not in got.entities


def test_the_article_is_body_then_filled_query_with_highlights(samples):
    p = next(x for x in samples if x.text.startswith("Tracy Morgan"))
    q = p.queries[0]
    sentence, start, answer = regeneration.filled(q)
    assert answer == "Morgan"          # the most frequent answer ("Tracy Morgan" once)
    assert sentence == q.query.replace(rx.PLACEHOLDER, "Morgan")
    article = regeneration.rebuild(p, sentence)
    assert article.paragraphs == (p.body, sentence)
    assert rx.HIGHLIGHT.join((p.body,) + article.highlights) == p.text


def test_real_record_queries_are_regenerated(samples, annotator):
    result = regeneration.evaluate(samples, annotator, SentenceConfig(rules="record"))
    # 11 real queries with answers (the test line has none); before calibration 7 of them
    assert result["queries"] == 11
    assert result["regenerated_share"] >= 0.9, result["misses"]
    assert result["answers_cover_gold"] >= 0.9, result["misses"]
    assert result["entities"]["precision"] >= 0.95 and result["entities"]["recall"] >= 0.9
    assert all(m["cause"] for m in result["misses"])
    paper = regeneration.evaluate(samples, annotator, SentenceConfig(rules="paper"))
    assert paper["regenerated"] < result["regenerated"]
    # the case-kept 3-gram reading: "She gave birth" in the passage, "she gave birth to"
    # in the query ReCoRD kept; and the paper's literal rule 5 (a coreferent passage
    # mention) rejects the "Gran Colombia" sentence, a place distinct from "Colombia"
    assert paper["miss_causes"] == {"shares_3gram_with_passage": 1, "entity_not_in_passage": 2}


def test_each_miss_names_the_rule_that_rejected_it(tmp_path, samples, annotator):
    # a query of our own over a real passage: it repeats a passage 3-gram word for word
    p = next(x for x in samples if x.text.startswith("Tracy Morgan"))
    own = rx.GoldQuery("own", "NBC said on Monday that @placeholder will be a second time "
                       "hosting the show next month.", p.queries[0].answers)
    result = regeneration.evaluate([rx.GoldPassage(p.pid, p.source, p.text, p.entities,
                                                   (own,))], annotator, SentenceConfig())
    assert result["regenerated"] == 0
    assert result["miss_causes"] == {"shares_3gram_with_passage": 1}
    assert "be a second" in result["misses"][0]["detail"]


def test_the_command_reads_any_record_file(record_format_dir, tmp_path):
    out = tmp_path / "r.json"
    result = regeneration.main(
        ["--record_json", str(record_format_dir / "allennlp_models_record.json"),
         "--superglue_jsonl", str(record_format_dir / "superglue_jsonl" / "train.jsonl"),
         "--json", str(out)])
    assert result["passages"] == 5 and result["queries"] == 11
    assert json.loads(out.read_text())["regenerated"] == result["regenerated"]


# our own text in ReCoRD's layout: a lone surname, an acronym beside its lower case, a
# name in single quotes; the answers ReCoRD's coreference gives are every such mention
OWN_BODY = ("Former Atlanta Falcons quarterback Michael Vick has signed a one-year deal with "
            "the Pittsburgh Steelers, the club announced on Tuesday. Vick, 35, spent last "
            "season with the New York Jets, where he started three games. Coach Mike Tomlin "
            "told us that the US-born player would back up Ben Roethlisberger. 'Vick is "
            "still one of the fastest men in the league,' Tomlin said after practice.")
OWN_HIGHLIGHTS = ("Michael Vick joins the Pittsburgh Steelers on a one-year contract",
                  "Vick will back up Ben Roethlisberger, who has a knee injury")


def own_passage(query, answer_text):
    text = rx.HIGHLIGHT.join((OWN_BODY,) + OWN_HIGHLIGHTS)
    spans = sorted({s for name in ("Michael Vick", "Vick") for s in rx.word_spans(text, name)})
    spans = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1]
                                         for o in spans)]
    answers = tuple((s, e, text[s:e]) for s, e in spans)
    assert {a[2] for a in answers} == set(answer_text)
    return rx.GoldPassage("own", "cnn", text, tuple(spans),
                          (rx.GoldQuery("own-1", query, answers),))


def test_own_text_lone_surnames_answer_with_the_full_name(annotator):
    p = own_passage("Speaking at the team's training camp on Wednesday, @placeholder said he "
                    "had never felt better going into a season.", ("Michael Vick", "Vick"))
    result = regeneration.evaluate([p], annotator, SentenceConfig())
    assert result["regenerated"] == 1, result["misses"]
    assert result["answers_cover_gold"] == 1.0, result["misses"]


def test_gold_defects_give_a_corrected_coverage(annotator, tmp_path, capsys):
    # a query whose gold answers leave ours out: ours cover it but for the one gold answer
    # ReCoRD's over-inclusive set adds; named in --gold_defects, it counts as covered
    p = own_passage("Speaking at the team's training camp on Wednesday, @placeholder said he "
                    "had never felt better going into a season.", ("Michael Vick", "Vick"))
    steelers = rx.word_spans(p.text, "Pittsburgh Steelers")[0]
    q = p.queries[0]
    wrong = rx.GoldQuery(q.qid, q.query, q.answers + ((*steelers, "Pittsburgh Steelers"),))
    bad = rx.GoldPassage(p.pid, p.source, p.text, p.entities, (wrong,))
    plain = regeneration.evaluate([bad], annotator, SentenceConfig())
    assert plain["answers_cover_gold"] == 0.0 and "gold_defects" not in plain
    fixed = regeneration.evaluate([bad], annotator, SentenceConfig(),
                                  gold_defects={"own-1": "a club answers for its player"})
    assert fixed["answers_cover_gold"] == 0.0
    assert fixed["answers_cover_gold_corrected"] == 1.0 and fixed["gold_defects"] == ["own-1"]
    assert fixed["misses"][0]["id"] == "own-1"
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert regeneration.main(["--gold_defects", str(tmp_path / "bad.json")]) is None
    assert capsys.readouterr().err.startswith("error: ")
