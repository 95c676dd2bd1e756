//===- Json.h - A small bounded JSON parser ---------------------*- C++ -*-===//
//
// Private to the runtime: the JSON the safetensors header needs. Nesting is
// capped (64 levels by default), so hostile input such as 100000 '[' is an
// error rather than a stack overflow; every error names its byte offset.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_JSON_H
#define TSIR_RUNTIME_LIB_JSON_H

#include "tsir-runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tsir::rt::detail {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  /// Set for numbers written without fraction or exponent that fit int64;
  /// `integer` then holds the exact value (offsets exceed 2^53).
  bool isInteger = false;
  int64_t integer = 0;
  std::string string;
  std::vector<JsonValue> array;
  /// In document order; duplicate keys are kept (callers decide).
  std::vector<std::pair<std::string, JsonValue>> object;

  /// The first member named `key`, or nullptr.
  const JsonValue *find(std::string_view key) const;
  /// "object", "array", ...
  const char *kindName() const;
};

inline constexpr int kDefaultJsonMaxDepth = 64;

StatusOr<JsonValue> parseJson(std::string_view text,
                              int maxDepth = kDefaultJsonMaxDepth);

/// `text` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view text);

} // namespace tsir::rt::detail

#endif // TSIR_RUNTIME_LIB_JSON_H
