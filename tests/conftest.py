"""Shared fixtures. Integration tests use the real corpus in ../shared/corpus and skip
with a clear reason where it is absent (it is never copied into the repository)."""
import os
import pathlib

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# TestPipeline defaults to the DirectRunner, which first tries to download the Prism runner
# binary; nothing may download at run time, so tests run on the local FnApiRunner directly.
from apache_beam.testing.test_pipeline import TestPipeline  # noqa: E402

TestPipeline.pytest_test_pipeline_options = "--runner=FnApiRunner"

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS = pathlib.Path(os.environ.get("RECORD_CORPUS_DIR", REPO.parent / "shared" / "corpus"))


@pytest.fixture(scope="session")
def corpus_dir() -> pathlib.Path:
    if not CORPUS.is_dir():
        pytest.skip(f"real corpus not found at {CORPUS} (set RECORD_CORPUS_DIR); "
                    "integration tests need ../shared/corpus beside the checkout")
    return CORPUS


@pytest.fixture(scope="session")
def record_format_dir(corpus_dir) -> pathlib.Path:
    return corpus_dir / "record_format"


@pytest.fixture(scope="session")
def annotator():
    """The real spaCy pipeline the job uses, loaded once per test session."""
    from transforms.curation.annotation import Annotator
    return Annotator()


@pytest.fixture(scope="session")
def generated_dir(corpus_dir, tmp_path_factory):
    """One in-process run of the generation job over the real corpus (CNN stories and
    the 250 CNN/Daily Mail test articles), shared by the tests that read its output."""
    from beam_pipelines import generate
    out = tmp_path_factory.mktemp("generated")
    generate.run(["--input", str(corpus_dir / "cnn_stories" / "*.story"),
                  "--input", str(corpus_dir / "cnndm_test250.jsonl"),
                  "--output", str(out), "--workers", "1"])
    return out
