//===- RefineTypesReductions.cpp - Reduction and along-a-dim rules --------===//
//
// tsir-refine-types' rules for reductions and the ops along one dim. The
// ops of the `reduction` and `along_dim` families (typed_ops.txt: sum,
// mean, amax, max.dim, argmax, std, norm, any, logsumexp, softmax, cumsum,
// ...) share one rule, applyReductionFamily: the dims of their `dim`
// operand reduced, kept when `keepdim`, and the dtype of their promotion
// kind (sum's Long, any's Bool, std's real, argmax's Long) or `dtype`
// operand. The table keeps _softmax, sort/argsort and topk.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "tsir/Dialect/Aten/AtenTraits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

using Sizes = SmallVector<int64_t, 4>;

/// The sizes after reducing `dims` (nullopt: every dim) of `self`. A 0-d
/// input stays 0-d; duplicate or out-of-range dims give nothing.
static std::optional<Sizes>
reducedSizes(const TensorFacts &self,
             std::optional<ArrayRef<std::optional<int64_t>>> dims,
             std::optional<bool> keepdim) {
  if (!self.hasRank() || !keepdim)
    return std::nullopt;
  int64_t rank = self.rank();
  if (rank == 0)
    return Sizes();
  SmallVector<bool> reduced(rank, !dims.has_value() || dims->empty());
  if (dims && !dims->empty()) {
    for (std::optional<int64_t> dim : *dims) {
      std::optional<int64_t> d = dim ? wrapDim(*dim, rank) : std::nullopt;
      if (!d) // which dim is unknown: only the rank is a fact
        return *keepdim ? std::optional<Sizes>(Sizes(rank, kUnknown))
                        : std::nullopt;
      if (reduced[*d])
        return std::nullopt; // a dim twice: an error at run time
      reduced[*d] = true;
    }
  }
  Sizes sizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      sizes.push_back((*self.sizes)[i]);
    else if (*keepdim)
      sizes.push_back(1);
  }
  return sizes;
}

/// The dims argument of a reduction: nullopt for None (every dim), a list
/// (empty means every dim too), or a single int.
static std::optional<std::optional<SmallVector<std::optional<int64_t>>>>
dimsArg(const RuleContext &context, Value value) {
  using Dims = SmallVector<std::optional<int64_t>>;
  if (context.isNone(value))
    return std::optional<Dims>();
  if (value.getType().isInteger(64))
    return std::optional<Dims>(Dims{context.getInt(value)});
  if (auto list = context.getIntList(value))
    return std::optional<Dims>(*list);
  return std::nullopt; // not known at all
}

/// The result dtype of a reduction or along-dim op of promotion kind
/// `kind` (typed_ops.txt) given its input's.
static Type reduceDtype(MLIRContext *context, aten::PromotionKind kind,
                        Type input) {
  switch (kind) {
  case aten::PromotionKind::Default:
    return input;
  case aten::PromotionKind::IntegerToLong:
    return integerToLongDtype(context, input);
  case aten::PromotionKind::AlwaysBool:
    // any/all keep Byte, as aten does for uint8 inputs.
    if (input && input.isUnsignedInteger(8))
      return input;
    return boolDtype(context);
  case aten::PromotionKind::ComplexToReal:
    return complexToRealDtype(input);
  case aten::PromotionKind::IntToFloat:
    return integerToFloatDtype(context, input);
  case aten::PromotionKind::ToLong:
    return longDtype(context);
  case aten::PromotionKind::ToDouble:
    // An elementwise kind: typed_ops.txt puts it on no reduction.
    break;
  }
  return {};
}

/// The input's facts with the dtype of `op`'s kind, or of its `dtype`
/// operand when one is given.
static TensorFacts reducedFacts(Operation *op, RuleContext &context) {
  TensorFacts result = context.tensor(op->getOperand(0));
  result.dtype =
      reduceDtype(context.getContext(), aten::promotionKind(op), result.dtype);
  if (Value dtype = namedOperand(op, "dtype"))
    if (!context.isNone(dtype))
      result.dtype = context.getDtypeArg(dtype);
  return result;
}

/// A reduction over its `dim` operand (none: every dim) with its `keepdim`
/// (none: false).
static void reduceRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = reducedFacts(op, context);
  Value keepdimOperand = namedOperand(op, "keepdim");
  std::optional<bool> keepdim = keepdimOperand ? context.getBool(keepdimOperand)
                                               : std::optional<bool>(false);
  Value dimOperand = namedOperand(op, "dim");
  if (!dimOperand) {
    result.sizes = reducedSizes(self, std::nullopt, keepdim);
  } else if (auto dims = dimsArg(context, dimOperand)) {
    if (*dims)
      result.sizes = reducedSizes(self, ArrayRef(**dims), keepdim);
    else
      result.sizes = reducedSizes(self, std::nullopt, keepdim);
  } else {
    result.sizes.reset();
  }
  setResult(context, results, 0, result);
  // max.dim/min.dim also return the indices, as Long.
  if (op->getNumResults() == 2) {
    result.dtype = longDtype(context.getContext());
    setResult(context, results, 1, result);
  }
}

bool refine::applyReductionFamily(Operation *op, RuleContext &context,
                                  MutableArrayRef<Type> results) {
  if (op->hasTrait<aten::OpTrait::Reduction>()) {
    reduceRule(op, context, results);
    return true;
  }
  // softmax/log_softmax/cumsum: the shape kept.
  if (op->hasTrait<aten::OpTrait::AlongDim>()) {
    setResult(context, results, 0, reducedFacts(op, context));
    return true;
  }
  return false;
}

/// _softmax(self, dim, half_to_float): Half may be computed as Float.
static void internalSoftmaxRule(Operation *op, RuleContext &context,
                                MutableArrayRef<Type> results) {
  TensorFacts result = context.tensor(op->getOperand(0));
  std::optional<bool> halfToFloat = context.getBool(op->getOperand(2));
  if (!halfToFloat)
    result.dtype = {};
  else if (*halfToFloat && result.dtype && result.dtype.isF16())
    result.dtype = Float32Type::get(context.getContext());
  setResult(context, results, 0, result);
}

/// sort (values, Long indices) and argsort (Long indices): same shape.
static void sortRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts indices = self;
  indices.dtype = longDtype(context.getContext());
  if (op->getNumResults() == 2) {
    setResult(context, results, 0, self);
    setResult(context, results, 1, indices);
  } else {
    setResult(context, results, 0, indices);
  }
}

/// topk(self, k, dim): the dim shortened to k.
static void topkRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> k = context.getInt(op->getOperand(1));
  std::optional<int64_t> dim = context.getInt(op->getOperand(2));
  TensorFacts values = self;
  if (self.hasRank() && self.rank() > 0) {
    std::optional<int64_t> d = dim ? wrapDim(*dim, self.rank()) : std::nullopt;
    if (!d)
      values.sizes = Sizes(self.rank(), kUnknown);
    else
      (*values.sizes)[*d] = k && *k >= 0 ? *k : kUnknown;
  }
  TensorFacts indices = values;
  indices.dtype = longDtype(context.getContext());
  setResult(context, results, 0, values);
  setResult(context, results, 1, indices);
}

void refine::addReductionRules(llvm::StringMap<ShapeRule> &rules) {
  // The reductions and along-dim ops of typed_ops.txt need no entry:
  // applyReductionFamily. These are the ones whose shape the families do
  // not describe.
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[(Twine("aten.") + name).str()] = rule;
  };
  add({"_softmax"}, internalSoftmaxRule);
  add({"sort", "argsort"}, sortRule);
  add({"topk"}, topkRule);
}
