//===- QuoteString.cpp - String literals for JSON and TorchScript ---------===//
//
// See QuoteString.h.
//
//===----------------------------------------------------------------------===//

#include "QuoteString.h"

#include <cstdio>

namespace tsir::rt::detail {

void appendQuoted(std::string &out, std::string_view text, QuoteStyle style) {
  out += '"';
  for (char c : text) {
    unsigned char byte = static_cast<unsigned char>(c);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (byte < 0x20 || (style == QuoteStyle::Python && byte == 0x7f)) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped,
                      style == QuoteStyle::Json ? "\\u%04x" : "\\x%02x", byte);
        out += escaped;
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

} // namespace tsir::rt::detail
