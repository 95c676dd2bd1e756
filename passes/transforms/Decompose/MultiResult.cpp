//===- MultiResult.cpp - Ops of several results as one op per result -----===//
//
// populateMultiResultDecompositionPatterns (Decompositions.h): var_mean and
// std_mean become var/std plus mean, aminmax becomes amin plus amax, and
// broadcast_tensors/meshgrid over a list literal of refined tensors become
// a list literal of expands. Each new op takes the refined type of the
// result it replaces, so lowering sees only ops it knows.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// `unbiased` for a `correction` operand: None is 1; only 0 and 1 have an
/// unbiased form.
std::optional<bool> unbiasedFromCorrection(Value correction) {
  if (isNone(correction))
    return true;
  std::optional<int64_t> value = matchConstantInt(correction);
  if (!value || (*value != 0 && *value != 1))
    return std::nullopt;
  return *value == 1;
}

/// var_mean/std_mean in their three overloads: the statistic and the mean
/// over the same dims.
template <typename OpTy, typename StatOp, typename StatDimOp>
struct DecomposeStatMean : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value self = op->getOperand(0);
    Type statType = op->getResult(0).getType();
    Type meanType = op->getResult(1).getType();
    Value none = noneConstant(rewriter, loc);
    Value stat, mean;
    if (op->getNumOperands() == 2) { // (self, unbiased): every dim
      stat = StatOp::create(rewriter, loc, statType, self, op->getOperand(1));
      mean = aten::MeanOp::create(rewriter, loc, meanType, self, none);
    } else {
      Value dim = op->getOperand(1);
      Value unbiased = op->getOperand(2);
      Value keepdim = op->getOperand(3);
      if (op->getName().getStringRef().ends_with(".correction")) {
        std::optional<bool> fromCorrection = unbiasedFromCorrection(unbiased);
        if (!fromCorrection)
          return rewriter.notifyMatchFailure(op, "correction is not 0 or 1");
        unbiased = boolConstant(rewriter, loc, *fromCorrection);
      }
      stat = StatDimOp::create(rewriter, loc, statType, self, dim, unbiased,
                               keepdim);
      mean =
          aten::MeanDimOp::create(rewriter, loc, meanType, self, dim, keepdim,
                                  none);
    }
    rewriter.replaceOp(op, {stat, mean});
    return success();
  }
};

/// aminmax(self, dim?, keepdim) = (amin, amax) over [dim], or every dim.
struct DecomposeAminmax : OpRewritePattern<aten::AminmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::AminmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> dims;
    if (!isNone(op.getDim())) {
      std::optional<int64_t> dim = matchConstantInt(op.getDim());
      if (!dim)
        return rewriter.notifyMatchFailure(op, "dim is not a constant");
      dims.push_back(*dim);
    }
    Value dimList = intList(rewriter, loc, dims);
    Value min = aten::AminOp::create(rewriter, loc, op->getResult(0).getType(),
                                     op.getSelf(), dimList, op.getKeepdim());
    Value max = aten::AmaxOp::create(rewriter, loc, op->getResult(1).getType(),
                                     op.getSelf(), dimList, op.getKeepdim());
    rewriter.replaceOp(op, {min, max});
    return success();
  }
};

/// The refined static sizes of a tensor value.
std::optional<SmallVector<int64_t>> staticSizes(Value value) {
  auto type = dyn_cast<prim::TensorType>(value.getType());
  if (!type || !type.getDtype() || !type.getHasSizes() ||
      llvm::is_contained(type.getSizes(), prim::TensorType::kUnknownSize))
    return std::nullopt;
  return SmallVector<int64_t>(type.getSizes());
}

/// `type` with other sizes.
prim::TensorType withSizes(prim::TensorType type, ArrayRef<int64_t> sizes) {
  return prim::TensorType::get(type.getContext(), type.getDtype(), true, sizes,
                               false, {}, type.getDevice(),
                               type.getRequiresGrad(), {});
}

/// The tensors of a list literal with static refined sizes.
std::optional<SmallVector<Value>> staticTensorList(Value list) {
  std::optional<SmallVector<Value>> elements = getListElements(list);
  if (!elements)
    return std::nullopt;
  for (Value element : *elements)
    if (!staticSizes(element))
      return std::nullopt;
  return elements;
}

