//===- RefineTypesNN.cpp - Matmul, convolution, pooling and norm rules ----===//
//
// tsir-refine-types' rules for the neural-network ops: the matmul family
// (matmul with its 1-d and batched cases, mm, bmm, addmm, baddbmm, linear,
// dot, outer, einsum), convolutions (conv1d/2d/3d, conv2d with "same"/"valid",
// convolution/_convolution including transposed ones), pooling (max/avg
// with ceil_mode, adaptive), normalizations, padding, upsampling and the
// losses. The output-size formulas are aten's (conv_output_size,
// pooling_output_shape).
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "tsir/Dialect/Aten/EinsumEquation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <map>
#include <string>

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

using Sizes = SmallVector<int64_t, 4>;
using IntList = SmallVector<std::optional<int64_t>>;

/// The size at dim `index` (negative counts from the end), or unknown.
static int64_t sizeAt(const TensorFacts &facts, int64_t index) {
  if (!facts.hasRank())
    return kUnknown;
  int64_t at = index < 0 ? index + facts.rank() : index;
  return at >= 0 && at < facts.rank() ? (*facts.sizes)[at] : kUnknown;
}

/// The dtype of ops whose operands must share one: whichever is known.
static Type sharedDtype(ArrayRef<TensorFacts> operands) {
  for (const TensorFacts &operand : operands)
    if (operand.dtype)
      return operand.dtype;
  return {};
}

static TensorFacts matmulResult(ArrayRef<TensorFacts> operands,
                                std::optional<Sizes> sizes) {
  TensorFacts result;
  result.dtype = sharedDtype(operands);
  result.device = commonDevice(operands);
  result.sizes = std::move(sizes);
  return result;
}

//===----------------------------------------------------------------------===//
// Matmul family
//===----------------------------------------------------------------------===//

/// aten::matmul: 1-d operands are promoted to matrices and the added dim
/// removed again; batch dims broadcast.
static void matmulRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts a = context.tensor(op->getOperand(0));
  TensorFacts b = context.tensor(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (a.hasRank() && b.hasRank() && a.rank() > 0 && b.rank() > 0) {
    ArrayRef<int64_t> sa = *a.sizes, sb = *b.sizes;
    TensorFacts batchA, batchB;
    batchA.sizes.emplace(a.rank() >= 2 ? sa.drop_back(2) : ArrayRef<int64_t>());
    batchB.sizes.emplace(b.rank() >= 2 ? sb.drop_back(2) : ArrayRef<int64_t>());
    sizes = broadcastSizes({batchA, batchB});
    if (sizes) {
      if (a.rank() >= 2)
        sizes->push_back(sa[sa.size() - 2]);
      if (b.rank() >= 2)
        sizes->push_back(sb.back());
    }
  }
  setResult(context, results, 0, matmulResult({a, b}, sizes));
}

/// mm, bmm, addmm, baddbmm: [(b,) n, k] x [(b,) k, m] with the matrices at
/// operands `first` and `first + 1`.
template <unsigned first, int64_t rank>
static void matrixProductRule(Operation *op, RuleContext &context,
                              MutableArrayRef<Type> results) {
  TensorFacts a = context.tensor(op->getOperand(first));
  TensorFacts b = context.tensor(op->getOperand(first + 1));
  Sizes sizes;
  if (rank == 3)
    sizes.push_back(sizeAt(a, 0) != kUnknown ? sizeAt(a, 0) : sizeAt(b, 0));
  sizes.push_back(sizeAt(a, -2));
  sizes.push_back(sizeAt(b, -1));
  bool ranksOk =
      (!a.hasRank() || a.rank() == rank) && (!b.hasRank() || b.rank() == rank);
  SmallVector<TensorFacts> operands{a, b};
  if (first == 1)
    operands.push_back(context.tensor(op->getOperand(0)));
  setResult(context, results, 0,
            matmulResult(operands,
                         ranksOk ? std::optional<Sizes>(sizes) : std::nullopt));
}

/// linear(input, weight, bias): the last dim becomes weight's rows.
static void linearRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts input = context.tensor(op->getOperand(0));
  TensorFacts weight = context.tensor(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (input.hasRank() && input.rank() > 0 && weight.hasRank() &&
      (weight.rank() == 1 || weight.rank() == 2)) {
    sizes.emplace(input.sizes->begin(), input.sizes->end() - 1);
    if (weight.rank() == 2)
      sizes->push_back((*weight.sizes)[0]);
  }
  setResult(context, results, 0, matmulResult({input, weight}, sizes));
}

