//===- ExternalizeWeights.cpp - tsir-externalize-weights ------------------===//
//
// Weight constants without data become trailing graph arguments, named in
// the function's `tsir.weights` attribute (see passes/Conversion.td).
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Prim/NodeLocation.h"

namespace tsir {
#define GEN_PASS_DEF_TSIREXTERNALIZEWEIGHTSPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirExternalizeWeightsPass
    : tsir::impl::TsirExternalizeWeightsPassBase<TsirExternalizeWeightsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<tsir::prim::ConstantOp> weights;
    func.walk([&](tsir::prim::ConstantOp constant) {
      if (isa<tsir::prim::TensorRefAttr>(constant.getValue()))
        weights.push_back(constant);
    });
    if (weights.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    SmallVector<Attribute> names(
        llvm::to_vector(func->getAttrOfType<ArrayAttr>("tsir.weights")
                            ? func->getAttrOfType<ArrayAttr>("tsir.weights")
                                  .getValue()
                            : ArrayRef<Attribute>()));
    Block &entry = func.getBody().front();
    for (tsir::prim::ConstantOp constant : weights) {
      StringRef name =
          cast<tsir::prim::TensorRefAttr>(constant.getValue()).getName();
      if (name.empty()) {
        constant.emitError("a <Tensor> constant without a name cannot be "
                           "bound to a weight");
        return signalPassFailure();
      }
      BlockArgument argument =
          entry.addArgument(constant.getType(), constant.getLoc());
      constant.getResult().replaceAllUsesWith(argument);
      constant.erase();
      names.push_back(StringAttr::get(&getContext(), name));
    }
    func.setType(FunctionType::get(&getContext(), entry.getArgumentTypes(),
                                   func.getResultTypes()));
    func->setAttr("tsir.weights", ArrayAttr::get(&getContext(), names));
  }
};
} // namespace
