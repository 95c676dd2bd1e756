//===- ComplexPairs.cpp - Complex values that graphs read as real ---------===//
//
// populateComplexPairDecompositionPatterns (Decompositions.h). tsir has no
// complex dtype, but graphs often make a complex tensor only to read a real
// one from it: a spectrum's magnitude (`torch.fft.rfft(x).abs()`), its
// real and imaginary parts (`view_as_real`, `.real`, `.imag`), its phase
// (`.angle()`). When every reader of a complex value is such an op, the
// value is computed as two real tensors, its real and imaginary parts, and
// each reader from them; a complex value anything else reads (a graph
// output, complex arithmetic) stays, and is an error naming the op.
//
// Makers:
//   fft_rfft / fft_fft of a real signal, n points along `dim`: the parts
//     are products with the DFT's cosine and (minus) sine matrices, built
//     here as constants in Float64 and stored in the signal's dtype
//     (torch's pocketfft is exact to rounding; so is this), scaled as
//     `norm` says;
//   polar(abs, angle): abs * cos(angle), abs * sin(angle);
//   complex(real, imag): the two parts.
// Readers: view_as_real (the parts stacked in a last dim of 2), real,
//   imag, abs (sqrt(re^2 + im^2)), angle (atan2(im, re)).
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "GenericPattern.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// A complex value as its real and imaginary parts.
struct Parts {
  Value real, imag;
};

/// The torch kind of a generic node, or "" for any other op.
StringRef kindOf(Operation *op) {
  if (auto generic = dyn_cast_or_null<prim::GenericOp>(op))
    return generic.getKind();
  return "";
}

/// Whether `op` reads a complex value as a real one.
bool isRealReader(Operation *op) {
  if (isa<aten::AbsOp>(op))
    return true;
  StringRef kind = kindOf(op);
  return kind == "aten::view_as_real" || kind == "aten::real" ||
         kind == "aten::imag" || kind == "aten::angle";
}

/// A [rows, columns] constant tensor of `dtype` with `value(r, c)`.
Value matrixConstant(PatternRewriter &rewriter, Location loc, Type dtype,
                     StringAttr device, int64_t rows, int64_t columns,
                     llvm::function_ref<double(int64_t, int64_t)> value) {
  auto type = RankedTensorType::get({rows, columns}, dtype);
  SmallVector<APFloat> values;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      values.push_back(dtype.isF32() ? APFloat(float(value(r, c)))
                                     : APFloat(value(r, c)));
  auto tensorType = prim::TensorType::get(rewriter.getContext(), dtype, true,
                                          {rows, columns}, false, {}, device,
                                          {}, {});
  return prim::ConstantOp::create(rewriter, loc, tensorType,
                                  DenseElementsAttr::get(type, values));
}

/// The parts of fft_rfft / fft_fft(self, n, dim, norm) of a real self of
/// static sizes, or failure.
FailureOr<Parts> fourierParts(PatternRewriter &rewriter, prim::GenericOp op,
                              bool onesided) {
  ValueRange in = op.getInputs();
  std::optional<Shape> x = Shape::of(in[0]);
  std::optional<int64_t> rawDim = matchConstantInt(in[2]);
  if (!x || x->sizes.empty() || !x->dtype || !isa<FloatType>(x->dtype) ||
      !(x->dtype.isF32() || x->dtype.isF64()) || !rawDim)
    return failure();
  int64_t rank = x->sizes.size();
  int64_t dim = *rawDim < 0 ? *rawDim + rank : *rawDim;
  if (dim < 0 || dim >= rank)
    return failure();
  int64_t size = x->sizes[dim];
  int64_t points = size;
  if (!isNone(in[1])) {
    std::optional<int64_t> n = matchConstantInt(in[1]);
    if (!n || *n < 1)
      return failure();
    points = *n;
  }
  double scale = 1.0;
  if (!isNone(in[3])) {
    std::optional<StringRef> norm = matchConstantString(in[3]);
    if (!norm)
      return failure();
    if (*norm == "ortho")
      scale = 1.0 / std::sqrt(double(points));
    else if (*norm == "forward")
      scale = 1.0 / double(points);
    else if (*norm != "backward")
      return failure();
  }
  Location loc = op.getLoc();
  Type any = anyTensor(rewriter);
  // The signal along the last dim, trimmed or zero-padded to n points.
  Value signal = aten::MovedimIntOp::create(rewriter, loc, any, in[0],
                                            intConstant(rewriter, loc, dim),
                                            intConstant(rewriter, loc, -1));
  if (points < size)
    signal = aten::NarrowOp::create(rewriter, loc, any, signal,
                                    intConstant(rewriter, loc, -1),
                                    intConstant(rewriter, loc, 0),
                                    intConstant(rewriter, loc, points));
  else if (points > size)
    signal = aten::ConstantPadNdOp::create(
        rewriter, loc, any, signal, intList(rewriter, loc, {0, points - size}),
        floatConstant(rewriter, loc, 0.0));
  int64_t bins = onesided ? points / 2 + 1 : points;
  // The phase of bin k at sample t, exact in integers first.
  auto phase = [&](int64_t t, int64_t k) {
    return 2.0 * M_PI * double((t * k) % points) / double(points);
  };
  Value cosines = matrixConstant(
      rewriter, loc, x->dtype, x->device, points, bins,
      [&](int64_t t, int64_t k) { return std::cos(phase(t, k)) * scale; });
  Value minusSines = matrixConstant(
      rewriter, loc, x->dtype, x->device, points, bins,
      [&](int64_t t, int64_t k) { return -std::sin(phase(t, k)) * scale; });
  Parts parts;
  for (auto [part, matrix] : {std::pair{&parts.real, cosines},
                              std::pair{&parts.imag, minusSines}}) {
    Value product =
        aten::MatmulOp::create(rewriter, loc, any, signal, matrix);
    *part = aten::MovedimIntOp::create(rewriter, loc, any, product,
                                       intConstant(rewriter, loc, -1),
                                       intConstant(rewriter, loc, dim));
  }
  return parts;
}

