//===- RefineTypesLists.cpp - Rules for lists of tensors ------------------===//
//
// tsir-refine-types' rules for the ops that join tensors from a list or
// split one into a list (cat, stack, chunk, split, unbind, where), for list
// copies, and for the ListUnpack/__getitem__ that read such lists back.
// List types are never refined (lists are mutable and invariant); what is
// known of the elements of a list nothing writes is kept on the side, in
// the RuleContext's list facts. cat follows aten, including its legacy
// skipping of empty 1-d inputs.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

using Sizes = SmallVector<int64_t, 4>;

/// Two sizes of one dim that must be equal: the known one.
static int64_t agree(int64_t a, int64_t b) { return a == kUnknown ? b : a; }

/// The promoted dtype of list elements (cat/stack promote, as at::cat does).
static Type promotedElementDtype(const ListFacts &list) {
  if (!list.elements)
    return list.common.dtype;
  Type dtype;
  for (const TensorFacts &element : *list.elements) {
    if (!element.dtype)
      return {};
    dtype = dtype ? promoteDtypes(dtype, element.dtype) : element.dtype;
  }
  return dtype;
}

static void catRule(Operation *op, RuleContext &context,
                    MutableArrayRef<Type> results) {
  std::optional<ListFacts> list = context.listFacts(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  if (!list)
    return;
  TensorFacts result;
  result.dtype = promotedElementDtype(*list);
  if (!list->elements) {
    // Unknown count: every dim but the cat dim agrees across elements.
    result.device = list->common.device;
    if (list->common.hasRank() && list->common.rank() > 1 && dim) {
      result.sizes = list->common.sizes;
      if (std::optional<int64_t> d = wrapDim(*dim, result.rank()))
        (*result.sizes)[*d] = kUnknown;
      else
        result.sizes.reset();
    }
    return setResult(context, results, 0, result);
  }
  result.device = commonDevice(*list->elements);
  // Legacy behaviour: 1-d empty tensors are skipped, so in a cat of
  // higher-rank tensors any 1-d element is one of them.
  std::optional<int64_t> rank;
  bool allRanked = true;
  for (const TensorFacts &element : *list->elements) {
    if (!element.hasRank())
      allRanked = false;
    else if (element.rank() != 1)
      rank = element.rank();
  }
  if (!allRanked || !dim || list->elements->empty())
    return setResult(context, results, 0, result);
  if (!rank)
    rank = 1;
  std::optional<int64_t> d = wrapDim(*dim, *rank);
  if (!d)
    return setResult(context, results, 0, result);
  Sizes sizes(*rank, kUnknown);
  int64_t total = 0;
  bool counted = false;
  for (const TensorFacts &element : *list->elements) {
    if (element.rank() != *rank)
      continue; // a skipped empty 1-d tensor
    counted = true;
    for (int64_t i = 0; i < *rank; ++i)
      if (i != *d)
        sizes[i] = agree(sizes[i], (*element.sizes)[i]);
    int64_t size = (*element.sizes)[*d];
    total = (total == kUnknown || size == kUnknown) ? kUnknown : total + size;
  }
  if (counted)
    sizes[*d] = total;
  result.sizes = sizes;
  setResult(context, results, 0, result);
}

static void stackRule(Operation *op, RuleContext &context,
                      MutableArrayRef<Type> results) {
  std::optional<ListFacts> list = context.listFacts(op->getOperand(0));
  std::optional<int64_t> dim = context.getInt(op->getOperand(1));
  if (!list)
    return;
  TensorFacts result;
  result.dtype = promotedElementDtype(*list);
  result.device =
      list->elements ? commonDevice(*list->elements) : list->common.device;
  // Every element has the same sizes; the count is the new dim.
  std::optional<Sizes> shared;
  int64_t count = kUnknown;
  if (list->elements) {
    count = list->elements->size();
    for (const TensorFacts &element : *list->elements) {
      if (!element.hasRank())
        continue;
      if (!shared) {
        shared = element.sizes;
      } else if (shared->size() == element.sizes->size()) {
        for (auto [s, e] : llvm::zip(*shared, *element.sizes))
          s = agree(s, e);
      }
    }
  } else {
    shared = list->common.sizes;
  }
  if (shared && dim) {
    if (std::optional<int64_t> d = wrapDim(*dim, shared->size() + 1)) {
      shared->insert(shared->begin() + *d, count);
      result.sizes = shared;
    }
  }
  setResult(context, results, 0, result);
}

/// chunk, split, split_with_sizes, unbind: the pieces' facts, recorded on
/// the list for ListUnpack and __getitem__ to read.
static void splitRule(Operation *op, RuleContext &context,
                      MutableArrayRef<Type> results) {
  Value list = op->getResult(0);
  TensorFacts self = context.tensor(op->getOperand(0));
  StringRef name = op->getName().getStringRef();
  bool unbind = name == "aten.unbind.int";
  std::optional<int64_t> dim = context.getInt(op->getOperand(unbind ? 1 : 2));
  std::optional<int64_t> d;
  if (self.hasRank() && self.rank() > 0 && dim)
    d = wrapDim(*dim, self.rank());
  // What every piece shares: the other dims.
  TensorFacts common = self;
  if (!d) {
    common.sizes.reset();
  } else if (unbind) {
    common.sizes->erase(common.sizes->begin() + *d);
  } else {
    (*common.sizes)[*d] = kUnknown;
  }
  int64_t size = d ? (*self.sizes)[*d] : kUnknown;

  SmallVector<int64_t> pieces; // the size of each piece along the dim
  bool known = false;
  if (unbind && size != kUnknown) {
    known = true;
  } else if (name == "aten.split.sizes" || name == "aten.split_with_sizes") {
    if (auto entries = context.getIntList(op->getOperand(1))) {
      known = llvm::all_of(*entries, [](auto e) { return e && *e >= 0; });
      for (std::optional<int64_t> entry : *entries)
        pieces.push_back(entry ? *entry : kUnknown);
    }
  } else if (size != kUnknown) {
    std::optional<int64_t> n = context.getInt(op->getOperand(1));
    int64_t splitSize = kUnknown;
    if (name == "aten.chunk" && n && *n > 0) {
      splitSize = (size + *n - 1) / *n;
      if (splitSize == 0 && size == 0) { // n empty chunks
        pieces.assign(*n, 0);
        known = true;
      }
    } else if (name == "aten.split.Tensor" && n && *n >= 0) {
      splitSize = *n;
    }
    if (!known && splitSize > 0) {
      int64_t count = std::max<int64_t>((size + splitSize - 1) / splitSize, 1);
      for (int64_t i = 0; i < count; ++i)
        pieces.push_back(std::min(splitSize, size - i * splitSize));
      known = true;
    } else if (!known && splitSize == 0 && name == "aten.split.Tensor" &&
               size == 0) {
      pieces.push_back(0);
      known = true;
    }
  }

  if (!known || !d) {
    context.setListFacts(list, ListFacts::ofUnknownLength(common));
    return;
  }
  SmallVector<TensorFacts> elements;
  if (unbind) {
    elements.assign(size, common);
  } else {
    for (int64_t piece : pieces) {
      TensorFacts element = common;
      (*element.sizes)[*d] = piece;
      elements.push_back(element);
    }
  }
  context.setListFacts(list, ListFacts::ofElements(elements));
}

/// where(condition): one Long index tensor per dim of the condition.
static void whereIndicesRule(Operation *op, RuleContext &context,
                             MutableArrayRef<Type> results) {
  TensorFacts condition = context.tensor(op->getOperand(0));
  TensorFacts element;
  element.dtype = longDtype(context.getContext());
  element.device = condition.device;
  element.sizes = Sizes{kUnknown};
  if (condition.hasRank())
    context.setListFacts(op->getResult(0),
                         ListFacts::ofElements(SmallVector<TensorFacts>(
                             std::max<int64_t>(condition.rank(), 1), element)));
  else
    context.setListFacts(op->getResult(0), ListFacts::ofUnknownLength(element));
}

/// list(xs)/xs.copy() hold what xs holds; xs + ys both, in order.
static void listCopyRule(Operation *op, RuleContext &context,
                         MutableArrayRef<Type> results) {
  std::optional<ListFacts> first = context.listFacts(op->getOperand(0));
  if (!first)
    return;
  if (op->getNumOperands() == 1)
    return context.setListFacts(op->getResult(0), *first);
  std::optional<ListFacts> second = context.listFacts(op->getOperand(1));
  if (!second)
    return;
  if (first->elements && second->elements) {
    SmallVector<TensorFacts> elements(*first->elements);
    elements.append(second->elements->begin(), second->elements->end());
    return context.setListFacts(op->getResult(0),
                                ListFacts::ofElements(elements));
  }
  context.setListFacts(op->getResult(0), ListFacts::ofUnknownLength(joinFacts(
                                             first->common, second->common)));
}

static void listUnpackRule(Operation *op, RuleContext &context,
                           MutableArrayRef<Type> results) {
  std::optional<ListFacts> list = context.listFacts(op->getOperand(0));
  if (!list)
    return;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    if (!isa<prim::TensorType>(op->getResult(i).getType()))
      continue;
    if (list->elements && list->elements->size() == e)
      setResult(context, results, i, (*list->elements)[i]);
    else if (!list->elements)
      setResult(context, results, i, list->common);
  }
}

