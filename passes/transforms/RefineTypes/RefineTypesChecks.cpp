//===- RefineTypesChecks.cpp - Shape errors in torch's words --------------===//
//
// Once tsir-refine-types has refined a graph, these checks look at the ops
// users most often feed the wrong shapes (convolutions, matrix products,
// linear, cat/stack, broadcasting, view/reshape, dims and indices out of
// range) and report a mistake the way torch reports it at run time, with
// torch's own wording, before anything is lowered. Without them the same
// mistake surfaces as a lowering failure ("failed to legalize operation
// 'aten.conv2d'") or, worse, as compiled code reading out of bounds.
//
// A check speaks only when the facts prove the op fails in torch: an
// unknown size is never an error.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"
#include "tsir/Dialect/Aten/AtenTraits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

using Sizes = SmallVector<int64_t, 4>;

namespace {
/// Checks one op; emits torch's error on the op and fails if the facts
/// prove it wrong.
using ShapeCheck = LogicalResult (*)(Operation *op, RuleContext &context);
} // namespace

/// `[2, 4, 16, 16]`, as torch prints sizes (`?` for an unknown size).
static std::string sizesText(ArrayRef<int64_t> sizes) {
  std::string text = "[";
  for (auto [index, size] : llvm::enumerate(sizes))
    text += (index ? ", " : "") +
            (size == kUnknown ? std::string("?") : std::to_string(size));
  return text + "]";
}

static bool known(int64_t size) { return size != kUnknown; }

/// a * b, or kUnknown if either is unknown or the product overflows (a
/// graph may hold any constant).
static int64_t multiply(int64_t a, int64_t b) {
  int64_t result;
  if (!known(a) || !known(b) || __builtin_mul_overflow(a, b, &result))
    return kUnknown;
  return result;
}

/// The product of `sizes`, or kUnknown.
static int64_t product(ArrayRef<int64_t> sizes) {
  int64_t result = 1;
  for (int64_t size : sizes)
    result = multiply(result, size);
  return result;
}

static std::string sizeText(int64_t size) {
  return known(size) ? std::to_string(size) : "?";
}

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

/// aten's maybe_wrap_dim error for `dim` on a tensor of `rank` dims (a 0-d
/// tensor takes dims as if it had one).
static LogicalResult checkDim(Operation *op, int64_t dim, int64_t rank) {
  int64_t wrapRank = std::max<int64_t>(rank, 1);
  if (dim >= -wrapRank && dim < wrapRank)
    return success();
  return op->emitError() << "Dimension out of range (expected to be in range "
                            "of ["
                         << -wrapRank << ", " << wrapRank - 1 << "], but got "
                         << dim << ")";
}

/// Ops whose `dim` (an int or an int[]) counts the dims of operand 0;
/// `extra` is 1 where the op adds a dim (unsqueeze).
template <int64_t extra>
static LogicalResult dimCheck(Operation *op, RuleContext &context) {
  TensorFacts self = context.tensor(op->getOperand(0));
  Value dimValue = namedOperand(op, "dim");
  if (!self.hasRank() || !dimValue)
    return success();
  if (std::optional<int64_t> dim = context.getInt(dimValue))
    return checkDim(op, *dim, self.rank() + extra);
  if (auto dims = context.getIntList(dimValue))
    for (std::optional<int64_t> dim : *dims)
      if (dim && failed(checkDim(op, *dim, self.rank() + extra)))
        return failure();
  return success();
}

static LogicalResult transposeCheck(Operation *op, RuleContext &context) {
  TensorFacts self = context.tensor(op->getOperand(0));
  if (!self.hasRank())
    return success();
  for (unsigned index : {1u, 2u})
    if (std::optional<int64_t> dim = context.getInt(op->getOperand(index)))
      if (failed(checkDim(op, *dim, self.rank())))
        return failure();
  return success();
}

