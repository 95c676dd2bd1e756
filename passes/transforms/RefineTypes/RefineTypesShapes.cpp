//===- RefineTypesShapes.cpp - View, indexing and list rules --------------===//
//
// tsir-refine-types' rules for the ops that move dims around without
// changing the dtype (view/reshape with -1, flatten, squeeze, permute,
// expand, slice/select/narrow, gather, repeat, advanced indexing). The sizes
// follow aten's own shape functions, including their edge cases (0-d tensors
// wrap dims as if 1-d, slices clamp their bounds).
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "llvm/ADT/STLExtras.h"

#include <limits>

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

using Sizes = SmallVector<int64_t, 4>;

/// The product of sizes: 0 if any is 0, unknown if any other is unknown.
static int64_t productOf(ArrayRef<int64_t> sizes) {
  if (llvm::is_contained(sizes, 0))
    return 0;
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (size == kUnknown)
      return kUnknown;
    product *= size;
  }
  return product;
}

/// `self`'s facts with other sizes.
static void setSized(RuleContext &context, MutableArrayRef<Type> results,
                     unsigned index, const TensorFacts &self,
                     std::optional<Sizes> sizes) {
  setResult(context, results, index, withSizes(self, std::move(sizes)));
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Resolves a view/reshape size list against `numel` elements: a single -1
/// is inferred when every other entry and the element count are known.
static std::optional<Sizes>
inferViewSizes(ArrayRef<std::optional<int64_t>> entries,
               std::optional<int64_t> numel) {
  Sizes sizes;
  std::optional<size_t> inferred;
  for (auto [index, entry] : llvm::enumerate(entries)) {
    if (entry && *entry == -1) {
      if (inferred)
        return std::nullopt; // two -1s: an error at run time
      inferred = index;
      sizes.push_back(kUnknown);
      continue;
    }
    if (entry && *entry < 0)
      return std::nullopt;
    sizes.push_back(entry ? *entry : kUnknown);
  }
  if (inferred && numel) {
    Sizes others(sizes);
    others.erase(others.begin() + *inferred);
    int64_t known = productOf(others);
    if (known != kUnknown && known != 0 && *numel % known == 0)
      sizes[*inferred] = *numel / known;
  }
  return sizes;
}

static void viewRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  auto entries = context.getIntList(op->getOperand(1));
  setSized(context, results, 0, self,
           entries ? inferViewSizes(*entries, self.numel()) : std::nullopt);
}

/// view_as/reshape_as/expand_as: `other`'s sizes.
static void asOtherRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  setSized(context, results, 0, context.tensor(op->getOperand(0)),
           context.tensor(op->getOperand(1)).sizes);
}

static void flattenRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> start = context.getInt(op->getOperand(1));
  std::optional<int64_t> end = context.getInt(op->getOperand(2));
  std::optional<Sizes> sizes;
  if (self.hasRank() && self.rank() == 0) {
    sizes = Sizes{1};
  } else if (self.hasRank() && start && end) {
    std::optional<int64_t> s = wrapDim(*start, self.rank());
    std::optional<int64_t> e = wrapDim(*end, self.rank());
    if (s && e && *s <= *e) {
      ArrayRef<int64_t> all = *self.sizes;
      sizes.emplace(all.take_front(*s));
      sizes->push_back(productOf(all.slice(*s, *e - *s + 1)));
      sizes->append(all.begin() + *e + 1, all.end());
    }
  }
  setSized(context, results, 0, self, sizes);
}

static void unflattenRule(Operation *op, RuleContext &context,
                          MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  auto entries = context.getIntList(op->getOperand(2));
  std::optional<Sizes> sizes;
  if (self.hasRank() && self.rank() > 0 && dim && entries) {
    if (std::optional<int64_t> d = wrapDim(*dim, self.rank())) {
      int64_t size = (*self.sizes)[*d];
      std::optional<int64_t> numel;
      if (size != kUnknown)
        numel = size;
      if (std::optional<Sizes> inner = inferViewSizes(*entries, numel)) {
        sizes.emplace(self.sizes->begin(), self.sizes->begin() + *d);
        sizes->append(inner->begin(), inner->end());
        sizes->append(self.sizes->begin() + *d + 1, self.sizes->end());
      }
    }
  }
  setSized(context, results, 0, self, sizes);
}

