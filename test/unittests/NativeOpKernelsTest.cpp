//===- NativeOpKernelsTest.cpp - Each interpreted op has its kernel -------===//
//
// Which aten ops the interpreter runs between compiled segments is declared
// in typed_ops.txt (the `scalar_operator`, `tensor_query` and
// `storage_view` families); what runs them is the runtime kernel of the
// op's name (runtime/lib/kernels/ScalarKernels.cpp, ViewKernels.cpp). The
// two lists live on either side of the compiler/runtime floor, so this
// checks that they agree: an op tagged without a kernel would fail only
// when a graph reached it at run time.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/InitAll.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tsir;

namespace {

TEST(NativeOpKernelsTest, EveryInterpretedAtenOpHasARuntimeKernel) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  int interpreted = 0;
  for (RegisteredOperationName op : context.getRegisteredOperations()) {
    if (!op.hasTrait<aten::OpTrait::ScalarOperator>() &&
        !op.hasTrait<aten::OpTrait::TensorQuery>() &&
        !op.hasTrait<aten::OpTrait::StorageView>())
      continue;
    ++interpreted;
    // A typed op `aten.add.int` is the overload `aten::add.int`.
    StringRef name = op.getStringRef();
    ASSERT_TRUE(name.consume_front("aten.")) << name.str();
    std::string kernel = "aten::" + name.str();
    EXPECT_NE(rt::KernelRegistry::global().lookup(kernel), nullptr)
        << kernel << " is interpreted but has no runtime kernel";
  }
  // The families are not empty (a renamed trait would skip every op).
  EXPECT_GT(interpreted, 90);
}

} // namespace
