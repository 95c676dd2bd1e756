//===- executor-fuzzer.cpp - libFuzzer harness: the executor's inputs -----===//
//
// Any bytes, decoded into a call: which of a few fixed graphs, and a list of
// runtime values of any count, kind, dtype, shape and layout (undefined and
// strided tensors, nested and mixed lists and tuples, strings, devices).
// The executor must check them against the graph's signature, compile a
// plan for those it accepts and run it; everything wrong must come back as
// an error Status, never a crash, a sanitizer report or a hang.
//
// Ints are kept small: a graph may legitimately loop or allocate as much
// as an input asks for, and that is not a bug a fuzzer should chase.
//
//===----------------------------------------------------------------------===//

#include "tsir/Executor/Executor.h"

#include "tsir-runtime/DType.h"
#include "tsir-runtime/Tensor.h"
#include "tsir-runtime/Value.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <vector>

using namespace tsir;

namespace {

// Typed inputs (checked before any compile), a broadcasting add whose
// shapes come from the call.
constexpr const char *kTypedGraph = R"(graph(%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu),
      %y : Tensor,
      %alpha : int):
  %z : Tensor = aten::add(%x, %y, %alpha)
  %r : Tensor = aten::relu(%z)
  return (%r)
)";

// Containers and scalars of every kind.
constexpr const char *kContainerGraph = R"(graph(%l : int[],
      %o : int?,
      %t : (Tensor, float),
      %s : str,
      %b : bool):
  %none : NoneType = prim::Constant()
  %n : int = aten::len(%l)
  %given : bool = aten::__isnot__(%o, %none)
  %t0 : Tensor, %f : float = prim::TupleUnpack(%t)
  %m : Tensor = aten::mul(%t0, %f)
  %ll : int[] = aten::add(%l, %l)
  %r : (Tensor, int, int[], str, bool, bool) = prim::TupleConstruct(%m, %n, %ll, %s, %b, %given)
  return (%r)
)";

// Shapes only known at run time: a softmax, a concatenation and a matrix
// product of two tensors of any dtype and shape, most of which torch
// rejects (mismatched sizes, ranks or dtypes).
constexpr const char *kShapeGraph = R"(graph(%x : Tensor,
      %y : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %s : Tensor = aten::softmax(%x, %one, %none)
  %l : Tensor[] = prim::ListConstruct(%s, %y)
  %c : Tensor = aten::cat(%l, %one)
  %m : Tensor = aten::matmul(%x, %y)
  return (%c, %m)
)";

constexpr const char *kGraphs[] = {kTypedGraph, kContainerGraph, kShapeGraph};
constexpr size_t kNumGraphs = sizeof(kGraphs) / sizeof(kGraphs[0]);

GraphExecutor &executor(size_t index) {
  // Made once and never destroyed, like FuzzSupport's context: destroying
  // an executor tears down its JIT, which must not happen during static
  // destruction, after LLVM's own streams (errs(), ...) may be gone.
  static GraphExecutor *executors[kNumGraphs] = {};
  if (!executors[index]) {
    auto made = GraphExecutor::fromSource(kGraphs[index], "fuzz.txt");
    if (!made.ok()) {
      // The graphs are fixed: failing to load one is the harness's bug.
      fprintf(stderr, "executor-fuzzer: graph %zu: %s\n", index,
              made.status().message().c_str());
      abort();
    }
    executors[index] = made->release();
  }
  return *executors[index];
}

rt::Tensor consumeTensor(FuzzedDataProvider &data) {
  rt::DType dtype = rt::kAllDTypes[data.ConsumeIntegralInRange<size_t>(
      0, std::size(rt::kAllDTypes) - 1)];
  std::vector<int64_t> sizes(data.ConsumeIntegralInRange<size_t>(0, 3));
  for (int64_t &size : sizes)
    size = data.ConsumeIntegralInRange<int64_t>(0, 3);
  rt::Tensor tensor = rt::Tensor::zeros(sizes, dtype);
  std::vector<uint8_t> bytes = data.ConsumeBytes<uint8_t>(tensor.nbytes());
  // A bool byte other than 0 or 1 is undefined behaviour to load, in torch
  // as here: keep bools valid.
  if (dtype == rt::DType::Bool)
    for (uint8_t &byte : bytes)
      byte &= 1;
  if (!bytes.empty()) // an empty tensor's data may be null
    std::memcpy(tensor.data(), bytes.data(), bytes.size());
  // Sometimes a non-contiguous view of it.
  if (tensor.dim() >= 2 && data.ConsumeBool()) {
    auto transposed = tensor.transpose(0, tensor.dim() - 1);
    if (transposed.ok())
      return *transposed;
  }
  return tensor;
}

rt::Value consumeValue(FuzzedDataProvider &data, int depth) {
  switch (data.ConsumeIntegralInRange<int>(0, 9)) {
  case 0:
    return rt::Value::none();
  case 1:
    return consumeTensor(data);
  case 2:
    return rt::Tensor(); // undefined
  case 3:
    return data.ConsumeIntegralInRange<int64_t>(-4, 8);
  case 4:
    return data.ConsumeFloatingPoint<double>();
  case 5:
    return data.ConsumeBool();
  case 6:
    return data.ConsumeRandomLengthString(16);
  case 7:
    return rt::Device::cpu();
  default: {
    std::vector<rt::Value> elements;
    if (depth < 2) {
      size_t count = data.ConsumeIntegralInRange<size_t>(0, 4);
      for (size_t i = 0; i < count; ++i)
        elements.push_back(consumeValue(data, depth + 1));
    }
    return data.ConsumeBool() ? rt::Value::list(std::move(elements))
                              : rt::Value::tuple(std::move(elements));
  }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  FuzzedDataProvider data(bytes, size);
  GraphExecutor &graph =
      executor(data.ConsumeIntegralInRange<size_t>(0, kNumGraphs - 1));
  std::vector<rt::Value> inputs(data.ConsumeIntegralInRange<size_t>(0, 6));
  for (rt::Value &input : inputs)
    input = consumeValue(data, 0);
  (void)graph.run(inputs);
  return 0;
}