static void dotRule(Operation *op, RuleContext &context,
                    MutableArrayRef<Type> results) {
  TensorFacts a = context.tensor(op->getOperand(0));
  TensorFacts b = context.tensor(op->getOperand(1));
  setResult(context, results, 0, matmulResult({a, b}, Sizes()));
}

static void outerRule(Operation *op, RuleContext &context,
                      MutableArrayRef<Type> results) {
  TensorFacts a = context.tensor(op->getOperand(0));
  TensorFacts b = context.tensor(op->getOperand(1));
  TensorFacts result = matmulResult({a, b}, Sizes{sizeAt(a, 0), sizeAt(b, 0)});
  result.dtype = promoteDtypes(a.dtype, b.dtype);
  setResult(context, results, 0, result);
}

/// Two sizes a label takes, broadcasting as einsum does (1 stretches):
/// the combined size, kUnknown if it cannot be told, nullopt on a clash.
static std::optional<int64_t> combineLabelSize(int64_t a, int64_t b) {
  if (a == 1)
    return b;
  if (b == 1)
    return a;
  if (a == kUnknown || b == kUnknown)
    // An unknown size may be 1 or the other size; only a known size > 1
    // on one side decides.
    return a == kUnknown ? (b == kUnknown ? kUnknown : b) : a;
  if (a != b)
    return std::nullopt;
  return a;
}

/// einsum(equation, tensors, path): the promoted dtype; one dim per output
/// label (the explicit `->` output, or the labels used once in sorted
/// order after the ellipsis dims), each label's size broadcast over its
/// occurrences (repeated labels in one operand take its diagonal).
static void einsumRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  std::optional<ListFacts> list = context.listFacts(op->getOperand(1));
  if (!list || !list->elements || list->elements->empty())
    return;
  ArrayRef<TensorFacts> operands = *list->elements;
  TensorFacts result;
  result.dtype = operands.front().dtype;
  for (const TensorFacts &operand : operands.drop_front())
    result.dtype = result.dtype && operand.dtype
                       ? promoteDtypes(result.dtype, operand.dtype)
                       : Type();
  result.device = commonDevice(operands);
  auto done = [&] { setResult(context, results, 0, result); };

  auto constant = op->getOperand(0).getDefiningOp<prim::ConstantOp>();
  auto text = constant ? dyn_cast<StringAttr>(constant.getValue()) : nullptr;
  if (!text)
    return done();
  std::optional<aten::EinsumEquation> equation =
      aten::EinsumEquation::parse(text.getValue());
  if (!equation || equation->inputs.size() != operands.size())
    return done(); // an error at run time
  ArrayRef<std::string> inputs = equation->inputs;

  // Label sizes, and the broadcast sizes of the ellipsis dims.
  std::map<char, int64_t> sizes;
  std::optional<Sizes> ellipsis;
  bool knowsSizes = true;
  for (auto [labels, operand] : llvm::zip(inputs, operands)) {
    bool hasEllipsis = aten::EinsumEquation::hasEllipsis(labels);
    int64_t named = labels.size() - (hasEllipsis ? 1 : 0);
    if (operand.hasRank() &&
        (hasEllipsis ? operand.rank() < named : operand.rank() != named))
      return done(); // an error at run time
    int64_t ellipsisRank =
        operand.hasRank() ? operand.rank() - named : kUnknown;
    int64_t dim = 0;
    for (char c : labels) {
      if (c == '.') {
        if (ellipsisRank == kUnknown) {
          knowsSizes = false;
          continue;
        }
        TensorFacts part, other;
        part.sizes.emplace(operand.sizes->begin() + dim,
                           operand.sizes->begin() + dim + ellipsisRank);
        dim += ellipsisRank;
        if (!ellipsis) {
          ellipsis = part.sizes;
          continue;
        }
        other.sizes = ellipsis;
        ellipsis = broadcastSizes({other, part});
        if (!ellipsis)
          return done();
        continue;
      }
      int64_t size = operand.hasRank() ? (*operand.sizes)[dim++] : kUnknown;
      auto found = sizes.find(c);
      if (found == sizes.end()) {
        sizes[c] = size;
        continue;
      }
      std::optional<int64_t> combined = combineLabelSize(found->second, size);
      if (!combined)
        return done();
      found->second = *combined;
    }
  }

  const std::string &output = equation->output;
  Sizes resultSizes;
  for (char c : output) {
    if (c != '.') {
      resultSizes.push_back(sizes[c]);
      continue;
    }
    if (!knowsSizes || !ellipsis)
      return done(); // the ellipsis rank is unknown
    resultSizes.append(ellipsis->begin(), ellipsis->end());
  }
  result.sizes = resultSizes;
  done();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// An `int[N]` argument expanded to `n` entries (one entry stands for all,
