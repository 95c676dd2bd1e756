//===- OutlineLoopNests.cpp - Sequential loop nests as functions ----------===//
//
// Each outermost scf.for or scf.forall of a public function becomes a call
// of a private, never-inlined function holding the nest; identical nests
// share one (passes/Conversion.td). The graph function then holds calls and
// glue, and LLVM compiles many small functions, in parallel where the
// module is split (ModelObject.cpp), instead of one huge one. A forall is a
// parallel region: shared, its OpenMP outlined body is compiled once for
// all the blocks of a network that repeat it.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/StringMap.h"

namespace tsir {
#define GEN_PASS_DEF_TSIROUTLINELOOPNESTSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// The text of a function not yet in the symbol table (so every one is
/// named `tsir_loop_nest`): equal text, equal function. Printed without
/// verifying, as the module holds the same name twice until then. In its
/// local scope: printed the default way, each function's printing first
/// walked the whole module for its aliases (7 s of MaxViT's compile).
std::string bodyKey(func::FuncOp function) {
  std::string key;
  llvm::raw_string_ostream os(key);
  function.print(os, OpPrintingFlags().assumeVerified().useLocalScope());
  return key;
}

struct TsirOutlineLoopNestsPass
    : tsir::impl::TsirOutlineLoopNestsPassBase<TsirOutlineLoopNestsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringMap<func::FuncOp> byBody;

    SmallVector<Operation *> nests;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isPrivate() || function.isExternal())
        continue;
      function.walk([&](Operation *loop) {
        if (isa<scf::ForOp, scf::ForallOp>(loop) &&
            !loop->getParentOfType<LoopLikeOpInterface>())
          nests.push_back(loop);
      });
    }
    for (Operation *loop : nests)
      outline(loop, symbols, byBody);
  }

  void outline(Operation *loop, SymbolTable &symbols,
               llvm::StringMap<func::FuncOp> &byBody) {
    // What the nest reads from outside: constants are cloned in (known
    // bounds and steps), the rest become arguments.
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(loop->getRegions(), captured);
    for (Value bound : loop->getOperands())
      captured.insert(bound);
    SmallVector<Value> arguments;
    SmallVector<Operation *> constants;
    for (Value value : captured) {
      Operation *definition = value.getDefiningOp();
      if (definition && definition->hasTrait<OpTrait::ConstantLike>())
        constants.push_back(definition);
      else
        arguments.push_back(value);
    }

    auto module = cast<ModuleOp>(symbols.getOp());
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto type = builder.getFunctionType(ValueRange(arguments).getTypes(),
                                        loop->getResultTypes());
    auto function =
        func::FuncOp::create(builder, loop->getLoc(), "tsir_loop_nest", type);
    function.setPrivate();
    function->setAttr("passthrough",
                      builder.getArrayAttr({builder.getStringAttr("noinline")}));
    Block *entry = function.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    IRMapping mapping;
    mapping.map(arguments, entry->getArguments());
    for (Operation *constant : constants)
      builder.clone(*constant, mapping);
    Operation *copy = builder.clone(*loop, mapping);
    func::ReturnOp::create(builder, loop->getLoc(), copy->getResults());

    // The same nest again: call the function made for the first one.
    std::string key = bodyKey(function);
    auto [found, inserted] = byBody.try_emplace(key, function);
    if (inserted) {
      symbols.insert(function);
    } else {
      function.erase();
      function = found->second;
    }
    builder.setInsertionPoint(loop);
    auto call =
        func::CallOp::create(builder, loop->getLoc(), function, arguments);
    loop->replaceAllUsesWith(call.getResults());
    loop->erase();
  }
};

} // namespace
