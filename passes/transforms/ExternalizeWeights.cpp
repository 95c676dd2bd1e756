//===- ExternalizeWeights.cpp - tsir-externalize-weights ------------------===//
//
// Weight constants without data become trailing graph arguments, named in
// the function's `tsir.weights` attribute (see passes/Conversion.td).
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"
#include "tsir/Dialect/Prim/NodeLocation.h"

#include "llvm/ADT/StringSet.h"

namespace tsir {
#define GEN_PASS_DEF_TSIREXTERNALIZEWEIGHTSPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirExternalizeWeightsPass
    : tsir::impl::TsirExternalizeWeightsPassBase<TsirExternalizeWeightsPass> {
  using TsirExternalizeWeightsPassBase::TsirExternalizeWeightsPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    llvm::StringSet<> inlineNames;
    for (const std::string &name : names)
      inlineNames.insert(name);
    SmallVector<std::pair<tsir::prim::ConstantOp, StringRef>> weights;
    func.walk([&](tsir::prim::ConstantOp constant) {
      if (auto ref = dyn_cast<tsir::prim::TensorRefAttr>(constant.getValue())) {
        weights.push_back({constant, ref.getName()});
        return;
      }
      // An inline tensor the weights file holds exactly.
      if (!isa<tsir::prim::TensorType>(constant.getType()) ||
          inlineNames.empty())
        return;
      tsir::NodeLocation where = tsir::decodeNodeLocation(constant.getLoc());
      if (!where.resultNames.empty() &&
          inlineNames.contains(where.resultNames.front()))
        weights.push_back({constant, where.resultNames.front()});
    });
    if (weights.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    auto weightNames = getContext()
                           .getLoadedDialect<tsir::prim::PrimDialect>()
                           ->getWeightNamesAttrHelper();
    SmallVector<Attribute> names;
    if (ArrayAttr known = weightNames.getAttr(func))
      names.assign(known.begin(), known.end());
    Block &entry = func.getBody().front();
    for (auto [constant, name] : weights) {
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
    weightNames.setAttr(func, ArrayAttr::get(&getContext(), names));
  }
};
} // namespace
