//===- Peephole.cpp - prim-peephole ---------------------------------------===//
//
// TorchScript's peephole optimizations (torch/csrc/jit/passes/peephole.cpp,
// peephole_list_idioms.cpp and the tuple part of lower_tuples.cpp in torch
// 1.13) as MLIR patterns:
//
// - `x.t().t()` is `x`; `x.expand(sizes)` is `x` when `x`'s type has those
//   sizes; `x.type_as(y)` is `x` when both types state the same dtype and
//   device (TorchScript's shape peepholes);
// - `int(NumToTensor(n))` (and Float/IntImplicit/FloatImplicit/
//   ScalarImplicit) is `n` where `n` has the result's type;
// - `x is None` / `x is not None` where `x` cannot be None, `a is b` of
//   tensors that cannot alias (the one rewrite that needs the alias
//   analysis, so it runs after the patterns), and
//   `_unwrap_optional`/`unchecked_cast` of a value that already has the
//   type, and an `unchecked_cast` of one (it casts the first input);
// - `len`, `__getitem__`, `ListUnpack`, `+` and slicing of a
//   `prim.ListConstruct` no op can mutate;
// - TupleUnpack/TupleIndex of a `prim.TupleConstruct` (an unpack also
//   through an unchecked_cast of it);
// - the int idioms TorchScript also rewrites: `x + 0`, `x - 0`, `x * 1`,
//   `x // 1`, `int(x)` of an int, `x == x` on ints and bools, and an If
//   whose bool result is `true`/`false` by branch (`c and True`).
//
// Each rewrite checks what it needs locally (the list patterns look at
// every use of the list), so populatePeepholePatterns is safe to run
// anywhere. Like TorchScript's `x == x`, but for NaN: floats are left alone.
//
//===----------------------------------------------------------------------===//

#include "FoldUtils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMPEEPHOLEPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> getConstantInt(Value value) {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(getConstantValue(value)))
    if (attr.getType().isInteger(64))
      return attr.getInt();
  return std::nullopt;
}

std::optional<bool> getConstantBool(Value value) {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(getConstantValue(value)))
    if (attr.getType().isInteger(1))
      return attr.getValue().getBoolValue();
  return std::nullopt;
}

/// Replaces `op`'s only result by `value` and erases `op` (which the
/// patterns only do for ops without side effects).
void replaceOp(PatternRewriter &rewriter, Operation *op, Value value) {
  replaceValueWith(rewriter, op->getResult(0), value);
  rewriter.eraseOp(op);
}

void replaceOpWithBool(PatternRewriter &rewriter, Operation *op, bool value) {
  Value constant =
      prim::ConstantOp::create(rewriter, op->getLoc(), rewriter.getI1Type(),
                               rewriter.getBoolAttr(value));
  replaceOp(rewriter, op, constant);
}

/// TorchScript's `Value::mustBeNone`: typed None, or a None constant.
bool mustBeNone(Value value) {
  return isa<prim::NoneType>(value.getType()) ||
         isa_and_nonnull<UnitAttr>(getConstantValue(value));
}

/// TorchScript's `Value::mustNotBeNone`, and not `Any` either (which can
/// hold a None; TorchScript overlooks that).
bool mustNotBeNone(Value value) {
  Type type = value.getType();
  if (isa<prim::NoneType, prim::OptionalType, prim::AnyType>(type))
    return false;
  if (auto union_ = dyn_cast<prim::UnionType>(type))
    return llvm::none_of(union_.getTypes(), [](Type member) {
      return isa<prim::NoneType, prim::OptionalType, prim::AnyType>(member);
    });
  return true;
}

/// Whether an alias annotation (`a`, `a!`, `b|a`, `a -> *`) names `set`.
bool namesSet(StringRef annotation, StringRef set) {
  SmallVector<StringRef> parts;
  annotation.split("->").first.split(parts, '|');
  return llvm::any_of(parts, [&](StringRef part) {
    return part.trim().rtrim('!').trim() == set;
  });
}

