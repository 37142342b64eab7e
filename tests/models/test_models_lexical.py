"""Candidates, lexical features and the lexical reader, on real ReCoRD queries
(../shared/corpus/record_format, converted to the candidate layout: exclusive `end`)."""
import json

import numpy as np
import pytest
import torch

from models.batching import MASKED, pad_batch, score_loop
from models.features import (
    DENSE_FEATURES,
    ScoringError,
    candidates,
    correct_mask,
    lexical_features,
    sentence_spans,
)
from models.lexical import Featurizer, LexicalConfig, Reader, build, fit
from models.training import cloze_loss, evaluate, featurize, seed_everything
from transforms.core.hashing import fold_of

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


def record_rows(record_format_dir) -> list:
    """Candidate rows from the official ReCoRD JSON and the SuperGLUE JSONL (inclusive end)."""
    data = json.loads((record_format_dir / "allennlp_models_record.json").read_text())["data"]
    for split in ("train", "val"):
        with open(record_format_dir / "superglue_jsonl" / f"{split}.jsonl") as f:
            data += [json.loads(line) for line in f]
    rows = []
    for d in data:
        text = d["passage"]["text"]
        ents = [{"start": e["start"], "end": e["end"] + 1, "text": text[e["start"]:e["end"] + 1],
                 "label": ""} for e in d["passage"]["entities"]]
        for qa in d["qas"]:
            article = str(qa.get("id", d.get("idx"))).split("-")[0]
            answers = [{"start": a["start"], "end": a["end"] + 1, "text": a["text"]}
                       for a in qa["answers"]]
            rows.append({"id": str(qa.get("id", qa.get("idx"))), "passage_id": article,
                         "article_id": article, "source": d["source"], "origin": "public",
                         "url": None, "passage": text, "entities": ents, "query": qa["query"],
                         "answers": answers, "fold": fold_of(article, 5)})
    return rows


@pytest.fixture(scope="module")
def rows(record_format_dir):
    return record_rows(record_format_dir)


def test_candidates_are_distinct_texts_and_answers_are_among_them(rows):
    assert len(rows) >= 5
    for row in rows:
        cands = candidates(row)
        texts = [c.text for c in cands]
        assert len(texts) == len(set(texts))
        assert all(row["passage"][s:e] == c.text for c in cands for s, e in c.mentions)
        assert any(correct_mask(row, cands)), row["id"]


def test_tracy_morgan_query_marks_both_aliases_correct(rows):
    row = next(r for r in rows if "Trainwreck Amy Schumer" in r["query"])
    cands = candidates(row)
    correct = {c.text for c, ok in zip(cands, correct_mask(row, cands)) if ok}
    assert correct == {"Tracy Morgan", "Morgan"}
    morgan = next(c for c in cands if c.text == "Morgan")
    assert len(morgan.mentions) == 4


@pytest.mark.parametrize("change, reason", [
    (lambda r: r.update(entities=[]), "no candidate entities"),
    (lambda r: r.update(query=r["query"] + " @placeholder"), "2 placeholders"),
    (lambda r: r.update(query="no placeholder"), "0 placeholders"),
    (lambda r: r["entities"].append({"start": 0, "end": 3, "text": "xyz", "label": ""}),
     "does not match"),
    (lambda r: r.update(passage=""), "empty passage"),
])
def test_bad_rows_raise_scoring_error_with_reason(rows, change, reason):
    row = json.loads(json.dumps(rows[0]))
    change(row)
    with pytest.raises(ScoringError, match=reason):
        lexical_features(row)


def test_lexical_features_see_frequency_and_highlights(rows):
    row = next(r for r in rows if "Trainwreck Amy Schumer" in r["query"])
    cands, dense, sparse = lexical_features(row)
    f = {c.text: dict(zip(DENSE_FEATURES, d)) for c, d in zip(cands, dense)}
    assert len(dense[0]) == len(DENSE_FEATURES) and len(sparse[0]) == 3
    assert f["Morgan"]["log_count"] == max(x["log_count"] for x in f.values())
    assert f["Morgan"]["cluster_count"] > f["Morgan"]["log_count"]   # + "Tracy Morgan"
    assert f["SNL"]["in_query"] == 1.0 and f["Morgan"]["in_query"] == 0.0
    hl = row["passage"].index("\n@highlight\n")
    for c in cands:
        assert f[c.text]["in_highlights"] == float(any(s >= hl for s, _ in c.mentions))


