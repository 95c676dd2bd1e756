//===- Diagnostics.cpp - MLIR diagnostics as one error message ------------===//
//
// See Diagnostics.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/Compiler/Diagnostics.h"

#include "tsir/Dialect/Prim/NodeLocation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

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

/// MLIR's conversion failure, `failed to legalize operation 'aten.conv2d'
/// that was explicitly marked illegal`, in the terms of the graph: which
/// torch op tsir cannot compile. (Shape and dtype mistakes are reported
/// before lowering, by tsir-refine-types, in torch's words.)
static std::string inUserTerms(const std::string &message) {
  StringRef text = message;
  if (!text.consume_front("failed to legalize operation '"))
    return message;
  StringRef opName = text.split('\'').first;
  auto [dialect, name] = opName.split('.');
  std::string torchName = (dialect + "::" + name).str();
  return "tsir cannot compile " + torchName +
         " with these operand types (no lowering matches them): " +
         "run the graph with --print-ir-after-all to see the types it was " +
         "given, or report it";
}

tsir::DiagnosticCollector::DiagnosticCollector(MLIRContext *context)
    : context(context) {
  handler = context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    llvm::raw_string_ostream os(text);
    os << formatError(diag.getLocation(), inUserTerms(diag.str())) << "\n";
    for (Diagnostic &note : diag.getNotes()) {
      // "see current operation" notes dump whole functions; skip them.
      std::string message = note.str();
      if (llvm::StringRef(message).starts_with("see current operation"))
        continue;
      std::string noteWhere = formatLocation(note.getLocation());
      if (!noteWhere.empty())
        os << noteWhere << ": ";
      os << "note: " << message << "\n";
    }
    return success();
  });
}

tsir::DiagnosticCollector::~DiagnosticCollector() {
  context->getDiagEngine().eraseHandler(handler);
}

std::string tsir::DiagnosticCollector::take(const std::string &fallback) {
  std::string result = text.empty() ? fallback : text;
  while (!result.empty() && result.back() == '\n')
    result.pop_back();
  text.clear();
  return result;
}
