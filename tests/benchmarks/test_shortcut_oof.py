"""benchmarks/shortcut_oof.py: the article-cluster bootstrap behind docs/adversary.md's
"released minus candidates" figures (the measurement itself runs on a build: see its
docstring)."""
import pytest

from benchmarks.shortcut_oof import cluster_diff

pytestmark = pytest.mark.fast


def _rows(per_article: dict) -> tuple:
    """{article: [EM, ...]} -> (rows, {id: EM})."""
    rows, em = [], {}
    for art, values in per_article.items():
        for j, v in enumerate(values):
            rows.append({"id": f"{art}-{j}", "article_id": art})
            em[f"{art}-{j}"] = v
    return rows, em


def test_a_subset_against_its_superset_is_paired():
    rows, em = _rows({f"a{i}": [i % 2, 0, 1] for i in range(40)})
    everything = {r["id"] for r in rows}
    firsts = {r["id"] for r in rows if r["id"].endswith("-0")}
    same = cluster_diff(rows, em, everything, everything, reps=300)
    assert same["diff"] == 0 and same["diff_ci"] == [0.0, 0.0]
    assert same["n_a"] == same["n_b"] == 120
    d = cluster_diff(rows, em, firsts, everything, reps=300)
    assert (d["a"], d["b"], d["n_a"]) == (50.0, 50.0, 40)
    assert d["diff_ci"][0] < 0 < d["diff_ci"][1]


def test_clustered_articles_widen_the_interval():
    """Every query of an article scores alike: the interval is that of 20 articles, not of
    200 queries (a query-level bootstrap would be about sqrt(10) times narrower)."""
    rows, em = _rows({f"a{i}": [float(i % 2)] * 10 for i in range(20)})
    ids = {r["id"] for r in rows}
    lo, hi = cluster_diff(rows, em, ids, ids, reps=1000)["a_ci"]
    assert hi - lo > 30          # 20 clusters at p 0.5: about +/- 22 points