/// The parts of a complex value made by `maker`, or failure.
FailureOr<Parts> partsOf(PatternRewriter &rewriter, Operation *maker) {
  auto generic = dyn_cast_or_null<prim::GenericOp>(maker);
  if (!generic || generic->getNumResults() != 1)
    return failure();
  StringRef kind = generic.getKind();
  ValueRange in = generic.getInputs();
  Location loc = maker->getLoc();
  Type any = anyTensor(rewriter);
  if ((kind == "aten::fft_rfft" || kind == "aten::fft_fft") &&
      in.size() == 4)
    return fourierParts(rewriter, generic, kind == "aten::fft_rfft");
  if (kind == "aten::polar" && in.size() == 2) {
    Value cos = aten::CosOp::create(rewriter, loc, any, in[1]);
    Value sin = aten::SinOp::create(rewriter, loc, any, in[1]);
    return Parts{aten::MulTensorOp::create(rewriter, loc, any, in[0], cos),
                 aten::MulTensorOp::create(rewriter, loc, any, in[0], sin)};
  }
  if (kind == "aten::complex" && in.size() == 2)
    return Parts{in[0], in[1]};
  return failure();
}

/// A reader of a complex value whose every reader reads it as real.
struct ReadComplexAsReal : RewritePattern {
  explicit ReadComplexAsReal(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isRealReader(op) || op->getNumOperands() < 1 ||
        op->getNumResults() != 1)
      return failure();
    Value complex = op->getOperand(0);
    Operation *maker = complex.getDefiningOp();
    if (!maker || !llvm::all_of(complex.getUsers(), isRealReader))
      return failure();
    FailureOr<Parts> parts = partsOf(rewriter, maker);
    if (failed(parts))
      return rewriter.notifyMatchFailure(op, "not a complex value tsir "
                                             "computes as parts");
    Location loc = op->getLoc();
    Type any = anyTensor(rewriter);
    Type resultType = op->getResult(0).getType();
    StringRef kind = kindOf(op);
    Value result;
    if (kind == "aten::view_as_real") {
      Value list = prim::ListConstructOp::create(
          rewriter, loc, prim::ListType::get(rewriter.getContext(), any),
          ValueRange{parts->real, parts->imag});
      result = aten::StackOp::create(rewriter, loc, resultType, list,
                                     intConstant(rewriter, loc, -1));
    } else if (kind == "aten::real" || kind == "aten::imag") {
      result = aten::CloneOp::create(
          rewriter, loc, resultType,
          kind == "aten::real" ? parts->real : parts->imag,
          noneConstant(rewriter, loc));
    } else if (kind == "aten::angle") {
      result = aten::Atan2Op::create(rewriter, loc, resultType, parts->imag,
                                     parts->real);
    } else {
      Value squares = aten::AddTensorOp::create(
          rewriter, loc, any,
          aten::MulTensorOp::create(rewriter, loc, any, parts->real,
                                    parts->real),
          aten::MulTensorOp::create(rewriter, loc, any, parts->imag,
                                    parts->imag),
          intConstant(rewriter, loc, 1));
      result = aten::SqrtOp::create(rewriter, loc, resultType, squares);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::populateComplexPairDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReadComplexAsReal>(patterns.getContext());
}