/// Whether `use` only reads the value it holds: a list unpack, a generic
/// node of a pure schema (AliasAnalysis.h), or an aten op whose schema
/// neither writes that argument, nor lets it escape into the
/// wildcard, nor returns an alias of it.
bool onlyReads(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<prim::ListUnpackOp>(user) || getPureGenericSchema(user))
    return true;
  const aten::Schema *schema = getSchema(user);
  if (!schema || schema->isVararg ||
      schema->arguments.size() != user->getNumOperands())
    return false;
  const aten::SchemaArg &arg = schema->arguments[use.getOperandNumber()];
  if (arg.isWrite)
    return false;
  if (arg.aliasSet.empty())
    return true;
  if (StringRef(arg.aliasSet).contains('*') || !arg.aliasAfterSet.empty())
    return false;
  return llvm::none_of(schema->returns, [&](const aten::SchemaArg &ret) {
    return namesSet(ret.aliasSet, arg.aliasSet);
  });
}

/// The `prim.ListConstruct` defining `list`, if nothing can mutate the list:
/// every use only reads it (peephole_list_idioms's unmutated lists).
prim::ListConstructOp getUnmutatedListConstruct(Value list) {
  auto construct = list.getDefiningOp<prim::ListConstructOp>();
  if (!construct)
    return {};
  if (!llvm::all_of(list.getUses(), onlyReads))
    return {};
  return construct;
}

/// The constant int list `value` holds: a list constant, or a list literal
/// of int constants.
std::optional<SmallVector<int64_t>> getConstantIntList(Value value) {
  SmallVector<int64_t> values;
  if (auto array = dyn_cast_or_null<ArrayAttr>(getConstantValue(value))) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer || !integer.getType().isInteger(64))
        return std::nullopt;
      values.push_back(integer.getInt());
    }
    return values;
  }
  if (auto construct = value.getDefiningOp<prim::ListConstructOp>()) {
    for (Value element : construct.getElements()) {
      std::optional<int64_t> integer = getConstantInt(element);
      if (!integer)
        return std::nullopt;
      values.push_back(*integer);
    }
    return values;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Tensor patterns
//===----------------------------------------------------------------------===//

/// `x.t().t()` is `x`.
struct DoubleTranspose : OpRewritePattern<aten::TOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::TOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op->getOperand(0).getDefiningOp<aten::TOp>();
    if (!inner)
      return failure();
    replaceOp(rewriter, op, inner->getOperand(0));
    return success();
  }
};

/// `x.expand(sizes)` with `x`'s own known sizes is `x`.
struct NoOpExpand : OpRewritePattern<aten::ExpandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::ExpandOp op,
                                PatternRewriter &rewriter) const override {
    Value self = op->getOperand(0);
    auto type = dyn_cast<prim::TensorType>(self.getType());
    std::optional<SmallVector<int64_t>> sizes =
        getConstantIntList(op->getOperand(1));
    if (!type || !type.getHasSizes() || !sizes ||
        llvm::is_contained(type.getSizes(), prim::TensorType::kUnknownSize) ||
        ArrayRef<int64_t>(*sizes) != type.getSizes())
      return failure();
    replaceOp(rewriter, op, self);
    return success();
  }
};

/// `x.type_as(y)` is `x` when both are known to have one dtype and device.
struct NoOpTypeAs : OpRewritePattern<aten::TypeAsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::TypeAsOp op,
                                PatternRewriter &rewriter) const override {
    auto self = dyn_cast<prim::TensorType>(op->getOperand(0).getType());
    auto other = dyn_cast<prim::TensorType>(op->getOperand(1).getType());
    if (!self || !other || !self.getDtype() || !self.getDevice() ||
        self.getDtype() != other.getDtype() ||
        self.getDevice() != other.getDevice())
      return failure();
    replaceOp(rewriter, op, op->getOperand(0));
    return success();
  }
};

