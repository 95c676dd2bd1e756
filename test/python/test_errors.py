# test_errors.py - bad inputs to compiled graphs raise, never crash.
import numpy as np
import pytest

import tsir

TYPED = """graph(%x : Float(2, 3), %n : int):
  %y : Tensor = aten::mul(%x, %n)
  return (%y)
"""


@pytest.fixture(scope="module")
def typed():
    return tsir.compile(tsir.import_graph(TYPED))


def test_wrong_count(typed):
    # The message lists the inputs between the count and what was given.
    with pytest.raises(tsir.Error, match=r"the graph takes 2 inputs \(.*\) but 1 was given"):
        typed(np.ones((2, 3), np.float32))
    with pytest.raises(tsir.Error, match=r"takes 2 inputs \(.*\) but 3 were given"):
        typed(np.ones((2, 3), np.float32), 1, 2)


def test_wrong_dtype_rank_and_size(typed):
    with pytest.raises(tsir.Error, match=r"input 0 \(%x : Float\(2, 3\)\) must be a Float tensor"):
        typed(np.ones((2, 3), np.int64), 2)
    with pytest.raises(tsir.Error, match="must be a tensor of rank 2"):
        typed(np.ones(6, np.float32), 2)
    with pytest.raises(tsir.Error, match="dim 1 has size 3"):
        typed(np.ones((2, 4), np.float32), 2)
    with pytest.raises(tsir.Error, match=r"input 1 \(%n : int\) must be an int"):
        typed(np.ones((2, 3), np.float32), 2.5)
    with pytest.raises(tsir.Error, match="must be a tensor"):
        typed(3, 2)
    # The executor is fine afterwards.
    np.testing.assert_array_equal(typed(np.ones((2, 3), np.float32), 2), np.full((2, 3), 2))


def test_unsupported_python_values(typed):
    x = np.ones((2, 3), np.float32)
    with pytest.raises(TypeError, match="cannot pass a <class 'object'>"):
        typed(x, object())
    with pytest.raises(TypeError, match="unsupported array dtype complex64"):
        typed(x.astype(np.complex64), 2)
    with pytest.raises(TypeError, match="unsupported array dtype uint16"):
        typed(x.astype(np.uint16), 2)
    with pytest.raises(tsir.Error, match="does not fit TorchScript's int"):
        typed(x, 2 ** 70)


def test_shapes_that_do_not_compile():
    f = tsir.compile(tsir.import_graph("""graph(%a : Tensor, %b : Tensor):
  %c : Tensor = aten::matmul(%a, %b)
  return (%c)
"""))
    with pytest.raises(tsir.Error, match=r"<string>:2:\d+: error"):
        f(np.ones((2, 3), np.float32), np.ones((4, 5), np.float32))
    np.testing.assert_array_equal(
        f(np.ones((2, 3), np.float32), np.ones((3, 1), np.float32)), [[3], [3]])


def test_missing_weights_at_run(corpus):
    f = tsir.compile(tsir.import_graph(corpus / "small_cnn_frozen" / "graph.txt"))
    with pytest.raises(tsir.Error, match="weight '.*' is missing"):
        f(np.ones((1, 3, 16, 16), np.float32))


def test_devices():
    graph = tsir.import_graph(TYPED)
    with pytest.raises(tsir.Error, match="device 'cuda' is not supported"):
        tsir.compile(graph, device="cuda")
    torch = pytest.importorskip("torch")
    f = tsir.compile(graph)
    with pytest.raises(tsir.Error, match=r"on meta: move it with \.cpu\(\)"):
        f(torch.empty(2, 3, device="meta"), 2)
    with pytest.raises(TypeError, match="complex"):
        f(torch.ones(2, 3, dtype=torch.complex64), 2)


def test_an_index_out_of_range_raises_torchs_error():
    # Checked where the compiled code runs (docs/lowering.md): the same
    # plan then runs in-range indices, and the failed call wrote nothing.
    f = tsir.compile(tsir.import_graph("""graph(%w : Tensor, %i : Tensor):
  %pad : int = prim::Constant[value=-1]()
  %false : bool = prim::Constant[value=0]()
  %y : Tensor = aten::embedding(%w, %i, %pad, %false, %false) # model.py:4:8
  return (%y)
"""))
    w = np.arange(8, dtype=np.float32).reshape(4, 2)
    with pytest.raises(tsir.Error, match=r"model.py:4:8: error: index out of range in self"):
        f(w, np.array([1, 4]))
    with pytest.raises(tsir.Error, match="index out of range in self"):
        f(w, np.array([-1, 0]))
    np.testing.assert_array_equal(f(w, np.array([3, 0])), w[[3, 0]])
