//===- ContractionKernels.cpp - tsir-cpu-contraction-kernels -------------===//
//
// Matrix products on buffers as register-blocked vector loops for the CPU.
// convert-linalg-to-loops turns a matmul into three scalar loops whose
// innermost one walks the reduction: every multiply-add loads and stores the
// output, and LLVM's vectorizer cannot fix that. This pass writes the loops a
// BLAS micro-kernel has instead, directly in the vector dialect:
//
//  - **broadcast kernel** (B indexed [k, n], n contiguous): a tile of
//    `rows` x `vectors`*W outputs lives in registers across the whole k
//    loop; each step loads `vectors` rows of B and broadcasts `rows`
//    elements of A into FMAs. Matmul, batched matmul and the matrix product
//    a convolution becomes (tsir-conv-to-matmul) take this form.
//  - **dot kernel** (B indexed [n, k], k contiguous, as nn.Linear's weight):
//    a `rows` x `cols` tile of outputs, each a W-wide partial sum over k,
//    reduced once at the end.
//
// Around the micro-kernel: blocks of outputs that are independent are an
// scf.forall (the threads' unit of work), and the broadcast kernel blocks k
// so the panel of B it reuses stays in cache. Edges are masked (n) or run a
// one-row / one-column variant (m), so any size works; dynamic sizes too.
//
// Anything else (other element types, strided inner dimensions, products
// without a single m, n and k) is left to convert-linalg-to-loops.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "Lanes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCPUCONTRACTIONKERNELSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// The kernels' shapes (the pass options; their meaning is in
/// passes/Conversion.td).
struct KernelSizes {
  int64_t vectorWidth, broadcastRows, broadcastVectors, dotRows, dotCols,
      blockRows, blockCols, blockDepth;
};

/// The loop dimensions of a product C[.., m, n] += A[.., m, k] * B[.., k, n]
/// (or B[.., n, k]) and where its operands live.
struct Contraction {
  linalg::LinalgOp op;
  unsigned m, n, k;
  /// Every other parallel dimension: iterated around the kernel.
  SmallVector<unsigned> outer;
  /// B is indexed [.., n, k].
  bool transposedB;
  /// B is indexed [.., n, k] but the product has enough rows to pay for a
  /// transposing copy of B: the broadcast kernel, not the dot kernel.
  bool packTransposedB;
  /// Rows and columns of C per parallel block.
  int64_t blockRows, blockCols;
  /// Fewer multiply-adds than min-work: no kernel (see smallProductOrder).
  bool small = false;
};

/// Rows of C in a block: `most`, halved (down to 64) while a product of
/// static size would have fewer than four blocks, so that two to four
/// threads still share it. Larger blocks pack each panel of B for more rows
/// of A: a 197 x 768 x 3072 product spent a quarter of its time re-packing
/// B for each of its four blocks of 64 rows.
int64_t rowsPerBlock(ArrayRef<int64_t> extents, const Contraction &c,
                     int64_t most, int64_t cols) {
  constexpr int64_t kFewestRows = 64, kBlocksWanted = 4;
  if (llvm::any_of(extents, ShapedType::isDynamic))
    return std::min(most, kFewestRows);
  int64_t outerBlocks = 1;
  for (unsigned d : c.outer)
    outerBlocks *= extents[d];
  int64_t rows = most;
  auto blocks = [&](int64_t perBlock) {
    return outerBlocks * llvm::divideCeil(extents[c.m], perBlock) *
           llvm::divideCeil(extents[c.n], cols);
  };
  while (rows / 2 >= kFewestRows && blocks(rows) < kBlocksWanted)
    rows /= 2;
  return rows;
}

/// Columns of C in a block: at most `most`, a multiple of `tile`, and as
/// even as that allows. A product of 448 columns in blocks of 256 had a
/// 256-column block and a 192-column one, so one of two threads waited a
/// quarter of the time (each 8-row chunk of MC3's 3x3x3 convolutions);
/// two blocks of 224 are equal. The count of blocks is made even where
/// the product's other blocks leave it odd, so two threads share it
/// evenly.
int64_t colsPerBlock(ArrayRef<int64_t> extents, const Contraction &c,
                     int64_t most, int64_t tile) {
  if (llvm::any_of(extents, ShapedType::isDynamic))
    return most;
  int64_t otherBlocks = llvm::divideCeil(extents[c.m], c.blockRows);
  for (unsigned d : c.outer)
    otherBlocks *= extents[d];
  int64_t count = llvm::divideCeil(extents[c.n], most);
  if (count * otherBlocks % 2 == 1 && extents[c.n] >= 2 * tile)
    ++count;
  int64_t cols = llvm::alignTo(llvm::divideCeil(extents[c.n], count), tile);
  return std::min(cols, most);
}

