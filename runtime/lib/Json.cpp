//===- Json.cpp - A small bounded JSON parser -----------------------------===//
//
// A recursive-descent parser whose recursion is bounded by the depth cap,
// with full string escapes (\uXXXX and surrogate pairs to UTF-8) and exact
// 64-bit integers.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include "QuoteString.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace tsir::rt::detail {

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

const char *JsonValue::kindName() const {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "boolean";
  case Kind::Number:
    return "number";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "?";
}

namespace {
class Parser {
public:
  Parser(std::string_view text, int maxDepth)
      : text(text), maxDepth(maxDepth) {}

  StatusOr<JsonValue> parseDocument() {
    JsonValue value;
    TSIR_RT_RETURN_IF_ERROR(parseValue(value, 0));
    skipSpace();
    if (pos != text.size())
      return error("unexpected text after the JSON value");
    return value;
  }

private:
  Status error(const std::string &what) const {
    return Status::error("JSON error at byte " + std::to_string(pos) + ": " +
                         what);
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  Status parseValue(JsonValue &out, int depth) {
    skipSpace();
    if (pos >= text.size())
      return error("unexpected end of input, expected a value");
    char c = text[pos];
    if (c == '{' || c == '[') {
      if (depth >= maxDepth)
        return error("nesting deeper than " + std::to_string(maxDepth) +
                     " levels");
      return c == '{' ? parseObject(out, depth + 1)
                      : parseArray(out, depth + 1);
    }
    if (c == '"') {
      out.kind = JsonValue::Kind::String;
      return parseString(out.string);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(out);
    if (consumeWord("true") || consumeWord("false")) {
      out.kind = JsonValue::Kind::Bool;
      out.boolean = c == 't';
      return Status::ok();
    }
    if (consumeWord("null")) {
      out.kind = JsonValue::Kind::Null;
      return Status::ok();
    }
    return error(std::string("unexpected character '") + printable(c) + "'");
  }

  static std::string printable(char c) {
    if (c >= 0x20 && c < 0x7f)
      return std::string(1, c);
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\x%02x",
                  static_cast<unsigned char>(c));
    return buffer;
  }

  Status parseObject(JsonValue &out, int depth) {
    out.kind = JsonValue::Kind::Object;
    ++pos; // '{'
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return Status::ok();
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return error("expected a string key in an object");
      std::string key;
      TSIR_RT_RETURN_IF_ERROR(parseString(key));
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return error("expected ':' after an object key");
      ++pos;
      out.object.emplace_back(std::move(key), JsonValue());
      TSIR_RT_RETURN_IF_ERROR(parseValue(out.object.back().second, depth));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return Status::ok();
      }
      return error("expected ',' or '}' in an object");
    }
  }

  Status parseArray(JsonValue &out, int depth) {
    out.kind = JsonValue::Kind::Array;
    ++pos; // '['
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return Status::ok();
    }
    while (true) {
      out.array.emplace_back();
      TSIR_RT_RETURN_IF_ERROR(parseValue(out.array.back(), depth));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return Status::ok();
      }
      return error("expected ',' or ']' in an array");
    }
  }

  Status parseHex4(uint32_t &code) {
    if (text.size() - pos < 4)
      return error("truncated \\u escape");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      code <<= 4;
      if (c >= '0' && c <= '9')
        code |= c - '0';
      else if (c >= 'a' && c <= 'f')
        code |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        code |= c - 'A' + 10;
      else
        return error("bad hex digit in a \\u escape");
    }
    return Status::ok();
  }

  static void appendUtf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  Status parseString(std::string &out) {
    ++pos; // '"'
    while (true) {
      if (pos >= text.size())
        return error("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return Status::ok();
      if (static_cast<unsigned char>(c) < 0x20)
        return error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= text.size())
        return error("unterminated string");
      char escape = text[pos++];
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t code;
        TSIR_RT_RETURN_IF_ERROR(parseHex4(code));
        if (code >= 0xdc00 && code <= 0xdfff)
          return error("unpaired low surrogate in a \\u escape");
        if (code >= 0xd800 && code <= 0xdbff) {
          uint32_t low;
          if (!consumeWord("\\u"))
            return error("unpaired high surrogate in a \\u escape");
          TSIR_RT_RETURN_IF_ERROR(parseHex4(low));
          if (low < 0xdc00 || low > 0xdfff)
            return error("unpaired high surrogate in a \\u escape");
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        appendUtf8(out, code);
        break;
      }
      default:
        return error("unknown escape '\\" + printable(escape) + "'");
      }
    }
  }

  Status parseNumber(JsonValue &out) {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    auto digits = [&] {
      size_t first = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos - first;
    };
    size_t intDigits = digits();
    if (intDigits == 0)
      return error("expected digits in a number");
    if (intDigits > 1 && text[pos - intDigits] == '0')
      return error("leading zero in a number");
    bool integral = true;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      integral = false;
      if (digits() == 0)
        return error("expected digits after '.' in a number");
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      integral = false;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (digits() == 0)
        return error("expected digits in a number's exponent");
    }
    // strtod needs a terminated string; the token is short and bounded.
    std::string token(text.substr(start, pos - start));
    out.kind = JsonValue::Kind::Number;
    out.number = std::strtod(token.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long value = std::strtoll(token.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        out.isInteger = true;
        out.integer = value;
      }
    }
    return Status::ok();
  }

  std::string_view text;
  size_t pos = 0;
  int maxDepth;
};
} // namespace

StatusOr<JsonValue> parseJson(std::string_view text, int maxDepth) {
  return Parser(text, maxDepth).parseDocument();
}

std::string jsonQuote(std::string_view text) {
  std::string out;
  appendQuoted(out, text, QuoteStyle::Json);
  return out;
}

} // namespace tsir::rt::detail
