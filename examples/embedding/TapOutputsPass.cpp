//===- TapOutputsPass.cpp - probe-tap-outputs -----------------------------===//
//
// A pass of the embedder's own over TorchScript IR: it puts a probe.tap on
// every tensor a graph returns, so later tooling can find the outputs. It
// runs in one pipeline with tsir's passes (prim-cse, prim-dce, ...).
//
//===----------------------------------------------------------------------===//

#include "ProbeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace {
struct TapOutputsPass
    : mlir::PassWrapper<TapOutputsPass, mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TapOutputsPass)

  llvm::StringRef getArgument() const final { return "probe-tap-outputs"; }
  llvm::StringRef getDescription() const final {
    return "Mark every tensor a graph returns with probe.tap";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const final {
    registry.insert<probe::ProbeDialect>();
  }

  void runOnOperation() final {
    getOperation().walk([](mlir::func::ReturnOp ret) {
      mlir::OpBuilder builder(ret);
      for (mlir::OpOperand &operand : ret->getOpOperands()) {
        if (!mlir::isa<tsir::prim::TensorType>(operand.get().getType()))
          continue;
        std::string label =
            "output " + std::to_string(operand.getOperandNumber());
        auto tap = probe::TapOp::create(builder, ret.getLoc(),
                                        operand.get().getType(), operand.get(),
                                        label);
        operand.set(tap.getResult());
      }
    });
  }
};
} // namespace

void probe::registerTapOutputsPass() {
  mlir::PassRegistration<TapOutputsPass>();
}