bool isF32Memref(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getElementType().isF32();
}

/// The loop dimension of `map`'s last result.
std::optional<unsigned> innermostDim(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

FailureOr<Contraction> matchContraction(linalg::LinalgOp op,
                                        const KernelSizes &options,
                                        int64_t minWork) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return failure();
  for (OpOperand &operand : op->getOpOperands())
    if (!isF32Memref(operand.get().getType()))
      return failure();
  // The body must be a plain multiply-add: isaContractionOpInterface also
  // accepts casts, which the kernels do not perform.
  Block *body = op.getBlock();
  if (body->getOperations().size() != 3 ||
      !isa<arith::MulFOp>(body->front()) ||
      !isa<arith::AddFOp>(*std::next(body->begin())))
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.size() != 1)
    return failure();
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return failure();

  Contraction c{op, 0, 0, dims->k.front(), {}, false, false, 0};
  OpOperand *a = op.getDpsInputOperand(0), *b = op.getDpsInputOperand(1);
  OpOperand *out = op.getDpsInitOperand(0);
  std::optional<unsigned> outInner = innermostDim(op.getMatchingIndexingMap(out));
  std::optional<unsigned> bInner = innermostDim(op.getMatchingIndexingMap(b));
  if (!outInner || !bInner || !llvm::is_contained(dims->n, *outInner))
    return failure();
  c.n = *outInner;
  c.transposedB = *bInner == c.k;
  if (!c.transposedB && *bInner != c.n)
    return failure();
  // m: the longest m dimension (a unit dimension left by a reshape would
  // make one-row tiles), the innermost in the output among equals.
  AffineMap outMap = op.getMatchingIndexingMap(out);
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  auto length = [&](unsigned d) {
    return ShapedType::isDynamic(extents[d]) ? INT64_MAX : extents[d];
  };
  std::optional<unsigned> m;
  for (AffineExpr expr : outMap.getResults()) {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (llvm::is_contained(dims->m, pos) && (!m || length(pos) >= length(*m)))
      m = pos;
  }
  if (!m)
    return failure();
  c.m = *m;
  if (c.transposedB &&
      innermostDim(op.getMatchingIndexingMap(a)) != std::optional(c.k))
    return failure();
  // The vector loads need unit stride along the vectorized dimension.
  auto unitInner = [](OpOperand *operand) {
    return cast<MemRefType>(operand->get().getType()).isLastDimUnitStride();
  };
  if (!unitInner(b) || (!c.transposedB && !unitInner(out)) ||
      (c.transposedB && !unitInner(a)))
    return failure();
  for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d)
    if (d != c.m && d != c.n && d != c.k)
      c.outer.push_back(d);
  c.blockRows = rowsPerBlock(extents, c, options.blockRows, options.blockCols);
  c.blockCols = colsPerBlock(extents, c, options.blockCols,
                             options.broadcastVectors * options.vectorWidth);
  // A weight [n, k] read by many rows (a transformer's 197 tokens): one
  // transposing copy of B per block costs less than the dot kernel's
  // reductions; a batch of a few rows keeps the dot kernel, which reads B
  // once. So do fewer columns than one register tile holds: a weight
  // gradient's 3x3 window positions would fill 9 of 32 lanes.
  constexpr int64_t kRowsForTransposingPack = 64;
  int64_t tileCols = options.broadcastVectors * options.vectorWidth;
  c.packTransposedB =
      c.transposedB && unitInner(out) && !ShapedType::isDynamic(extents[c.m]) &&
      !ShapedType::isDynamic(extents[c.n]) &&
      extents[c.m] >= kRowsForTransposingPack && extents[c.n] >= tileCols;
  // Tiny products (an LSTM cell's) are better left to LLVM, which unrolls
  // their static loops completely.
  int64_t work = 1;
  for (int64_t size : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(size) || (work *= size) >= minWork)
      return c;
  c.small = work < minWork;
  return c;
}