def test_sentence_spans_split_highlights():
    text = "First one. Second one!\n@highlight\nA highlight"
    spans = [text[s:e] for s, e in sentence_spans(text)]
    assert spans == ["First one.", "Second one!", "@highlight", "A highlight"]


def test_padding_does_not_change_scores(rows):
    seed_everything(0)
    model, fz, _ = build(LexicalConfig(), torch.device("cpu"))
    torch.nn.init.normal_(model.hashed.weight)
    examples = [fz(r)[1] for r in rows]
    alone = [score_loop(model, [e])[0] for e in examples]
    together = score_loop(model, examples, batch_size=len(examples))
    for a, t, e in zip(alone, together, examples):
        assert a.shape == t.shape == (int(e["n_cand"][0]),)
        torch.testing.assert_close(a, t)
    padded = model(**pad_batch(examples))
    short = min(range(len(examples)), key=lambda i: examples[i]["n_cand"][0])
    assert (padded[short, int(examples[short]["n_cand"][0]):] == MASKED).all()


def test_cloze_loss_is_minus_log_of_answer_cluster_mass():
    scores = torch.tensor([[2.0, 0.0, 1.0, 5.0]])   # last slot is padding
    gold = torch.tensor([[True, False, True, True]])
    loss = cloze_loss(scores, gold, torch.tensor([[3]]))
    p = torch.softmax(scores[0, :3], 0)
    torch.testing.assert_close(loss, -torch.log(p[0] + p[2]))


def test_written_out_step_is_autograds_gradient(rows):
    """`Reader.cloze_step` (what training runs) gives the loss and the gradient autograd
    gives for `cloze_loss`, on real ReCoRD batches with padded slots and repeated and
    padding bucket ids; with no hashed features the bucket weights get no gradient."""
    from models.training import InMemory
    data = featurize(rows, build(LexicalConfig(), torch.device("cpu"))[1])
    torch.manual_seed(0)
    for width in (None, 0):
        model = Reader(len(DENSE_FEATURES), 4096)
        with torch.no_grad():
            model.hashed.weight.normal_()
            model.hashed.weight[0] = 0.0
        for batch, gold, _ in list(InMemory(data).padded_epoch(
                16, torch.Generator().manual_seed(1)))[:3]:
            assert (batch["sparse"] == 0).any() and (batch["n_cand"] < gold.shape[1]).any()
            if width == 0:
                batch = dict(batch, sparse=batch["sparse"][..., :0])
            model.zero_grad()
            want = cloze_loss(model(**batch), gold, batch["n_cand"])
            want.backward()
            grads = {k: None if p.grad is None else p.grad.clone()
                     for k, p in model.named_parameters()}
            model.zero_grad()
            torch.testing.assert_close(model.cloze_step(batch, gold), want.detach())
            for k, p in model.named_parameters():
                if grads[k] is None:
                    assert p.grad is None and width == 0
                else:
                    torch.testing.assert_close(p.grad, grads[k], atol=1e-6, rtol=1e-4)
            assert grads["linear.weight"].abs().max() > 1e-3      # not vacuous
    # a row with no answer among its candidates: finite, as autograd's (no inf * 0)
    batch, gold, _ = next(InMemory(data).padded_epoch(4, torch.Generator().manual_seed(2)))
    gold[0] = False
    model.cloze_step(batch, gold)
    assert all(torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None)