/// as aten's expand_param_if_needed does); nothing if its length is wrong.
static std::optional<IntList> spatialArg(const RuleContext &context,
                                         Value value, size_t n) {
  auto list = context.getIntListOrInt(value, n);
  if (!list)
    return std::nullopt;
  if (list->size() == 1 && n > 1)
    list = IntList(n, list->front());
  if (list->size() != n)
    return std::nullopt;
  return list;
}

/// aten's conv output size; kUnknown if any input is unknown.
static int64_t convOutputSize(int64_t in, std::optional<int64_t> kernel,
                              std::optional<int64_t> stride,
                              std::optional<int64_t> padding,
                              std::optional<int64_t> dilation, bool transposed,
                              std::optional<int64_t> outputPadding) {
  if (in == kUnknown || !kernel || *kernel == kUnknown || !stride || !padding ||
      !dilation || !outputPadding || *stride <= 0)
    return kUnknown;
  if (transposed)
    return (in - 1) * *stride - 2 * *padding + *dilation * (*kernel - 1) +
           *outputPadding + 1;
  int64_t size =
      (in + 2 * *padding - *dilation * (*kernel - 1) - 1) / *stride + 1;
  return size >= 0 ? size : kUnknown;
}

/// Convolutions. `style` tells the operand layout apart:
/// conv1d/2d/3d(input, weight, bias, stride, padding, dilation, groups),
/// conv2d.padding with a string padding, convolution/_convolution(input,
/// weight, bias, stride, padding, dilation, transposed, output_padding,
/// groups, ...) and conv_transpose2d(input, weight, bias, stride, padding,
/// output_padding, groups, dilation).
enum class ConvStyle { Plain, PaddingString, General, Transposed };

template <ConvStyle style>
static void convRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  TensorFacts input = context.tensor(op->getOperand(0));
  TensorFacts weight = context.tensor(op->getOperand(1));
  TensorFacts result = matmulResult({input, weight}, std::nullopt);
  auto done = [&] { setResult(context, results, 0, result); };
  if (!weight.hasRank() || weight.rank() < 3 || !input.hasRank())
    return done();
  size_t n = weight.rank() - 2;
  bool batched = input.rank() == (int64_t)n + 2;
  if (!batched &&
      (style == ConvStyle::General || input.rank() != (int64_t)n + 1))
    return done();

  bool transposed = style == ConvStyle::Transposed;
  if (style == ConvStyle::General) {
    std::optional<bool> flag = context.getBool(op->getOperand(6));
    if (!flag)
      return done();
    transposed = *flag;
  }
  std::optional<IntList> stride = spatialArg(context, op->getOperand(3), n);
  std::optional<IntList> padding, dilation, outputPadding(IntList(n, 0));
  std::optional<int64_t> groups;
  switch (style) {
  case ConvStyle::Plain:
    padding = spatialArg(context, op->getOperand(4), n);
    dilation = spatialArg(context, op->getOperand(5), n);
    groups = context.getInt(op->getOperand(6));
    break;
  case ConvStyle::PaddingString: {
    auto mode = op->getOperand(4).getDefiningOp<prim::ConstantOp>();
    auto text = mode ? dyn_cast<StringAttr>(mode.getValue()) : StringAttr();
    dilation = spatialArg(context, op->getOperand(5), n);
    groups = context.getInt(op->getOperand(6));
    if (text && text.getValue() == "valid")
      padding = IntList(n, 0);
    else if (!text || text.getValue() != "same")
      return done();
    break;
  }
  case ConvStyle::General:
    padding = spatialArg(context, op->getOperand(4), n);
    dilation = spatialArg(context, op->getOperand(5), n);
    outputPadding = spatialArg(context, op->getOperand(7), n);
    groups = context.getInt(op->getOperand(8));
    break;
  case ConvStyle::Transposed:
    padding = spatialArg(context, op->getOperand(4), n);
    outputPadding = spatialArg(context, op->getOperand(5), n);
    groups = context.getInt(op->getOperand(6));
    dilation = spatialArg(context, op->getOperand(7), n);
    break;
  }

  Sizes sizes;
  if (batched)
    sizes.push_back((*input.sizes)[0]);
  int64_t channels = kUnknown;
  if (!transposed)
    channels = (*weight.sizes)[0];
  else if (groups && (*weight.sizes)[1] != kUnknown)
    channels = (*weight.sizes)[1] * *groups;
  sizes.push_back(channels);
  int64_t firstSpatial = input.rank() - n;
  for (size_t i = 0; i < n; ++i) {
    int64_t in = (*input.sizes)[firstSpatial + i];
    if (style == ConvStyle::PaddingString && !padding) { // "same"
      sizes.push_back(in);
      continue;
    }
    auto at = [&](const std::optional<IntList> &list) {
      return list ? (*list)[i] : std::nullopt;
    };
    sizes.push_back(convOutputSize(in, (*weight.sizes)[2 + i], at(stride),
                                   at(padding), at(dilation), transposed,
                                   at(outputPadding)));
  }
  result.sizes = sizes;
  done();
}