/// Each element expanded to `sizes` (after a reshape to `viewSizes[i]` when
/// given), as a new list literal replacing `op`.
void replaceWithExpandedList(PatternRewriter &rewriter, Operation *op,
                             ArrayRef<Value> elements,
                             ArrayRef<SmallVector<int64_t>> viewSizes,
                             ArrayRef<int64_t> sizes) {
  Location loc = op->getLoc();
  Value implicit = boolConstant(rewriter, loc, false);
  Value target = intList(rewriter, loc, sizes);
  SmallVector<Value> results;
  for (auto [index, element] : llvm::enumerate(elements)) {
    auto type = cast<prim::TensorType>(element.getType());
    Value input = element;
    if (!viewSizes.empty())
      input = aten::ReshapeOp::create(rewriter, loc,
                                      withSizes(type, viewSizes[index]), input,
                                      intList(rewriter, loc, viewSizes[index]));
    results.push_back(aten::ExpandOp::create(
        rewriter, loc, withSizes(type, sizes), input, target, implicit));
  }
  rewriter.replaceOpWithNewOp<prim::ListConstructOp>(
      op, op->getResult(0).getType(), results);
}

/// broadcast_tensors: every tensor expanded to the broadcast of all sizes.
struct DecomposeBroadcastTensors
    : OpRewritePattern<aten::BroadcastTensorsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::BroadcastTensorsOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<Value>> elements =
        staticTensorList(op.getTensors());
    if (!elements)
      return rewriter.notifyMatchFailure(op, "needs a list of refined tensors");
    SmallVector<int64_t> sizes;
    for (Value element : *elements) {
      SmallVector<int64_t> in = *staticSizes(element);
      if (in.size() > sizes.size())
        sizes.insert(sizes.begin(), in.size() - sizes.size(), 1);
      size_t offset = sizes.size() - in.size();
      for (auto [i, size] : llvm::enumerate(in)) {
        int64_t &out = sizes[offset + i];
        if (out == 1)
          out = size;
        else if (size != 1 && size != out)
          return rewriter.notifyMatchFailure(op, "sizes do not broadcast");
      }
    }
    replaceWithExpandedList(rewriter, op, *elements, {}, sizes);
    return success();
  }
};

/// meshgrid of 0-d/1-d tensors of n_0, n_1, ... elements: tensor i viewed
/// with n_i at dim i (1 elsewhere) and expanded to [n_0, n_1, ...]; "xy"
/// indexing swaps the first two dims.
template <typename OpTy> struct DecomposeMeshgrid : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    bool xy = false;
    if (op->getNumOperands() == 2) {
      std::optional<std::string> indexing = [&]() -> std::optional<std::string> {
        auto constant = op->getOperand(1).template getDefiningOp<prim::ConstantOp>();
        if (!constant)
          return std::nullopt;
        if (auto text = dyn_cast<StringAttr>(constant.getValue()))
          return text.str();
        return std::nullopt;
      }();
      if (!indexing || (*indexing != "ij" && *indexing != "xy"))
        return rewriter.notifyMatchFailure(op, "indexing is not ij or xy");
      xy = *indexing == "xy";
    }
    std::optional<SmallVector<Value>> elements =
        staticTensorList(op->getOperand(0));
    if (!elements || elements->empty())
      return rewriter.notifyMatchFailure(op, "needs a list of refined tensors");
    SmallVector<int64_t> counts;
    for (Value element : *elements) {
      SmallVector<int64_t> in = *staticSizes(element);
      if (in.size() > 1)
        return rewriter.notifyMatchFailure(op, "inputs must be 0-d or 1-d");
      counts.push_back(in.empty() ? 1 : in[0]);
    }
    int64_t rank = counts.size();
    // Input i lands on output dim place[i].
    SmallVector<int64_t> place = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    if (xy && rank >= 2)
      std::swap(place[0], place[1]);
    SmallVector<int64_t> sizes(rank, 1);
    for (int64_t i = 0; i < rank; ++i)
      sizes[place[i]] = counts[i];
    SmallVector<SmallVector<int64_t>> viewSizes;
    for (int64_t i = 0; i < rank; ++i) {
      SmallVector<int64_t> view(rank, 1);
      view[place[i]] = counts[i];
      viewSizes.push_back(view);
    }
    replaceWithExpandedList(rewriter, op, *elements, viewSizes, sizes);
    return success();
  }
};

} // namespace

void tsir::populateMultiResultDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      DecomposeStatMean<aten::VarMeanOp, aten::VarOp, aten::VarDimOp>,
      DecomposeStatMean<aten::VarMeanDimOp, aten::VarOp, aten::VarDimOp>,
      DecomposeStatMean<aten::VarMeanCorrectionOp, aten::VarOp, aten::VarDimOp>,
      DecomposeStatMean<aten::StdMeanOp, aten::StdOp, aten::StdDimOp>,
      DecomposeStatMean<aten::StdMeanDimOp, aten::StdOp, aten::StdDimOp>,
      DecomposeStatMean<aten::StdMeanCorrectionOp, aten::StdOp,
                        aten::StdDimOp>,
      DecomposeAminmax, DecomposeBroadcastTensors,
      DecomposeMeshgrid<aten::MeshgridOp>,
      DecomposeMeshgrid<aten::MeshgridIndexingOp>>(patterns.getContext());
}
