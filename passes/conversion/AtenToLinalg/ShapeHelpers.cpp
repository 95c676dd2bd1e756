//===- ShapeHelpers.cpp - Shape and index helpers for views ---------------===//
//
// Folding index arithmetic, int-list operands, reshapes, Python slices and
// the gather-style linalg.generic shared by the view, concat, indexing and
// creation patterns (see ShapeHelpers.h).
//
//===----------------------------------------------------------------------===//

#include "ShapeHelpers.h"

#include "../Common/Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace tsir::conversion {

RankedTensorType getResultTensorType(const TypeConverter &converter,
                                     Operation *op) {
  return dyn_cast_or_null<RankedTensorType>(
      converter.convertType(op->getResult(0).getType()));
}

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

Value IndexMath::constant(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value IndexMath::value(OpFoldResult ofr) {
  if (std::optional<int64_t> v = getConstantIntValue(ofr))
    return constant(*v);
  return cast<Value>(ofr);
}

Value IndexMath::fromInt(Value scalar) {
  if (std::optional<int64_t> v = matchConstantInt(scalar))
    return constant(*v);
  if (scalar.getType().isIndex())
    return scalar;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), scalar);
}

Value IndexMath::add(Value l, Value r) {
  return b.createOrFold<arith::AddIOp>(loc, l, r);
}
Value IndexMath::sub(Value l, Value r) {
  return b.createOrFold<arith::SubIOp>(loc, l, r);
}
Value IndexMath::mul(Value l, Value r) {
  return b.createOrFold<arith::MulIOp>(loc, l, r);
}
Value IndexMath::div(Value l, Value r) {
  return b.createOrFold<arith::DivSIOp>(loc, l, r);
}
Value IndexMath::ceilDiv(Value l, Value r) {
  return b.createOrFold<arith::CeilDivSIOp>(loc, l, r);
}
Value IndexMath::rem(Value l, Value r) {
  return b.createOrFold<arith::RemSIOp>(loc, l, r);
}
Value IndexMath::min(Value l, Value r) {
  return b.createOrFold<arith::MinSIOp>(loc, l, r);
}
Value IndexMath::max(Value l, Value r) {
  return b.createOrFold<arith::MaxSIOp>(loc, l, r);
}

Value IndexMath::wrapNegative(Value index, Value size) {
  if (std::optional<int64_t> v = getConstantIntValue(fold(index)))
    return *v < 0 ? add(index, size) : index;
  Value negative = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                                 index, constant(0));
  return b.createOrFold<arith::SelectOp>(loc, negative, add(index, size),
                                         index);
}

OpFoldResult IndexMath::fold(Value v) { return getAsOpFoldResult(v); }

//===----------------------------------------------------------------------===//
// Operands and results
//===----------------------------------------------------------------------===//

std::optional<SmallVector<Value>>
getIntListValues(ConversionPatternRewriter &rewriter, Location loc,
                 Value list) {
  SmallVector<Value> values;
  if (std::optional<SmallVector<Value>> elements = getListElements(list)) {
    for (Value element : *elements) {
      if (!isa<IntegerType>(element.getType()))
        return std::nullopt;
      values.push_back(rewriter.getRemappedValue(element));
    }
    return values;
  }
  std::optional<SmallVector<int64_t>> constants = matchConstantIntList(list);
  if (!constants)
    return std::nullopt;
  for (int64_t v : *constants)
    values.push_back(arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getI64IntegerAttr(v)));
  return values;
}

SmallVector<OpFoldResult> mixResultSizes(RankedTensorType type,
                                         ArrayRef<OpFoldResult> computed) {
  Builder b(type.getContext());
  SmallVector<OpFoldResult> sizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    sizes.push_back(ShapedType::isDynamic(size) ? computed[dim]
                                                : b.getIndexAttr(size));
  return sizes;
}

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamic;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamic.push_back(IndexMath{b, loc}.value(sizes[dim]));
  return tensor::EmptyOp::create(b, loc, type, dynamic);
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

