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

/// The op named in MLIR's conversion failure, `failed to legalize
/// operation 'aten.conv2d' that was explicitly marked illegal`; "" for any
/// other message.
static StringRef unlegalizedOpName(StringRef message) {
  if (!message.consume_front("failed to legalize operation '"))
    return "";
  return message.split('\'').first;
}

/// MLIR's conversion failure in the terms of the graph: which torch op
/// tsir cannot compile. (Shape and dtype mistakes are reported before
/// lowering, by tsir-refine-types, in torch's words.)
static std::string inUserTerms(const std::string &message) {
  StringRef opName = unlegalizedOpName(message);
  if (opName.empty())
    return message;
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
    std::string message = diag.str();
    StringRef opName = unlegalizedOpName(message);
    if (!opName.empty())
      unloweredOps.push_back({diag.getLocation(), opName.str()});
    llvm::raw_string_ostream os(text);
    os << formatError(diag.getLocation(), inUserTerms(message)) << "\n";
    for (Diagnostic &note : diag.getNotes()) {
      // "see current operation" notes dump whole functions; skip them.
      std::string noteText = note.str();
      if (llvm::StringRef(noteText).starts_with("see current operation"))
        continue;
      std::string noteWhere = formatLocation(note.getLocation());
      if (!noteWhere.empty())
        os << noteWhere << ": ";
      os << "note: " << noteText << "\n";
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

tsir::rt::Status tsir::DiagnosticCollector::takeError(const rt::Status &fallback) {
  if (text.empty())
    return fallback;
  return rt::Status::located(take(""));
}