static void permuteRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  auto dims = context.getIntList(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (dims) // the result has one dim per entry
    sizes = Sizes(dims->size(), kUnknown);
  if (dims && self.hasRank() && self.rank() == (int64_t)dims->size()) {
    for (auto [index, dim] : llvm::enumerate(*dims)) {
      std::optional<int64_t> d =
          dim ? wrapDim(*dim, self.rank()) : std::nullopt;
      if (d)
        (*sizes)[index] = (*self.sizes)[*d];
    }
  }
  setSized(context, results, 0, self, sizes);
}

/// transpose (swapaxes, swapdims), t and movedim: the input's dims
/// reordered.
static void transposeRule(Operation *op, RuleContext &context,
                          MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  StringRef name = op->getName().getStringRef();
  std::optional<Sizes> sizes = self.sizes;
  if (sizes && self.rank() > 1) {
    if (name == "aten.t") {
      std::swap((*sizes)[0], (*sizes)[1]);
    } else {
      std::optional<int64_t> a = context.getInt(op->getOperand(1));
      std::optional<int64_t> b = context.getInt(op->getOperand(2));
      a = a ? wrapDim(*a, self.rank()) : std::nullopt;
      b = b ? wrapDim(*b, self.rank()) : std::nullopt;
      if (!a || !b) {
        sizes = Sizes(self.rank(), kUnknown);
      } else if (name == "aten.movedim.int") {
        int64_t moved = (*sizes)[*a];
        sizes->erase(sizes->begin() + *a);
        sizes->insert(sizes->begin() + *b, moved);
      } else {
        std::swap((*sizes)[*a], (*sizes)[*b]);
      }
    }
  }
  setSized(context, results, 0, self, sizes);
}

static void unsqueezeRule(Operation *op, RuleContext &context,
                          MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (self.hasRank()) {
    std::optional<int64_t> d =
        dim ? wrapDim(*dim, self.rank() + 1) : std::nullopt;
    if (d) {
      sizes = self.sizes;
      sizes->insert(sizes->begin() + *d, 1);
    } else {
      sizes = Sizes(self.rank() + 1, kUnknown);
    }
  }
  setSized(context, results, 0, self, sizes);
}

static void squeezeRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<Sizes> sizes;
  if (self.hasRank()) {
    if (op->getNumOperands() == 1) { // every size-1 dim
      if (!llvm::is_contained(*self.sizes, kUnknown)) {
        sizes.emplace();
        for (int64_t size : *self.sizes)
          if (size != 1)
            sizes->push_back(size);
      }
    } else if (self.rank() == 0) {
      sizes = self.sizes;
    } else if (std::optional<int64_t> dim = context.getInt(op->getOperand(1))) {
      std::optional<int64_t> d = wrapDim(*dim, self.rank());
      if (d && (*self.sizes)[*d] != kUnknown) {
        sizes = self.sizes;
        if ((*sizes)[*d] == 1)
          sizes->erase(sizes->begin() + *d);
      }
    }
  }
  setSized(context, results, 0, self, sizes);
}