/// `shape` with each group of `reassociation` merged into one dim (dynamic
/// if any member is).
static SmallVector<int64_t>
collapsedShape(ArrayRef<int64_t> shape,
               ArrayRef<ReassociationIndices> reassociation) {
  SmallVector<int64_t> result;
  for (const ReassociationIndices &group : reassociation) {
    int64_t product = 1;
    for (int64_t dim : group)
      product =
          ShapedType::isDynamic(shape[dim]) || ShapedType::isDynamic(product)
              ? ShapedType::kDynamic
              : product * shape[dim];
    result.push_back(product);
  }
  return result;
}

/// Collapses `input` by `reassociation`, then casts to `type`.
static Value collapse(OpBuilder &b, Location loc, Value input,
                      RankedTensorType type,
                      ArrayRef<ReassociationIndices> reassociation) {
  auto srcType = cast<RankedTensorType>(input.getType());
  auto inferred =
      RankedTensorType::get(collapsedShape(srcType.getShape(), reassociation),
                            srcType.getElementType());
  Value collapsed =
      tensor::CollapseShapeOp::create(b, loc, inferred, input, reassociation);
  return castToType(b, loc, collapsed, type);
}

/// Expands `input` to `type` by `reassociation`, first casting it so that
/// its static dims are exactly those the expansion implies.
static Value expand(OpBuilder &b, Location loc, Value input,
                    RankedTensorType type,
                    ArrayRef<ReassociationIndices> reassociation,
                    ArrayRef<OpFoldResult> sizes) {
  auto srcType = cast<RankedTensorType>(input.getType());
  auto implied = RankedTensorType::get(
      collapsedShape(type.getShape(), reassociation), srcType.getElementType());
  input = castToType(b, loc, input, implied);
  return tensor::ExpandShapeOp::create(b, loc, type, input, reassociation,
                                       sizes);
}

/// Whether a tensor.cast from `from` to `to` keeps the element order: same
/// rank and, per dim, equal sizes or at most one dynamic dim in all.
static bool isCastReshape(RankedTensorType from, RankedTensorType to) {
  if (from.getRank() != to.getRank())
    return false;
  int dynamic = 0;
  for (auto [f, t] : llvm::zip(from.getShape(), to.getShape())) {
    if (ShapedType::isDynamic(f) || ShapedType::isDynamic(t))
      ++dynamic;
    else if (f != t)
      return false;
  }
  return dynamic <= 1;
}

