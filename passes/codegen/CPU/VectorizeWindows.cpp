//===- VectorizeWindows.cpp - tsir-cpu-vectorize-windows ------------------===//
//
// Window reductions along a contiguous output row as vector loops whose
// accumulators stay in registers across the whole window.
//
// A depthwise convolution along its flattened rows
// (tsir-cpu-depthwise-conv-rows), a stride-1 pooling or grouped
// convolution with its window loops outside the output row
// (tsir-cpu-window-loop-order): each is a linalg.generic whose innermost
// loop is a parallel row j, read at unit stride, inside the reduced
// window loops. convert-linalg-to-loops nests the loops in that order, so
// each tap of the window is a pass over the output row: load the partial
// result, one multiply-add, store it back. Three memory operations per
// multiply-add, where the input's load is the only one needed.
//
// This pass puts the window inside the row instead. The row is taken W
// lanes at a time (four vector registers); for each step the W partial
// results are loaded once, every tap of the window is applied to them in
// registers, and they are stored once. The last, partial step is masked.
// For each output element the taps are applied in the same order as
// before, so the results are the same to the bit.
//
// An operand reads j as the last dim of its buffer, at unit stride, as j
// plus an offset that does not depend on j (the tap's), or not at all (a
// weight, loaded once per tap and broadcast). The outputs are indexed by
// the parallel loops only, j last.
//
// Left alone: rows under 16 elements, rows read at a stride (a pooling of
// stride 2), bodies that read linalg.index or could trap on a masked lane
// (tsir::cpu::isLaneBody), and every generic whose innermost loop is a
// reduction (tsir-cpu-vectorize-reductions takes those).
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "Lanes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCPUVECTORIZEWINDOWSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// Shorter rows stay as they are: one masked step would cost more than
/// the loop LLVM writes.
constexpr int64_t kMinRow = 16;

/// A window reduction the pass rewrites.
struct WindowReduction {
  linalg::GenericOp op;
  /// The parallel loops around the row, in the generic's order.
  SmallVector<unsigned> outerDims;
  /// The window's loops, in the generic's order.
  SmallVector<unsigned> windowDims;
  /// The innermost loop: the row the vectors run along.
  unsigned row;
  int64_t lanes;
};

/// Whether `expr` is `d<row>` plus terms that do not read d<row>.
bool isRowPlusOffset(AffineExpr expr, unsigned row) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() == row;
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return false;
  AffineExpr lhs = sum.getLHS(), rhs = sum.getRHS();
  return (isRowPlusOffset(lhs, row) && !rhs.isFunctionOfDim(row)) ||
         (isRowPlusOffset(rhs, row) && !lhs.isFunctionOfDim(row));
}

FailureOr<WindowReduction> matchWindowReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2)
    return failure();
  unsigned row = op.getNumLoops() - 1;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[row] != utils::IteratorType::parallel)
    return failure();
  int64_t length = op.getStaticLoopRanges()[row];
  if (!ShapedType::isDynamic(length) && length < kMinRow)
    return failure();

  WindowReduction w{op, {}, {}, row, 0};
  for (unsigned d = 0; d < row; ++d)
    (iterators[d] == utils::IteratorType::reduction ? w.windowDims
                                                    : w.outerDims)
        .push_back(d);
  if (w.windowDims.empty())
    return failure();

  unsigned widest = 0;
  if (!tsir::cpu::isLaneBody(op, widest))
    return failure();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !tsir::cpu::isLaneType(type.getElementType()))
      return failure();
    widest = std::max(widest, type.getElementTypeBitWidth());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ArrayRef<AffineExpr> results = map.getResults();
    bool isInit = op.isDpsInit(&operand);
    if (isInit && llvm::any_of(w.windowDims, [&](unsigned d) {
          return map.isFunctionOfDim(d);
        }))
      return failure();
    // Every index but the last does not read the row (an input's may be
    // a tap's phase, `kh mod 2`); an output's are loop dims or constants.
    if (results.empty())
      return failure();
    for (AffineExpr expr : results.drop_back())
      if (expr.isFunctionOfDim(row) ||
          (isInit && !isa<AffineDimExpr, AffineConstantExpr>(expr)))
        return failure();
    AffineExpr last = results.back();
    if (!last.isFunctionOfDim(row)) {
      // A weight: one element per tap. An output always reads the row.
      if (isInit)
        return failure();
      continue;
    }
    bool readsRowAsItIs = last == getAffineDimExpr(row, op.getContext());
    if ((isInit ? !readsRowAsItIs : !isRowPlusOffset(last, row)) ||
        !type.isLastDimUnitStride())
      return failure();
  }
  // Four 512-bit registers of the widest type.
  w.lanes = widest <= 32 ? 64 : 32;
  return w;
}

/// Writes one window reduction's loops in place of its generic.
class WindowEmitter {
public:
  WindowEmitter(ImplicitLocOpBuilder &b, WindowReduction w)
      : b(b), w(w), iv(w.op.getNumLoops()),
        sizes(tsir::cpu::buildLoopSizes(b, w.op)) {}