/// The loop order for a product too small for a kernel: k outside n, so
/// that the innermost loop, `C[m, n] += A[m, k] * B[k, n]` along n, reads
/// and writes contiguous memory with no loop-carried sum, which LLVM
/// vectorizes. In linalg's order (k innermost) every step loads and stores
/// the same C element and the f32 sum cannot be reordered: an LSTM step's
/// 1 x 128 x 32 product ran as 4096 scalar multiply-adds, each with a store.
/// Products whose B is read [n, k] keep their order: along n, B's loads
/// would be strided. Nothing for a product of one column.
std::optional<SmallVector<unsigned>> smallProductOrder(Contraction &c) {
  if (c.transposedB || c.op.getStaticLoopRanges()[c.n] == 1)
    return std::nullopt;
  SmallVector<unsigned> order(c.outer);
  order.append({c.m, c.k, c.n});
  return order;
}

/// Emits the kernels of one contraction. `iv` holds the current value of
/// every loop dimension, so an operand's indices are its map applied to it.
class KernelEmitter {
public:
  KernelEmitter(ImplicitLocOpBuilder &b, Contraction c,
                const KernelSizes &options)
      : b(b), c(c), options(options), iv(c.op.getNumLoops()),
        vectorType(VectorType::get({options.vectorWidth}, b.getF32Type())) {
    SmallVector<Range> ranges = c.op.createLoopRanges(b, b.getLoc());
    for (Range &range : ranges)
      sizes.push_back(getValueOrCreateConstantIndexOp(b, b.getLoc(), range.size));
  }

