//===- NodeLocation.cpp - TorchScript names and comments as locations -----===//
//
// Encoding and decoding of the location scheme described in NodeLocation.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/NodeLocation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;

static constexpr llvm::StringLiteral kSourceTag = "source";
static constexpr llvm::StringLiteral kScopePrefix = "scope: ";

Location tsir::makeNodeLocation(MLIRContext *context,
                                const NodeLocation &parts) {
  SmallVector<Location, 4> locs;
  for (StringRef name : parts.resultNames)
    locs.push_back(NameLoc::get(StringAttr::get(context, name)));
  if (parts.position)
    locs.push_back(parts.position);
  if (parts.source)
    locs.push_back(
        NameLoc::get(StringAttr::get(context, kSourceTag), parts.source));
  if (!parts.scope.empty())
    locs.push_back(NameLoc::get(
        StringAttr::get(context, (kScopePrefix + parts.scope).str())));
  if (locs.empty())
    return UnknownLoc::get(context);
  if (locs.size() == 1)
    return locs.front();
  // Built directly: FusedLoc::get would drop a name equal to another.
  return FusedLoc::get(context, locs, Attribute());
}

static void decodeOne(Location loc, tsir::NodeLocation &parts) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    if (!parts.position)
      parts.position = fileLoc;
    return;
  }
  auto nameLoc = dyn_cast<NameLoc>(loc);
  if (!nameLoc)
    return;
  StringRef name = nameLoc.getName().getValue();
  if (name == kSourceTag) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nameLoc.getChildLoc())) {
      parts.source = fileLoc;
      return;
    }
  }
  if (name.starts_with(kScopePrefix)) {
    parts.scope = name.drop_front(kScopePrefix.size());
    return;
  }
  if (isa<UnknownLoc>(nameLoc.getChildLoc()))
    parts.resultNames.push_back(name);
}

tsir::NodeLocation tsir::decodeNodeLocation(Location loc) {
  tsir::NodeLocation parts;
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      decodeOne(part, parts);
    return parts;
  }
  decodeOne(loc, parts);
  return parts;
}

StringRef tsir::getArgumentName(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getName().getValue();
  return "";
}