/// `int(NumToTensor(n))` is `n` (also Float, the Implicit conversions),
/// where `n` has the type the conversion returns and no op can have written
/// the tensor in between (TorchScript does not check that).
template <typename ConversionOp>
struct NumToTensorRoundTrip : OpRewritePattern<ConversionOp> {
  using OpRewritePattern<ConversionOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConversionOp op,
                                PatternRewriter &rewriter) const override {
    auto wrap = op->getOperand(0).template getDefiningOp<prim::NumToTensorOp>();
    if (!wrap ||
        !prim::isSubtypeOf(wrap.getNumber().getType(),
                           op->getResult(0).getType()) ||
        !llvm::all_of(wrap.getResult().getUses(), onlyReads))
      return failure();
    replaceOp(rewriter, op, wrap.getNumber());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// None and casts
//===----------------------------------------------------------------------===//

/// `x is None` is false (and `is not` true) when `x` cannot be None.
template <typename IsOp, bool is>
struct IsNoneOfNonOptional : OpRewritePattern<IsOp> {
  using OpRewritePattern<IsOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IsOp op,
                                PatternRewriter &rewriter) const override {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (!(mustBeNone(a) && mustNotBeNone(b)) &&
        !(mustBeNone(b) && mustNotBeNone(a)))
      return failure();
    replaceOpWithBool(rewriter, op, !is);
    return success();
  }
};

/// `_unwrap_optional(x)` is `x` when `x` cannot be None.
struct UnwrapNonOptional : OpRewritePattern<aten::PrivateUnwrapOptionalOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::PrivateUnwrapOptionalOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    if (!mustNotBeNone(input))
      return failure();
    replaceOp(rewriter, op, input);
    return success();
  }
};

/// `unchecked_cast(x)` to a type `x` already has is `x`. With differing
/// types MLIR needs the cast for exact-type users, so only the aten uses,
/// which take the input's type as well, skip it.
struct UncheckedCastToSupertype : OpRewritePattern<prim::UncheckedCastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::UncheckedCastOp op,
                                PatternRewriter &rewriter) const override {
    // A cast of a cast casts the first input (torch.norm's `dim`, a list
    // refined to Optional[List[int]] and back, twice).
    if (auto inner = op.getInput().getDefiningOp<prim::UncheckedCastOp>()) {
      rewriter.modifyOpInPlace(
          op, [&] { op->setOperand(0, inner.getInput()); });
      return success();
    }
    Value input = op.getInput();
    Type inputType = input.getType();
    if (inputType == op.getType()) {
      rewriter.replaceOp(op, input);
      return success();
    }
    if (!prim::isSubtypeOf(prim::unshapedType(inputType),
                           prim::unshapedType(op.getType())))
      return failure();
    bool replaced = false;
    rewriter.replaceUsesWithIf(op.getResult(), input, [&](OpOperand &use) {
      bool accepts = atenUseAccepts(use, inputType);
      replaced |= accepts;
      return accepts;
    });
    return success(replaced);
  }
};

//===----------------------------------------------------------------------===//
// Lists and tuples
//===----------------------------------------------------------------------===//

/// Whether `use` keeps its list's length: it only reads the list, or
/// writes one element in place (`images[i] = image`, as torchvision's
/// detection transform writes each image of its input list back).
bool keepsLength(OpOperand &use) {
  auto setItem = dyn_cast<aten::PrivateSetItemTOp>(use.getOwner());
  if (setItem && use.getOperandNumber() == 0)
    return setItem->use_empty();
  return onlyReads(use);
}

/// `len` of a list literal whose length nothing changes.
struct LenOfListConstruct : OpRewritePattern<aten::LenTOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::LenTOp op,
                                PatternRewriter &rewriter) const override {
    auto list = op->getOperand(0).getDefiningOp<prim::ListConstructOp>();
    if (!list || !llvm::all_of(list.getResult().getUses(), keepsLength))
      return failure();
    Value length = prim::ConstantOp::create(
        rewriter, op.getLoc(), rewriter.getI64Type(),
        rewriter.getI64IntegerAttr(list.getElements().size()));
    replaceOp(rewriter, op, length);
    return success();
  }
};

