# test_run.py - tsir.compile and calls: the corpus against torch, plans, data passing.
import numpy as np
import pytest

import tsir
from conftest import Case, data_cases, outputs_tuple

torch = pytest.importorskip("torch")


def flatten(value):
    """torch's results as the executor gives them: tuples depth-first."""
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def torch_function(text):
    """The graph run by torch itself, or None where its parser rejects it."""
    try:
        return torch._C._create_function_from_graph("f", torch._C.parse_ir(text))
    except Exception:
        return None


@pytest.mark.parametrize("case", data_cases(), indirect=True)
def test_corpus_case_with_numpy(case):
    graph = tsir.import_graph(case.graph_path, weights=case.weights_path)
    outputs = outputs_tuple(tsir.compile(graph)(*case.inputs()))
    expected = case.expected()
    assert len(outputs) == len(expected)
    for actual, wanted in zip(outputs, expected):
        if isinstance(actual, np.ndarray):
            assert actual.dtype == wanted.dtype and actual.shape == wanted.shape
        assert case.close(actual, wanted), case.name


@pytest.mark.parametrize("case", data_cases(), indirect=True)
def test_corpus_case_with_torch(case):
    """Torch tensors in, torch tensors out, compared with torch running the
    same graph now (or, where torch cannot parse the graph, with the
    outputs it recorded)."""
    inputs = [torch.from_numpy(v) if isinstance(v, np.ndarray) else v
              for v in case.inputs()]
    oracle = torch_function(case.graph_path.read_text())
    if oracle is not None:
        expected = [e.detach().numpy() if isinstance(e, torch.Tensor) else np.array(e)
                    for e in flatten(oracle(*[i.clone() if isinstance(i, torch.Tensor) else i
                                              for i in inputs]))]
    else:
        expected = case.expected()
    graph = tsir.import_graph(case.graph_path, weights=case.weights_path)
    outputs = outputs_tuple(tsir.compile(graph)(*inputs))
    assert len(outputs) == len(expected)
    for actual, wanted in zip(outputs, expected):
        if isinstance(wanted, np.ndarray) and wanted.ndim > 0:
            assert isinstance(actual, torch.Tensor), case.name
            actual = actual.numpy()
        assert case.close(actual, wanted), case.name


def test_optimized_graph_compiles_to_the_same_results():
    case = Case("lstm_cell")
    graph = tsir.import_graph(case.graph_path)
    graph.optimize()
    for actual, wanted in zip(tsir.compile(graph)(*case.inputs()), case.expected()):
        assert case.close(actual, wanted)


ADD = """graph(%a : Tensor, %b : Tensor):
  %1 : int = prim::Constant[value=1]()
  %c : Tensor = aten::add(%a, %b, %1)
  return (%c)
"""


def test_plans_per_argument_spec():
    f = tsir.compile(tsir.import_graph(ADD))
    assert f.plans == []
    x = np.ones((2, 3), np.float32)
    f(x, x)
    assert f.last_stats["compiled"] is True
    f(x + 1, x)
    assert f.last_stats["compiled"] is False
    assert f.plans == ["Float(2, 3), Float(2, 3)"]
    f(np.ones(4), np.ones(4))
    assert f.plans == ["Double(4), Double(4)", "Float(2, 3), Float(2, 3)"]
    assert f.last_stats["spec"] == "Double(4), Double(4)"
    assert f.last_stats["run_seconds"] >= 0
    assert f.input_names == ["a", "b"] and f.input_types == ["Tensor", "Tensor"]


def test_threads_do_not_change_results():
    """A graph large enough to run on threads gives the same bits on one
    and on two; a negative count is refused."""
    graph = tsir.import_graph("""graph(%x : Float(512, 1024)):
  %1 : int = prim::Constant[value=1]()
  %y : Tensor = aten::sin(%x)
  %z : Tensor = aten::add(%y, %x, %1)
  return (%z)
""")
    x = np.linspace(-5, 5, 512 * 1024, dtype=np.float32).reshape(512, 1024)
    one = tsir.compile(graph, threads=1)(x)
    two = tsir.compile(graph, threads=2)(x)
    assert np.array_equal(one, two)
    assert np.allclose(one, np.sin(x) + x, atol=1e-5)
    with pytest.raises(tsir.Error, match="thread count must be at least 1"):
        tsir.compile(graph, threads=-1)


def test_one_output_bare_several_as_tuple():
    graph = tsir.import_graph("""graph(%a : Tensor):
  %1 : int = prim::Constant[value=1]()
  %b : Tensor = aten::neg(%a)
  %u : (Tensor, int) = prim::TupleConstruct(%a, %1)
  %t : (Tensor, (Tensor, int)) = prim::TupleConstruct(%b, %u)
  return (%t)
""")
    a = np.arange(3, dtype=np.float32)
    neg, same, one = tsir.compile(graph)(a)  # flattened depth-first
    np.testing.assert_array_equal(neg, -a)
    np.testing.assert_array_equal(same, a)
    assert one == 1 and isinstance(one, int)
    bare = tsir.compile(tsir.import_graph(ADD))(a, a)
    assert isinstance(bare, np.ndarray)


