//===- Parser.h - Parser for TorchScript's textual graph IR -----*- C++ -*-===//
//
// Turns the text torch prints for a graph (every format since 2018) into the
// syntax tree of AST.h. Only the grammar is checked here; undefined values,
// block arity and overload resolution are MLIRGen's business.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_IMPORTER_PARSER_H
#define TSIR_IMPORTER_PARSER_H

#include "tsir/Importer/AST.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tsir::ts {

/// The first error found in the text: where, and what was expected there.
struct ParseError {
  SourcePos pos;
  std::string message;
};

/// The deepest nesting accepted for blocks, types and attribute values, each
/// counted on its own. It keeps the recursive-descent parser (and the tree's
/// recursive destructors) well inside the stack on hostile input.
constexpr unsigned kMaxNestingDepth = 256;

/// Parses a whole graph file. On failure returns std::nullopt and sets
/// `error` (the first error; the message says what is wrong and what was
/// expected). The tree points into `text`, which must outlive it.
std::optional<GraphFile> parseGraphText(llvm::StringRef text,
                                        ParseError &error);

} // namespace tsir::ts

#endif // TSIR_IMPORTER_PARSER_H
