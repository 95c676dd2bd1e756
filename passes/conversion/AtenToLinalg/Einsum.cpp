//===- Einsum.cpp - convert-aten-to-linalg: einsum ------------------------===//
//
// einsum with a constant equation (explicit or implicit output, any number
// of operands, repeated labels as diagonals, size-1 dims broadcast) lowered
// to one linalg.generic: a loop per label, the output labels parallel and
// the others reduced, the body multiplying the operands and accumulating.
// An ellipsis becomes as many fresh labels as the dims it covers, aligned
// from the right across operands, so that its dims broadcast as torch's
// do (the operands' ranks are known here; aten::EinsumEquation reads the
// equation).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "StructuredBuilders.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/EinsumEquation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace tsir::conversion;
namespace aten = tsir::aten;

namespace {

struct ConvertEinsum : OpConversionPattern<aten::EinsumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    Type elementType = resultType.getElementType();
    std::optional<StringRef> text = matchConstantString(op.getEquation());
    std::optional<SmallVector<Value>> elements =
        getListElements(op.getTensors());
    if (!text || !elements || elements->empty())
      return rewriter.notifyMatchFailure(op, "non-constant equation or list");
    SmallVector<Value> operands;
    SmallVector<int64_t> ranks;
    for (Value element : *elements) {
      Value converted = rewriter.getRemappedValue(element);
      auto type = dyn_cast_or_null<RankedTensorType>(
          converted ? converted.getType() : Type());
      if (!type || type.getElementType() != elementType)
        return rewriter.notifyMatchFailure(op, "operand dtype or rank");
      operands.push_back(converted);
      ranks.push_back(type.getRank());
    }
    std::optional<aten::EinsumEquation> parsed =
        aten::EinsumEquation::parse(*text);
    std::optional<aten::EinsumEquation> equation =
        parsed ? parsed->withoutEllipses(ranks) : std::nullopt;
    if (!equation)
      return rewriter.notifyMatchFailure(op, "unsupported equation");

    // Loops: the output labels in order, then the reduced ones as they
    // first appear. Each label's size comes from an operand where it is not
    // a broadcast 1.
    std::string labels = equation->output;
    for (const std::string &input : equation->inputs)
      for (char c : input)
        if (labels.find(c) == std::string::npos)
          labels.push_back(c);
    int64_t numLoops = labels.size();
    SmallVector<OpFoldResult> loopSizes(numLoops);
    SmallVector<int64_t> staticSizes(numLoops, 1);
    for (auto [input, operand] : llvm::zip(equation->inputs, operands)) {
      auto type = cast<RankedTensorType>(operand.getType());
      if (type.getRank() != static_cast<int64_t>(input.size()))
        return rewriter.notifyMatchFailure(op, "labels do not match rank");
      for (auto [dim, c] : llvm::enumerate(input)) {
        int64_t loop = labels.find(c), size = type.getDimSize(dim);
        if (size == 1)
          continue;
        if (staticSizes[loop] != 1 && !ShapedType::isDynamic(size) &&
            !ShapedType::isDynamic(staticSizes[loop]) &&
            staticSizes[loop] != size)
          return rewriter.notifyMatchFailure(op, "label sizes differ");
        if (staticSizes[loop] == 1 || ShapedType::isDynamic(staticSizes[loop]))
          staticSizes[loop] = size;
      }
    }
    SmallVector<AffineMap> maps;
    for (auto [input, operand] : llvm::zip(equation->inputs, operands)) {
      auto type = cast<RankedTensorType>(operand.getType());
      SmallVector<AffineExpr> exprs;
      for (auto [dim, c] : llvm::enumerate(input)) {
        int64_t loop = labels.find(c);
        bool broadcast = type.getDimSize(dim) == 1 && staticSizes[loop] != 1;
        exprs.push_back(broadcast ? rewriter.getAffineConstantExpr(0)
                                  : rewriter.getAffineDimExpr(loop));
        if (!broadcast && !loopSizes[loop])
          loopSizes[loop] = getSizes(rewriter, loc, operand)[dim];
      }
      maps.push_back(AffineMap::get(numLoops, 0, exprs, getContext()));
    }
    SmallVector<OpFoldResult> outSizes;
    SmallVector<AffineExpr> outExprs;
    for (size_t i = 0; i < equation->output.size(); ++i) {
      outSizes.push_back(loopSizes[i] ? loopSizes[i]
                                      : rewriter.getIndexAttr(1));
      outExprs.push_back(rewriter.getAffineDimExpr(i));
    }
    maps.push_back(AffineMap::get(numLoops, 0, outExprs, getContext()));
    int64_t numParallel = equation->output.size();
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::reduction);
    std::fill_n(iterators.begin(), numParallel, utils::IteratorType::parallel);

    bool reduces = numLoops > numParallel;
    bool isFloat = isa<FloatType>(elementType);
    Value init = createFilled(rewriter, loc, outSizes, elementType, 0.0);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), operands, init, maps, iterators,
            [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
              Value product = args[0];
              for (Value factor : args.drop_front().drop_back())
                product =
                    isFloat
                        ? arith::MulFOp::create(b, nestedLoc, product, factor)
                              .getResult()
                        : arith::MulIOp::create(b, nestedLoc, product, factor)
                              .getResult();
              if (reduces)
                product = isFloat ? arith::AddFOp::create(b, nestedLoc,
                                                          args.back(), product)
                                        .getResult()
                                  : arith::AddIOp::create(b, nestedLoc,
                                                          args.back(), product)
                                        .getResult();
              linalg::YieldOp::create(b, nestedLoc, product);
            })
            .getResult(0);
    if (!tensor::CastOp::areCastCompatible(result.getType(), resultType))
      return rewriter.notifyMatchFailure(op, "result shape disagrees");
    rewriter.replaceOp(op, castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void tsir::conversion::populateEinsumPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertEinsum>(typeConverter, patterns.getContext());
}
