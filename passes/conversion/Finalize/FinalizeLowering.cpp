//===- FinalizeLowering.cpp - tsir-finalize-lowering ----------------------===//
//
// The last step from prim/aten to builtin types: tuple results are
// flattened depth-first (as the corpus and tsir-run flatten outputs), the
// signature takes builtin tensors and scalars, arguments that nothing uses
// and that have no builtin form (a frozen module's `self`, None) are
// dropped, the casts between the partial conversions cancel out, and
// whatever prim/aten op is still alive is reported where it is.
//
// The function keeps, in `tsir.inputs`, the position in the original
// signature of each remaining argument, so the executor knows which of its
// inputs (and weights) each argument is; in `tsir.results`, the TorchScript
// type of each flattened result (the builtin types forget that `ui8` is
// unsigned); and gets `llvm.emit_c_interface`
// so the executor calls it through MLIR's C interface.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Prim/NodeLocation.h"

#include "mlir/IR/Iterators.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRFINALIZELOWERINGPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

/// Appends `value`, or the elements of the tuple it constructs, depth-first.
static void flattenTuple(Value value, SmallVectorImpl<Value> &out) {
  if (auto tuple = value.getDefiningOp<prim::TupleConstructOp>()) {
    for (Value element : tuple->getOperands())
      flattenTuple(element, out);
    return;
  }
  out.push_back(value);
}

/// Whether `type` is something lowered code can take or return.
static bool isBuiltinValueType(Type type) {
  return isa<RankedTensorType, IntegerType, FloatType, IndexType>(type);
}

/// `value` as seen through cast chains that a conversion left: the builtin
/// value a prim-typed value was cast from, if any.
static Value lookThroughCasts(Value value) {
  while (auto cast = value.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (cast.getInputs().size() != 1)
      break;
    value = cast.getInputs().front();
  }
  return value;
}

/// Replaces casts whose input already has the result type (A -> B -> A
/// chains), then erases whatever of prim, aten and the casts is dead.
static void cleanUp(func::FuncOp func) {
  func.walk([](UnrealizedConversionCastOp cast) {
    if (cast.getInputs().size() != 1 || cast->getNumResults() != 1)
      return;
    Value source = lookThroughCasts(cast.getInputs().front());
    if (source.getType() == cast.getResult(0).getType())
      cast.getResult(0).replaceAllUsesWith(source);
  });
  bool changed = true;
  while (changed) {
    changed = false;
    func.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (!op->use_empty() || op->getNumResults() == 0)
        return;
      Dialect *dialect = op->getDialect();
      bool ours = dialect && (isa<prim::PrimDialect>(dialect) ||
                              dialect->getNamespace() == "aten");
      // prim/aten ops that are still here after the conversions are the
      // list, tuple and constant values that converted ops used to read.
      if (ours || isa<UnrealizedConversionCastOp>(op) ||
          isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
    });
  }
}

/// `name (graph.txt:3:4)` for an op, from its TorchScript location.
static std::string describe(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  NodeLocation where = decodeNodeLocation(op->getLoc());
  if (!where.resultNames.empty())
    text += " (defining %" + where.resultNames.front().str() + ")";
  return text;
}