  void emit() {
    int64_t mBlock = c.blockRows, nBlock = c.blockCols;
    SmallVector<OpFoldResult> ubs;
    for (unsigned d : c.outer)
      ubs.push_back(getAsOpFoldResult(sizes[d]));
    ubs.push_back(getAsOpFoldResult(ceilDiv(sizes[c.m], mBlock)));
    ubs.push_back(getAsOpFoldResult(ceilDiv(sizes[c.n], nBlock)));
    scf::ForallOp::create(
        b, ubs, ValueRange{}, std::nullopt,
        [&](OpBuilder &nested, Location loc, ValueRange ivs) {
          ImplicitLocOpBuilder inner(loc, nested);
          KernelEmitter body(*this, inner);
          for (auto [d, value] : llvm::zip(c.outer, ivs))
            body.iv[d] = value;
          unsigned count = c.outer.size();
          Value mLo = body.mul(ivs[count], mBlock);
          Value nLo = body.mul(ivs[count + 1], nBlock);
          Value mHi = body.min(body.add(mLo, mBlock), sizes[c.m]);
          Value nHi = body.min(body.add(nLo, nBlock), sizes[c.n]);
          if (c.transposedB && !c.packTransposedB)
            body.emitDotBlock(mLo, mHi, nLo, nHi);
          else
            body.emitBroadcastBlock(mLo, mHi, nLo, nHi);
          scf::InParallelOp::create(inner);
        });
  }

private:
  KernelEmitter(const KernelEmitter &outer, ImplicitLocOpBuilder &b)
      : b(b), c(outer.c), options(outer.options), iv(outer.iv),
        sizes(outer.sizes), vectorType(outer.vectorType) {}

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, value);
  }
  Value add(Value lhs, Value rhs) {
    return b.createOrFold<arith::AddIOp>(lhs, rhs);
  }
  Value add(Value lhs, int64_t rhs) { return add(lhs, index(rhs)); }
  Value sub(Value lhs, Value rhs) {
    return b.createOrFold<arith::SubIOp>(lhs, rhs);
  }
  Value mul(Value lhs, int64_t rhs) {
    return b.createOrFold<arith::MulIOp>(lhs, index(rhs));
  }
  Value min(Value lhs, Value rhs) {
    return b.createOrFold<arith::MinSIOp>(lhs, rhs);
  }
  Value zeros() {
    return arith::ConstantOp::create(b,
                                     cast<TypedAttr>(b.getZeroAttr(vectorType)));
  }
  Value ceilDiv(Value value, int64_t by) {
    return b.createOrFold<arith::CeilDivSIOp>(value, index(by));
  }
  /// The end of the part of [lo, hi) that whole steps of `step` cover.
  Value wholeSteps(Value lo, Value hi, int64_t step) {
    Value length = sub(hi, lo);
    Value whole = b.createOrFold<arith::RemSIOp>(length, index(step));
    return sub(hi, whole);
  }

  /// The mask of the first `count` lanes (all of them when count >= W).
  Value firstLanes(Value count) {
    return tsir::cpu::buildFirstLanesMask(b, options.vectorWidth, count);
  }

  SmallVector<Value> indicesOf(OpOperand *operand) {
    SmallVector<Value> result;
    for (AffineExpr expr : c.op.getMatchingIndexingMap(operand).getResults())
      result.push_back(iv[cast<AffineDimExpr>(expr).getPosition()]);
    return result;
  }
  OpOperand *lhs() { return c.op.getDpsInputOperand(0); }
  OpOperand *rhs() { return c.op.getDpsInputOperand(1); }
  OpOperand *out() { return c.op.getDpsInitOperand(0); }

  Value loadScalar(OpOperand *operand) {
    return memref::LoadOp::create(b, operand->get(), indicesOf(operand));
  }
  Value loadVector(OpOperand *operand, Value mask) {
    if (!mask)
      return vector::LoadOp::create(b, vectorType, operand->get(),
                                    indicesOf(operand));
    return vector::MaskedLoadOp::create(b, vectorType, operand->get(),
                                        indicesOf(operand), mask, zeros());
  }
  void storeVector(Value value, OpOperand *operand, Value mask) {
    if (mask)
      vector::MaskedStoreOp::create(b, operand->get(), indicesOf(operand), mask,
                                    value);
    else
      vector::StoreOp::create(b, value, operand->get(), indicesOf(operand));
  }

  /// An scf.for from `lo` to `hi` by `step` whose body `fn(iv)` emits
  /// through this emitter's builder.
  void loop(Value lo, Value hi, int64_t step, function_ref<void(Value)> fn) {
    scf::ForOp::create(b, lo, hi, index(step), ValueRange{},
                       [&](OpBuilder &nested, Location loc, Value i,
                           ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(scf::YieldOp::create(nested, loc));
                         fn(i);
                       });
  }

  /// `body(lo)` for every full step of `step` in [lo, hi), then
  /// `remainder(lo)` for every single index left.
  void forSteps(Value lo, Value hi, int64_t step,
                function_ref<void(Value)> body,
                function_ref<void(Value)> remainder) {
    Value split = wholeSteps(lo, hi, step);
    loop(lo, split, step, body);
    loop(split, hi, 1, remainder);
  }

  // --- broadcast kernel ----------------------------------------------------

  /// One block of C, k in steps of `block-depth`. Each step first copies
  /// the block's rows of B into `packed`, panel by panel
  /// ([panel][k][tileCols], zero past the edge), so the micro-kernel reads
  /// one contiguous stream: B's own rows are a row pitch apart, and at a
  /// pitch of 4 KB every row falls into the same L1 set.
  void emitBroadcastBlock(Value mLo, Value mHi, Value nLo, Value nHi) {
    int64_t kBlock = options.blockDepth, width = options.vectorWidth;
    int64_t tileCols = options.broadcastVectors * width;
    int64_t panels = options.blockCols / tileCols;
    auto packedType =
        MemRefType::get({panels, kBlock, tileCols}, b.getF32Type());
    Value packed = memref::AllocOp::create(b, packedType);
    Value kSize = sizes[c.k];
    Value panelCount = ceilDiv(sub(nHi, nLo), tileCols);
    loop(index(0), kSize, kBlock, [&](Value k0) {
      Value kHi = min(add(k0, kBlock), kSize);
      Value kLength = sub(kHi, k0);
      // Pack B[k0..kHi, nLo..nHi].
      loop(index(0), panelCount, 1, [&](Value panel) {
        Value n0 = add(nLo, mul(panel, tileCols));
        if (c.packTransposedB) {
          loop(index(0), kLength, width, [&](Value dk) {
            emitTransposingPack(packed, panel, n0, nHi, k0, dk, kLength);
          });
          return;
        }
        loop(index(0), kLength, 1, [&](Value dk) {
          iv[c.k] = add(k0, dk);
          for (int64_t j = 0; j < options.broadcastVectors; ++j) {
            iv[c.n] = add(n0, j * width);
            Value row = loadVector(rhs(), firstLanes(sub(nHi, iv[c.n])));
            vector::StoreOp::create(b, row, packed,
                                    ValueRange{panel, dk, index(j * width)});
          }
        });
      });
      // Whole tiles of C without masks, then one masked tile at the edge.
      auto columns = [&](Value panel, Value nEnd) {
        Value n0 = add(nLo, mul(panel, tileCols));
        forSteps(
            mLo, mHi, options.broadcastRows,
            [&](Value m0) {
              emitBroadcastTile(options.broadcastRows, m0, n0, nEnd, packed,
                                panel, k0, kLength);
            },
            [&](Value m0) {
              emitBroadcastTile(1, m0, n0, nEnd, packed, panel, k0, kLength);
            });
      };
      Value wholePanels = arith::DivSIOp::create(b, sub(nHi, nLo),
                                                 index(tileCols));
      loop(index(0), wholePanels, 1,
           [&](Value panel) { columns(panel, Value()); });
      Value edge = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                         wholePanels, panelCount);
      scf::IfOp::create(b, edge, [&](OpBuilder &nested, Location loc) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(scf::YieldOp::create(nested, loc));
        columns(wholePanels, nHi);
      });
    });
    memref::DeallocOp::create(b, packed);
  }

  /// The panel's rows dk .. dk+W from B indexed [n, k]: W rows of B at a
  /// time (W elements along k each, zero past nHi and past the block's
  /// kLength), transposed in registers, stored as W rows of the panel. The
  /// rows past kLength are zeros the kernel never reads (block-depth is a
  /// multiple of W).
  void emitTransposingPack(Value packed, Value panel, Value n0, Value nHi,
                           Value k0, Value dk, Value kLength) {
    int64_t width = options.vectorWidth;
    Value kMask = firstLanes(sub(kLength, dk));
    auto maskType = VectorType::get({width}, b.getI1Type());
    iv[c.k] = add(k0, dk);
    for (int64_t j = 0; j < options.broadcastVectors; ++j) {
      SmallVector<Value> rows;
      for (int64_t i = 0; i < width; ++i) {
        iv[c.n] = add(n0, j * width + i);
        Value inside =
            arith::CmpIOp::create(b, arith::CmpIPredicate::slt, iv[c.n], nHi);
        Value mask = arith::AndIOp::create(
            b, kMask, vector::BroadcastOp::create(b, maskType, inside));
        rows.push_back(loadVector(rhs(), mask));
      }
      SmallVector<Value> columns = transpose(rows);
      for (int64_t i = 0; i < width; ++i)
        vector::StoreOp::create(
            b, columns[i], packed,
            ValueRange{panel, add(dk, i), index(j * width)});
    }
  }

  /// The W x W matrix held as W row vectors, transposed: log2(W) rounds of
  /// two-input shuffles, each swapping the off-diagonal blocks of size
  /// 8, 4, 2, 1 (for W = 16) of every pair of rows that size apart.
  SmallVector<Value> transpose(SmallVector<Value> rows) {
    int64_t width = rows.size();
    for (int64_t size = width / 2; size >= 1; size /= 2) {
      SmallVector<int64_t> lowMask, highMask;
      for (int64_t lane = 0; lane < width; ++lane) {
        bool high = lane & size;
        lowMask.push_back(high ? width + lane - size : lane);
        highMask.push_back(high ? width + lane : lane + size);
      }
      for (int64_t i = 0; i < width; ++i) {
        if (i & size)
          continue;
        Value low = rows[i], highRow = rows[i + size];
        rows[i] = vector::ShuffleOp::create(b, low, highRow, lowMask);
        rows[i + size] = vector::ShuffleOp::create(b, low, highRow, highMask);
      }
    }
    return rows;
  }

  /// C[m0 .. m0+rows, n0 .. n0+tileCols] += A[.., k0 .. k0+kLength] times
  /// the packed panel of B, masked at `nEnd` when it is given.
  void emitBroadcastTile(int64_t rows, Value m0, Value n0, Value nEnd,
                         Value packed, Value panel, Value k0, Value kLength) {
    int64_t vectors = options.broadcastVectors, width = options.vectorWidth;
    SmallVector<Value> columns, masks;
    for (int64_t j = 0; j < vectors; ++j) {
      columns.push_back(add(n0, j * width));
      masks.push_back(nEnd ? firstLanes(sub(nEnd, columns[j])) : Value());
    }
    SmallVector<Value> rowIndex;
    for (int64_t i = 0; i < rows; ++i)
      rowIndex.push_back(add(m0, i));

    SmallVector<Value> acc;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j) {
        iv[c.m] = rowIndex[i];
        iv[c.n] = columns[j];
        acc.push_back(loadVector(out(), masks[j]));
      }
    auto kLoop = scf::ForOp::create(
        b, index(0), kLength, index(1), acc,
        [&](OpBuilder &nested, Location loc, Value dk, ValueRange sums) {
          ImplicitLocOpBuilder body(loc, nested);
          KernelEmitter step(*this, body);
          step.iv[c.k] = step.add(k0, dk);
          SmallVector<Value> bRows;
          for (int64_t j = 0; j < vectors; ++j)
            bRows.push_back(vector::LoadOp::create(
                body, vectorType, packed,
                ValueRange{panel, dk, step.index(j * width)}));
          SmallVector<Value> next;
          for (int64_t i = 0; i < rows; ++i) {
            step.iv[c.m] = rowIndex[i];
            Value a = vector::BroadcastOp::create(body, vectorType,
                                                  step.loadScalar(lhs()));
            for (int64_t j = 0; j < vectors; ++j)
              next.push_back(vector::FMAOp::create(body, a, bRows[j],
                                                   sums[i * vectors + j]));
          }
          scf::YieldOp::create(body, next);
        });
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j) {
        iv[c.m] = rowIndex[i];
        iv[c.n] = columns[j];
        storeVector(kLoop.getResult(i * vectors + j), out(), masks[j]);
      }
  }

  // --- dot kernel ------------------------------------------------------------

  void emitDotBlock(Value mLo, Value mHi, Value nLo, Value nHi) {
    int64_t rows = options.dotRows, cols = options.dotCols;
    auto rowsOf = [&](int64_t tileCols) {
      return [&, tileCols](Value n0) {
        forSteps(
            mLo, mHi, rows,
            [&](Value m0) { emitDotTile(rows, tileCols, m0, n0); },
            [&](Value m0) { emitDotTile(1, tileCols, m0, n0); });
      };
    };
    forSteps(nLo, nHi, cols, rowsOf(cols), rowsOf(1));
  }

  /// C[m0 .. m0+rows, n0 .. n0+cols] += sum over k of A[m, k] * B[n, k].
  void emitDotTile(int64_t rows, int64_t cols, Value m0, Value n0) {
    int64_t width = options.vectorWidth;
    Value kSize = sizes[c.k];
    Value zero = zeros();
    SmallVector<Value> rowIndex, colIndex;
    for (int64_t i = 0; i < rows; ++i)
      rowIndex.push_back(add(m0, i));
    for (int64_t j = 0; j < cols; ++j)
      colIndex.push_back(add(n0, j));

    // One step of W along k: rows + cols vector loads, rows * cols FMAs.
    auto step = [&](KernelEmitter &e, Value k, ValueRange sums, Value mask) {
      e.iv[c.k] = k;
      SmallVector<Value> aRows, bRows, next;
      for (int64_t i = 0; i < rows; ++i) {
        e.iv[c.m] = rowIndex[i];
        aRows.push_back(e.loadVector(lhs(), mask));
      }
      for (int64_t j = 0; j < cols; ++j) {
        e.iv[c.n] = colIndex[j];
        bRows.push_back(e.loadVector(rhs(), mask));
      }
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          next.push_back(vector::FMAOp::create(e.b, aRows[i], bRows[j],
                                               sums[i * cols + j]));
      return next;
    };
    Value kWhole = wholeSteps(index(0), kSize, width);
    auto loop = scf::ForOp::create(
        b, index(0), kWhole, index(width),
        SmallVector<Value>(rows * cols, zero),
        [&](OpBuilder &nested, Location loc, Value k, ValueRange sums) {
          ImplicitLocOpBuilder body(loc, nested);
          KernelEmitter e(*this, body);
          scf::YieldOp::create(body, step(e, k, sums, Value()));
        });
    SmallVector<Value> sums(loop.getResults());
    std::optional<int64_t> staticK = getConstantIntValue(kSize);
    if (!staticK || *staticK % width != 0) {
      Value mask = firstLanes(sub(kSize, kWhole));
      sums = step(*this, kWhole, sums, mask);
    }
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        iv[c.m] = rowIndex[i];
        iv[c.n] = colIndex[j];
        Value total = vector::ReductionOp::create(
            b, vector::CombiningKind::ADD, sums[i * cols + j]);
        Value old = loadScalar(out());
        memref::StoreOp::create(b, arith::AddFOp::create(b, old, total),
                                out()->get(), indicesOf(out()));
      }
  }

  ImplicitLocOpBuilder &b;
  Contraction c;
  const KernelSizes &options;
  SmallVector<Value> iv;
  SmallVector<Value> sizes;
  VectorType vectorType;
};