/// all/any of a list literal of constant bools (`all([...])` as torch.nn's
/// MultiheadAttention writes its fast-path test): the list overloads have
/// no typed op, so this matches the generic node.
struct AllAnyOfListConstruct : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    bool isAll = op.getKind() == "aten::all";
    if ((!isAll && op.getKind() != "aten::any") || op->getNumOperands() != 1 ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isInteger(1))
      return failure();
    prim::ListConstructOp list = getUnmutatedListConstruct(op->getOperand(0));
    if (!list)
      return failure();
    bool result = isAll;
    for (Value element : list.getElements()) {
      auto value = dyn_cast_or_null<IntegerAttr>(getConstantValue(element));
      if (!value)
        return failure();
      if (value.getValue().isZero() == isAll)
        result = !isAll;
    }
    replaceOp(rewriter, op,
              prim::ConstantOp::create(rewriter, op.getLoc(),
                                       rewriter.getI1Type(),
                                       rewriter.getBoolAttr(result)));
    return success();
  }
};

struct GetItemOfListConstruct : OpRewritePattern<aten::DunderGetitemTOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::DunderGetitemTOp op,
                                PatternRewriter &rewriter) const override {
    prim::ListConstructOp list = getUnmutatedListConstruct(op->getOperand(0));
    std::optional<int64_t> index = getConstantInt(op->getOperand(1));
    if (!list || !index)
      return failure();
    int64_t size = list.getElements().size();
    int64_t position = *index < 0 ? *index + size : *index;
    if (position < 0 || position >= size)
      return failure(); // raises at run time
    replaceOp(rewriter, op, list.getElements()[position]);
    return success();
  }
};

struct UnpackOfListConstruct : OpRewritePattern<prim::ListUnpackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ListUnpackOp op,
                                PatternRewriter &rewriter) const override {
    prim::ListConstructOp list = getUnmutatedListConstruct(op.getList());
    if (!list || list.getElements().size() != op.getNumResults())
      return failure();
    for (auto [result, element] :
         llvm::zip(op.getResults(), list.getElements()))
      replaceValueWith(rewriter, result, element);
    rewriter.eraseOp(op);
    return success();
  }
};

/// `[a, b] + [c]` is `[a, b, c]`, a new list either way.
struct ConcatOfListConstructs : OpRewritePattern<aten::AddTOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::AddTOp op,
                                PatternRewriter &rewriter) const override {
    prim::ListConstructOp a = getUnmutatedListConstruct(op->getOperand(0));
    prim::ListConstructOp b = getUnmutatedListConstruct(op->getOperand(1));
    Type type = op->getResult(0).getType();
    if (!a || !b || a.getType() != type || b.getType() != type)
      return failure();
    SmallVector<Value> elements(a.getElements());
    llvm::append_range(elements, b.getElements());
    rewriter.replaceOpWithNewOp<prim::ListConstructOp>(op, type, elements);
    return success();
  }
};

/// `[a, b, c][1:]` is `[b, c]`, a new list either way.
struct SliceOfListConstruct : OpRewritePattern<aten::SliceTOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::SliceTOp op,
                                PatternRewriter &rewriter) const override {
    prim::ListConstructOp list = getUnmutatedListConstruct(op->getOperand(0));
    std::optional<int64_t> step = getConstantInt(op->getOperand(3));
    if (!list || !step || list.getType() != op->getResult(0).getType())
      return failure();
    auto bound = [](Value value, std::optional<int64_t> &index) {
      if (mustBeNone(value))
        return true;
      index = getConstantInt(value);
      return index.has_value();
    };
    std::optional<int64_t> start, stop;
    if (!bound(op->getOperand(1), start) || !bound(op->getOperand(2), stop))
      return failure();
    FailureOr<SmallVector<int64_t>> positions =
        sliceIndices(list.getElements().size(), start, stop, *step);
    if (failed(positions))
      return failure();
    SmallVector<Value> elements;
    for (int64_t position : *positions)
      elements.push_back(list.getElements()[position]);
    rewriter.replaceOpWithNewOp<prim::ListConstructOp>(
        op, op->getResult(0).getType(), elements);
    return success();
  }
};

/// `list(l)` (and `l.copy()`) of a list literal nothing mutates: a literal
/// of the same elements, a fresh list as the copy is.
template <typename OpTy>
struct CopyOfListConstruct : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    prim::ListConstructOp list = getUnmutatedListConstruct(op->getOperand(0));
    if (!list || list.getType() != op->getResult(0).getType())
      return failure();
    rewriter.replaceOpWithNewOp<prim::ListConstructOp>(
        op, op->getResult(0).getType(), list.getElements());
    return success();
  }
};

