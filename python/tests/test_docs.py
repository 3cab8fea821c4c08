"""What help() and the type stubs show is what works."""

import ast
import csv
import json
import pathlib
import pydoc

import pytest
import stakeraid
from conftest import REPO, SPEC_EXAMPLES
from stakeraid import Move, Position


@pytest.mark.parametrize("cls", [Position, stakeraid.RootMove])
def test_help_lists_no_order_where_there_is_none(cls):
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert op not in text
    assert "__eq__" in text
    p = Position([[1, 2], [3, 4]])
    assert p == Position([[1, 2], [3, 4]]) and p != Position([[1, 2], [3, 5]])
    with pytest.raises(TypeError):
        _ = p < p


def test_help_lists_the_order_of_moves():
    assert "__lt__" in pydoc.render_doc(Move, renderer=pydoc.plaintext)


def test_the_stubs_show_no_test_hooks():
    stubs = pathlib.Path(stakeraid._core.__file__).with_name("_core.pyi").read_text()
    assert "_panic_for_tests" not in stubs
    assert "positive" not in stubs


def test_the_stubs_list_every_public_name_they_define():
    stubs = pathlib.Path(stakeraid._core.__file__).with_name("_core.pyi").read_text()
    tree = ast.parse(stubs)
    listed = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__"
    )
    defined = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and not node.name.startswith("_")
    }
    assert set(listed) == defined | {"__version__"}
    assert set(listed) <= set(dir(stakeraid._core))


def python_blocks(page):
    """The ```python blocks of ``page``, in order."""
    blocks, block = [], None
    for line in page.splitlines():
        if block is None and line == "```python":
            block = []
        elif block is not None and line.startswith("```"):
            blocks.append("\n".join(block) + "\n")
            block = None
        elif block is not None:
            block.append(line)
    return blocks


def printed(block):
    """What a block's ``print(...)  # TEXT`` lines say they print, in order."""
    return [
        line.split("  # ", 1)[1].strip()
        for line in block.splitlines()
        if line.startswith("print(") and "  # " in line
    ]


def run_block(block, folder, capsys, monkeypatch):
    monkeypatch.chdir(folder)
    exec(compile(block, "<docs>", "exec"), {"__name__": "__docs__"})
    return capsys.readouterr().out.splitlines()


GUIDES = [REPO / "docs" / "python.md", REPO / "python" / "README.md", REPO / "README.md"]


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: p.name)
def test_the_guides_python_examples_print_what_they_say(page, tmp_path, capsys, monkeypatch):
    """Every block of the Python guide and the package's README runs, and
    each commented print prints its comment: the Ray block on a cluster is
    the one left to test_cluster.py (``cluster.analyse_many``), the
    labelling one runs on a folder of input.txt files, one of them bad."""
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "input.txt").write_text((REPO / "examples" / "input.txt").read_text())
    for i, (text, _) in enumerate(SPEC_EXAMPLES):
        (tmp_path / "positions" / f"p{i}").mkdir(parents=True)
        (tmp_path / "positions" / f"p{i}" / "input.txt").write_text(text)
    (tmp_path / "positions" / "p9").mkdir()
    (tmp_path / "positions" / "p9" / "input.txt").write_text("3\nMINIMAX\n")
    blocks = [b for b in python_blocks(page.read_text()) if "ray.init" not in b]
    assert blocks, page
    for block in blocks:
        assert run_block(block, tmp_path, capsys, monkeypatch)[: len(printed(block))] == printed(
            block
        ), block
    if (tmp_path / "labels.csv").exists():
        rows = list(csv.reader((tmp_path / "labels.csv").open()))
        assert rows[0] == ["input", "best", "value", "exact", "error"]
        assert [r[1] for r in rows[1:4]] == [o.split("\n")[0] for _, o in SPEC_EXAMPLES]
        assert rows[4][1] == "" and rows[4][4].startswith("line 3: "), rows[4]


def test_a_move_is_its_text_in_the_ways_the_guide_says():
    p = Position.from_input(SPEC_EXAMPLES[2][0])
    a = stakeraid.analyse(p, depth=4)
    assert a.best == "C3 Raid" and "C3 Raid" == a.best and a.best != "c3 raid"
    assert "C3 Raid" in p.legal_moves() and a.pv[0] == "C3 Raid"
    assert json.loads(a.to_json())["best"] == a.best