def test_scalars_python_and_numpy():
    graph = tsir.import_graph("""graph(%x : Tensor, %n : int, %s : float, %flag : bool):
  %y : Tensor = aten::mul(%x, %n)
  %z : Tensor = aten::mul(%y, %s)
  %w : Tensor = prim::If(%flag)
    block0():
      -> (%z)
    block1():
      -> (%x)
  return (%w)
""")
    f = tsir.compile(graph)
    x = np.ones(2, np.float32)
    np.testing.assert_array_equal(f(x, 3, 0.5, True), [1.5, 1.5])
    np.testing.assert_array_equal(f(x, np.int64(4), np.float64(0.25), np.bool_(True)), [1, 1])
    np.testing.assert_array_equal(f(x, 4, 2, False), [1, 1])  # an int for a float


INPLACE = """graph(%x : Tensor, %y : Tensor):
  %1 : int = prim::Constant[value=1]()
  %z : Tensor = aten::add_(%x, %y, %1)
  %w : Tensor = aten::mul(%z, %z)
  return (%w)
"""


def test_inputs_are_shared_not_copied():
    """The graph writes its first input in place, as torch would: the
    caller's array and tensor see it, because tsir wraps their memory."""
    f = tsir.compile(tsir.import_graph(INPLACE))
    x = np.ones(3, np.float32)
    np.testing.assert_array_equal(f(x, np.full(3, 2, np.float32)), [9, 9, 9])
    np.testing.assert_array_equal(x, [3, 3, 3])
    t = torch.ones(3)
    f(t, torch.full((3,), 2.0))
    assert t.tolist() == [3, 3, 3]
    # A transposed (non-contiguous) array is wrapped too.
    xt = np.ones((3, 2), np.float32).T
    f(xt, np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(xt, np.full((2, 3), 2))
    # A read-only array runs on a copy and stays as it was.
    frozen = np.ones(3, np.float32)
    frozen.setflags(write=False)
    np.testing.assert_array_equal(f(frozen, np.ones(3, np.float32)), [4, 4, 4])
    np.testing.assert_array_equal(frozen, [1, 1, 1])


def test_layouts_numpy_cannot_share():
    f = tsir.compile(tsir.import_graph(ADD))
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(f(a[:, ::-1], a), a[:, ::-1] + a)  # negative strides
    big = np.arange(6, dtype=">f4").reshape(2, 3)  # big-endian
    np.testing.assert_array_equal(f(big, a), 2 * a)
    np.testing.assert_array_equal(f(a[::2, 1:], a[1:, :2]), a[::2, 1:] + a[1:, :2])


def test_outputs_own_their_memory():
    f = tsir.compile(tsir.import_graph(ADD))
    a = np.ones(4, np.float32)
    out = f(a, a)
    out[0] = 7  # writeable, and not aliasing the input
    assert a[0] == 1
    t = f(torch.ones(4), torch.ones(4))
    assert isinstance(t, torch.Tensor) and t.dtype == torch.float32
    t.add_(1)
    assert t.tolist() == [3, 3, 3, 3]


DOUBLE = """graph(%x : Tensor):
  %2 : float = prim::Constant[value=2.]()
  %y : Tensor = aten::mul(%x, %2)
  return (%y)
"""


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64", "int32", "uint8", "bool"])
def test_dtypes_through_torch(dtype):
    f = tsir.compile(tsir.import_graph(DOUBLE))
    x = torch.tensor([1.5, 0.0, 3.0]).to(getattr(torch, dtype))
    expected = x * 2.0
    actual = f(x)
    assert actual.dtype == expected.dtype
    assert torch.equal(actual, expected)


def test_float16_and_bool_through_numpy():
    f = tsir.compile(tsir.import_graph(DOUBLE))
    half = f(np.array([1.5, 2], np.float16))
    assert half.dtype == np.float16 and half.tolist() == [3, 4]
    booleans = f(np.array([True, False]))
    assert booleans.dtype == np.float32 and booleans.tolist() == [2, 0]


def test_list_inputs():
    graph = tsir.import_graph("""graph(%xs : Tensor[]):
  %0 : int = prim::Constant[value=0]()
  %y : Tensor = aten::cat(%xs, %0)
  return (%y)
""")
    f = tsir.compile(graph)
    out = f([np.ones(2, np.float32), np.zeros(1, np.float32)])
    np.testing.assert_array_equal(out, [1, 1, 0])
    assert f([torch.ones(1), torch.ones(2)]).tolist() == [1, 1, 1]


def test_verbose_compile_reports_each_stage(capfd):
    f = tsir.compile(tsir.import_graph(ADD), verbose=True, plan_cache=False)
    x = np.ones((2, 3), np.float32)
    f(x, x)
    stages = [line for line in capfd.readouterr().err.splitlines()
              if line.startswith("compile: ")]
    names = [line.split(":")[1].strip() for line in stages]
    assert names[:2] == ["inline", "specialize"], stages
    assert "lower to LLVM" in names and names[-1] == "LLVM code generation", stages
    f(x, x)  # the plan is cached: nothing compiles, nothing is reported
    assert "compile: " not in capfd.readouterr().err


def test_timing_reports_the_passes_of_each_stage(capfd):
    x = np.ones((2, 3), np.float32)
    tsir.compile(tsir.import_graph(ADD), timing=True)(x, x)
    err = capfd.readouterr().err
    assert "Execution time report" in err and "lower to LLVM" in err, err


def test_plan_cache_across_functions(tmp_path, capfd):
    """A second Function of the same graph and spec (as in another process)
    loads the plan the first compiled into the cache; plan_cache=False
    compiles."""
    case = Case("small_cnn_frozen")
    graph = tsir.import_graph(case.graph_path, weights=case.weights_path)
    cache = tmp_path / "cache"
    first = tsir.compile(graph, plan_cache=cache)
    out_first = first(*case.inputs())
    assert not first.last_stats["from_plan_cache"]
    assert len(list(cache.glob("*.so"))) == 1
    capfd.readouterr()
    second = tsir.compile(graph, plan_cache=cache, verbose=True)
    out_second = second(*case.inputs())
    assert second.last_stats["compiled"] and second.last_stats["from_plan_cache"]
    stages = capfd.readouterr().err
    assert "compile: load from the plan cache" in stages, stages
    assert "LLVM code generation" not in stages, stages
    assert np.array_equal(out_first, out_second)
    assert case.close(out_second, case.expected()[0])

    # Without the cache the entry is there but not used.
    uncached = tsir.compile(graph, plan_cache=False)
    uncached(*case.inputs())
    assert uncached.last_stats["compiled"]
    assert not uncached.last_stats["from_plan_cache"]


def test_segment_plans_across_functions(tmp_path, capfd):
    """A graph the interpreter runs (a print between two segments): the
    second Function links both segments' plans from the cache."""
    text = """graph(%x : Tensor):
  %s : str = prim::Constant[value="between"]()
  %a : Tensor = aten::sin(%x)
   = prim::Print(%s)
  %b : Tensor = aten::mul(%a, %x)
  return (%b)
"""
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    cache = tmp_path / "cache"
    outputs = []
    for expected_loads in (0, 2):
        function = tsir.compile(tsir.import_graph(text), plan_cache=cache)
        outputs.append(function(x))
        assert function.last_stats["segment_plans_from_cache"] == expected_loads
    assert len(list(cache.glob("*.plan"))) == 2
    assert np.array_equal(outputs[0], outputs[1])
    np.testing.assert_allclose(outputs[1], np.sin(x) * x, rtol=1e-5)


THREADED_SCRIPT = r"""
import sys
import numpy as np
import tsir

RELU = '''graph(%x : Tensor):
  %r : Tensor = aten::relu(%x)
  return (%r)
'''
SIGMOID = '''graph(%x : Tensor):
  %r : Tensor = aten::sigmoid(%x)
  return (%r)
'''
x = np.random.default_rng(0).standard_normal((512, 512)).astype(np.float32)
cached = tsir.compile(tsir.import_graph(RELU), plan_cache=sys.argv[1], threads=2)
np.testing.assert_array_equal(cached(x), np.maximum(x, 0))
print("from_plan_cache", cached.last_stats["from_plan_cache"])
jitted = tsir.compile(tsir.import_graph(SIGMOID), plan_cache=False, threads=2)
np.testing.assert_allclose(jitted(x), 1 / (1 + np.exp(-x)), rtol=1e-5)
print("jit ok")
"""


def test_jit_threads_after_a_cached_plan(tmp_path):
    """A plan loaded from the cache brings libomp in as its model.so's
    dependency, in that library's local scope; a JIT plan with threads
    compiled after it in the same process failed to find __kmpc_fork_call
    ("Failed to materialize symbols"). Each run is a fresh process: the
    second loads the first's plan."""
    import subprocess
    import sys
    cache = str(tmp_path / "cache")
    runs = [subprocess.run([sys.executable, "-c", THREADED_SCRIPT, cache],
                           capture_output=True, text=True)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "jit ok" in run.stdout
    assert "from_plan_cache True" in runs[1].stdout, runs[1].stdout
