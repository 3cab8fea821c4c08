"""What help() and the type stubs show is what works."""

import ast
import pathlib
import pydoc

import pytest
import stakeraid
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