static void expandRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  auto entries = context.getIntList(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (entries) {
    int64_t rank = entries->size();
    sizes = Sizes(rank, kUnknown);
    if (self.hasRank() && self.rank() > rank)
      return setSized(context, results, 0, self, std::nullopt);
    for (int64_t i = 0; i < rank; ++i) {
      std::optional<int64_t> entry = (*entries)[i];
      int64_t at = self.hasRank() ? i - (rank - self.rank()) : -1;
      if (entry && *entry >= 0)
        (*sizes)[i] = *entry;
      else if (entry && *entry == -1 && at >= 0)
        (*sizes)[i] = (*self.sizes)[at]; // -1 keeps the input's size
    }
  }
  setSized(context, results, 0, self, sizes);
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

/// The length of `x[start:end:step]` along a dim of `size` elements, as
/// aten's slice clamps it.
static int64_t sliceLength(int64_t size, int64_t start, int64_t end,
                           int64_t step) {
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  return (end - start + step - 1) / step;
}

static void sliceRule(Operation *op, RuleContext &context,
                      MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  auto bound = [&](unsigned index, int64_t none) -> std::optional<int64_t> {
    Value value = op->getOperand(index);
    return context.isNone(value) ? std::optional<int64_t>(none)
                                 : context.getInt(value);
  };
  std::optional<int64_t> start = bound(2, 0);
  std::optional<int64_t> end = bound(3, std::numeric_limits<int64_t>::max());
  std::optional<int64_t> step = context.getInt(op->getOperand(4));
  std::optional<Sizes> sizes;
  if (self.hasRank() && self.rank() > 0) {
    sizes = self.sizes;
    std::optional<int64_t> d = dim ? wrapDim(*dim, self.rank()) : std::nullopt;
    if (!d)
      return setSized(context, results, 0, self, Sizes(self.rank(), kUnknown));
    int64_t &size = (*sizes)[*d];
    bool full =
        start == 0 && end == std::numeric_limits<int64_t>::max() && step == 1;
    if (size != kUnknown && start && end && step && *step > 0)
      size = sliceLength(size, *start, *end, *step);
    else if (!full) // only the full slice keeps an unknown size
      size = kUnknown;
  }
  setSized(context, results, 0, self, sizes);
}

/// select drops the dim; narrow sets it to `length`.
static void selectRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  bool narrow = op->getName().getStringRef() == "aten.narrow";
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (self.hasRank() && self.rank() > 0) {
    std::optional<int64_t> d = dim ? wrapDim(*dim, self.rank()) : std::nullopt;
    sizes = self.sizes;
    if (!d) {
      sizes = Sizes(self.rank() - (narrow ? 0 : 1), kUnknown);
    } else if (narrow) {
      std::optional<int64_t> length = context.getInt(op->getOperand(3));
      (*sizes)[*d] = length && *length >= 0 ? *length : kUnknown;
    } else {
      sizes->erase(sizes->begin() + *d);
    }
  }
  setSized(context, results, 0, self, sizes);
}

static void indexSelectRule(Operation *op, RuleContext &context,
                            MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts index = context.tensor(op->getOperand(2));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (self.hasRank()) {
    sizes = self.sizes;
    std::optional<int64_t> d = dim ? wrapDim(*dim, self.rank()) : std::nullopt;
    if (self.rank() > 0 && d) {
      std::optional<int64_t> count = index.numel();
      (*sizes)[*d] = count ? *count : kUnknown;
    } else if (self.rank() > 0) {
      sizes = Sizes(self.rank(), kUnknown);
    }
  }
  setSized(context, results, 0, self, sizes);
}

/// index.Tensor(self, indices): advanced indexing with a list of optional
/// index tensors, one per leading dim of self (None keeps the dim whole).
/// The index tensors broadcast to a shape B; B replaces the indexed dims
/// where they are adjacent and goes first where a kept dim separates them.
/// Boolean and uint8 masks select a data-dependent number of elements:
/// their result keeps only self's dtype.
static void indexTensorRule(Operation *op, RuleContext &context,
                            MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  Value list = op->getOperand(1);
  auto construct = list.getDefiningOp<prim::ListConstructOp>();
  auto unsized = [&] { setSized(context, results, 0, self, std::nullopt); };
  if (!construct || context.getAliases().hasWriters(list) || !self.hasRank())
    return unsized();
  ValueRange elements = construct.getElements();
  if ((int64_t)elements.size() > self.rank())
    return unsized(); // an error at run time
  SmallVector<int64_t> indexed;
  SmallVector<TensorFacts> indices;
  for (auto [dim, element] : llvm::enumerate(elements)) {
    if (context.isNone(element))
      continue;
    if (!isa<prim::TensorType>(element.getType()))
      return unsized(); // an optional that may or may not be None
    TensorFacts index = context.tensor(element);
    // Only signed integer indices have a shape that is a fact.
    if (!index.dtype || !isIntegralDtype(index.dtype) ||
        index.dtype.isUnsignedInteger())
      return unsized();
    indexed.push_back(dim);
    indices.push_back(index);
  }
  if (indexed.empty())
    return unsized();
  std::optional<Sizes> broadcast = broadcastSizes(indices);
  if (!broadcast)
    return unsized();
  bool adjacent = indexed.back() - indexed.front() + 1 ==
                  static_cast<int64_t>(indexed.size());
  int64_t start = adjacent ? indexed.front() : 0;
  Sizes sizes;
  for (int64_t dim = 0; dim < self.rank(); ++dim) {
    if (dim == start)
      sizes.append(broadcast->begin(), broadcast->end());
    if (!llvm::is_contained(indexed, dim))
      sizes.push_back((*self.sizes)[dim]);
  }
  setSized(context, results, 0, self, sizes);
}