struct CPUContractionKernelsPass
    : tsir::impl::TsirCPUContractionKernelsPassBase<CPUContractionKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorWidth < 1 || broadcastRows < 1 || broadcastVectors < 1 ||
        dotRows < 1 || dotCols < 1 || blockRows < 1 || blockCols < 1 ||
        blockDepth < 1 || blockCols % (broadcastVectors * vectorWidth) != 0 ||
        blockDepth % vectorWidth != 0 || !llvm::isPowerOf2_64(vectorWidth)) {
      getOperation().emitError(
          "tsir-cpu-contraction-kernels: every size option must be at least "
          "1, vector-width a power of 2, block-cols a multiple of "
          "broadcast-vectors * vector-width and block-depth one of "
          "vector-width");
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    KernelSizes options{vectorWidth, broadcastRows, broadcastVectors,
                        dotRows,     dotCols,       blockRows,
                        blockCols,   blockDepth};
    SmallVector<Contraction> found;
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<unsigned>>> reorder;
    module.walk([&](linalg::LinalgOp op) {
      FailureOr<Contraction> c = matchContraction(op, options, minWork);
      if (failed(c))
        return;
      if (!c->small)
        found.push_back(*c);
      else if (std::optional<SmallVector<unsigned>> order =
                   smallProductOrder(*c))
        reorder.push_back({op, *order});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, order] : reorder) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (succeeded(generic))
        (void)linalg::interchangeGenericOp(rewriter, *generic, order);
    }
    SymbolTable symbols(module);
    llvm::StringMap<func::FuncOp> kernels;
    for (Contraction &c : found) {
      func::FuncOp &kernel = kernels[kernelKey(c)];
      if (!kernel)
        kernel = outline(c, options, symbols);
      OpBuilder b(c.op);
      func::CallOp::create(b, c.op.getLoc(), kernel,
                           c.op->getOperands());
      c.op->erase();
    }
  }

  /// Products of the same operand types, maps and body share one kernel.
  static std::string kernelKey(Contraction &c) {
    std::string key;
    llvm::raw_string_ostream os(key);
    Operation *op = c.op.getOperation();
    for (Type type : op->getOperandTypes())
      os << type << ";";
    for (AffineMap map : linalg::LinalgOp(op).getIndexingMapsArray())
      os << map << ";";
    return key;
  }

  /// A private function, never inlined, that computes the product of its
  /// three arguments. Each kernel is its own function so that LLVM
  /// optimizes many small functions instead of one huge one (ResNet-18's
  /// compile time), and repeated shapes compile once.
  static func::FuncOp outline(Contraction &c, const KernelSizes &options,
                              SymbolTable &symbols) {
    Operation *op = c.op.getOperation();
    auto module = cast<ModuleOp>(symbols.getOp());
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto type = b.getFunctionType(op->getOperandTypes(), {});
    auto kernel = func::FuncOp::create(b, op->getLoc(), "tsir_cpu_kernel", type);
    kernel.setPrivate();
    kernel->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
    symbols.insert(kernel);
    Block *entry = kernel.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping operands;
    operands.map(op->getOperands(), entry->getArguments());
    Contraction inside = c;
    inside.op = cast<linalg::LinalgOp>(b.clone(*op, operands));
    func::ReturnOp::create(b, op->getLoc());
    ImplicitLocOpBuilder builder(op->getLoc(), inside.op);
    KernelEmitter(builder, inside, options).emit();
    inside.op->erase();
    return kernel;
  }
};

} // namespace