def test_training_is_deterministic_and_fits_the_training_queries(rows):
    def train():
        seed_everything(7)
        model, fz, _ = build(LexicalConfig(epochs=60), torch.device("cpu"))
        data = featurize(rows, fz)
        history = fit(model, data, LexicalConfig(epochs=60), seed=7)
        return model, data, history

    (m1, data, h1), (m2, _, h2) = train(), train()
    assert h1 == {**h2, "seconds": h1["seconds"]}
    for a, b in zip(m1.state_dict().values(), m2.state_dict().values()):
        assert torch.equal(a, b)
    assert h1["final_loss"] < h1["first_loss"]
    result = evaluate(m1, data)
    assert result["accuracy"] > result["random_baseline"]


def test_stacked_batches_are_the_tensors_pad_batch_builds(rows):
    """Training pads the rows once (`Stacked`), not per batch: every batch must hold the
    very tensors `pad_batch` builds, so training gives the same weights either way."""
    from torch.nn.utils.rnn import pad_sequence

    from models.training import InMemory, Stacked, padded
    data = featurize(rows, build(LexicalConfig(), torch.device("cpu"))[1])
    stacked = Stacked.of(data.examples, data.gold)
    perm = torch.randperm(len(rows), generator=torch.Generator().manual_seed(0))[:5]
    for idx in (torch.tensor([0]), torch.tensor([3, 1, 2]), perm):
        batch, gold = stacked.take(idx)
        want = pad_batch([data.examples[i] for i in idx])
        assert batch.keys() == want.keys()
        for k in want:
            assert batch[k].dtype == want[k].dtype and torch.equal(batch[k], want[k])
            assert batch[k].is_contiguous()
        assert torch.equal(gold, pad_sequence([data.gold[i] for i in idx], batch_first=True))
    source = InMemory(data)
    got = list(source.padded_epoch(4, torch.Generator().manual_seed(3)))
    want = list(padded(source.epoch(4, torch.Generator().manual_seed(3))))
    assert [n for *_, n in got] == [n for *_, n in want] and len(got) > 1
    for (b, g, _), (wb, wg, _) in zip(got, want):
        assert all(torch.equal(b[k], wb[k]) for k in wb) and torch.equal(g, wg)
    assert Stacked.of([], []) is None
    # mixed dtypes (pad_sequence casts to the first's) or trailing shapes: padded per batch
    mixed = [dict(data.examples[0]), dict(data.examples[1])]
    mixed[1]["dense"] = mixed[1]["dense"].astype("float64")
    assert Stacked.of(mixed, data.gold[:2]) is None
    ragged = [dict(data.examples[0]), dict(data.examples[1])]
    ragged[1]["sparse"] = ragged[1]["sparse"][:, :1]
    assert Stacked.of(ragged, data.gold[:2]) is None


def test_training_without_stacking_gives_the_same_weights(rows, monkeypatch):
    """Rows too large to stack fall back to per-batch padding, with the same result."""
    from models.training import Stacked

    def trained():
        seed_everything(7)
        model, fz, _ = build(LexicalConfig(epochs=3), torch.device("cpu"))
        fit(model, featurize(rows, fz), LexicalConfig(epochs=3), seed=7)
        return model.state_dict()
    seen = []
    real_of = Stacked.of.__func__
    monkeypatch.setattr(Stacked, "of", classmethod(lambda c, e, g: seen.append(
        real_of(c, e, g)) or seen[-1]))
    stacked = trained()
    assert isinstance(seen[-1], Stacked)                 # the stacked path ran
    monkeypatch.setattr(Stacked, "MAX_BYTES", 0)
    per_batch = trained()
    assert seen[-1] is None                              # and here the per-batch one
    assert all(torch.equal(stacked[k], per_batch[k]) for k in stacked)


def test_featurizer_returns_numpy_arrays(rows):
    cands, ex = Featurizer()(rows[0])
    assert set(ex) == {"dense", "sparse", "n_cand"}
    assert all(isinstance(v, np.ndarray) for v in ex.values())
    assert ex["dense"].shape == (len(cands), len(DENSE_FEATURES)) and ex["n_cand"][0] == len(cands)
    assert Reader()(**pad_batch([ex])).shape == (1, len(cands))