/// gather: the index's sizes, self's dtype.
static void gatherRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  setSized(context, results, 0, context.tensor(op->getOperand(0)),
           context.tensor(op->getOperand(2)).sizes);
}

/// embedding(weight, indices): one row of weight per index.
static void embeddingRule(Operation *op, RuleContext &context,
                          MutableArrayRef<Type> results) {
  TensorFacts weight = context.tensor(op->getOperand(0));
  TensorFacts indices = context.tensor(op->getOperand(1));
  std::optional<Sizes> sizes;
  if (indices.hasRank() && weight.hasRank() && weight.rank() == 2) {
    sizes = indices.sizes;
    sizes->push_back((*weight.sizes)[1]);
  }
  TensorFacts result = withSizes(weight, sizes);
  result.device = commonDevice({weight, indices});
  setResult(context, results, 0, result);
}

/// repeat and tile: sizes multiplied, the shorter side padded with 1s.
static void repeatRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  auto repeats = context.getIntList(op->getOperand(1));
  bool tile = op->getName().getStringRef() == "aten.tile";
  std::optional<Sizes> sizes;
  if (repeats && self.hasRank()) {
    int64_t rank = std::max<int64_t>(self.rank(), repeats->size());
    if (!tile && (int64_t)repeats->size() < self.rank())
      return setSized(context, results, 0, self, std::nullopt);
    sizes = Sizes(rank, kUnknown);
    for (int64_t i = 0; i < rank; ++i) {
      int64_t at = i - (rank - self.rank());
      int64_t ri = i - (rank - (int64_t)repeats->size());
      int64_t size = at >= 0 ? (*self.sizes)[at] : 1;
      std::optional<int64_t> times =
          ri >= 0 ? (*repeats)[ri] : std::optional<int64_t>(1);
      if (times && *times == 0)
        (*sizes)[i] = 0;
      else if (times && size != kUnknown)
        (*sizes)[i] = size * *times;
    }
  }
  setSized(context, results, 0, self, sizes);
}

/// nonzero: one row of indices per nonzero element.
static void nonzeroRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result;
  result.dtype = longDtype(context.getContext());
  result.device = self.device;
  if (self.hasRank())
    result.sizes = Sizes{kUnknown, self.rank()};
  setResult(context, results, 0, result);
}

static void oneHotRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<int64_t> classes = context.getInt(op->getOperand(1));
  TensorFacts result = self;
  result.dtype = longDtype(context.getContext());
  if (result.sizes)
    result.sizes->push_back(classes && *classes >= 0 ? *classes : kUnknown);
  setResult(context, results, 0, result);
}

/// The length of diagonal `offset` of an n1 x n2 plane.
static int64_t diagonalLength(int64_t n1, int64_t n2, int64_t offset) {
  if (n1 == kUnknown || n2 == kUnknown)
    return kUnknown;
  return std::max<int64_t>(
      0, offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2));
}

/// diagonal(self, offset, dim1, dim2): dims dim1 and dim2 dropped, the
/// diagonal's length appended.
static std::optional<Sizes> diagonalSizes(const Sizes &in,
                                          std::optional<int64_t> offset,
                                          std::optional<int64_t> dim1,
                                          std::optional<int64_t> dim2) {
  int64_t rank = in.size();
  dim1 = dim1 ? wrapDim(*dim1, rank) : std::nullopt;
  dim2 = dim2 ? wrapDim(*dim2, rank) : std::nullopt;
  if (!dim1 || !dim2 || *dim1 == *dim2)
    return Sizes(std::max<int64_t>(rank - 1, 0), kUnknown);
  Sizes sizes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *dim1 && d != *dim2)
      sizes.push_back(in[d]);
  sizes.push_back(offset ? diagonalLength(in[*dim1], in[*dim2], *offset)
                         : kUnknown);
  return sizes;
}

