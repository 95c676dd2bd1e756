//===- NodeLocation.cpp - TorchScript names and comments as locations -----===//
//
// Encoding and decoding of the location scheme described in NodeLocation.h,
// the textual form of `#prim.node`, and errors at a node in the user's
// terms (formatError: the executor's diagnostics, the checks compiled code
// makes at run time).
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/NodeLocation.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir::prim;

static constexpr llvm::StringLiteral kSourceTag = "source";
static constexpr llvm::StringLiteral kScopePrefix = "scope: ";

Location tsir::makeNodeLocation(MLIRContext *context,
                                const NodeLocation &parts) {
  if (parts.resultNames.empty() && !parts.source && parts.scope.empty()) {
    if (parts.position)
      return parts.position;
    return UnknownLoc::get(context);
  }
  return NodeLocAttr::get(context, parts.position, parts.resultNames,
                          parts.source.file, parts.source.line,
                          parts.source.column, parts.scope);
}

Location tsir::makeBuiltinNodeLocation(MLIRContext *context,
                                       const NodeLocation &parts) {
  SmallVector<Location, 4> locs;
  for (StringRef name : parts.resultNames)
    locs.push_back(NameLoc::get(StringAttr::get(context, name)));
  if (parts.position)
    locs.push_back(parts.position);
  if (parts.source)
    locs.push_back(NameLoc::get(
        StringAttr::get(context, kSourceTag),
        FileLineColLoc::get(context, parts.source.file, parts.source.line,
                            parts.source.column)));
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

static void decodeNode(NodeLocAttr node, tsir::NodeLocation &parts) {
  if (!parts.position)
    parts.position = node.getPosition();
  if (parts.resultNames.empty())
    llvm::append_range(parts.resultNames, node.getNames());
  if (!parts.source && !node.getSourceFile().empty())
    parts.source = {node.getSourceFile(), node.getSourceLine(),
                    node.getSourceColumn()};
  if (parts.scope.empty())
    parts.scope = node.getScope();
}

/// One part of the builtin form (see NodeLocation.h), or a `#prim.node`
/// that a pass fused with another location.
static void decodeOne(Location loc, tsir::NodeLocation &parts) {
  if (auto node = dyn_cast<NodeLocAttr>(loc))
    return decodeNode(node, parts);
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
      parts.source = {fileLoc.getFilename().getValue(), fileLoc.getLine(),
                      fileLoc.getColumn()};
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

void tsir::replaceNodeLocationsWithBuiltin(Operation *root) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](NodeLocAttr node) -> Attribute {
    return makeBuiltinNodeLocation(node.getContext(), decodeNodeLocation(node));
  });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

Location tsir::withoutResultNames(Location loc) {
  NodeLocation parts = decodeNodeLocation(loc);
  parts.resultNames.clear();
  return makeNodeLocation(loc.getContext(), parts);
}

StringRef tsir::getArgumentName(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getName().getValue();
  return "";
}

//===----------------------------------------------------------------------===//
// #prim.node<"x.1", "y" at "graph.txt":12:3 source "model.py":7:8 scope "s">
//===----------------------------------------------------------------------===//

static void printFilePosition(AsmPrinter &printer, StringRef file,
                              unsigned line, unsigned column) {
  printer.printString(file);
  printer << ':' << line << ':' << column;
}

void NodeLocAttr::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(getNames(), printer,
                        [&](StringRef name) { printer.printString(name); });
  bool separate = !getNames().empty();
  auto keyword = [&](StringRef word) {
    if (separate)
      printer << ' ';
    printer << word << ' ';
    separate = true;
  };
  if (FileLineColLoc position = getPosition()) {
    keyword("at");
    printFilePosition(printer, position.getFilename().getValue(),
                      position.getLine(), position.getColumn());
  }
  if (!getSourceFile().empty()) {
    keyword("source");
    printFilePosition(printer, getSourceFile(), getSourceLine(),
                      getSourceColumn());
  }
  if (!getScope().empty()) {
    keyword("scope");
    printer.printString(getScope());
  }
  printer << '>';
}

static ParseResult parseFilePosition(AsmParser &parser, std::string &file,
                                     unsigned &line, unsigned &column) {
  return failure(parser.parseString(&file) || parser.parseColon() ||
                 parser.parseInteger(line) || parser.parseColon() ||
                 parser.parseInteger(column));
}

Attribute NodeLocAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  SmallVector<std::string> names;
  std::string name;
  if (succeeded(parser.parseOptionalString(&name))) {
    names.push_back(name);
    while (succeeded(parser.parseOptionalComma())) {
      if (parser.parseString(&name))
        return {};
      names.push_back(name);
    }
  }
  MLIRContext *context = parser.getContext();
  FileLineColLoc position;
  std::string sourceFile, scope;
  unsigned sourceLine = 0, sourceColumn = 0;
  if (succeeded(parser.parseOptionalKeyword("at"))) {
    std::string file;
    unsigned line, column;
    if (parseFilePosition(parser, file, line, column))
      return {};
    position = FileLineColLoc::get(context, file, line, column);
  }
  if (succeeded(parser.parseOptionalKeyword("source"))) {
    if (parseFilePosition(parser, sourceFile, sourceLine, sourceColumn))
      return {};
    if (sourceFile.empty()) {
      parser.emitError(parser.getCurrentLocation(),
                       "a source comment needs a file name");
      return {};
    }
  }
  if (succeeded(parser.parseOptionalKeyword("scope")) &&
      parser.parseString(&scope))
    return {};
  if (parser.parseGreater())
    return {};
  SmallVector<StringRef> nameRefs(names.begin(), names.end());
  return NodeLocAttr::get(context, position, nameRefs, sourceFile,
                          sourceLine, sourceColumn, scope);
}

std::string tsir::formatLocation(Location loc) {
  NodeLocation where = decodeNodeLocation(loc);
  FileLineColLoc position = where.position;
  if (!position) {
    // Any other location (an MLIR file's): the first file position in it.
    loc->walk([&](Location inner) {
      if (auto file = dyn_cast<FileLineColLoc>(inner)) {
        position = file;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  }
  if (!position)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << position.getFilename().getValue() << ":" << position.getLine() << ":"
     << position.getColumn();
  return text;
}

std::string tsir::formatError(Location loc, const std::string &message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string where = formatLocation(loc);
  // A node torch printed with its Python source (`# model.py:7:8`) is
  // reported at that line, the user's own terms; the graph's place
  // follows as a note.
  SourceComment source = decodeNodeLocation(loc).source;
  if (source)
    os << source.file << ":" << source.line << ":" << source.column << ": ";
  else if (!where.empty())
    os << where << ": ";
  os << "error: " << message;
  if (source && !where.empty())
    os << "\n" << where << ": note: the graph's node for this line";
  return text;
}