namespace {
struct TsirFinalizeLoweringPass
    : tsir::impl::TsirFinalizeLoweringPassBase<TsirFinalizeLoweringPass> {
  void runOnOperation() override {
    for (func::FuncOp func :
         llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      if (failed(finalize(func)))
        return signalPassFailure();
    }
    // Nothing of prim is left, not even in locations: LLVM's debug info
    // translation knows only the builtin ones.
    replaceNodeLocationsWithBuiltin(getOperation());
  }

  LogicalResult finalize(func::FuncOp func) {
    MLIRContext *context = &getContext();
    Block &entry = func.getBody().front();
    OpBuilder builder(context);

    // Results: flatten tuples, then take the builtin value behind each.
    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    SmallVector<Value> flat;
    for (Value value : ret.getOperands())
      flattenTuple(value, flat);
    SmallVector<Value> results;
    SmallVector<Attribute> resultTypes;
    for (Value value : flat) {
      resultTypes.push_back(TypeAttr::get(value.getType()));
      Value builtin = lookThroughCasts(value);
      if (!isBuiltinValueType(builtin.getType())) {
        if (RankedTensorType tensor = convertTensorType(builtin.getType())) {
          builder.setInsertionPoint(ret);
          builtin = UnrealizedConversionCastOp::create(builder, ret.getLoc(),
                                                       tensor, builtin)
                        .getResult(0);
        } else {
          return emitError(ret.getLoc())
                 << "the graph returns a value of type " << value.getType()
                 << ", which lowered code cannot return (a tensor needs a "
                    "known dtype and rank)";
        }
      }
      results.push_back(builtin);
    }
    builder.setInsertionPoint(ret);
    func::ReturnOp::create(builder, ret.getLoc(), results);
    ret.erase();

    // Arguments: convert, or drop the unused ones that have no builtin form.
    SmallVector<Attribute> positions;
    BitVector dropped(entry.getNumArguments());
    cleanUp(func);
    for (BlockArgument argument : entry.getArguments()) {
      Type type = argument.getType();
      positions.push_back(builder.getI64IntegerAttr(argument.getArgNumber()));
      if (isBuiltinValueType(type))
        continue;
      if (RankedTensorType tensor = convertTensorType(type)) {
        argument.setType(tensor);
        if (!argument.use_empty()) {
          builder.setInsertionPointToStart(&entry);
          auto cast = UnrealizedConversionCastOp::create(
              builder, argument.getLoc(), type, argument);
          argument.replaceAllUsesExcept(cast.getResult(0), cast);
        }
        continue;
      }
      if (!argument.use_empty()) {
        StringRef name = tsir::getArgumentName(argument.getLoc());
        return emitError(argument.getLoc())
               << "graph input " << argument.getArgNumber()
               << (name.empty() ? "" : " (%" + name.str() + ")")
               << " of type " << type
               << " is used by lowered code but has no builtin form";
      }
      dropped.set(argument.getArgNumber());
    }
    SmallVector<Attribute> kept;
    for (unsigned i = 0; i < positions.size(); ++i)
      if (!dropped.test(i))
        kept.push_back(positions[i]);
    if (failed(func.eraseArguments(dropped)))
      return failure();
    func.setType(FunctionType::get(context, entry.getArgumentTypes(),
                                   TypeRange(ValueRange(results))));
    auto *primDialect = context->getLoadedDialect<prim::PrimDialect>();
    primDialect->getArgumentPositionsAttrHelper().setAttr(
        func, ArrayAttr::get(context, kept));
    primDialect->getResultTypesAttrHelper().setAttr(
        func, ArrayAttr::get(context, resultTypes));
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
    // The caller's tensors are read-only to the compiled code: without this,
    // one-shot bufferization may compute a result in an argument's buffer
    // (addmm into its `self`) and write the caller's input. Inputs the
    // graph writes in place come back as results (tsir.writeback) instead.
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (isa<RankedTensorType>(func.getArgument(i).getType()))
        func.setArgAttr(i, "bufferization.writable", BoolAttr::get(context, false));

    cleanUp(func);

    // Anything of prim/aten still alive had no lowering. The casts around
    // such an op are a consequence; they are reported only when nothing
    // else explains them.
    bool ok = true;
    func.walk([&](Operation *op) {
      Dialect *dialect = op->getDialect();
      if (dialect && (isa<prim::PrimDialect>(dialect) ||
                      dialect->getNamespace() == "aten")) {
        op->emitError() << "no lowering for " << describe(op)
                        << ": it has neither a conversion nor a runtime "
                           "kernel in this context";
        ok = false;
      }
    });
    if (ok)
      func.walk([&](UnrealizedConversionCastOp cast) {
        cast->emitError() << "a value of type "
                          << cast.getInputs().front().getType()
                          << " is used as " << cast.getResult(0).getType()
                          << " and no conversion connects them";
        ok = false;
      });
    return success(ok);
  }
};
} // namespace
