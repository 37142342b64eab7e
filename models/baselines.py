"""Partial-input baselines of the hardness report: small linear rankers that see only part
of a query, trained on the released train split (the lexical reader's model and loop).

- query-only: the query and the passage's entity list (distinct texts with their entity
  type), not the passage: no counts, no positions, no context. It learns type fit
  (which entity type fills a placeholder between these words) and word overlap.
- passage-only: the passage and its entities, not the query: mention counts, alias
  cluster size, highlights, first position, type. It learns "which entity a passage is
  about", the prior a most-frequent-entity rule hard-codes.

Either one scoring well above a random candidate means the data can be answered without
reading what the task is about.
"""
import math

import numpy as np

from models.configs import LexicalConfig
from models.features import (
    DENSE_FEATURES,
    PLACEHOLDER,
    bucket,
    candidates,
    check_query,
    content,
    lexical_features,
    words,
)

PASSAGE_ONLY_FEATURES = ("log_count", "count_share", "cluster_count", "in_highlights",
                         "highlight_count", "first_position", "first_rank", "n_tokens")
_PASSAGE_COLUMNS = [DENSE_FEATURES.index(n) for n in PASSAGE_ONLY_FEATURES]
QUERY_ONLY_FEATURES = ("in_query", "words_in_query", "content_words_in_query", "n_tokens")
N_BUCKETS = 4096


def _example(n: int, dense: list, sparse: list) -> dict:
    return {"dense": np.asarray(dense, dtype=np.float32).reshape(n, -1),
            "sparse": np.asarray(sparse, dtype=np.int64).reshape(n, -1),
            "n_cand": np.asarray([n], dtype=np.int64)}


def query_only_features(row: dict):
    """(candidates, example): what the query and the entity list alone say. Candidates stay
    in passage order only to line up with the other readers; no feature depends on it."""
    query, cands = check_query(row), candidates(row)
    left, right = query.split(PLACEHOLDER)
    lw = (words(left)[-1:] or ["<s>"])[0]
    rw = (words(right)[:1] or ["</s>"])[0]
    lw2 = " ".join(words(left)[-2:])
    q_lower, q_words = query.lower(), set(words(query))
    q_content = set(content(q_words))
    dense, sparse = [], []
    for c in cands:
        cw = words(c.text)
        low, lab = c.text.lower(), c.label or "NONE"
        dense.append([float(low in q_lower), sum(w in q_words for w in cw) / max(1, len(cw)),
                      sum(w in q_content for w in content(cw)) / max(1, len(content(cw))),
                      math.log1p(len(cw))])
        sparse.append([bucket("q-label", lab, n=N_BUCKETS),
                       bucket("q-left", lw, lab, n=N_BUCKETS),
                       bucket("q-right", rw, lab, n=N_BUCKETS),
                       bucket("q-left2", lw2, lab, n=N_BUCKETS),
                       bucket("q-inq", lab, str(low in q_lower), n=N_BUCKETS)])
    return cands, _example(len(cands), dense, sparse)


def passage_only_features(row: dict):
    """(candidates, example): what the passage and its entities alone say (the query is
    replaced by a bare placeholder before the shared feature code sees it)."""
    blind = dict(row, query=PLACEHOLDER)
    cands, dense, _ = lexical_features(blind)
    dense = [[d[i] for i in _PASSAGE_COLUMNS] for d in dense]
    passage = row["passage"]
    hl = passage.find("\n@highlight\n")
    sparse = [[bucket("p-label", c.label or "NONE", n=N_BUCKETS),
               bucket("p-hl", c.label or "NONE",
                      str(hl >= 0 and any(s >= hl for s, _ in c.mentions)), n=N_BUCKETS)]
              for c in cands]
    return cands, _example(len(cands), dense, sparse)


FEATURIZERS = {"query_only": query_only_features, "passage_only": passage_only_features}
N_DENSE = {"query_only": len(QUERY_ONLY_FEATURES), "passage_only": len(PASSAGE_ONLY_FEATURES)}


def train(name: str, rows, seed: int = 13, config: LexicalConfig = LexicalConfig(),
          featurizer=None):
    """The baseline `name` fitted on `rows` (each with its answers): a state dict and the
    number of queries used (rows without an answer among their candidates are skipped).
    `featurizer`: FEATURIZERS[name] or a caching wrapper of it."""
    from models.training import featurize
    data = featurize(rows, featurizer or FEATURIZERS[name])
    model = fit(name, data, seed, config)
    return {"name": name, "state": {k: v.clone() for k, v in model.state_dict().items()},
            "queries": len(data.examples)}


def fit(name: str, data, seed: int = 13, config: LexicalConfig = LexicalConfig()):
    """A fresh baseline `name` trained on featurized rows (`models.training.Featurized`):
    the model itself, in eval mode (the out-of-fold check predicts with it at once)."""
    from models.lexical import Reader
    from models.training import seed_everything, torch_threads, train_loop
    seed_everything(seed)
    model = Reader(N_DENSE[name], N_BUCKETS)
    if data.examples:
        with torch_threads(1):
            train_loop(model, data, lr=config.lr, epochs=config.epochs,
                       batch_size=config.batch_size, seed=seed,
                       weight_decay=config.weight_decay, label=f"hardness baseline {name}")
    model.eval()
    return model


class Predictor:
    """A trained baseline (what `train` returns) -> the predicted text of a row."""

    def __init__(self, trained: dict):
        import torch

        from models.lexical import Reader
        self.name = trained["name"]
        self.model = Reader(N_DENSE[self.name], N_BUCKETS)
        self.model.load_state_dict(trained["state"])
        self.model.eval()
        self.torch = torch

    def __call__(self, row: dict) -> str:
        from models.batching import score_batch
        cands, example = FEATURIZERS[self.name](row)
        scores = score_batch(self.model, [example], "cpu")[0]
        return cands[int(self.torch.argmax(scores))].text        # ties: first candidate