/// diag_embed(self, offset, dim1, dim2): a plane of the last dim's length
/// plus |offset| inserted at dim1 and dim2 of the result.
static std::optional<Sizes> diagEmbedSizes(const Sizes &in,
                                           std::optional<int64_t> offset,
                                           std::optional<int64_t> dim1,
                                           std::optional<int64_t> dim2) {
  int64_t rank = in.size() + 1;
  dim1 = dim1 ? wrapDim(*dim1, rank) : std::nullopt;
  dim2 = dim2 ? wrapDim(*dim2, rank) : std::nullopt;
  if (in.empty() || !dim1 || !dim2 || *dim1 == *dim2 || !offset)
    return Sizes(rank, kUnknown);
  int64_t last = in.back();
  int64_t side = last == kUnknown ? kUnknown : last + std::abs(*offset);
  Sizes sizes;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(d == *dim1 || d == *dim2 ? side : in[next++]);
  return sizes;
}

static void diagonalRule(Operation *op, RuleContext &context,
                         MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  std::optional<Sizes> sizes;
  StringRef name = op->getName().getStringRef();
  std::optional<int64_t> offset = context.getInt(op->getOperand(1));
  if (name == "aten.diag") {
    // A vector goes on a diagonal, a matrix gives one.
    if (self.hasRank() && self.rank() == 1)
      sizes = diagEmbedSizes(*self.sizes, offset, 0, 1);
    else if (self.hasRank() && self.rank() == 2)
      sizes = diagonalSizes(*self.sizes, offset, 0, 1);
  } else if (self.hasRank()) {
    std::optional<int64_t> dim1 = context.getInt(op->getOperand(2));
    std::optional<int64_t> dim2 = context.getInt(op->getOperand(3));
    sizes = name == "aten.diagonal"
                ? diagonalSizes(*self.sizes, offset, dim1, dim2)
                : diagEmbedSizes(*self.sizes, offset, dim1, dim2);
  }
  setSized(context, results, 0, self, sizes);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void refine::addShapeRules(llvm::StringMap<ShapeRule> &rules) {
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[name] = rule;
  };
  add({"aten.view", "aten.reshape"}, viewRule);
  add({"aten.view_as", "aten.reshape_as", "aten.expand_as"}, asOtherRule);
  add({"aten.flatten.using_ints"}, flattenRule);
  add({"aten.unflatten.int"}, unflattenRule);
  add({"aten.permute"}, permuteRule);
  add({"aten.transpose.int", "aten.swapaxes", "aten.swapdims", "aten.t",
       "aten.movedim.int"},
      transposeRule);
  add({"aten.unsqueeze"}, unsqueezeRule);
  add({"aten.squeeze", "aten.squeeze.dim"}, squeezeRule);
  add({"aten.expand"}, expandRule);
  add({"aten.slice.Tensor"}, sliceRule);
  add({"aten.select.int", "aten.narrow"}, selectRule);
  add({"aten.index_select"}, indexSelectRule);
  add({"aten.gather"}, gatherRule);
  add({"aten.index.Tensor", "aten.index.Tensor_hacked_twin"}, indexTensorRule);
  add({"aten.scatter.src", "aten.scatter.value", "aten.scatter_add",
       "aten.index_put", "aten.index_put.hacked_twin"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        setResult(context, results, 0, context.tensor(op->getOperand(0)));
      });
  add({"aten.embedding"}, embeddingRule);
  add({"aten.repeat", "aten.tile"}, repeatRule);
  add({"aten.nonzero"}, nonzeroRule);
  add({"aten.one_hot"}, oneHotRule);
  add({"aten.diagonal", "aten.diag", "aten.diag_embed"}, diagonalRule);
}
