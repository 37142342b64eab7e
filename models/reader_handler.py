"""RunInference model handler of the hardness report's held-out reader.

One element is one passage with the dev/test queries to score on it: `(passage key, rows)`.
The handler loads the reader once per worker (Beam's shared model) and scores each batch of
elements (up to `max_batch_size` passages) with one `encode` call
(`models.embedding_reader.batch_predictions`): a passage's sentences are encoded once for
all its queries, and the texts of all the batch's passages fill the encoder's batches
together (one part-filled batch per passage cost ~25% more: docs/benchmarks.md). A text's
embedding depends on its batch mates only by float rounding (attention masks): in float32
~3e-7, no prediction of the real corpus' dev+test candidates changed; in bfloat16 ~2.5e-3,
one of 183 changed, so a bfloat16 reader scores one passage per call (`mixes_passages`),
same bytes whatever the bundling (docs/benchmarks.md, "Third pass").

Generic over the reader: `reader_factory` is any picklable callable returning an object
with `encode(texts) -> rows` (one L2-normalised row per text); the default is the frozen
MiniLM `SentenceEncoder` (`precision`: `auto`, `bf16` or `fp32`, resolved on the worker).
`predict` (rows, encode) -> predictions, if given, scores one passage per call instead.
"""
import functools
from typing import Any, Callable, Iterable, Optional, Sequence

from apache_beam.ml.inference.base import ModelHandler, PredictionResult


def default_reader(path: Optional[str] = None, threads: int = 1, batch_size: int = 64,
                   precision: str = "auto"):
    from models.embedding_reader import SentenceEncoder
    return SentenceEncoder(path, threads=threads, batch_size=batch_size, precision=precision)


class PassageReaderHandler(ModelHandler):
    """(passage key, [row, ...]) -> PredictionResult(element, [prediction or None per row])."""

    def __init__(self, reader_factory: Callable[[], Any] = default_reader,
                 predict: Optional[Callable] = None, max_batch_size: int = 8):
        super().__init__()
        self._factory = reader_factory
        self._predict = predict
        self._max_batch_size = max_batch_size

    def load_model(self):
        return self._factory()

    def run_inference(self, batch: Sequence, model, inference_args=None) -> Iterable:
        if self._predict is not None or not mixes_passages(model):
            from models.embedding_reader import passage_predictions
            predict = self._predict or passage_predictions
            for element in batch:
                yield PredictionResult(element, predict(list(element[1]), model.encode))
            return
        from models.embedding_reader import batch_predictions
        groups = [list(rows) for _, rows in batch]
        for element, predictions in zip(batch, batch_predictions(groups, model.encode)):
            yield PredictionResult(element, predictions)

    def get_num_bytes(self, batch) -> int:
        return sum(len(r.get("passage", "")) + len(r.get("query", "")) for _, rows in batch
                   for r in rows)

    def get_metrics_namespace(self) -> str:
        return "hardness_reader"

    def batch_elements_kwargs(self):
        # fixed-size batches: adaptive ones start at 1 passage, one part-filled encode each
        return {"min_batch_size": self._max_batch_size, "max_batch_size": self._max_batch_size}


def mixes_passages(model) -> bool:
    """Whether the handler may encode several passages in one call: not under bfloat16,
    where a text's embedding moves with its batch mates by ~2.5e-3 (1 of 183 real dev+test
    predictions changed, so the report's bytes would depend on the bundling); float32 moves
    it by ~3e-7 (no prediction changed; docs/benchmarks.md, "Third pass")."""
    return getattr(model, "precision", "fp32") != "bf16"


def reader_handler(path: Optional[str] = None, threads: int = 1, batch_size: int = 64,
                   precision: str = "auto") -> PassageReaderHandler:
    """The handler of the default reader (frozen MiniLM at `path`, or the packaged one)."""
    return PassageReaderHandler(functools.partial(default_reader, path, threads, batch_size,
                                                  precision))