/// aten's pooling_output_shape, with ceil_mode.
static int64_t poolOutputSize(int64_t in, std::optional<int64_t> kernel,
                              std::optional<int64_t> stride,
                              std::optional<int64_t> padding,
                              std::optional<int64_t> dilation,
                              std::optional<bool> ceilMode) {
  if (in == kUnknown || !kernel || !stride || !padding || !dilation ||
      !ceilMode || *stride <= 0)
    return kUnknown;
  int64_t numerator = in + 2 * *padding - *dilation * (*kernel - 1) - 1 +
                      (*ceilMode ? *stride - 1 : 0);
  // div_rtn: division rounding toward negative infinity.
  int64_t out = numerator / *stride;
  if ((numerator % *stride != 0) && (numerator < 0))
    --out;
  ++out;
  if (*ceilMode && (out - 1) * *stride >= in + *padding)
    --out;
  return out >= 0 ? out : kUnknown;
}

/// max_pool1d/2d(self, kernel, stride, padding, dilation, ceil_mode) and
/// avg_pool1d/2d(self, kernel, stride, padding, ceil_mode, ...): `n` spatial
/// dims, batched or not.
template <size_t n, bool isMax>
static void poolRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.sizes.reset();
  if (self.hasRank() &&
      (self.rank() == (int64_t)n + 1 || self.rank() == (int64_t)n + 2)) {
    std::optional<IntList> kernel = spatialArg(context, op->getOperand(1), n);
    std::optional<IntList> stride = spatialArg(context, op->getOperand(2), n);
    auto strideList = context.getIntList(op->getOperand(2));
    if (strideList && strideList->empty())
      stride = kernel; // stride=[] means the kernel size
    std::optional<IntList> padding = spatialArg(context, op->getOperand(3), n);
    std::optional<IntList> dilation =
        isMax ? spatialArg(context, op->getOperand(4), n) : IntList(n, 1);
    std::optional<bool> ceilMode =
        context.getBool(op->getOperand(isMax ? 5 : 4));
    result.sizes = self.sizes;
    int64_t firstSpatial = self.rank() - n;
    auto at = [](const std::optional<IntList> &list, size_t i) {
      return list ? (*list)[i] : std::nullopt;
    };
    for (size_t i = 0; i < n; ++i) {
      int64_t &size = (*result.sizes)[firstSpatial + i];
      size = poolOutputSize(size, at(kernel, i), at(stride, i), at(padding, i),
                            at(dilation, i), ceilMode);
    }
  }
  setResult(context, results, 0, result);
}