/// The entries, in insertion order, of a dict literal nothing writes:
/// `prim.DictConstruct` or `dict([(k0, v0), (k1, v1), ...])` of a list
/// literal of pairs, with distinct constant str keys, every use of it a
/// read (onlyReadsDict); nullopt for anything else.
std::optional<SmallVector<std::pair<Value, Value>>> dictLiteralEntries(
    Value dict) {
  if (!llvm::all_of(dict.getUses(), onlyReadsDict))
    return std::nullopt;
  SmallVector<std::pair<Value, Value>> entries;
  if (auto construct = dict.getDefiningOp<prim::DictConstructOp>()) {
    ValueRange operands = construct->getOperands();
    for (size_t i = 0; i + 1 < operands.size(); i += 2)
      entries.push_back({operands[i], operands[i + 1]});
  } else {
    auto generic = dict.getDefiningOp<prim::GenericOp>();
    if (!generic || generic.getKind() != "aten::dict" ||
        generic->getNumOperands() != 1)
      return std::nullopt;
    prim::ListConstructOp pairs =
        getUnmutatedListConstruct(generic->getOperand(0));
    if (!pairs)
      return std::nullopt;
    for (Value pair : pairs.getElements()) {
      auto tuple = pair.getDefiningOp<prim::TupleConstructOp>();
      if (!tuple || tuple->getNumOperands() != 2)
        return std::nullopt;
      entries.push_back({tuple->getOperand(0), tuple->getOperand(1)});
    }
  }
  llvm::StringSet<> keys;
  for (auto [key, value] : entries) {
    std::optional<StringRef> text = getConstantString(key);
    if (!text || !keys.insert(*text).second)
      return std::nullopt;
  }
  return entries;
}

/// `d.values()`, `d.keys()` and `d.items()` of a dict literal nothing writes
/// (torchvision's detection models: `features = list(OrderedDict(...)
/// .values())`): a literal of the values, the keys or the (key, value)
/// tuples, in insertion order.
struct ValuesOfDictLiteral : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    StringRef kind = op.getKind();
    if (!llvm::is_contained({"aten::values", "aten::keys", "aten::items"},
                            kind) ||
        op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    auto entries = dictLiteralEntries(op->getOperand(0));
    auto listType = dyn_cast<prim::ListType>(op->getResult(0).getType());
    if (!entries || !listType)
      return failure();
    SmallVector<Value> elements;
    for (auto [key, value] : *entries) {
      if (kind == "aten::items")
        elements.push_back(prim::TupleConstructOp::create(
            rewriter, op.getLoc(), listType.getElementType(),
            ValueRange{key, value}));
      else
        elements.push_back(kind == "aten::values" ? value : key);
    }
    rewriter.replaceOpWithNewOp<prim::ListConstructOp>(
        op, op->getResult(0).getType(), elements);
    return success();
  }
};

/// `dict()` (`OrderedDict()` in scripted code): an empty dict literal,
/// which prim-remove-mutation folds the writes that follow into.
struct EmptyDictCall : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != "aten::dict" || op->getNumOperands() != 0 ||
        op->getNumResults() != 1 ||
        !isa<prim::DictType>(op->getResult(0).getType()))
      return failure();
    rewriter.replaceOpWithNewOp<prim::DictConstructOp>(
        op, op->getResult(0).getType(), ValueRange());
    return success();
  }
};

/// The kind of value a type holds, for isinstance: the type itself, or
/// for a list, tuple or dict the container (`isinstance(x, list)` names no
/// element type); null where the type leaves the kind open (Optional,
/// Union, Any, Scalar).
static Type kindOf(Type type) {
  MLIRContext *context = type.getContext();
  if (isa<prim::ListType, prim::AnyListType>(type))
    return prim::AnyListType::get(context);
  if (isa<prim::TupleType, prim::AnyTupleType>(type))
    return prim::AnyTupleType::get(context);
  if (isa<prim::TensorType>(type))
    return prim::TensorType::get(context);
  if (isa<prim::DictType, prim::StrType, prim::NoneType, prim::DeviceType,
          prim::ClassType>(type) ||
      type.isInteger(64) || type.isInteger(1) || type.isF64())
    return isa<prim::DictType>(type) ? Type(prim::DictType::get(
                                           context, prim::AnyType::get(context),
                                           prim::AnyType::get(context)))
                                     : type;
  return {};
}

