//===- ObjectOps.h - Recognizing the ops that make objects ------*- C++ -*-===//
//
// TorchScript's `prim::CreateObject` has no typed op: it imports as a
// prim.Generic node of that kind. The passes that fold objects away
// (tsir-forward-attribute-writes, the decomposition of grad-mode
// contexts) and the executor that keeps them alive (OpRoles, the
// interpreter) recognize it here, in one place, and read the chains of
// prim.GetAttr that name an object's attributes (`self.a.b`) the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_PRIM_OBJECTOPS_H
#define TSIR_DIALECT_PRIM_OBJECTOPS_H

#include "tsir/Dialect/Prim/PrimDialect.h"

#include <string>
#include <utility>

namespace tsir::prim {

/// Whether `op` is `prim::CreateObject`, which makes one object of its
/// result's class type.
inline bool isCreateObject(mlir::Operation *op) {
  auto generic = mlir::dyn_cast_or_null<GenericOp>(op);
  return generic && generic.getKind() == "prim::CreateObject" &&
         op->getNumResults() == 1;
}

/// The value a chain of prim.GetAttr starts from, and the names read along
/// it: `self.a.b`, read as GetAttr(GetAttr(%self, "a"), "b"), is
/// (%self, ".a.b"); a value no GetAttr made is (itself, "").
inline std::pair<mlir::Value, std::string> attributeChain(mlir::Value object) {
  std::string path;
  while (auto read = object.getDefiningOp<GetAttrOp>()) {
    path = "." + read.getName().str() + path;
    object = read.getObject();
  }
  return {object, path};
}

} // namespace tsir::prim

#endif // TSIR_DIALECT_PRIM_OBJECTOPS_H
