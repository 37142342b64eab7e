"""train_folds' first steps: every candidate featurized once (the featurizer is the same for
every fold: the lexical config, or the transformer's tokenizer) and written to Parquet
shards that each fold's trainer streams (paper section 3.3).

- `featurize` (StepFn): candidate row -> (shard, featurized row) with its fold
  `fold_of(article_id, k)`; a row that cannot be featurized keeps its reason (`error`).
- `shard`: `ceil(rows / shard_rows)` shards from the row count; a row goes to shard
  `stable_hash(id) % n`, so which shard holds a row depends only on the data. One call
  receives one shard (GroupByKey), sorts it by id and writes it: it holds about
  `shard_rows` rows (`max_group`), whatever the corpus size.
- per fold, its articles' count and digest (sum of SHA-256 of the distinct article ids,
  mod 2^256: order-free, so no call holds a fold's article ids): Distinct +
  CombinePerKey.
"""
import hashlib
import math

import apache_beam as beam

from models import reader_module
from models.featurized import featurized_row, write_shard
from transforms.core.accounting import COUNTS, Count, StepFn, Uncounted
from transforms.core.hashing import fold_of, stable_hash
from transforms.core.io_utils import join

FEATURIZED = "featurized"      # DIR/adversary/featurized/
DIGEST_MOD = 2 ** 256


def shard_count(rows: int, shard_rows: int) -> int:
    return max(1, math.ceil(rows / shard_rows))


def shard_of(query_id: str, total: int) -> int:
    return stable_hash(query_id, salt="featurized") % total


def shard_name(index: int, total: int) -> str:
    return f"shard-{index:05d}-of-{total:05d}.parquet"


def article_hash(article_id: str) -> int:
    return int.from_bytes(hashlib.sha256(article_id.encode("utf-8")).digest(), "big")


def articles_digest(article_ids) -> str:
    """The digest of a set of articles (what the fold metadata records)."""
    total = sum(article_hash(a) for a in set(article_ids)) % DIGEST_MOD
    return f"{total:064x}"


def combine_digests(parts) -> str:
    return f"{sum(int(p, 16) for p in parts) % DIGEST_MOD:064x}"


class FeaturizeFn(StepFn):
    """candidate row -> (shard, featurized row); counts unscorable rows, rows whose
    candidates miss the answer, and rows whose `fold` column is not fold_of(article_id, k)."""
    step = "featurize"

    def __init__(self, settings):
        self.settings = settings
        self.featurizer = None

    def setup(self):
        s = self.settings
        self.featurizer = reader_module(s.model).make_featurizer(s.reader_config())

    def apply(self, row, total):
        s = self.settings
        fold = fold_of(row["article_id"], s.folds)
        if row.get("fold") != fold:
            yield Count(self.step, "fold_column_disagrees")
        out = featurized_row(row, fold, self.featurizer)
        if out["error"] is not None:
            yield Count(self.step, "unscorable")
        elif not any(out["gold"]):
            yield Count(self.step, "no_answer_candidate")
        yield shard_of(out["id"], shard_count(total, s.shard_rows)), out


class WriteShardFn(StepFn):
    """(shard, rows) -> the shard file, rows in id order; yields (url, rows)."""
    step = "shard"

    def __init__(self, folder: str, shard_rows: int):
        self.folder, self.shard_rows = folder, shard_rows

    def units(self, element) -> int:
        return 0            # counted in apply: the group is an iterable

    def apply(self, item, total):
        index, rows = item
        rows = sorted(rows, key=lambda r: r["id"])
        n = len(rows)
        for key in ("in", "out", "max_group", "max_rows_in_memory"):
            yield Count(self.step, key, n)
        url = join(self.folder, shard_name(index, shard_count(total, self.shard_rows)))
        write_shard(url, rows)
        yield Uncounted((url, n))


class ArticleDigest(beam.CombineFn):
    """(count, sum of article hashes mod 2^256) of one fold's distinct articles."""

    def create_accumulator(self):
        return 0, 0

    def add_input(self, acc, h):
        return acc[0] + 1, (acc[1] + h) % DIGEST_MOD

    def merge_accumulators(self, accs):
        n, total = 0, 0
        for a, b in accs:
            n, total = n + a, (total + b) % DIGEST_MOD
        return n, total

    def extract_output(self, acc):
        return {"articles": acc[0], "digest": f"{acc[1]:064x}"}


class FeaturizeCandidates(beam.PTransform):
    """Candidate rows -> (shards: (url, rows) per shard, per-fold article summaries
    {fold: {articles, digest}}, counts of `featurize` and `shard`). `total`: the number
    of candidate rows when known beforehand (else counted in the job)."""

    def __init__(self, settings, output: str, total=None):
        super().__init__()
        self.settings, self.folder, self.total = settings, join(output, FEATURIZED), total

    def expand(self, rows):
        s = self.settings
        # The row count fixes the shard count. Known (the candidates' manifest), it is a
        # constant, so reading and featurizing fuse and no row crosses the runner; counted
        # here, the count is a side input that makes the runner hold every row in between.
        total = self.total if self.total is not None else beam.pvalue.AsSingleton(
            rows | "CountRows" >> beam.combiners.Count.Globally())
        feats = rows | "Featurize" >> beam.ParDo(FeaturizeFn(s), total).with_outputs(
            COUNTS, main="main")
        written = (feats.main
                   | "GroupByShard" >> beam.GroupByKey()
                   | "WriteShard" >> beam.ParDo(WriteShardFn(self.folder, s.shard_rows),
                                                total).with_outputs(COUNTS, main="main"))
        articles = (feats.main
                    | "FoldArticle" >> beam.Map(lambda kv: (kv[1]["fold"], kv[1]["article_id"]))
                    | "DistinctArticles" >> beam.Distinct()
                    | "ArticleHash" >> beam.Map(lambda fa: (fa[0], article_hash(fa[1])))
                    | "PerFold" >> beam.CombinePerKey(ArticleDigest()))
        counts = (feats[COUNTS], written[COUNTS]) | "FeaturizeCounts" >> beam.Flatten()
        return written.main, articles, counts