static void listGetItemRule(Operation *op, RuleContext &context,
                            MutableArrayRef<Type> results) {
  if (!isa<prim::TensorType>(op->getResult(0).getType()))
    return;
  std::optional<ListFacts> list = context.listFacts(op->getOperand(0));
  if (!list)
    return;
  std::optional<int64_t> index = context.getInt(op->getOperand(1));
  if (list->elements && index) {
    int64_t count = list->elements->size();
    int64_t at = *index < 0 ? *index + count : *index;
    if (at >= 0 && at < count)
      return setResult(context, results, 0, (*list->elements)[at]);
    return;
  }
  setResult(context, results, 0, list->common);
}

void refine::addListRules(llvm::StringMap<ShapeRule> &rules) {
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[name] = rule;
  };
  add({"aten.cat"}, catRule);
  add({"aten.stack"}, stackRule);
  add({"aten.chunk", "aten.split.Tensor", "aten.split.sizes",
       "aten.split_with_sizes", "aten.unbind.int"},
      splitRule);
  add({"aten.where"}, whereIndicesRule);
  add({"aten.list.t", "aten.copy.t", "aten.add.t"}, listCopyRule);
  add({"prim.ListUnpack"}, listUnpackRule);
  add({"aten.__getitem__.t"}, listGetItemRule);
}
