"""The hardness report's held-out reader through RunInference (models/reader_handler.py):
one encode call per passage, predictions equal to scoring each query on its own, any
reader with `encode`, and the same predictions whatever the batching. Real ReCoRD passages
(the SuperGLUE sample in ../shared/corpus/record_format) with several queries each."""
import json

import apache_beam as beam
import numpy as np
import pytest
from apache_beam.ml.inference.base import RunInference
from apache_beam.testing.test_pipeline import TestPipeline as BeamPipeline
from apache_beam.testing.util import assert_that, equal_to

from models import embedding_reader
from models.reader_handler import PassageReaderHandler
from transforms.finalize.report import hardness as report_mod


def record_rows(record_format_dir) -> list:
    """The SuperGLUE ReCoRD sample as candidate rows (entity ends made exclusive)."""
    rows = []
    for split in ("train", "val"):
        for line in (record_format_dir / "superglue_jsonl" / f"{split}.jsonl").open():
            item = json.loads(line)
            text, pid = item["passage"]["text"], f"{split}-{item['idx']}"
            ents = [{"start": e["start"], "end": e["end"] + 1,
                     "text": text[e["start"]:e["end"] + 1], "label": ""}
                    for e in item["passage"]["entities"]]
            for qa in item["qas"]:
                rows.append({"id": f"{pid}-{qa['idx']}", "passage_id": pid, "article_id": pid,
                             "passage": text, "entities": ents, "query": qa["query"],
                             "answers": [{"start": a["start"], "end": a["end"] + 1,
                                          "text": a["text"]} for a in qa["answers"]]})
    return rows


def by_passage(rows) -> dict:
    out = {}
    for r in rows:
        out.setdefault(r["passage_id"], []).append(r)
    return out


class LetterReader:
    """A real, cheap reader: normalised letter counts (picklable, so Beam can ship it)."""

    def __init__(self):
        self.calls = []

    def encode(self, texts):
        self.calls.append(list(texts))
        out = np.array([[t.lower().count(ch) for ch in "abcdefghijklmnopqrstuvwxyz"]
                        for t in texts], dtype=np.float32) + 1e-3
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def rows(record_format_dir):
    rows = record_rows(record_format_dir)
    assert max(len(v) for v in by_passage(rows).values()) > 1   # passages with several queries
    return rows


@pytest.fixture(scope="module")
def encoder():
    return embedding_reader.SentenceEncoder()


def test_a_passage_is_encoded_once_and_scores_as_row_by_row(rows):
    for group in by_passage(rows).values():
        reader = LetterReader()
        got = embedding_reader.passage_predictions(group, reader.encode)
        assert len(reader.calls) == 1                      # sentences + every filled query
        texts = reader.calls[0]
        assert len(texts) == len(set(texts))               # each text encoded once
        assert got == [embedding_reader.predict(r, LetterReader().encode) for r in group]


def test_minilm_predictions_batched_across_queries_equal_one_query_at_a_time(rows, encoder):
    groups = list(by_passage(rows).values())
    batched = [p for g in groups for p in embedding_reader.passage_predictions(g, encoder.encode)]
    alone = [embedding_reader.predict(r, encoder) for g in groups for r in g]
    assert batched == alone
    gold = [any(p == a["text"] for a in r["answers"]) for p, r in
            zip(batched, (r for g in groups for r in g))]
    assert 0 < sum(gold) < len(gold)                       # a real reader: some right


def test_a_row_that_cannot_be_scored_gets_none_and_no_cell(rows):
    group = by_passage(rows)[rows[0]["passage_id"]]
    broken = dict(group[0], id="broken", query="no placeholder here")
    got = embedding_reader.passage_predictions([broken] + group, LetterReader().encode)
    assert got[0] is None and all(p is not None for p in got[1:])
    assert embedding_reader.passage_predictions([broken], LetterReader().encode) == [None]


def _pipeline_predictions(groups, max_batch_size):
    handler = PassageReaderHandler(LetterReader, max_batch_size=max_batch_size)
    with BeamPipeline() as p:
        out = (p | beam.Create(sorted(groups.items()))
               | RunInference(handler)
               | beam.Map(lambda r: (r.example[0], r.inference)))
        expected = [(pid, embedding_reader.passage_predictions(g, LetterReader().encode))
                    for pid, g in groups.items()]
        assert_that(out, equal_to(expected))