/// adaptive pools: the trailing dims become output_size; the max variant
/// also returns Long indices.
template <size_t n>
static void adaptivePoolRule(Operation *op, RuleContext &context,
                             MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.sizes.reset();
  std::optional<IntList> output = spatialArg(context, op->getOperand(1), n);
  if (self.hasRank() &&
      (self.rank() == (int64_t)n + 1 || self.rank() == (int64_t)n + 2)) {
    result.sizes = self.sizes;
    int64_t firstSpatial = self.rank() - n;
    for (size_t i = 0; i < n; ++i) {
      std::optional<int64_t> size = output ? (*output)[i] : std::nullopt;
      (*result.sizes)[firstSpatial + i] = size && *size >= 0 ? *size : kUnknown;
    }
  }
  setResult(context, results, 0, result);
  result.dtype = longDtype(context.getContext());
  setResult(context, results, 1, result);
}

//===----------------------------------------------------------------------===//
// Padding, upsampling, losses
//===----------------------------------------------------------------------===//

/// pad/constant_pad_nd: pairs of (before, after) from the last dim back.
static void padRule(Operation *op, RuleContext &context,
                    MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  auto pads = context.getIntList(op->getOperand(1));
  TensorFacts result = self;
  if (!pads || pads->size() % 2 != 0 ||
      (self.hasRank() && (int64_t)pads->size() / 2 > self.rank())) {
    if (!pads)
      result.sizes = self.hasRank()
                         ? std::optional<Sizes>(Sizes(self.rank(), kUnknown))
                         : std::nullopt;
    else
      result.sizes.reset();
    return setResult(context, results, 0, result);
  }
  if (result.sizes) {
    for (size_t i = 0; i < pads->size() / 2; ++i) {
      int64_t &size = (*result.sizes)[self.rank() - 1 - i];
      std::optional<int64_t> before = (*pads)[2 * i],
                             after = (*pads)[2 * i + 1];
      if (size == kUnknown || !before || !after)
        size = kUnknown;
      else
        size += *before + *after;
    }
  }
  setResult(context, results, 0, result);
}

/// upsample_*2d.vec(input, output_size?, [align_corners,] scale_factors?).
static void upsampleRule(Operation *op, RuleContext &context,
                         MutableArrayRef<Type> results) {
  TensorFacts input = context.tensor(op->getOperand(0));
  Value outputSize = op->getOperand(1);
  Value scales = op->getOperand(op->getNumOperands() - 1);
  TensorFacts result = input;
  result.sizes.reset();
  if (input.hasRank() && input.rank() == 4) {
    result.sizes = input.sizes;
    auto explicitSizes = context.isNone(outputSize)
                             ? std::nullopt
                             : spatialArg(context, outputSize, 2);
    SmallVector<std::optional<double>> factors;
    if (auto constant = scales.getDefiningOp<prim::ConstantOp>())
      if (auto array = dyn_cast<ArrayAttr>(constant.getValue()))
        for (Attribute factor : array)
          if (auto f = dyn_cast<FloatAttr>(factor))
            factors.push_back(f.getValueAsDouble());
    for (int64_t i = 0; i < 2; ++i) {
      int64_t &size = (*result.sizes)[2 + i];
      if (!context.isNone(outputSize)) {
        std::optional<int64_t> s =
            explicitSizes ? (*explicitSizes)[i] : std::nullopt;
        size = s && *s >= 0 ? *s : kUnknown;
      } else if (factors.size() == 2 && factors[i] && size != kUnknown) {
        size = static_cast<int64_t>(std::floor(size * *factors[i]));
      } else {
        size = kUnknown;
      }
    }
  }
  setResult(context, results, 0, result);
}

/// __interpolate(input, int? size, float? scale_factor, ...) on NCHW: both
/// spatial dims the size, or floor(dim * scale_factor).
static void interpolateRule(Operation *op, RuleContext &context,
                            MutableArrayRef<Type> results) {
  TensorFacts input = context.tensor(op->getOperand(0));
  TensorFacts result = input;
  result.sizes.reset();
  if (input.hasRank() && input.rank() == 4) {
    result.sizes = input.sizes;
    std::optional<int64_t> size = context.getInt(op->getOperand(1));
    std::optional<double> factor = context.getFloat(op->getOperand(2));
    for (int64_t i = 2; i < 4; ++i) {
      int64_t &dim = (*result.sizes)[i];
      if (size && *size >= 0)
        dim = *size;
      else if (factor && dim != kUnknown)
        dim = static_cast<int64_t>(std::floor(dim * *factor));
      else
        dim = kUnknown;
    }
  }
  setResult(context, results, 0, result);
}

