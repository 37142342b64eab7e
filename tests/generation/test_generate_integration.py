"""The generation job end to end on the real corpus in ../shared/corpus: every invariant
of docs/dataset-contract.md that applies to candidates, and the funnel's accounting."""
import glob
import json

import pyarrow.parquet as pq
import pytest

from transforms.core.schema import CANDIDATE_SCHEMA, REJECTED_SCHEMA


@pytest.fixture(scope="module")
def candidates(generated_dir):
    files = sorted(glob.glob(str(generated_dir / "candidates" / "*.parquet")))
    assert files
    return pq.read_table(files)


@pytest.fixture(scope="module")
def stats(generated_dir):
    return json.loads((generated_dir / "stats" / "generate.json").read_text())


def test_schema_is_the_contract(candidates):
    assert candidates.schema.equals(CANDIDATE_SCHEMA, check_metadata=False)


def test_every_row_satisfies_the_contract(candidates):
    rows = candidates.to_pylist()
    assert len(rows) > 300
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)), "query ids must be unique"
    passage_of_article = {}
    for r in rows:
        p = r["passage"]
        for e in r["entities"]:
            assert p[e["start"]:e["end"]] == e["text"], (r["id"], e)
        spans = {(e["start"], e["end"]) for e in r["entities"]}
        assert r["query"].count("@placeholder") == 1, r["id"]
        assert r["answers"], r["id"]
        for a in r["answers"]:
            assert p[a["start"]:a["end"]] == a["text"], (r["id"], a)
            assert (a["start"], a["end"]) in spans, (r["id"], a)
        assert "\n@highlight\n" in p
        assert 0 <= r["fold"] < 5
        # the publisher comes from the file or record, never from a dateline
        # (a CNN story with a Reuters dateline is CNN's)
        assert r["source"] in ("cnn", "dailymail")
        assert r["origin"] == "public"
        # one passage per article, and every query of an article in one fold
        assert passage_of_article.setdefault(r["article_id"], (r["passage_id"], r["fold"])) \
            == (r["passage_id"], r["fold"])


def test_funnel_accounts_for_everything(stats, generated_dir):
    assert stats["gaps"] == []
    stages = stats["stages"]
    from transforms.generation.stage import STEPS
    assert list(stages) == [s.name for s in STEPS]
    assert stages["files"]["in"] == 20 + 1 and stages["read"]["in"] == 20 + 250
    previous = None
    for name, s in stages.items():
        if not s.get("expand"):
            assert s["in"] == s["out"] + s["rejected"], name
        if previous is not None:
            assert s["in"] == previous, name   # each step takes what the one before gave
        previous = s["out"]
    # every rejected row was written, with its stage and reason
    rejected = pq.read_table(sorted(glob.glob(str(generated_dir / "rejected" / "*.parquet"))))
    assert rejected.schema.equals(REJECTED_SCHEMA, check_metadata=False)
    assert rejected.num_rows == sum(s["rejected"] for s in stages.values())
    assert stats["summary"]["queries"] == stages["query"]["out"]


def test_passages_look_like_record(stats):
    s = stats["summary"]
    # ReCoRD Table 1: 169.5 tokens/passage, 17.8 entities/passage; about 4.5 queries/article
    assert 140 <= s["tokens_per_passage"] <= 220
    assert 8 <= s["entities_per_passage"] <= 25
    assert s["queries_per_article"] >= 1.5
