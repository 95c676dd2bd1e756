//===- ForwardAttributeWrites.cpp - tsir-forward-attribute-writes --------===//
//
// A module whose forward stores a value in an attribute and reads it back
// in the same call (RAFT's `self.corr_block.corr_pyramid = [corr]`, then
// `self.corr_pyramid.append(...)` as the block builds its pyramid) keeps
// that attribute through freezing: torch cannot fold what forward writes.
// Its graph holds `prim::SetAttr` and `prim::GetAttr` on module objects,
// which nothing in tsir runs. Within one call the read is the value
// written, so each read of an attribute path that one write in the graph's
// body makes before it becomes that value (the same object: a list read
// back and appended to is the list written), and the write goes once
// nothing reads it. The module object itself is not tsir's to keep (a
// frozen graph's `self` is None at run time), so the attribute's value
// after the call is not kept either. A read before the write (state from
// an earlier call), a path written twice or in a branch, stays, and is
// reported as unsupported where the graph runs.
//
// An object the graph creates (`prim::CreateObject`: torchvision's
// detection models build an `ImageList` and set its `tensors` and
// `image_sizes`) is such a root too, with no state before its writes; once
// every path on it is forwarded, the object goes as well.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/ObjectOps.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

#include <map>

namespace tsir {
#define GEN_PASS_DEF_TSIRFORWARDATTRIBUTEWRITESPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// An attribute of an object reached from one of the graph's arguments by
/// a chain of attribute reads: (`%self`, ".corr_block.corr_pyramid"), the
/// argument as its opaque pointer so that paths order in a std::map.
using AttributePath = std::pair<const void *, std::string>;

/// Whether `value` is an object the graph creates.
bool isCreatedObject(Value value) {
  return prim::isCreateObject(value.getDefiningOp());
}

/// The path of `object`: an argument of the graph or an object it creates,
/// or an attribute read from an object with a path; nullopt for anything
/// else.
std::optional<AttributePath> pathOf(Value object, func::FuncOp func) {
  auto [root, path] = prim::attributeChain(object);
  auto argument = dyn_cast<BlockArgument>(root);
  if (!isCreatedObject(root) &&
      !(argument && argument.getOwner() == &func.getBody().front()))
    return std::nullopt;
  return AttributePath{root.getAsOpaquePointer(), path};
}

/// The path `op` (a GetAttr or SetAttr) reads or writes.
template <typename OpTy>
std::optional<AttributePath> attributePath(OpTy op, func::FuncOp func) {
  std::optional<AttributePath> object = pathOf(op.getObject(), func);
  if (object)
    object->second += "." + op.getName().str();
  return object;
}

/// Whether `path` lies under `prefix` (or is it).
bool isUnder(const AttributePath &path, const AttributePath &prefix) {
  return path.first == prefix.first &&
         (path.second == prefix.second ||
          StringRef(path.second).starts_with(prefix.second + "."));
}

struct TsirForwardAttributeWritesPass
    : tsir::impl::TsirForwardAttributeWritesPassBase<
          TsirForwardAttributeWritesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.getBody().empty())
      return;
    Block &body = func.getBody().front();

    // Every write, by path; a path is forwarded only if exactly one write,
    // in the graph's body, makes it, and nothing writes an object on it.
    llvm::MapVector<AttributePath, SmallVector<prim::SetAttrOp>,
                    std::map<AttributePath, unsigned>>
        writes;
    bool writesElsewhere = false; // an object the paths do not name
    func.walk([&](prim::SetAttrOp write) {
      if (std::optional<AttributePath> path = attributePath(write, func))
        writes[*path].push_back(write);
      else
        writesElsewhere = true;
    });
    if (writes.empty() || writesElsewhere)
      return;

    SmallVector<prim::GetAttrOp> reads;
    func.walk([&](prim::GetAttrOp read) { reads.push_back(read); });

    for (auto &entry : writes) {
      const AttributePath &path = entry.first;
      ArrayRef<prim::SetAttrOp> pathWrites = entry.second;
      if (pathWrites.size() != 1 || pathWrites.front()->getBlock() != &body)
        continue;
      bool objectRewritten = llvm::any_of(writes, [&](const auto &other) {
        return other.first != path && isUnder(path, other.first);
      });
      if (objectRewritten)
        continue;
      prim::SetAttrOp write = pathWrites.front();
      Value value = write.getValue();
      // Every read of the path must come after the write and take its
      // type; otherwise the path is left as it is.
      SmallVector<prim::GetAttrOp> pathReads;
      bool forwardable = true;
      for (prim::GetAttrOp read : reads) {
        std::optional<AttributePath> readPath = attributePath(read, func);
        if (!readPath || *readPath != path)
          continue;
        Operation *ancestor = body.findAncestorOpInBlock(*read);
        forwardable &= ancestor && write->isBeforeInBlock(ancestor) &&
                       read.getType() == value.getType();
        pathReads.push_back(read);
      }
      if (!forwardable)
        continue;
      for (prim::GetAttrOp read : pathReads) {
        read.getResult().replaceAllUsesWith(value);
        read->erase();
        llvm::erase(reads, read);
      }
      write->erase();
    }

    // The object reads that led only to those attributes go too, and so do
    // created objects nothing uses any more.
    SmallVector<Operation *> created;
    func.walk([&](prim::GenericOp op) {
      if (op->getNumResults() == 1 && isCreatedObject(op->getResult(0)))
        created.push_back(op);
    });
    bool erased = true;
    while (erased) {
      erased = false;
      SmallVector<prim::GetAttrOp> used;
      for (prim::GetAttrOp read : reads) {
        if (!read->use_empty()) {
          used.push_back(read);
          continue;
        }
        read->erase();
        erased = true;
      }
      reads = std::move(used);
    }
    for (Operation *object : created)
      if (object->use_empty())
        object->erase();
  }
};

} // namespace