/// `prim::isinstance[types=[...]](x)` where x's type decides it, as
/// TorchScript's peephole folds it (`isinstance(rois, (list, tuple))` of a
/// Tensor in torchvision's poolers).
struct IsInstanceOfKnownType : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != "prim::isinstance" || op->getNumOperands() != 1 ||
        op->getNumResults() != 1)
      return failure();
    auto attrs = op->getAttrOfType<DictionaryAttr>("node_attrs");
    auto types = attrs ? attrs.getAs<ArrayAttr>("types") : ArrayAttr();
    Type kind = kindOf(op->getOperand(0).getType());
    if (!types || !kind)
      return failure();
    bool matches = false;
    for (Attribute candidate : types) {
      auto typeAttr = dyn_cast<TypeAttr>(candidate);
      Type candidateKind = typeAttr ? kindOf(typeAttr.getValue()) : Type();
      if (!candidateKind)
        return failure();
      matches |= candidateKind == kind;
    }
    replaceOpWithBool(rewriter, op, matches);
    return success();
  }
};

/// `d[k]` of a dict literal nothing writes, at a constant key it holds.
struct GetItemOfDictLiteral : OpRewritePattern<aten::DunderGetitemDictStrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::DunderGetitemDictStrOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<StringRef> key = getConstantString(op->getOperand(1));
    auto entries = key ? dictLiteralEntries(op->getOperand(0)) : std::nullopt;
    if (!entries)
      return failure();
    for (auto [entryKey, value] : *entries)
      if (getConstantString(entryKey) == key) {
        replaceOp(rewriter, op, value);
        return success();
      }
    return failure(); // a KeyError at run time
  }
};

/// `min([a, b, c])` (`max`) of a list literal nothing mutates: `min(min(a,
/// b), c)`, which lowers to arith where the list form needs a kernel.
struct MinMaxOfListConstruct : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    StringRef kind = op.getKind();
    if ((kind != "prim::min" && kind != "prim::max") ||
        op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    prim::ListConstructOp list = getUnmutatedListConstruct(op->getOperand(0));
    Type type = op->getResult(0).getType();
    if (!list || list.getElements().empty() ||
        !(type.isInteger(64) || type.isF64()))
      return failure();
    StringAttr overload = rewriter.getStringAttr(type.isF64() ? "float" : "int");
    Value result = list.getElements().front();
    for (Value element : list.getElements().drop_front()) {
      auto pair = prim::GenericOp::create(
          rewriter, op.getLoc(), TypeRange{type}, op.getKindAttr(),
          ValueRange{result, element}, DictionaryAttr(), /*blocksCount=*/0);
      pair->setAttr("tsir.overload", overload);
      result = pair->getResult(0);
    }
    replaceOp(rewriter, op, result);
    return success();
  }
};

/// Also through an `unchecked_cast` of the tuple: nn.MultiheadAttention
/// returns `(out, None)` cast to `Tuple[Tensor, Optional[Tensor]]`, and ViT
/// unpacks it; each element keeps the cast's element type.
struct UnpackOfTupleConstruct : OpRewritePattern<prim::TupleUnpackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::TupleUnpackOp op,
                                PatternRewriter &rewriter) const override {
    Value built = op.getTuple();
    if (auto cast = built.getDefiningOp<prim::UncheckedCastOp>())
      built = cast.getInput();
    auto tuple = built.getDefiningOp<prim::TupleConstructOp>();
    if (!tuple || tuple.getElements().size() != op.getNumResults())
      return failure();
    for (auto [result, element] :
         llvm::zip(op.getResults(), tuple.getElements()))
      replaceValueWith(rewriter, result, element);
    rewriter.eraseOp(op);
    return success();
  }
};