/// select(self, dim, index): torch checks the index against the size.
static LogicalResult selectCheck(Operation *op, RuleContext &context) {
  if (failed(dimCheck<0>(op, context)))
    return failure();
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  std::optional<int64_t> index = context.getInt(op->getOperand(2));
  if (!self.hasRank() || self.rank() == 0 || !dim || !index)
    return success();
  int64_t d = *wrapDim(*dim, self.rank());
  int64_t size = (*self.sizes)[d];
  if (!known(size) || (*index >= -size && *index < size))
    return success();
  return op->emitError() << "select(): index " << *index
                         << " out of range for tensor of size "
                         << sizesText(*self.sizes) << " at dimension " << d;
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

/// torch's infer_size error for two tensors that do not broadcast.
static LogicalResult checkBroadcast(Operation *op, const TensorFacts &a,
                                    const TensorFacts &b) {
  if (!a.hasRank() || !b.hasRank())
    return success();
  int64_t rank = std::max(a.rank(), b.rank());
  for (int64_t i = rank - 1; i >= 0; --i) {
    int64_t atA = a.rank() - rank + i, atB = b.rank() - rank + i;
    int64_t sizeA = atA >= 0 ? (*a.sizes)[atA] : 1;
    int64_t sizeB = atB >= 0 ? (*b.sizes)[atB] : 1;
    if (known(sizeA) && known(sizeB) && sizeA != sizeB && sizeA != 1 &&
        sizeB != 1)
      return op->emitError() << "The size of tensor a (" << sizeA
                             << ") must match the size of tensor b (" << sizeB
                             << ") at non-singleton dimension " << i;
  }
  return success();
}

/// Elementwise ops over their tensor operands: each pair must broadcast.
static LogicalResult broadcastCheck(Operation *op, RuleContext &context) {
  SmallVector<TensorFacts> tensors;
  for (Value operand : op->getOperands())
    if (isa<prim::TensorType>(operand.getType()))
      tensors.push_back(context.tensor(operand));
  // As torch's infer_size folds them: the first with the second, the
  // result with the third.
  for (size_t i = 1; i < tensors.size(); ++i) {
    if (failed(checkBroadcast(op, tensors.front(), tensors[i])))
      return failure();
    tensors.front().sizes = broadcastSizes({tensors.front(), tensors[i]});
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// mm's error: `mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)`.
static LogicalResult checkMatrices(Operation *op, int64_t rows, int64_t inner1,
                                   int64_t inner2, int64_t columns) {
  if (!known(inner1) || !known(inner2) || inner1 == inner2)
    return success();
  return op->emitError() << "mat1 and mat2 shapes cannot be multiplied ("
                         << sizeText(rows) << "x" << inner1 << " and " << inner2
                         << "x" << sizeText(columns) << ")";
}

/// bmm's error for batches of matrices that do not fit.
static LogicalResult checkBatches(Operation *op, int64_t batch1, int64_t inner1,
                                  int64_t batch2, int64_t inner2) {
  if ((!known(batch1) || !known(batch2) || batch1 == batch2) &&
      (!known(inner1) || !known(inner2) || inner1 == inner2))
    return success();
  return op->emitError()
         << "Expected size for first two dimensions of batch2 tensor to be: ["
         << sizeText(batch1) << ", " << sizeText(inner1) << "] but got: ["
         << sizeText(batch2) << ", " << sizeText(inner2) << "].";
}

/// mm(self, mat2), addmm(input, mat1, mat2) with the matrices from `first`.
template <unsigned first>
static LogicalResult mmCheck(Operation *op, RuleContext &context) {
  TensorFacts a = context.tensor(op->getOperand(first));
  TensorFacts b = context.tensor(op->getOperand(first + 1));
  if (!a.hasRank() || !b.hasRank())
    return success();
  if (a.rank() != 2)
    return op->emitError() << (first ? "mat1" : "self") << " must be a matrix";
  if (b.rank() != 2)
    return op->emitError() << "mat2"
                           << " must be a matrix";
  return checkMatrices(op, (*a.sizes)[0], (*a.sizes)[1], (*b.sizes)[0],
                       (*b.sizes)[1]);
}

template <unsigned first>
static LogicalResult bmmCheck(Operation *op, RuleContext &context) {
  TensorFacts a = context.tensor(op->getOperand(first));
  TensorFacts b = context.tensor(op->getOperand(first + 1));
  if (!a.hasRank() || !b.hasRank())
    return success();
  if (a.rank() != 3)
    return op->emitError() << "batch1 must be a 3D tensor";
  if (b.rank() != 3)
    return op->emitError() << "batch2 must be a 3D tensor";
  return checkBatches(op, (*a.sizes)[0], (*a.sizes)[2], (*b.sizes)[0],
                      (*b.sizes)[1]);
}

/// matmul, by the ranks of its operands, as aten's matmul dispatches.
static LogicalResult matmulCheck(Operation *op, RuleContext &context) {
  TensorFacts a = context.tensor(op->getOperand(0));
  TensorFacts b = context.tensor(op->getOperand(1));
  if (!a.hasRank() || !b.hasRank() || a.rank() == 0 || b.rank() == 0)
    return success();
  ArrayRef<int64_t> sa = *a.sizes, sb = *b.sizes;
  int64_t innerA = sa.back();
  int64_t innerB = b.rank() == 1 ? sb[0] : sb[sb.size() - 2];
  if (a.rank() == 1 && b.rank() == 1) {
    if (!known(innerA) || !known(innerB) || innerA == innerB)
      return success();
    return op->emitError() << "inconsistent tensor size, expected tensor ["
                           << innerA << "] and src [" << innerB
                           << "] to have the same number of elements, but got "
                           << innerA << " and " << innerB
                           << " elements respectively";
  }
  if (b.rank() == 1) {
    if (!known(innerA) || !known(innerB) || innerA == innerB)
      return success();
    // mv's error, which torch words tersely.
    return op->emitError() << "size mismatch, got "
                           << sizeText(product(sa.drop_back())) << ", "
                           << sizeText(product(sa.drop_back())) << "x" << innerA
                           << "," << innerB;
  }
  if (b.rank() == 2) // a folded into rows, times b
    return checkMatrices(op, product(sa.drop_back()), innerA, innerB, sb[1]);
  // Batched: the batch dims broadcast, then each pair of matrices fits.
  TensorFacts batchA, batchB;
  batchA.sizes.emplace(a.rank() > 2 ? sa.drop_back(2) : ArrayRef<int64_t>());
  batchB.sizes.emplace(sb.drop_back(2));
  if (failed(checkBroadcast(op, batchA, batchB)))
    return failure();
  std::optional<Sizes> batch = broadcastSizes({batchA, batchB});
  int64_t batchSize = batch ? product(*batch) : kUnknown;
  return checkBatches(op, batchSize, innerA, batchSize, innerB);
}

/// linear(input, weight, bias): input's last dim against weight's columns,
/// reported as the matrix product torch runs.
static LogicalResult linearCheck(Operation *op, RuleContext &context) {
  TensorFacts input = context.tensor(op->getOperand(0));
  TensorFacts weight = context.tensor(op->getOperand(1));
  if (!input.hasRank() || !weight.hasRank() || input.rank() == 0 ||
      weight.rank() != 2)
    return success();
  ArrayRef<int64_t> si = *input.sizes, sw = *weight.sizes;
  int64_t rows = input.rank() == 1 ? 1 : product(si.drop_back());
  if (failed(checkMatrices(op, rows, si.back(), sw[1], sw[0])))
    return failure();
  TensorFacts bias = context.tensor(op->getOperand(2));
  if (!isa<prim::TensorType>(op->getOperand(2).getType()) || !bias.hasRank() ||
      !known(sw[0]))
    return success();
  // The bias broadcasts against the [rows, out_features] product.
  int64_t last = bias.rank() ? bias.sizes->back() : 1;
  if (!known(last) || last == 1 || last == sw[0])
    return success();
  return op->emitError() << "The expanded size of the tensor (" << sw[0]
                         << ") must match the existing size (" << last
                         << ") at non-singleton dimension "
                         << std::max<int64_t>(input.rank(), 2) - 1
                         << ".  Target sizes: [" << sizeText(rows) << ", "
                         << sw[0]
                         << "].  Tensor sizes: " << sizesText(*bias.sizes);
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// conv1d/2d/3d(input, weight, bias, stride, padding, dilation, groups) and
/// conv2d.padding (a string padding): the checks of aten's
/// check_shape_forward, in its order and words.
template <bool stringPadding>
static LogicalResult convCheck(Operation *op, RuleContext &context) {
  TensorFacts input = context.tensor(op->getOperand(0));
  TensorFacts weight = context.tensor(op->getOperand(1));
  if (!input.hasRank() || !weight.hasRank() || weight.rank() < 3)
    return success();
  int64_t n = weight.rank() - 2;
  if (input.rank() != n + 1 && input.rank() != n + 2)
    return op->emitError() << "Expected " << n + 1 << "D (unbatched) or "
                           << n + 2 << "D (batched) input to conv" << n
                           << "d, but got input of size: "
                           << sizesText(*input.sizes);
  // torch reports an unbatched input as a batch of one.
  Sizes inputSizes(*input.sizes);
  if (input.rank() == n + 1)
    inputSizes.insert(inputSizes.begin(), 1);
  ArrayRef<int64_t> sw = *weight.sizes;
  std::optional<int64_t> groups = context.getInt(op->getOperand(6));
  if (!groups || *groups <= 0)
    return success();
  if (known(sw[0]) && sw[0] % *groups != 0)
    return op->emitError() << "Given groups=" << *groups
                           << ", expected weight to be divisible by " << *groups
                           << " at dimension 0, but got weight of "
                           << "size [" << sizesText(sw) << "] instead";
  int64_t channels = inputSizes[1];
  int64_t expected = multiply(sw[1], *groups);
  if (known(expected) && known(channels) && channels != expected)
    return op->emitError() << "Given groups=" << *groups << ", weight of size "
                           << sizesText(sw) << ", expected input"
                           << sizesText(inputSizes) << " to have " << expected
                           << " channels, but got " << channels
                           << " channels instead";
  Value biasValue = op->getOperand(2);
  if (isa<prim::TensorType>(biasValue.getType())) {
    TensorFacts bias = context.tensor(biasValue);
    if (bias.hasRank() && known(sw[0]) &&
        (bias.rank() != 1 ||
         (known((*bias.sizes)[0]) && (*bias.sizes)[0] != sw[0])))
      return op->emitError() << "Given weight of size " << sizesText(sw)
                             << ", expected bias to be 1-dimensional with "
                             << sw[0] << " elements, but got bias of size "
                             << sizesText(*bias.sizes) << " instead";
  }
  // The kernel, dilated, must fit the padded input.
  auto padding = stringPadding ? std::nullopt
                               : context.getIntListOrInt(op->getOperand(4), n);
  auto dilation = context.getIntListOrInt(op->getOperand(5), n);
  if ((!stringPadding && !padding) || !dilation)
    return success();
  auto at = [&](const SmallVector<std::optional<int64_t>> &list, int64_t i) {
    return list.size() == 1 ? list.front() : list[i];
  };
  std::string padded, kernel;
  bool tooLarge = false;
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = inputSizes[2 + i], k = sw[2 + i];
    std::optional<int64_t> pad = stringPadding ? 0 : at(*padding, i);
    std::optional<int64_t> dil = at(*dilation, i);
    // "same" padding pads the input to fit any kernel.
    if (stringPadding || !known(in) || !known(k) || !pad || !dil)
      return success();
    // Out of range (a negative padding or dilation, or sizes that
    // overflow): torch's own checks say so.
    int64_t twicePad = multiply(2, *pad), dilated = multiply(*dil, k - 1);
    int64_t paddedSize, kernelSize;
    if (*pad < 0 || *dil < 1 || !known(twicePad) || !known(dilated) ||
        __builtin_add_overflow(in, twicePad, &paddedSize) ||
        __builtin_add_overflow(dilated, int64_t(1), &kernelSize))
      return success();

    tooLarge |= kernelSize > paddedSize;
    padded += (i ? " x " : "") + std::to_string(paddedSize);
    kernel += (i ? " x " : "") + std::to_string(kernelSize);
  }
  if (!tooLarge)
    return success();
  return op->emitError() << "Calculated padded input size per channel: ("
                         << padded << "). Kernel size: (" << kernel
                         << "). Kernel size can't be greater than actual "
                            "input size";
}

//===----------------------------------------------------------------------===//
// Lists, views
//===----------------------------------------------------------------------===//

/// cat(tensors, dim): same rank, same sizes but in `dim`. 1-d empty
/// tensors are skipped, as torch skips them (legacy behaviour); a 1-d
/// element of unknown size among higher-rank ones may be one of them.
static LogicalResult catCheck(Operation *op, RuleContext &context) {
  std::optional<ListFacts> list = context.listFacts(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  if (!list || !list->elements || !dim)
    return success();
  const TensorFacts *first = nullptr;
  for (const TensorFacts &element : *list->elements) {
    if (!element.hasRank())
      return success();
    if (!first || (first->rank() == 1 && element.rank() != 1))
      first = &element;
  }
  if (!first)
    return success();
  if (failed(checkDim(op, *dim, first->rank())))
    return failure();
  int64_t d = *wrapDim(*dim, first->rank());
  for (auto [index, element] : llvm::enumerate(*list->elements)) {
    bool maybeSkipped = element.rank() == 1 && !known((*element.sizes)[0]);
    bool skipped = element.rank() == 1 && (*element.sizes)[0] == 0;
    if (element.rank() != first->rank() && (skipped || maybeSkipped))
      continue;
    if (element.rank() != first->rank())
      return op->emitError()
             << "Tensors must have same number of dimensions: got "
             << first->rank() << " and " << element.rank();
    for (int64_t i = 0; i < first->rank(); ++i) {
      int64_t expected = (*first->sizes)[i], got = (*element.sizes)[i];
      if (i == d || !known(expected) || !known(got) || expected == got)
        continue;
      return op->emitError()
             << "Sizes of tensors must match except in dimension " << d
             << ". Expected size " << expected << " but got size " << got
             << " for tensor number " << index << " in the list.";
    }
  }
  return success();
}

/// stack(tensors, dim): every tensor of one size.
static LogicalResult stackCheck(Operation *op, RuleContext &context) {
  std::optional<ListFacts> list = context.listFacts(op->getOperand(0));
  if (!list || !list->elements || list->elements->empty())
    return success();
  const TensorFacts &first = list->elements->front();
  if (!first.hasRank())
    return success();
  if (std::optional<int64_t> dim = context.getInt(op->getOperand(1)))
    if (failed(checkDim(op, *dim, first.rank() + 1)))
      return failure();
  for (auto [index, element] : llvm::enumerate(*list->elements)) {
    if (!element.hasRank())
      return success();
    bool differ = element.rank() != first.rank();
    for (int64_t i = 0; !differ && i < first.rank(); ++i) {
      int64_t a = (*first.sizes)[i], b = (*element.sizes)[i];
      differ = known(a) && known(b) && a != b;
    }
    if (differ)
      return op->emitError()
             << "stack expects each tensor to be equal size, but got "
             << sizesText(*first.sizes) << " at entry 0 and "
             << sizesText(*element.sizes) << " at entry " << index;
  }
  return success();
}

/// view/reshape(self, shape): the sizes must hold self's elements.
static LogicalResult viewCheck(Operation *op, RuleContext &context) {
  TensorFacts self = context.tensor(op->getOperand(0));
  auto entries = context.getIntList(op->getOperand(1));
  if (!entries)
    return success();
  int64_t inferred = 0, knownProduct = 1;
  bool allKnown = true;
  std::string text = "[";
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    text += (index ? ", " : "") + (entry ? std::to_string(*entry) : "?");
    if (!entry) {
      allKnown = false;
      continue;
    }
    if (*entry < -1)
      return success(); // torch's "invalid shape dimension", at run time
    if (*entry == -1)
      ++inferred;
    else
      knownProduct = multiply(knownProduct, *entry);
  }
  text += "]";
  if (inferred > 1)
    return op->emitError() << "only one dimension can be inferred";
  std::optional<int64_t> numel = self.numel();
  if (!numel || !allKnown || !known(knownProduct))
    return success();
  bool fits = inferred ? knownProduct != 0 && *numel % knownProduct == 0
                       : knownProduct == *numel;
  if (fits || (inferred && knownProduct == 0 && *numel == 0))
    return success();
  return op->emitError() << "shape '" << text
                         << "' is invalid for input of size " << *numel;
}

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

static const llvm::StringMap<ShapeCheck> &getShapeChecks() {
  static const llvm::StringMap<ShapeCheck> checks = [] {
    llvm::StringMap<ShapeCheck> map;
    auto add = [&](std::initializer_list<StringRef> names, ShapeCheck check) {
      for (StringRef name : names)
        map[(Twine("aten.") + name).str()] = check;
    };
    add({"conv1d", "conv2d", "conv3d"}, convCheck<false>);
    add({"conv1d.padding", "conv2d.padding", "conv3d.padding"},
        convCheck<true>);
    add({"mm"}, mmCheck<0>);
    add({"addmm"}, mmCheck<1>);
    add({"bmm"}, bmmCheck<0>);
    add({"baddbmm"}, bmmCheck<1>);
    add({"matmul"}, matmulCheck);
    add({"linear"}, linearCheck);
    add({"cat"}, catCheck);
    add({"stack"}, stackCheck);
    add({"view", "reshape"}, viewCheck);
    add({"select.int"}, selectCheck);
    add({"transpose.int", "swapaxes", "swapdims"}, transposeCheck);
    add({"unsqueeze"}, dimCheck<1>);
    // The reduction and along_dim families are checked by their trait.
    add({"size.int", "index_select", "gather", "squeeze.dim", "narrow",
         "cumprod", "chunk", "split.Tensor", "unbind.int", "glu", "topk",
         "sort"},
        dimCheck<0>);
    // The other elementwise ops whose tensor operands broadcast, as their
    // shape rules say.
    for (StringRef name : broadcastingOps())
      map[name] = broadcastCheck;
    return map;
  }();
  return checks;
}

/// Whether `op` runs every time its function does: it sits in the
/// function's own block, not in a branch of a `prim.If` (which may not be
/// taken) or the body of a `prim.Loop` (which may run no times).
static bool runsUnconditionally(Operation *op) {
  return isa<func::FuncOp>(op->getParentOp());
}

/// Turns a shape error proven for `op`, in a branch or a loop body, into
/// what torch does with it: an error when, and only when, it is reached.
/// The op becomes a `prim.RaiseException` of torch's message (at the op's
/// line); it and the rest of its block are dead and go, their results
/// replaced by `prim.Uninitialized` as TorchScript's frontend writes what
/// follows a raise. A data-dependent branch's values are refined with the
/// shapes of the call at hand, which may prove wrong in the branch that is
/// not taken (a backward branch reading a forward value exported from the
/// other branch, say); that must not fail the whole graph.
static void raiseWhenReached(Operation *op, StringRef message,
                             llvm::DenseSet<Operation *> &erased) {
  OpBuilder builder(op);
  Location loc = op->getLoc();
  auto strType = prim::StrType::get(op->getContext());
  Value text = prim::ConstantOp::create(builder, loc, strType,
                                        builder.getStringAttr(message));
  prim::RaiseExceptionOp::create(builder, loc, ValueRange{text});

  Block *block = op->getBlock();
  SmallVector<Operation *> dead;
  for (Operation *next = op; next != block->getTerminator();
       next = next->getNextNode())
    dead.push_back(next);
  // Last first, so that only what the block's terminator reads needs a
  // placeholder.
  builder.setInsertionPoint(block->getTerminator());
  for (Operation *deadOp : llvm::reverse(dead)) {
    for (Value result : deadOp->getResults())
      if (!result.use_empty())
        result.replaceAllUsesWith(prim::UninitializedOp::create(
            builder, result.getLoc(), result.getType()));
    deadOp->walk([&](Operation *nested) { erased.insert(nested); });
    deadOp->erase();
  }
}

LogicalResult refine::checkShapes(func::FuncOp func, RuleContext &context) {
  const llvm::StringMap<ShapeCheck> &checks = getShapeChecks();
  bool failedAny = false;
  // Proven errors in ops that may not run, with torch's message.
  SmallVector<std::pair<Operation *, std::string>> deferred;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // The binary and ternary families broadcast, as their rule says, and
    // the reductions' and along-dim ops' `dim` counts their input's dims.
    ShapeCheck check = nullptr;
    if (aten::elementwiseArity(op) > 1)
      check = broadcastCheck;
    else if (op->hasTrait<aten::OpTrait::Reduction>() ||
             op->hasTrait<aten::OpTrait::AlongDim>())
      check = dimCheck<0>;
    else if (auto found = checks.find(op->getName().getStringRef());
             found != checks.end())
      check = found->second;
    if (!check)
      return;
    if (runsUnconditionally(op)) {
      if (failed(check(op, context)))
        failedAny = true;
      return;
    }
    std::string message;
    {
      ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
        if (message.empty())
          message = d.str();
        return success();
      });
      if (succeeded(check(op, context)))
        return;
    }
    deferred.emplace_back(op, std::move(message));
  });
  if (failedAny)
    return failure();
  llvm::DenseSet<Operation *> erased;
  for (auto &[op, message] : deferred)
    if (!erased.contains(op))
      raiseWhenReached(op, message, erased);
  return success();
}
