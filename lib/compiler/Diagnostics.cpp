//===- Diagnostics.cpp - MLIR diagnostics as one error message ------------===//
//
// See Diagnostics.h.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

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

tsir::DiagnosticCollector::DiagnosticCollector(MLIRContext *context)
    : context(context) {
  handler = context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    llvm::raw_string_ostream os(text);
    std::string where = formatLocation(diag.getLocation());
    if (!where.empty())
      os << where << ": ";
    os << "error: " << diag << "\n";
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