struct IndexOfTupleConstruct : OpRewritePattern<prim::TupleIndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::TupleIndexOp op,
                                PatternRewriter &rewriter) const override {
    auto tuple = op.getTuple().getDefiningOp<prim::TupleConstructOp>();
    std::optional<int64_t> index = getConstantInt(op.getIndex());
    if (!tuple || !index)
      return failure();
    int64_t size = tuple.getElements().size();
    int64_t position = *index < 0 ? *index + size : *index;
    if (position < 0 || position >= size)
      return failure();
    replaceOp(rewriter, op, tuple.getElements()[position]);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Int and bool idioms
//===----------------------------------------------------------------------===//

/// `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x // 1` on ints.
template <typename IntOp, int64_t identity, bool commutative>
struct IntIdentity : OpRewritePattern<IntOp> {
  using OpRewritePattern<IntOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IntOp op,
                                PatternRewriter &rewriter) const override {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (getConstantInt(b) == identity) {
      replaceOp(rewriter, op, a);
      return success();
    }
    if (commutative && getConstantInt(a) == identity) {
      replaceOp(rewriter, op, b);
      return success();
    }
    return failure();
  }
};

/// `int(x)` of an int is `x`.
struct IntOfInt : OpRewritePattern<aten::IntScalarOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::IntScalarOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    if (!input.getType().isInteger(64))
      return failure();
    replaceOp(rewriter, op, input);
    return success();
  }
};

/// `x == x` and `x != x` on ints, bools and int lists, which cannot throw
/// or be NaN; and `x is x`, `x is not x` on anything (Python identity:
/// nn.MultiheadAttention asks `query is key`).
template <typename CompareOp, bool equal>
struct SelfComparison : OpRewritePattern<CompareOp> {
  using OpRewritePattern<CompareOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    if (op->getOperand(0) != op->getOperand(1))
      return failure();
    replaceOpWithBool(rewriter, op, equal);
    return success();
  }
};

/// A bool If result that is `true` from the then branch and `false` from
/// the else branch is the condition (`c and True`, `c or False`).
struct IfResultIsCondition : OpRewritePattern<prim::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::IfOp op,
                                PatternRewriter &rewriter) const override {
    Operation *thenYield = op.getThenRegion().front().getTerminator();
    Operation *elseYield = op.getElseRegion().front().getTerminator();
    bool changed = false;
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      if (!result.getType().isInteger(1) || result.use_empty())
        continue;
      if (getConstantBool(thenYield->getOperand(index)) == true &&
          getConstantBool(elseYield->getOperand(index)) == false) {
        rewriter.replaceAllUsesWith(result, op.getCondition());
        changed = true;
      }
    }
    return success(changed);
  }
};

/// `value` is a tensor object the graph made at that op, so no other
/// value of the graph (but itself) is that object: a typed aten op's
/// result whose schema gives it no alias annotation (a fresh tensor), or a
/// view op's, which torch always makes as a new tensor. Ops that may hand
/// back an input (`contiguous`, `to`, `flatten`, in-place ops) or an
/// element of a container (`__getitem__`) are not here.
bool isNewObject(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return false;
  Operation *op = result.getOwner();
  if (isa<aten::TransposeIntOp, aten::UnsqueezeOp, aten::PermuteOp,
          aten::SelectIntOp, aten::SliceTensorOp, aten::ViewOp, aten::TOp,
          aten::ExpandOp, aten::NarrowOp, aten::SqueezeDimOp,
          aten::SqueezeOp>(op))
    return true;
  const aten::Schema *schema = getSchema(op);
  if (!schema || schema->isVarret ||
      result.getResultNumber() >= schema->returns.size())
    return false;
  const aten::SchemaArg &returned = schema->returns[result.getResultNumber()];
  return returned.aliasSet.empty() && returned.type.alias.empty();
}

