//===- RefineTypesRules.h - Rules of tsir-refine-types ----------*- C++ -*-===//
//
// Private interface between the tsir-refine-types driver (RefineTypes.cpp)
// and its per-op rules, which are split by op family the way torch-mlir
// splits its conversions: elementwise ops and type promotion
// (RefineTypesElementwise.cpp), factories and conversions
// (RefineTypesFactories.cpp), views and indexing (RefineTypesShapes.cpp),
// lists of tensors (RefineTypesLists.cpp), reductions
// (RefineTypesReductions.cpp) and the nn ops (RefineTypesNN.cpp). The
// shared lattice and the constant evaluation live in RefineTypesSupport.cpp.
//
// A rule looks at an op whose operands already carry their refined types
// and says what it knows about each result: a refined tensor type, or null
// for "nothing". It never guesses: a rule that cannot be sure of a fact
// (a dim, the dtype, the rank) leaves that fact unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_TRANSFORMS_REFINETYPESRULES_H
#define TSIR_PASSES_TRANSFORMS_REFINETYPESRULES_H

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace tsir::refine {

/// A dim whose size is not known (prim::TensorType's `?`).
constexpr int64_t kUnknown = prim::TensorType::kUnknownSize;

/// What is known about one tensor: the lattice the rules compute on. Every
/// fact is optional; `sizes` is absent when even the rank is unknown.
struct TensorFacts {
  mlir::Type dtype;
  std::optional<llvm::SmallVector<int64_t, 4>> sizes;
  mlir::StringAttr device;

  /// The facts a type states; nothing for non-tensor types.
  static TensorFacts of(mlir::Type type);
  /// A tensor type stating these facts (nothing else).
  prim::TensorType toType(mlir::MLIRContext *context) const;

  bool hasRank() const { return sizes.has_value(); }
  int64_t rank() const { return static_cast<int64_t>(sizes->size()); }
  bool knowsNothing() const { return !dtype && !sizes && !device; }
  /// Every size is known.
  bool hasStaticSizes() const;
  /// The number of elements, if every size is known.
  std::optional<int64_t> numel() const;
};

/// TorchScript's type join (`unifyTypes` on tensors): facts both sides agree
/// on survive; sizes that differ become unknown, different ranks make the
/// result unranked.
TensorFacts joinFacts(const TensorFacts &a, const TensorFacts &b);

/// The join of two TorchScript types as `prim.If`/`prim.Loop` merge them:
/// tensors as above, tuples elementwise, optionals around a join; null when
/// the two do not join (the caller then keeps the declared type).
mlir::Type joinTypes(mlir::Type a, mlir::Type b);

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

/// The dtype of torch's ScalarType code (6 -> Float, 4 -> Long, ...), as
/// TorchScript passes it in `dtype` arguments; null if tsir has no dtype for
/// it.
mlir::Type dtypeFromScalarTypeCode(mlir::MLIRContext *context, int64_t code);

/// The ScalarType code of a dtype (what `x.dtype` evaluates to).
std::optional<int64_t> scalarTypeCodeOf(mlir::Type dtype);

bool isFloatingDtype(mlir::Type dtype); // f16, bf16, f32, f64
bool isComplexDtype(mlir::Type dtype);
bool isBoolDtype(mlir::Type dtype);
/// Integral, bool excluded.
bool isIntegralDtype(mlir::Type dtype);

/// c10::promoteTypes; null if either is null or the pair does not promote.
mlir::Type promoteDtypes(mlir::Type a, mlir::Type b);

/// torch's default dtype (Float), and the ones scalars and integer-to-float
/// ops produce.
mlir::Type defaultFloatDtype(mlir::MLIRContext *context);
mlir::Type defaultComplexDtype(mlir::MLIRContext *context);
mlir::Type longDtype(mlir::MLIRContext *context);
mlir::Type boolDtype(mlir::MLIRContext *context);

/// The accumulation kinds the aten dialect declares, applied to one dtype
/// (null stays null where the kind keeps the input's): integer and bool
/// become the default float (mean, true division), complex its real
/// element type (abs, norms), integer and bool become Long (sum, prod).
mlir::Type integerToFloatDtype(mlir::MLIRContext *context, mlir::Type dtype);
mlir::Type complexToRealDtype(mlir::Type dtype);
mlir::Type integerToLongDtype(mlir::MLIRContext *context, mlir::Type dtype);

//===----------------------------------------------------------------------===//
// Lists of tensors
//===----------------------------------------------------------------------===//

/// What is known about a list of tensors that no op ever writes: per element
/// when the length is known, and what every element shares.
struct ListFacts {
  std::optional<llvm::SmallVector<TensorFacts>> elements;
  TensorFacts common;

  static ListFacts ofElements(llvm::ArrayRef<TensorFacts> elements);
  static ListFacts ofUnknownLength(const TensorFacts &common);
};

//===----------------------------------------------------------------------===//
// The context rules query
//===----------------------------------------------------------------------===//

/// Everything a rule may ask about operands: their refined tensor facts, the
/// values of constant scalars and lists (following `size`/`len`/integer
/// arithmetic where the inputs are known), and what is known of lists.
class RuleContext {
public:
  RuleContext(mlir::MLIRContext *context, const AliasAnalysis &aliases)
      : context(context), aliases(aliases) {}

  mlir::MLIRContext *getContext() const { return context; }

  /// The facts `value`'s current type states (nothing for non-tensors).
  TensorFacts tensor(mlir::Value value) const {
    return TensorFacts::of(value.getType());
  }

  std::optional<int64_t> getInt(mlir::Value value) const;
  std::optional<double> getFloat(mlir::Value value) const;
  std::optional<bool> getBool(mlir::Value value) const;
  /// The value is None (a `!prim.none` value or a None constant).
  bool isNone(mlir::Value value) const;
  /// An `int[]` whose length is known; elements may be unknown. Only lists
  /// nothing writes.
  std::optional<llvm::SmallVector<std::optional<int64_t>>>
  getIntList(mlir::Value value) const;
  /// getIntList, or a single int broadcast to `length` entries (TorchScript
  /// accepts `int[2]` arguments given as one int).
  std::optional<llvm::SmallVector<std::optional<int64_t>>>
  getIntListOrInt(mlir::Value value, size_t length) const;
  /// A `dtype` argument: the dtype of a ScalarType constant; null for None
  /// or unknown. `isNone` tells the two apart.
  mlir::Type getDtypeArg(mlir::Value value) const;
  /// A device constant (`"cpu"`); null if not known.
  mlir::StringAttr getDeviceArg(mlir::Value value) const;

  /// The dtype a Python scalar operand takes part in type promotion as:
  /// Long for int, the default dtype for float, Bool for bool; null if the
  /// scalar's kind is unknown (a `Scalar` that is not a constant).
  mlir::Type scalarDtype(mlir::Value value) const;

  /// Facts of a tensor list: recorded by the op that made it, or read off
  /// a `prim.ListConstruct`. Nothing for a list some op may write.
  std::optional<ListFacts> listFacts(mlir::Value list) const;
  void setListFacts(mlir::Value list, ListFacts facts);
  void forgetListFacts(mlir::Value list) { lists.erase(list); }

  /// Whether `value` is a tensor some op may resize in place (its own or an
  /// alias's `resize_`, `unsqueeze_`, ...): its sizes are not a fact.
  bool isResized(mlir::Value value) const;
  void addResizedSet(const void *aliasSet) { resizedSets.insert(aliasSet); }

  const AliasAnalysis &getAliases() const { return aliases; }

private:
  std::optional<int64_t> evalInt(mlir::Value value, unsigned depth) const;
  std::optional<llvm::SmallVector<std::optional<int64_t>>>
  evalIntList(mlir::Value value, unsigned depth) const;

  mlir::MLIRContext *context;
  const AliasAnalysis &aliases;
  llvm::DenseMap<mlir::Value, ListFacts> lists;
  llvm::DenseSet<const void *> resizedSets;
};

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// Fills `results` (one null entry per op result on entry) with what the op
/// tells of its results.
using ShapeRule = void (*)(mlir::Operation *op, RuleContext &context,
                           llvm::MutableArrayRef<mlir::Type> results);

/// The rules, keyed by op name (`aten.add.Tensor`); built once.
const llvm::StringMap<ShapeRule> &getShapeRules();

/// The rule of an op the aten dialect declares elementwise (the unary,
/// binary and ternary families of typed_ops.txt, with its promotion kind),
/// for an op the table has no rule for: fills `results` and returns true,
/// or returns false for an op of no such family.
bool applyElementwiseFamily(mlir::Operation *op, RuleContext &context,
                            llvm::MutableArrayRef<mlir::Type> results);

/// The common rule of the `reduction` and `along_dim` families of
/// typed_ops.txt, for an op the table has no rule for: fills `results` and
/// returns true, or returns false for an op of neither family.
bool applyReductionFamily(mlir::Operation *op, RuleContext &context,
                          llvm::MutableArrayRef<mlir::Type> results);

/// Each family adds its rules to the map.
void addElementwiseRules(llvm::StringMap<ShapeRule> &rules);
void addFactoryRules(llvm::StringMap<ShapeRule> &rules);
void addShapeRules(llvm::StringMap<ShapeRule> &rules);
void addListRules(llvm::StringMap<ShapeRule> &rules);
void addReductionRules(llvm::StringMap<ShapeRule> &rules);
void addNNRules(llvm::StringMap<ShapeRule> &rules);

/// The ops with a rule of their own that broadcasts two or more tensor
/// operands (`aten.where.self`, ...); the binary and ternary families also
/// broadcast (aten::elementwiseArity).
std::vector<std::string> broadcastingOps();

/// After refinement: reports, in torch's words, every op whose refined
/// operands prove it fails in torch (RefineTypesChecks.cpp).
mlir::LogicalResult checkShapes(mlir::func::FuncOp func, RuleContext &context);

//===----------------------------------------------------------------------===//
// Helpers the rule files share
//===----------------------------------------------------------------------===//

/// `dim` wrapped into [0, rank) as aten's maybe_wrap_dim does; nullopt if
/// out of range. `rank` of a 0-d tensor wraps as 1, as in aten.
std::optional<int64_t> wrapDim(int64_t dim, int64_t rank);

/// numpy broadcasting of the sizes of every tensor in `operands`; absent
/// when a rank is unknown or two known sizes clash.
std::optional<llvm::SmallVector<int64_t, 4>>
broadcastSizes(llvm::ArrayRef<TensorFacts> operands);

/// The device of a result computed from `operands`: theirs when all are
/// known and agree (CPU 0-d operands aside); null otherwise.
mlir::StringAttr commonDevice(llvm::ArrayRef<TensorFacts> operands);

/// The facts of a result that has `input`'s dtype and device and `sizes`.
TensorFacts withSizes(const TensorFacts &input,
                      std::optional<llvm::SmallVector<int64_t, 4>> sizes);

/// The operand the op's schema names `name` (`dtype`, `device`, ...); null
/// if the op has no schema or no such argument.
mlir::Value namedOperand(mlir::Operation *op, llvm::StringRef name);

/// Sets results[index] to the facts' type unless they state nothing.
void setResult(RuleContext &context, llvm::MutableArrayRef<mlir::Type> results,
               unsigned index, const TensorFacts &facts);

} // namespace tsir::refine

#endif // TSIR_PASSES_TRANSFORMS_REFINETYPESRULES_H
