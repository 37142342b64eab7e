"""The input-layout registry (transforms/ingestion/registry.py, issue 30 item 2): every
layout module is registered, names and extensions are claimed once, and pre-flight, the part
planner and the reader find a file's layout there."""
import importlib
import pkgutil

import pytest

from transforms.ingestion import inputs, layouts, registry
from transforms.ingestion.layout import Layout
from transforms.ingestion.parts import plan_parts

pytestmark = pytest.mark.fast


def _modules():
    return [importlib.import_module(f"{layouts.__name__}.{m.name}")
            for m in pkgutil.iter_modules(layouts.__path__)]


def test_every_layout_module_is_registered_once():
    declared = [m.LAYOUT for m in _modules()]
    assert declared and all(isinstance(layout, Layout) for layout in declared)
    assert sorted(l.name for l in declared) == sorted(l.name for l in registry.LAYOUTS)
    assert len(set(map(id, registry.LAYOUTS))) == len(registry.LAYOUTS)


def test_a_name_or_extension_claimed_twice_is_refused():
    one = registry.LAYOUTS[0]
    clash = Layout(name="other", extensions=one.extensions[:1], read=one.read, help=".x")
    with pytest.raises(ValueError, match="claimed by layouts"):
        registry._index((one, clash))
    with pytest.raises(ValueError, match="lower case"):
        registry._index((Layout(name="x", extensions=("TSV",), read=one.read, help=".x"),))


@pytest.mark.parametrize("layout", registry.LAYOUTS, ids=lambda l: l.name)
def test_each_layout_is_found_by_its_extensions(layout):
    for ext in layout.extensions:
        for name in (f"d/a.{ext}", f"gs://b/A.{ext.upper()}.gz"):
            assert registry.layout_of(name) is layout
            assert registry.file_type(name) == layout.name
    assert registry.by_name(layout.name) is layout
    assert layout.help in registry.KINDS_HELP
    assert inputs.default_origin(f"a.{layout.extensions[0]}", "") == layout.origin
    # a split layout declares how it counts and estimates too
    assert not layout.split or (layout.count and layout.estimate)


def test_unknown_names_have_no_layout():
    for name in ("x.docx", "README", "x.gz", "dir.story/file", "x.story.bak"):
        assert registry.layout_of(name) is None and registry.file_type(name) == ""


def test_only_large_uncompressed_files_of_a_splitting_layout_are_cut(tmp_path):
    big = tmp_path / "a.jsonl"
    big.write_bytes(b'{"id": 1}\n' * 500)
    size = big.stat().st_size
    assert len(plan_parts(str(big), "public", size, 1000)) == 5
    assert len(plan_parts(str(big), "public", size, 1000, cap=3)) == 1
    story = tmp_path / "a.story"
    story.write_bytes(b"x" * 5000)
    assert [p.kind for p in plan_parts(str(story), "public", 5000, 1000)] == ["story"]


def test_pre_flight_messages_name_the_registered_layouts(tmp_path):
    from transforms.core.preflight import InputError
    (tmp_path / "a.docx").write_bytes(b"PK")
    (tmp_path / "a.txt").write_text("Title\n\nBody.\n")
    with pytest.raises(InputError, match="no input file has a layout") as refused:
        inputs.list_inputs([str(tmp_path / "*.docx")])
    assert all(layout.help in str(refused.value) for layout in registry.LAYOUTS)
    with pytest.raises(InputError, match="column names apply to") as refused:
        inputs.list_inputs([inputs.InputSpec(str(tmp_path / "*.txt"), columns=(("text", "b"),))])
    named = str(refused.value).split("apply to ")[1]
    mapped = [layout.help in named for layout in registry.LAYOUTS]
    assert mapped == [layout.mapped for layout in registry.LAYOUTS] and any(mapped)


def test_the_worked_example_in_docs_is_the_code():
    """docs/pipeline.md, "Adding an input layout", shows tsv_table.py and its test as they are."""
    import pathlib
    import re
    root = pathlib.Path(__file__).parents[2]
    doc = (root / "docs" / "pipeline.md").read_text()
    section = doc[doc.index("#### Adding an input layout"):]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    module = (root / "transforms/ingestion/layouts/tsv_table.py").read_text()
    assert module.endswith(blocks[0]) and blocks[0].startswith("import ")
    assert "    tsv_table.LAYOUT," in blocks[1]
    assert "    tsv_table.LAYOUT," in (root / "transforms/ingestion/registry.py").read_text()
    assert blocks[2].startswith("def test_") and blocks[2] in (
        root / "tests" / "ingestion" / "test_tsv_layout.py").read_text()
