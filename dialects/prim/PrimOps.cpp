//===- PrimOps.cpp - Verifiers and interfaces of the prim ops -------------===//
//
// TorchScript's rules for constants, If/Loop blocks, fusion subgraphs and
// list/tuple construction, and the region-branch interfaces that let MLIR's
// generic passes see through prim.If and prim.Loop.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

using namespace tsir::prim;

#define GET_OP_CLASSES
#include "tsir/Dialect/Prim/PrimOps.cpp.inc"

namespace tsir::prim {

/// Types flow along an edge (a yield into a result, an init into a block
/// argument) when one refines the other, as TorchScript unifies them.
static bool areCompatible(Type a, Type b) {
  return isSubtypeOf(a, b) || isSubtypeOf(b, a);
}

static LogicalResult verifyFlow(Operation *op, StringRef what, TypeRange from,
                                TypeRange to) {
  if (from.size() != to.size())
    return op->emitOpError() << what << ": " << from.size() << " values for "
                             << to.size() << " slots";
  for (auto [index, pair] : llvm::enumerate(llvm::zip(from, to)))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError() << what << ": value #" << index << " has type "
                               << std::get<0>(pair) << ", incompatible with "
                               << std::get<1>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

/// Whether `value` is a valid constant of TorchScript type `type`.
static bool isConstantOf(Attribute value, Type type) {
  if (type.isInteger(64) || type.isInteger(1))
    return isa<IntegerAttr>(value) &&
           cast<IntegerAttr>(value).getType() == type;
  if (type.isF64())
    return isa<FloatAttr>(value) && cast<FloatAttr>(value).getType() == type;
  if (isa<StrType, DeviceType, FunctionType>(type))
    return isa<StringAttr>(value);
  if (isa<NoneType>(type))
    return isa<UnitAttr>(value);
  if (isa<TensorType>(type))
    // A unit value is torch's undefined tensor: `prim::Constant()` of a
    // tensor type.
    return isa<ElementsAttr, TensorRefAttr, QuantizedTensorAttr, UnitAttr>(
        value);
  if (auto enumType = dyn_cast<EnumType>(type)) {
    auto member = dyn_cast<EnumMemberAttr>(value);
    return member && member.getEnumName() == enumType.getName();
  }
  if (isa<AnyEnumType>(type))
    return isa<EnumMemberAttr>(value);
  if (auto optional = dyn_cast<OptionalType>(type))
    return isa<UnitAttr>(value) ||
           isConstantOf(value, optional.getElementType());
  if (auto list = dyn_cast<ListType>(type)) {
    auto array = dyn_cast<ArrayAttr>(value);
    return array && llvm::all_of(array, [&](Attribute element) {
             return isConstantOf(element, list.getElementType());
           });
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    auto array = dyn_cast<ArrayAttr>(value);
    return array && array.size() == tuple.getTypes().size() &&
           llvm::all_of(llvm::zip(array, tuple.getTypes()), [](auto pair) {
             return isConstantOf(std::get<0>(pair), std::get<1>(pair));
           });
  }
  if (isa<NumberType, AnyType>(type))
    return isa<IntegerAttr, FloatAttr>(value) ||
           isConstantOf(value, ComplexType::get(Float64Type::get(
                                   type.getContext()))); // `2j`
  if (auto complex = dyn_cast<ComplexType>(type))
    return isa<ArrayAttr>(value) && cast<ArrayAttr>(value).size() == 2;
  return false;
}

LogicalResult ConstantOp::verify() {
  if (!isConstantOf(getValue(), getType()))
    return emitOpError() << "value " << getValue()
                         << " is not a constant of type " << getType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state,
                 TypeRange resultTypes, Value condition) {
  state.addOperands(condition);
  state.addTypes(resultTypes);
  state.addRegion();
  state.addRegion();
}

LogicalResult IfOp::verify() {
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    if (region->empty())
      return emitOpError("needs both a then and an else block");
    auto yield = cast<YieldOp>(region->front().getTerminator());
    if (failed(verifyFlow(*this,
                          region == &getThenRegion() ? "then block yields"
                                                     : "else block yields",
                          yield.getResults().getTypes(), getResultTypes())))
      return failure();
  }
  return success();
}

void IfOp::getSuccessorRegions(RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  if (!point.isParent()) {
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
    return;
  }
  regions.push_back(RegionSuccessor(&getThenRegion()));
  regions.push_back(RegionSuccessor(&getElseRegion()));
}

void IfOp::getEntrySuccessorRegions(ArrayRef<Attribute> operands,
                                    SmallVectorImpl<RegionSuccessor> &regions) {
  auto condition = dyn_cast_or_null<IntegerAttr>(operands.front());
  if (!condition || condition.getValue().isOne())
    regions.push_back(RegionSuccessor(&getThenRegion()));
  if (!condition || condition.getValue().isZero())
    regions.push_back(RegionSuccessor(&getElseRegion()));
}

bool IfOp::areTypesCompatible(Type lhs, Type rhs) {
  return areCompatible(lhs, rhs);
}

void IfOp::getRegionInvocationBounds(
    ArrayRef<Attribute> operands, SmallVectorImpl<InvocationBounds> &bounds) {
  if (auto condition = dyn_cast_or_null<IntegerAttr>(operands.front())) {
    bool taken = condition.getValue().isOne();
    bounds.emplace_back(0, taken ? 1 : 0);
    bounds.emplace_back(0, taken ? 0 : 1);
    return;
  }
  bounds.assign(2, InvocationBounds(0, 1));
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

void LoopOp::build(OpBuilder &builder, OperationState &state,
                   TypeRange resultTypes, Value maxTripCount,
                   Value initialCondition, ValueRange initArgs) {
  state.addOperands({maxTripCount, initialCondition});
  state.addOperands(initArgs);
  state.addTypes(resultTypes);
  state.addRegion();
}

LogicalResult LoopOp::verify() {
  if (getInitArgs().size() != getNumResults())
    return emitOpError() << "has " << getInitArgs().size()
                         << " loop-carried inputs but " << getNumResults()
                         << " results";
  // The block's shape is checked here rather than in verifyRegions, so that
  // these messages come before the region-branch interface's generic ones.
  Block &body = getBodyBlock();
  if (body.getNumArguments() != getNumResults() + 1)
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments; expected the iteration number and "
                         << getNumResults() << " loop-carried values";
  if (!body.getArgument(0).getType().isInteger(64))
    return emitOpError("body's first argument (the iteration) must be i64");
  if (failed(verifyFlow(*this, "loop-carried inputs", getInitArgs().getTypes(),
                        TypeRange(ValueRange(getCarriedArgs())))) ||
      failed(verifyFlow(*this, "loop-carried results",
                        TypeRange(ValueRange(getCarriedArgs())),
                        getResultTypes())))
    return failure();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getResults().empty() ||
      !yield.getResults().front().getType().isInteger(1))
    return emitOpError("body must yield the continue condition (i1) first");
  return verifyFlow(*this, "body yields",
                    yield.getResults().drop_front().getTypes(),
                    getResultTypes());
}

bool LoopOp::areTypesCompatible(Type lhs, Type rhs) {
  return areCompatible(lhs, rhs);
}

OperandRange LoopOp::getEntrySuccessorOperands(RegionSuccessor) {
  return getInitArgs();
}

void LoopOp::getSuccessorRegions(RegionBranchPoint,
                                 SmallVectorImpl<RegionSuccessor> &regions) {
  // From the parent or the end of the body: run the body (again) or leave.
  regions.push_back(RegionSuccessor(&getBody(), getCarriedArgs()));
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

MutableOperandRange YieldOp::getMutableSuccessorOperands(RegionSuccessor) {
  // A loop body's first yielded value is the continue condition, not a
  // value that flows anywhere.
  if (isa<LoopOp>((*this)->getParentOp()))
    return getResultsMutable().slice(1, getResults().size() - 1);
  return getResultsMutable();
}

//===----------------------------------------------------------------------===//
// Subgraph ops and TypeCheck
//===----------------------------------------------------------------------===//

static LogicalResult verifySubgraph(Operation *op) {
  Block &body = op->getRegion(0).front();
  if (failed(verifyFlow(op, "subgraph inputs", op->getOperandTypes(),
                        body.getArgumentTypes())))
    return failure();
  return verifyFlow(op, "subgraph returns",
                    body.getTerminator()->getOperandTypes(),
                    op->getResultTypes());
}

LogicalResult FusionGroupOp::verify() { return verifySubgraph(*this); }
LogicalResult TensorExprGroupOp::verify() { return verifySubgraph(*this); }
LogicalResult FallbackGraphOp::verify() { return verifySubgraph(*this); }

/// `type` without its requires_grad refinement.
static Type withoutRequiresGrad(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor || !tensor.getRequiresGrad())
    return type;
  return TensorType::get(type.getContext(), tensor.getDtype(),
                         tensor.getHasSizes(), tensor.getSizes(),
                         tensor.getHasStrides(), tensor.getStrides(),
                         tensor.getDevice(), BoolAttr(),
                         tensor.getLegacyNonContiguous());
}

LogicalResult DifferentiableGraphOp::verify() {
  // The forward graph runs on detached inputs: torch prints them
  // `requires_grad=0` where the node's operands require grad.
  Block &body = getBody().front();
  SmallVector<Type> inputs, parameters;
  for (Type type : getOperandTypes())
    inputs.push_back(withoutRequiresGrad(type));
  for (Type type : body.getArgumentTypes())
    parameters.push_back(withoutRequiresGrad(type));
  if (failed(verifyFlow(*this, "subgraph inputs", inputs, parameters)))
    return failure();
  // The forward graph of a differentiated subgraph returns the captured
  // values after the results.
  TypeRange returned = body.getTerminator()->getOperandTypes();
  if (returned.size() < getNumResults())
    return emitOpError() << "subgraph returns: " << returned.size()
                         << " values for " << getNumResults() << " results";
  return verifyFlow(*this, "subgraph returns",
                    returned.take_front(getNumResults()), getResultTypes());
}

/// Whether `name` is one identifier of graph text (`prim::FusionGroup_0`,
/// `a.b`), as the importer's lexer reads it.
static bool isGraphIdentifier(StringRef name) {
  auto isStart = [](char c) { return llvm::isAlpha(c) || c == '_'; };
  auto isBody = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (name.empty() || !isStart(name.front()))
    return false;
  for (;;) {
    name = name.drop_while(isBody);
    if (name.empty())
      return true;
    if (name.size() >= 3 && name.starts_with("::") && isStart(name[2]))
      name = name.drop_front(3);
    else if (name.size() >= 2 && name.front() == '.' && isBody(name[1]))
      name = name.drop_front(2);
    else
      return false;
  }
}

LogicalResult UnusedSubgraphOp::verify() {
  // The exporter prints the section under this name, which must read back.
  if (!isGraphIdentifier(getName()))
    return emitOpError("name '")
           << getName()
           << "' is not a section name of graph text such as "
              "'prim::FusionGroup_0'";
  return success();
}

LogicalResult TypeCheckOp::verify() {
  size_t count = getInputs().size();
  if (getTypes().size() != count || getNumResults() != count + 1)
    return emitOpError() << "checks " << count << " inputs against "
                         << getTypes().size() << " types with "
                         << getNumResults()
                         << " results; expected one type per input and "
                            "one result per input plus the i1 verdict";
  if (!getResult(count).getType().isInteger(1))
    return emitOpError("last result must be the i1 verdict");
  return success();
}

//===----------------------------------------------------------------------===//
// Lists, tuples, dicts
//===----------------------------------------------------------------------===//

LogicalResult ListConstructOp::verify() {
  Type element = getType().getElementType();
  for (auto [index, operand] : llvm::enumerate(getElements()))
    if (!isSubtypeOf(operand.getType(), element) &&
        !(isa<TensorType>(element) && isa<TensorType>(operand.getType())))
      return emitOpError() << "element #" << index << " has type "
                           << operand.getType() << ", not " << element;
  return success();
}

LogicalResult ListUnpackOp::verify() {
  Type element = getList().getType().getElementType();
  for (Type type : getResultTypes())
    if (!areCompatible(type, element))
      return emitOpError() << "result type " << type
                           << " does not match list element type " << element;
  return success();
}

LogicalResult TupleConstructOp::verify() {
  auto tuple = dyn_cast<TupleType>(getType());
  if (isa<AnyTupleType>(getType()))
    return success();
  if (!tuple)
    return emitOpError() << "result must be a tuple, not " << getType();
  return verifyFlow(*this, "elements", getElements().getTypes(),
                    tuple.getTypes());
}

LogicalResult TupleUnpackOp::verify() {
  if (isa<AnyTupleType>(getTuple().getType()))
    return success();
  auto tuple = dyn_cast<TupleType>(getTuple().getType());
  if (!tuple)
    return emitOpError() << "operand must be a tuple, not "
                         << getTuple().getType();
  return verifyFlow(*this, "elements", tuple.getTypes(), getResultTypes());
}

LogicalResult DictConstructOp::verify() {
  if (getKeysAndValues().size() % 2 != 0)
    return emitOpError("takes keys and values in pairs");
  DictType dict = getType();
  for (unsigned i = 0, e = getKeysAndValues().size(); i < e; i += 2)
    if (!areCompatible(getKeysAndValues()[i].getType(), dict.getKeyType()) ||
        !areCompatible(getKeysAndValues()[i + 1].getType(),
                       dict.getValueType()))
      return emitOpError() << "pair #" << i / 2 << " does not match " << dict;
  return success();
}

} // namespace tsir::prim