Value reshapeTo(OpBuilder &b, Location loc, Value input, RankedTensorType type,
                ArrayRef<OpFoldResult> sizes) {
  auto srcType = cast<RankedTensorType>(input.getType());
  if (isCastReshape(srcType, type))
    return castToType(b, loc, input, type);
  ArrayRef<int64_t> src = srcType.getShape(), dst = type.getShape();
  if (dst.size() < src.size())
    if (auto reassociation = getReassociationIndicesForCollapse(src, dst))
      return collapse(b, loc, input, type, *reassociation);
  if (dst.size() > src.size())
    if (auto reassociation = getReassociationIndicesForCollapse(dst, src))
      return expand(b, loc, input, type, *reassociation, sizes);
  auto allDims = [](int64_t rank) {
    SmallVector<ReassociationIndices> groups;
    if (rank > 0)
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
    return groups;
  };
  if (srcType.hasStaticShape() && type.hasStaticShape()) {
    // Through 1-D: collapse everything into one dim, then expand that dim
    // into all of the result's (rank 0 on either side has no groups).
    auto flatType = RankedTensorType::get({srcType.getNumElements()},
                                          srcType.getElementType());
    Value flat =
        srcType.getRank() == 0
            ? tensor::ExpandShapeOp::create(b, loc, flatType, input, allDims(0))
                  .getResult()
            : tensor::CollapseShapeOp::create(b, loc, flatType, input,
                                              allDims(srcType.getRank()))
                  .getResult();
    if (type.getRank() == 0)
      return tensor::CollapseShapeOp::create(b, loc, type, flat, allDims(0));
    return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                         allDims(type.getRank()), sizes);
  }
  // Dynamic sizes that no collapse or expansion relates: a copy that reads
  // each element at the input index with the same row-major position.
  // (An expand_shape with several dynamic dims in one group would be a
  // view, but expand-strided-metadata cannot lower it, and memref.reshape
  // does not reach LLVM.)
  IndexMath m{b, loc};
  SmallVector<Value> inSizes, outSizes;
  for (OpFoldResult size : tensor::getMixedSizes(b, loc, input))
    inSizes.push_back(m.value(size));
  for (OpFoldResult size : sizes)
    outSizes.push_back(m.value(size));
  return buildGather(
      b, loc, type, sizes, {}, {},
      [&](OpBuilder &nb, Location l, ValueRange, ValueRange at) -> Value {
        IndexMath n{nb, l};
        Value linear = n.constant(0);
        for (auto [index, size] : llvm::zip(at, outSizes))
          linear = n.add(n.mul(linear, size), index);
        SmallVector<Value> position(inSizes.size());
        for (int64_t dim = inSizes.size() - 1; dim >= 0; --dim) {
          position[dim] = n.rem(linear, inSizes[dim]);
          linear = n.div(linear, inSizes[dim]);
        }
        return tensor::ExtractOp::create(nb, l, input, position);
      });
}

std::pair<Value, Value> pythonSlice(IndexMath &m, Value dimSize, Value start,
                                    Value end, int64_t step) {
  Value zero = m.constant(0);
  auto clamp = [&](Value index) {
    return m.max(zero, m.min(m.wrapNegative(index, dimSize), dimSize));
  };
  Value begin = start ? clamp(start) : zero;
  Value finish = end ? m.max(clamp(end), begin) : dimSize;
  Value length = m.ceilDiv(m.sub(finish, begin), m.constant(step));
  return {begin, length};
}

namespace {
/// Offsets, sizes and strides of `value` with only `dim` cut (at `offset`,
/// `size` elements, every `stride`-th), and the cut's static shape.
struct DimCut {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> shape;
};

DimCut cutAlongDim(OpBuilder &b, Location loc, Value value, int64_t dim,
                   OpFoldResult offset, OpFoldResult size, int64_t stride,
                   bool dropDim) {
  auto type = cast<RankedTensorType>(value.getType());
  DimCut cut{SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(0)),
             tensor::getMixedSizes(b, loc, value),
             SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1)),
             {}};
  cut.offsets[dim] = offset;
  cut.sizes[dim] = size;
  cut.strides[dim] = b.getIndexAttr(stride);
  for (auto [d, s] : llvm::enumerate(cut.sizes))
    if (!dropDim || static_cast<int64_t>(d) != dim)
      cut.shape.push_back(
          getConstantIntValue(s).value_or(ShapedType::kDynamic));
  return cut;
}
} // namespace

bool isEmptySlice(ArrayRef<OpFoldResult> sizes) {
  return llvm::any_of(
      sizes, [](OpFoldResult size) { return getConstantIntValue(size) == 0; });
}

Value extractSlice(OpBuilder &b, Location loc, Value source,
                   ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                   ArrayRef<OpFoldResult> strides) {
  if (!isEmptySlice(sizes))
    return tensor::ExtractSliceOp::create(b, loc, source, offsets, sizes,
                                          strides);
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  return createEmpty(
      b, loc, RankedTensorType::get(shape, type.getElementType()), sizes);
}

Value insertSlice(OpBuilder &b, Location loc, Value source, Value dest,
                  ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                  ArrayRef<OpFoldResult> strides) {
  if (isEmptySlice(sizes))
    return dest;
  return tensor::InsertSliceOp::create(b, loc, source, dest, offsets, sizes,
                                       strides);
}