  /// One scf.for per parallel dim around the row.
  void emit() {
    tsir::cpu::buildLoopNest(b, w.outerDims, sizes, iv, {}, [&](ValueRange) {
      emitRow();
      return SmallVector<Value>();
    });
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, value);
  }

  /// The row in whole steps of W lanes, then one masked step for what is
  /// left (none when a static row is a multiple of W).
  void emitRow() {
    Value length = sizes[w.row];
    Value wholeSteps = b.createOrFold<arith::SubIOp>(
        length, b.createOrFold<arith::RemSIOp>(length, index(w.lanes)));
    if (!isZeroInteger(wholeSteps))
      tsir::cpu::buildCountedLoop(b, wholeSteps, w.lanes, {},
                                  [&](Value j, ValueRange) {
                                    iv[w.row] = j;
                                    emitStep(Value());
                                    return SmallVector<Value>();
                                  });
    Value remaining = b.createOrFold<arith::SubIOp>(length, wholeSteps);
    if (isZeroInteger(remaining))
      return;
    iv[w.row] = wholeSteps;
    emitStep(tsir::cpu::buildFirstLanesMask(b, w.lanes, remaining));
  }

  /// W outputs along the row at iv[row]: loaded, taken through the whole
  /// window in registers, stored. Only the lanes on in `mask` are read
  /// and written.
  void emitStep(Value mask) {
    SmallVector<Value> accs;
    for (OpOperand &init : w.op.getDpsInitsMutable())
      accs.push_back(loadLanes(&init, mask));
    // One scf.for carrying the accumulators per window dim; the body on
    // lanes innermost.
    accs = tsir::cpu::buildLoopNest(
        b, w.windowDims, sizes, iv, accs,
        [&](ValueRange args) { return emitTap(args, mask); });
    for (auto [init, acc] : llvm::zip(w.op.getDpsInitsMutable(), accs)) {
      SmallVector<Value> indices = indicesOf(&init);
      if (mask)
        vector::MaskedStoreOp::create(b, init.get(), indices, mask, acc);
      else
        vector::StoreOp::create(b, acc, init.get(), indices);
    }
  }

  SmallVector<Value> emitTap(ValueRange accs, Value mask) {
    IRMapping mapping;
    for (auto [operand, arg] :
         llvm::zip(w.op.getDpsInputOperands(), w.op.getRegionInputArgs())) {
      // A pooling's window operand gives the loops their sizes only.
      if (arg.use_empty())
        continue;
      bool readsRow =
          w.op.getMatchingIndexingMap(operand).isFunctionOfDim(w.row);
      mapping.map(arg, readsRow ? loadLanes(operand, mask)
                                : memref::LoadOp::create(b, operand->get(),
                                                         indicesOf(operand)));
    }
    for (auto [acc, arg] : llvm::zip(accs, w.op.getRegionOutputArgs()))
      mapping.map(arg, acc);
    for (Operation &bodyOp : w.op.getBlock()->without_terminator())
      tsir::cpu::cloneOnLanes(b, bodyOp, mapping, w.lanes);
    SmallVector<Value> next;
    for (Value yielded : w.op.getBlock()->getTerminator()->getOperands()) {
      Value value = mapping.lookupOrDefault(yielded);
      // A yield of a scalar (a constant, or a value of the weights only)
      // fills every lane.
      if (!isa<VectorType>(value.getType()))
        value = vector::BroadcastOp::create(
            b, VectorType::get({w.lanes}, value.getType()), value);
      next.push_back(value);
    }
    return next;
  }

  /// W elements of `operand` along the row from iv[row].
  Value loadLanes(OpOperand *operand, Value mask) {
    SmallVector<Value> indices = indicesOf(operand);
    auto type = VectorType::get({w.lanes},
                                getElementTypeOrSelf(operand->get().getType()));
    if (!mask)
      return vector::LoadOp::create(b, type, operand->get(), indices);
    Value zeros =
        arith::ConstantOp::create(b, cast<TypedAttr>(b.getZeroAttr(type)));
    return vector::MaskedLoadOp::create(b, type, operand->get(), indices, mask,
                                        zeros);
  }

  /// The indices `operand` reads at the current loop values; the last may
  /// be the row plus a tap's offset.
  SmallVector<Value> indicesOf(OpOperand *operand) {
    return tsir::cpu::buildIndices(b, w.op.getMatchingIndexingMap(operand), iv);
  }

  ImplicitLocOpBuilder &b;
  WindowReduction w;
  /// The current value of each loop dim.
  SmallVector<Value> iv;
  SmallVector<Value> sizes;
};

struct TsirCPUVectorizeWindowsPass
    : tsir::impl::TsirCPUVectorizeWindowsPassBase<TsirCPUVectorizeWindowsPass> {
  void runOnOperation() override {
    SmallVector<WindowReduction> windows;
    getOperation().walk([&](linalg::GenericOp op) {
      if (FailureOr<WindowReduction> w = matchWindowReduction(op); succeeded(w))
        windows.push_back(*w);
    });
    for (WindowReduction &w : windows) {
      ImplicitLocOpBuilder b(w.op.getLoc(), w.op);
      WindowEmitter(b, w).emit();
      w.op.erase();
    }
  }
};

} // namespace