/// Losses: a 0-d result unless reduction is none (0).
static void lossRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  StringRef name = op->getName().getStringRef();
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts target = context.tensor(op->getOperand(1));
  std::optional<int64_t> reduction =
      context.getInt(namedOperand(op, "reduction"));
  TensorFacts result = self;
  result.sizes.reset();
  if (name == "aten.mse_loss")
    result.dtype = promoteDtypes(self.dtype, target.dtype);
  if (reduction && *reduction != 0) {
    result.sizes = Sizes();
  } else if (reduction) {
    if (name == "aten.mse_loss")
      result.sizes = broadcastSizes({self, target});
    else if (name == "aten.binary_cross_entropy_with_logits")
      result.sizes = self.sizes;
    else if (name != "aten.nll_loss" && name != "aten.cross_entropy_loss") {
      // The per-element losses: the broadcast of their tensor operands.
      SmallVector<TensorFacts> tensors;
      for (Value operand : op->getOperands())
        if (isa<prim::TensorType>(operand.getType()))
          tensors.push_back(context.tensor(operand));
      result.sizes = broadcastSizes(tensors);
    }
    else if (isIntegralDtype(target.dtype)) // class indices
      result.sizes = target.sizes;
  }
  setResult(context, results, 0, result);
}

void refine::addNNRules(llvm::StringMap<ShapeRule> &rules) {
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[(Twine("aten.") + name).str()] = rule;
  };
  add({"matmul"}, matmulRule);
  add({"mm"}, matrixProductRule<0, 2>);
  add({"bmm"}, matrixProductRule<0, 3>);
  add({"addmm"}, matrixProductRule<1, 2>);
  add({"baddbmm"}, matrixProductRule<1, 3>);
  add({"linear"}, linearRule);
  add({"dot"}, dotRule);
  add({"outer"}, outerRule);
  add({"einsum"}, einsumRule);
  add({"conv1d", "conv2d", "conv3d"}, convRule<ConvStyle::Plain>);
  // A recurrent cell's new hidden state is the shape of the old one.
  add({"rnn_tanh_cell", "rnn_relu_cell", "gru_cell"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        setResult(context, results, 0, context.tensor(op->getOperand(1)));
      });
  add({"conv1d.padding", "conv2d.padding", "conv3d.padding"},
      convRule<ConvStyle::PaddingString>);
  add({"convolution", "_convolution", "_convolution.deprecated"},
      convRule<ConvStyle::General>);
  add({"conv_transpose1d", "conv_transpose2d.input", "conv_transpose3d.input"},
      convRule<ConvStyle::Transposed>);
  add({"max_pool1d"}, poolRule<1, true>);
  add({"max_pool2d"}, poolRule<2, true>);
  add({"avg_pool1d"}, poolRule<1, false>);
  add({"avg_pool2d"}, poolRule<2, false>);
  add({"adaptive_avg_pool1d"}, adaptivePoolRule<1>);
  add({"adaptive_avg_pool2d", "adaptive_max_pool2d"}, adaptivePoolRule<2>);
  add({"adaptive_avg_pool3d"}, adaptivePoolRule<3>);
  // Fused attention (_native_multi_head_attention's output, an encoder
  // layer) has the query's dtype, sizes and device; refining it lets the
  // guards of the next layer's fast path fold in the same pass.
  add({"_native_multi_head_attention", "_transformer_encoder_layer_fwd"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        setResult(context, results, 0, context.tensor(op->getOperand(0)));
      });
  // Normalizations keep the input's sizes and dtype.
  add({"batch_norm", "layer_norm", "group_norm", "instance_norm"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        setResult(context, results, 0, context.tensor(op->getOperand(0)));
      });
  add({"pad", "constant_pad_nd"}, padRule);
  add({"upsample_nearest2d.vec", "upsample_bilinear2d.vec"}, upsampleRule);
  add({"__interpolate"}, interpolateRule);
  add({"mse_loss", "nll_loss", "cross_entropy_loss",
       "binary_cross_entropy_with_logits", "l1_loss", "smooth_l1_loss",
       "huber_loss", "soft_margin_loss", "margin_ranking_loss",
       "hinge_embedding_loss", "kl_div", "binary_cross_entropy"},
      lossRule);
}