Value extractAlongDim(OpBuilder &b, Location loc, Value input, int64_t dim,
                      OpFoldResult offset, OpFoldResult size, int64_t stride,
                      bool dropDim) {
  auto type = cast<RankedTensorType>(input.getType());
  DimCut cut = cutAlongDim(b, loc, input, dim, offset, size, stride, dropDim);
  auto resultType = RankedTensorType::get(cut.shape, type.getElementType());
  // Nothing to read (isEmptySlice): an empty tensor of the result's shape.
  if (isEmptySlice(cut.sizes)) {
    SmallVector<OpFoldResult> kept;
    for (auto [d, s] : llvm::enumerate(cut.sizes))
      if (!dropDim || static_cast<int64_t>(d) != dim)
        kept.push_back(s);
    return createEmpty(b, loc, resultType, kept);
  }
  return tensor::ExtractSliceOp::create(b, loc, resultType, input, cut.offsets,
                                        cut.sizes, cut.strides);
}

Value insertAlongDim(OpBuilder &b, Location loc, Value self, Value src,
                     int64_t dim, OpFoldResult offset, OpFoldResult size,
                     int64_t stride, bool dropDim) {
  auto type = cast<RankedTensorType>(self.getType());
  DimCut cut = cutAlongDim(b, loc, self, dim, offset, size, stride, dropDim);
  // Nothing to write (isEmptySlice).
  if (isEmptySlice(cut.sizes))
    return self;
  // src as the slice's type (static where the slice's sizes are known).
  src = castToType(b, loc, src,
                   RankedTensorType::get(cut.shape, type.getElementType()));
  return tensor::InsertSliceOp::create(b, loc, src, self, cut.offsets,
                                       cut.sizes, cut.strides);
}

//===----------------------------------------------------------------------===//
// Generics
//===----------------------------------------------------------------------===//

Value buildGather(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes, ValueRange inputs,
                  ArrayRef<AffineMap> inputMaps, GatherBodyFn body,
                  bool withIndices) {
  Value init = createEmpty(b, loc, type, sizes);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> indices;
        for (int64_t dim = 0; withIndices && dim < type.getRank(); ++dim)
          indices.push_back(linalg::IndexOp::create(nested, nestedLoc, dim));
        Value result = body(nested, nestedLoc, args.drop_back(), indices);
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value buildScatterLoops(OpBuilder &b, Location loc, Value dest,
                        ArrayRef<OpFoldResult> extent, ScatterStepFn step) {
  IndexMath m{b, loc};
  SmallVector<Value> lbs(extent.size(), m.constant(0));
  SmallVector<Value> steps(extent.size(), m.constant(1));
  SmallVector<Value> ubs;
  for (OpFoldResult size : extent)
    ubs.push_back(m.value(size));
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{dest},
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        return {step(nested, nestedLoc, ivs, args[0])};
      });
  return nest.results.front();
}

Value addScalars(OpBuilder &b, Location loc, Value l, Value r) {
  if (isa<FloatType>(l.getType()))
    return arith::AddFOp::create(b, loc, l, r);
  if (l.getType().isInteger(1))
    return arith::OrIOp::create(b, loc, l, r);
  return arith::AddIOp::create(b, loc, l, r);
}

Value convertElementType(OpBuilder &b, Location loc, Value tensor,
                         Type elementType, bool srcUnsigned) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == elementType)
    return tensor;
  auto resultType = type.clone(elementType);
  Value init = tensor::EmptyOp::create(b, loc, resultType,
                                       getDynamicDimSizes(b, loc, tensor));
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{tensor}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(
            nested, nestedLoc,
            castScalar(nested, nestedLoc, args[0], elementType, srcUnsigned));
      });
  return generic.getResult(0);
}

} // namespace tsir::conversion