/// `a is b` / `a is not b` of two different tensor values that cannot be
/// one object: they share no memory (alias analysis), or one is an object
/// the graph made (isNewObject) and the other is too, or is a graph input
/// (which existed before). torch.nn's attention asks `query is key` and
/// `key is value` to pick self-attention's packed projection, of a layer's
/// output and its memory input, or of two views of one tensor. Two graph
/// inputs may be one object, and an If's result may be either branch's
/// value: those stay.
bool foldDistinctTensorIdentities(func::FuncOp graph) {
  SmallVector<Operation *> tests;
  graph.walk([&](Operation *op) {
    if (isa<aten::DunderIsOp, aten::DunderIsnotOp>(op) &&
        op->getOperand(0) != op->getOperand(1) &&
        isa<prim::TensorType>(op->getOperand(0).getType()) &&
        isa<prim::TensorType>(op->getOperand(1).getType()))
      tests.push_back(op);
  });
  if (tests.empty())
    return false;
  AliasAnalysis aliases(graph);
  auto isGraphInput = [&](Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getOwner() == &graph.front();
  };
  auto distinct = [&](Value a, Value b) {
    if (!aliases.mayAlias(a, b))
      return true;
    bool newA = isNewObject(a), newB = isNewObject(b);
    return (newA && (newB || isGraphInput(b))) ||
           (newB && isGraphInput(a));
  };
  PatternRewriter rewriter(graph.getContext());
  bool changed = false;
  for (Operation *op : tests) {
    if (!distinct(op->getOperand(0), op->getOperand(1)))
      continue;
    rewriter.setInsertionPoint(op);
    replaceOpWithBool(rewriter, op, isa<aten::DunderIsnotOp>(op));
    changed = true;
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct PrimPeepholePass : tsir::impl::PrimPeepholePassBase<PrimPeepholePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populatePeepholePatterns(set);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(set));
    return success();
  }

  void runOnOperation() override {
    // Constants stay where they are; TorchScript's peephole runs its DCE
    // after a change, as the driver drops ops left trivially dead.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    bool changed = false;
    (void)applyPatternsGreedily(getOperation(), *patterns, config, &changed);
    changed |= foldDistinctTensorIdentities(getOperation());
    // Unchanged IR needs no re-verification (the pass manager's rule).
    if (!changed)
      markAllAnalysesPreserved();
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace

void tsir::populatePeepholePatterns(RewritePatternSet &patterns) {
  using namespace tsir::aten;
  MLIRContext *context = patterns.getContext();
  patterns.add<DoubleTranspose, NoOpExpand, NoOpTypeAs,
               NumToTensorRoundTrip<IntTensorOp>,
               NumToTensorRoundTrip<FloatTensorOp>,
               NumToTensorRoundTrip<IntImplicitOp>,
               NumToTensorRoundTrip<FloatImplicitOp>,
               NumToTensorRoundTrip<ScalarImplicitOp>>(context);
  patterns.add<IsNoneOfNonOptional<DunderIsOp, true>,
               IsNoneOfNonOptional<DunderIsnotOp, false>, UnwrapNonOptional,
               UncheckedCastToSupertype>(context);
  patterns
      .add<LenOfListConstruct, AllAnyOfListConstruct, GetItemOfListConstruct,
           UnpackOfListConstruct, CopyOfListConstruct<ListTOp>,
           CopyOfListConstruct<CopyTOp>, ValuesOfDictLiteral, GetItemOfDictLiteral, EmptyDictCall,
           MinMaxOfListConstruct, IsInstanceOfKnownType,
           ConcatOfListConstructs, SliceOfListConstruct, UnpackOfTupleConstruct,
           IndexOfTupleConstruct>(context);
  patterns
      .add<IntIdentity<AddIntOp, 0, true>, IntIdentity<SubIntOp, 0, false>,
           IntIdentity<MulIntOp, 1, true>, IntIdentity<FloordivIntOp, 1, false>,
           IntOfInt, SelfComparison<EqIntOp, true>,
           SelfComparison<NeIntOp, false>, SelfComparison<EqBoolOp, true>,
           SelfComparison<NeBoolOp, false>, SelfComparison<EqIntListOp, true>,
           SelfComparison<NeIntListOp, false>, SelfComparison<DunderIsOp, true>,
           SelfComparison<DunderIsnotOp, false>, IfResultIsCondition>(context);
}
