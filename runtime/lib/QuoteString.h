//===- QuoteString.h - String literals for JSON and TorchScript -*- C++ -*-===//
//
// Private to the runtime: one escaper for the two places that print a
// string in double quotes, the JSON writer and TorchScript's value printer
// (prim::Print of a list of str). They escape the same characters and
// differ only in how they spell other control bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_QUOTESTRING_H
#define TSIR_RUNTIME_LIB_QUOTESTRING_H

#include <string>
#include <string_view>

namespace tsir::rt::detail {

enum class QuoteStyle {
  /// Other control bytes as \u00XX, as JSON requires.
  Json,
  /// Other control bytes and DEL as \xXX, as Python's repr prints them.
  Python,
};

/// Appends `text` to `out` in double quotes, with `"`, `\`, newline, CR
/// and tab escaped, and other control bytes escaped in `style`.
void appendQuoted(std::string &out, std::string_view text, QuoteStyle style);

} // namespace tsir::rt::detail

#endif // TSIR_RUNTIME_LIB_QUOTESTRING_H
