//===- RefineTypesReductions.cpp - Reduction and along-a-dim rules --------===//
//
// tsir-refine-types' rules for reductions (sum/mean/prod/amax/max.dim/
// argmax/std/var/norm/any/all/logsumexp with their dim lists and keepdim)
// and for the ops that work along one dim and keep the shape (softmax,
// log_softmax, cumsum, sort) or shorten it (topk). Dtypes follow aten:
// sum/prod/cumsum accumulate integers and bools as Long, any/all give Bool
// (Byte stays Byte), std/var/norm of complex give the real type.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

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

namespace {
/// The result dtype of a reduction given its input's.
enum class ReduceDtype {
  Keep,          // amax, max, mean, softmax
  IntegerToLong, // sum, prod, cumsum
  Bool,          // any, all (Byte stays Byte)
  Real,          // std, var, norm: complex to its value type
  IntToFloat,    // logsumexp
  Long           // argmax, argmin
};
} // namespace

static Type reduceDtype(MLIRContext *context, ReduceDtype rule, Type input) {
  switch (rule) {
  case ReduceDtype::Keep:
    return input;
  case ReduceDtype::IntegerToLong:
    if (input && (isIntegralDtype(input) || isBoolDtype(input)))
      return longDtype(context);
    return input;
  case ReduceDtype::Bool:
    if (input && input.isUnsignedInteger(8))
      return input;
    return boolDtype(context);
  case ReduceDtype::Real:
    if (isComplexDtype(input))
      return cast<ComplexType>(input).getElementType();
    return input;
  case ReduceDtype::IntToFloat:
    if (input && (isIntegralDtype(input) || isBoolDtype(input)))
      return defaultFloatDtype(context);
    return input;
  case ReduceDtype::Long:
    return longDtype(context);
  }
  return {};
}

/// A reduction with its dims at operand `dimIndex` (-1: every dim) and
/// keepdim at `keepdimIndex` (-1: false), and an optional `dtype` operand.
template <ReduceDtype rule, int dimIndex, int keepdimIndex>
static void reduceRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.dtype = reduceDtype(context.getContext(), rule, self.dtype);
  if (Value dtype = namedOperand(op, "dtype"))
    if (!context.isNone(dtype))
      result.dtype = context.getDtypeArg(dtype);

  std::optional<bool> keepdim =
      keepdimIndex < 0 ? std::optional<bool>(false)
                       : context.getBool(op->getOperand(keepdimIndex));
  if (dimIndex < 0) {
    result.sizes = reducedSizes(self, std::nullopt, keepdim);
  } else if (auto dims = dimsArg(context, op->getOperand(dimIndex))) {
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

/// softmax/log_softmax/cumsum: the shape kept, the dtype from `dtype` when
/// given.
template <ReduceDtype rule>
static void alongDimRule(Operation *op, RuleContext &context,
                         MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.dtype = reduceDtype(context.getContext(), rule, self.dtype);
  if (Value dtype = namedOperand(op, "dtype"))
    if (!context.isNone(dtype))
      result.dtype = context.getDtypeArg(dtype);
  setResult(context, results, 0, result);
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
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[(Twine("aten.") + name).str()] = rule;
  };
  // Whole-tensor reductions: a 0-d result.
  add({"sum", "prod"}, reduceRule<ReduceDtype::IntegerToLong, -1, -1>);
  add({"mean", "max", "min"}, reduceRule<ReduceDtype::Keep, -1, -1>);
  add({"std", "var", "norm.Scalar"}, reduceRule<ReduceDtype::Real, -1, -1>);
  add({"any", "all"}, reduceRule<ReduceDtype::Bool, -1, -1>);
  // Reductions over dims (operand 1) with keepdim.
  add({"sum.dim_IntList", "prod.dim_int"},
      reduceRule<ReduceDtype::IntegerToLong, 1, 2>);
  add({"mean.dim", "amax", "amin", "max.dim", "min.dim"},
      reduceRule<ReduceDtype::Keep, 1, 2>);
  add({"std.dim", "var.dim", "std.correction", "var.correction"},
      reduceRule<ReduceDtype::Real, 1, 3>);
  add({"linalg_vector_norm"}, reduceRule<ReduceDtype::Real, 2, 3>);
  add({"any.dim", "all.dim"}, reduceRule<ReduceDtype::Bool, 1, 2>);
  add({"argmax", "argmin"}, reduceRule<ReduceDtype::Long, 1, 2>);
  add({"logsumexp"}, reduceRule<ReduceDtype::IntToFloat, 1, 2>);
  // Along one dim.
  add({"softmax.int", "log_softmax.int"}, alongDimRule<ReduceDtype::Keep>);
  add({"cumsum"}, alongDimRule<ReduceDtype::IntegerToLong>);
  add({"_softmax"}, internalSoftmaxRule);
  add({"sort", "argsort"}, sortRule);
  add({"topk"}, topkRule);
}