@pytest.mark.parametrize("max_batch_size", [1, 8])
def test_runinference_handler_takes_any_reader_and_any_batching(rows, max_batch_size):
    _pipeline_predictions(by_passage(rows), max_batch_size)


def test_reader_cells_follow_each_rows_split_and_fate(rows):
    group = next(g for g in by_passage(rows).values() if len(g) > 1)[:2]
    article = {"released": [dict(group[0], split="dev")], "kept": [{"id": group[0]["id"]}],
               "cand": [dict(r, adversary_correct=False) for r in group]}
    (pid, items), = list(report_mod.reader_passages(("a", article)))
    assert [(r["id"], s, f) for r, s, f in items] == [
        (group[0]["id"], "dev", "released"), (group[1]["id"], "dev", "dropped")]
    key, element = report_mod._keyed_by_fates((pid, items))
    from apache_beam.ml.inference.base import PredictionResult
    preds = [group[0]["answers"][0]["text"], None]
    cells = list(report_mod.reader_cells((key, PredictionResult(element, preds))))
    assert sorted(k for k, _ in cells) == [("reader", w, s) for w in ("dev", "overall")
                                           for s in ("candidates", "released")]
    assert all(v == (group[0]["id"], (1.0, 1.0)) for _, v in cells)


@pytest.mark.fast
def test_reader_sample_takes_about_the_cap_by_query_id_and_all_below_it():
    ids = [f"q{i:05d}" for i in range(20_000)]
    assert all(report_mod.in_reader_sample(q, 1_500, 2_000) for q in ids[:1_500])
    assert all(report_mod.in_reader_sample(q, 20_000, 0) for q in ids[:100])   # 0: all
    kept = [q for q in ids if report_mod.in_reader_sample(q, 20_000, 2_000)]
    assert 1_850 < len(kept) < 2_150                         # binomial around the cap
    assert kept == [q for q in ids if report_mod.in_reader_sample(q, 20_000, 2_000)]
    article = {"released": [], "kept": [], "cand": [dict(id=q, passage_id="p", article_id="a",
                                                         split="dev") for q in ids[:10]]}
    article["released"] = [dict(article["cand"][0], split="dev")]
    all_rows = list(report_mod.reader_passages(("a", article), {"dev": 10}, 2_000))
    few_rows = list(report_mod.reader_passages(("a", article), {"dev": 10_000}, 2_000))
    assert len(all_rows[0][1]) == 10 and sum(len(i) for _, i in few_rows) < 10


@pytest.mark.fast
def test_precision_auto_is_bf16_only_on_a_cpu_with_native_bfloat16(tmp_path):
    amx, avx, old = (tmp_path / n for n in ("amx", "avx", "old"))
    amx.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx512f amx_bf16 amx_tile\n")
    avx.write_text("flags\t\t: fpu avx512f avx512_bf16\n")
    old.write_text("flags\t\t: fpu sse2 avx2 avx512f avx512bw\n")     # AVX512, no bf16
    assert embedding_reader.native_bf16(str(amx)) and embedding_reader.native_bf16(str(avx))
    assert not embedding_reader.native_bf16(str(old))
    assert not embedding_reader.native_bf16(str(tmp_path / "absent"))
    assert embedding_reader.resolve_precision("fp32") == "fp32"
    assert embedding_reader.resolve_precision("bf16") == "bf16"
    assert embedding_reader.resolve_precision("auto") in ("bf16", "fp32")
    with pytest.raises(ValueError, match="precision must be one of"):
        embedding_reader.resolve_precision("int8")
    from transforms.finalize.report.hardness_settings import HardnessSettings
    with pytest.raises(ValueError, match="hardness_reader_precision"):
        HardnessSettings(hardness_reader_precision="fp16")


def test_bf16_reader_embeds_and_predicts_as_fp32_does(rows, encoder):
    """bfloat16 weights (the default where the CPU has them) move a text's embedding by a
    cosine of 1e-3 at most and leave the predictions of the real ReCoRD sample as fp32's
    (but for near ties); batched across a passage's queries or one query at a time alike."""
    bf16 = embedding_reader.SentenceEncoder(precision="bf16")
    assert bf16.precision == "bf16" and encoder.precision == "fp32"
    groups = list(by_passage(rows).values())
    texts = [t for g in groups for t in embedding_reader.passage_plan(g)[0]]
    a, b = encoder(texts), bf16(texts)
    assert b.dtype == np.float32 and np.allclose(np.linalg.norm(b, axis=1), 1, atol=1e-5)
    assert (a * b).sum(axis=1).min() > 0.999
    fp = [p for g in groups for p in embedding_reader.passage_predictions(g, encoder.encode)]
    bp = [p for g in groups for p in embedding_reader.passage_predictions(g, bf16.encode)]
    alone = [embedding_reader.predict(r, bf16) for g in groups for r in g]
    assert bp == alone
    assert sum(x == y for x, y in zip(fp, bp)) >= 0.9 * len(fp)


def test_precision_benchmark_scores_both_precisions_on_the_same_candidates(rows):
    """benchmarks/reader_precision.py: both precisions on the same real passages, with EM,
    agreement and CPU seconds (no timing assertion: benchmarks are not timed tests)."""
    from benchmarks import reader_precision
    groups = list(by_passage(rows).values())[:3]
    out = reader_precision.measure(groups, ("fp32", "bf16"))
    n = sum(len(g) for g in groups)
    assert out["candidates"] == n and out["fp32"]["agree_with_fp32"] == 1.0
    for p in ("fp32", "bf16"):
        cell = out[p]["candidates"]
        assert cell["n"] == n and cell["ci95"][0] <= cell["em"] <= cell["ci95"][1]
        assert out[p]["cpu_s"] > 0 and 0 <= out[p]["agree_with_fp32"] <= 1


@pytest.mark.fast
def test_several_passages_in_one_encode_call_score_as_each_alone(rows):
    """`batch_predictions` (the handler's scoring): one encode call over the texts of
    several passages, each text once, the same predictions as passage by passage."""
    groups = list(by_passage(rows).values())
    reader = LetterReader()
    got = embedding_reader.batch_predictions(groups, reader.encode)
    assert len(reader.calls) == 1
    texts = reader.calls[0]
    assert len(texts) == len(set(texts))
    assert set(texts) == {t for g in groups for t in embedding_reader.passage_plan(g)[0]}
    assert got == [embedding_reader.passage_predictions(g, LetterReader().encode)
                   for g in groups]
    broken = dict(groups[0][0], id="broken", query="no placeholder here")
    assert embedding_reader.batch_predictions([[broken], groups[0]], LetterReader().encode)[
        0] == [None]
    assert embedding_reader.batch_predictions([[broken]], reader.encode) == [[None]]
    assert len(reader.calls) == 1                             # nothing to score: no call


def test_minilm_embeds_a_text_as_its_batch_mates_do_not_matter(rows, encoder):
    """A text's MiniLM embedding with other passages' texts in its batch is the one it gets
    in its own passage's batch (attention masks; float rounding only), and so are the
    predictions of the real ReCoRD sample."""
    groups = list(by_passage(rows).values())
    alone = [embedding_reader.passage_predictions(g, encoder.encode) for g in groups]
    assert embedding_reader.batch_predictions(groups, encoder.encode) == alone
    texts = embedding_reader.passage_plan(groups[0])[0]
    mixed = embedding_reader.batch_plan(groups[1:] + groups[:1])[0]
    a, b = encoder(texts), encoder(mixed)
    at = {t: i for i, t in enumerate(mixed)}
    assert np.abs(a - b[[at[t] for t in texts]]).max() < 1e-5


@pytest.mark.fast
def test_a_bfloat16_reader_is_never_given_two_passages_in_one_call(rows):
    """bfloat16 embeddings move with their batch mates (docs/benchmarks.md "Third pass"):
    such a reader scores one passage per encode call, a float32 one a whole batch."""
    groups = list(by_passage(rows).items())[:3]
    for precision, calls in (("bf16", 3), ("fp32", 1), (None, 1)):
        reader = LetterReader()
        if precision:
            reader.precision = precision
        handler = PassageReaderHandler(lambda: reader)
        got = [r.inference for r in handler.run_inference(groups, reader)]
        assert len(reader.calls) == calls
        assert got == [embedding_reader.passage_predictions(g, LetterReader().encode)
                       for _, g in groups]
