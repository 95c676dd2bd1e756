//===- Lexer.cpp - Tokenizer for TorchScript's textual graph IR ----------===//
//
// Hand-written and allocation-free on the happy path: graph dumps of frozen
// models run to megabytes, and every token is a StringRef into the buffer.
// Every byte is checked as it is scanned, so binary garbage (NUL, stray
// control characters, malformed UTF-8) stops the parse with a position
// instead of being carried into names or strings.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include <cstdio>
#include <cstring>

using namespace tsir::ts;

namespace {
enum CharClass : uint8_t {
  kIdentStart = 1, // A-Z a-z _
  kIdentBody = 2,  // A-Z a-z _ 0-9
  kDigit = 4,
  kSpace = 8, // ' ' '\t' '\r' (newlines are counted separately)
};

struct CharTable {
  uint8_t cls[256] = {};
  constexpr CharTable() {
    for (int c = 'a'; c <= 'z'; ++c)
      cls[c] = kIdentStart | kIdentBody;
    for (int c = 'A'; c <= 'Z'; ++c)
      cls[c] = kIdentStart | kIdentBody;
    cls[static_cast<int>('_')] = kIdentStart | kIdentBody;
    for (int c = '0'; c <= '9'; ++c)
      cls[c] = kIdentBody | kDigit;
    cls[static_cast<int>(' ')] = kSpace;
    cls[static_cast<int>('\t')] = kSpace;
    cls[static_cast<int>('\r')] = kSpace;
  }
};
constexpr CharTable kChars;

inline bool is(char c, uint8_t mask) {
  return kChars.cls[static_cast<unsigned char>(c)] & mask;
}
} // namespace

unsigned tsir::ts::utf8SequenceLength(const char *p, const char *end) {
  auto at = [&](int i) { return static_cast<unsigned char>(p[i]); };
  unsigned char c = at(0);
  if (c < 0x80)
    return 1;
  unsigned len;
  unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0; // overlong
    else if (c == 0xED)
      hi = 0x9F; // UTF-16 surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90; // overlong
    else if (c == 0xF4)
      hi = 0x8F; // beyond U+10FFFF
  } else {
    return 0;
  }
  if (end - p < static_cast<long>(len) || at(1) < lo || at(1) > hi)
    return 0;
  for (unsigned i = 2; i < len; ++i)
    if ((at(i) & 0xC0) != 0x80)
      return 0;
  return len;
}

std::string tsir::ts::describeByte(unsigned char c) {
  char buf[8];
  if (c >= 0x20 && c < 0x7F)
    std::snprintf(buf, sizeof(buf), "'%c'", c);
  else
    std::snprintf(buf, sizeof(buf), "'\\x%02X'", c);
  return buf;
}

Lexer::Lexer(llvm::StringRef buffer)
    : cur(buffer.begin()), end(buffer.end()), lineStart(buffer.begin()) {}

Token Lexer::make(TokKind kind, const char *begin, const char *stop,
                  SourcePos pos) {
  Token t;
  t.kind = kind;
  t.text = llvm::StringRef(begin, stop - begin);
  t.pos = pos;
  cur = stop;
  return t;
}

Token Lexer::fail(const char *at, const std::string &message) {
  errMsg = message;
  errPos = posOf(at);
  Token t;
  t.kind = TokKind::Error;
  t.pos = errPos;
  cur = end; // nothing after an error is meaningful
  return t;
}

Token Lexer::badChar(const char *at) {
  unsigned char c = static_cast<unsigned char>(*at);
  if (c >= 0x80) {
    if (utf8SequenceLength(at, end) == 0)
      return fail(at, "invalid UTF-8 byte " + describeByte(c));
    return fail(at, "unexpected non-ASCII character");
  }
  return fail(at, "unexpected character " + describeByte(c));
}

/// True if any of the 8 bytes at p is a control character (newline
/// included) or non-ASCII: the only bytes a comment scan must look at.
static bool hasSpecialByte(const char *p) {
  constexpr uint64_t k20 = 0x2020202020202020ull, k80 = 0x8080808080808080ull;
  uint64_t w;
  std::memcpy(&w, p, 8);
  return ((((w - k20) & ~w) | w) & k80) != 0;
}

bool Lexer::skipComment(Token &tok) {
  const char *begin = cur + 1;
  const char *p = begin;
  for (;;) {
    // Source comments are a large share of a dump; skip plain text eight
    // bytes at a time.
    while (end - p >= 8 && !hasSpecialByte(p))
      p += 8;
    if (p == end || *p == '\n')
      break;
    unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      unsigned len = utf8SequenceLength(p, end);
      if (len == 0) {
        fail(p, "invalid UTF-8 byte " + describeByte(c) + " in comment");
        return false;
      }
      p += len;
      continue;
    }
    if (c < 0x20 && c != '\t' && c != '\r') {
      fail(p, "unexpected character " + describeByte(c) + " in comment");
      return false;
    }
    ++p;
  }
  if (tok.comment.data() == nullptr) {
    tok.comment = llvm::StringRef(begin, p - begin);
    tok.commentLine = line;
  }
  cur = p;
  return true;
}

Token Lexer::next() {
  Token comments; // collects the first comment while skipping
  for (;;) {
    if (cur == end) {
      Token t = make(TokKind::Eof, cur, cur, posOf(cur));
      t.comment = comments.comment;
      t.commentLine = comments.commentLine;
      return t;
    }
    char c = *cur;
    if (is(c, kSpace)) {
      ++cur;
    } else if (c == '\n') {
      ++cur;
      ++line;
      lineStart = cur;
    } else if (c == '#') {
      if (!skipComment(comments))
        return Token{TokKind::Error, {}, errPos, {}, 0};
    } else {
      break;
    }
  }

  Token t = [&]() -> Token {
    const char *begin = cur;
    SourcePos pos = posOf(begin);
    char c = *begin;
    const char *p = begin + 1;
    if (is(c, kIdentStart)) {
      // Qualified names stay one token: `aten::add`, `prim::FusionGroup_0`,
      // `__torch__.torchvision.models.resnet.ResNet`.
      for (;;) {
        while (p != end && is(*p, kIdentBody))
          ++p;
        if (end - p >= 3 && p[0] == ':' && p[1] == ':' && is(p[2], kIdentStart))
          p += 3;
        else if (end - p >= 2 && p[0] == '.' && is(p[1], kIdentBody))
          p += 2;
        else
          break;
      }
      return make(TokKind::Ident, begin, p, pos);
    }
    if (is(c, kDigit))
      return lexNumber(begin, pos);
    switch (c) {
    case '%': {
      // Names are [A-Za-z0-9_.]; torch also prints module paths with a `-`
      // inside (regnet's `%self.trunk_output.block1.block1-0.proj.0.weight`),
      // and nothing else may follow a name's character with one.
      while (p != end &&
             (is(*p, kIdentBody) || *p == '.' ||
              (*p == '-' && p != begin + 1 && p + 1 != end &&
               is(p[1], kIdentBody))))
        ++p;
      if (p == begin + 1) {
        if (p == end)
          return fail(begin, "expected value name after '%'");
        return fail(p, "expected value name after '%', got " +
                           describeByte(static_cast<unsigned char>(*p)));
      }
      return make(TokKind::ValueName, begin + 1, p, pos);
    }
    case '^': {
      while (p != end && (is(*p, kIdentBody) || *p == '.' || *p == ':'))
        ++p;
      if (p == begin + 1)
        return fail(begin, "expected python op name after '^'");
      return make(TokKind::PyOpName, begin, p, pos);
    }
    case '"':
    case '\'':
      return lexString(begin, pos);
    case '-':
      if (p != end && is(*p, kDigit))
        return lexNumber(begin, pos);
      if (p != end && *p == '>')
        return make(TokKind::Arrow, begin, p + 1, pos);
      return make(TokKind::Minus, begin, p, pos);
    case '(':
      return make(TokKind::LParen, begin, p, pos);
    case ')':
      return make(TokKind::RParen, begin, p, pos);
    case '[':
      return make(TokKind::LBracket, begin, p, pos);
    case ']':
      return make(TokKind::RBracket, begin, p, pos);
    case '{':
      return make(TokKind::LBrace, begin, p, pos);
    case '}':
      return make(TokKind::RBrace, begin, p, pos);
    case ',':
      return make(TokKind::Comma, begin, p, pos);
    case ':':
      return make(TokKind::Colon, begin, p, pos);
    case '=':
      return make(TokKind::Equal, begin, p, pos);
    case '?':
      return make(TokKind::Question, begin, p, pos);
    case '*':
      return make(TokKind::Star, begin, p, pos);
    case '!':
      return make(TokKind::Bang, begin, p, pos);
    case '<':
      return make(TokKind::Less, begin, p, pos);
    case '>':
      return make(TokKind::Greater, begin, p, pos);
    case ';':
      return make(TokKind::Semicolon, begin, p, pos);
    case '.':
      return make(TokKind::Dot, begin, p, pos);
    default:
      return badChar(begin);
    }
  }();
  t.comment = comments.comment;
  t.commentLine = comments.commentLine;
  return t;
}

Token Lexer::lexNumber(const char *begin, SourcePos pos) {
  // [-] digits [. digits*] [(e|E) [+-] digits] ; `2.` is a float as torch
  // prints it. A '.' not followed by a digit still belongs to the number
  // unless it starts `.,` of a slice header, which never follows digits.
  const char *p = begin;
  if (*p == '-')
    ++p;
  while (p != end && is(*p, kDigit))
    ++p;
  if (p != end && *p == '.') {
    ++p;
    while (p != end && is(*p, kDigit))
      ++p;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q != end && (*q == '+' || *q == '-'))
      ++q;
    if (q != end && is(*q, kDigit)) {
      p = q;
      while (p != end && is(*p, kDigit))
        ++p;
    }
  }
  // Complex literals: `3.j`, `-3.14j` (torch's parser reads these) and
  // `1.+2.j`, `0.-3.1400000000000001j` (how torch prints a complex).
  if (p != end && *p == 'j') {
    ++p;
  } else if (p != end && (*p == '+' || *p == '-')) {
    const char *imag = scanImaginary(p + 1);
    if (imag)
      p = imag;
  }
  if (p != end && (is(*p, kIdentBody) || *p == '.'))
    return fail(begin, "invalid numeric literal '" +
                           std::string(begin, p + 1 - begin) + "'");
  return make(TokKind::Number, begin, p, pos);
}

/// After the sign of a complex literal's imaginary part: `2.j`, `3.14j`,
/// `1e-05j`. Returns the end of the literal, or null if none starts at p.
const char *Lexer::scanImaginary(const char *p) const {
  const char *digits = p;
  while (p != end && is(*p, kDigit))
    ++p;
  if (p == digits)
    return nullptr;
  if (p != end && *p == '.') {
    ++p;
    while (p != end && is(*p, kDigit))
      ++p;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q != end && (*q == '+' || *q == '-'))
      ++q;
    if (q == end || !is(*q, kDigit))
      return nullptr;
    while (q != end && is(*q, kDigit))
      ++q;
    p = q;
  }
  return p != end && *p == 'j' ? p + 1 : nullptr;
}

Token Lexer::lexString(const char *begin, SourcePos pos) {
  char quote = *begin;
  const char *p = begin + 1;
  for (;;) {
    if (p == end || *p == '\n')
      return fail(begin, "unterminated string literal");
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == static_cast<unsigned char>(quote))
      return make(TokKind::String, begin, p + 1, pos);
    if (c == '\\') {
      // The escape itself is decoded by the parser; here it only must not
      // hide the closing quote or run past the line.
      ++p;
      if (p == end || *p == '\n')
        return fail(begin, "unterminated string literal");
      c = static_cast<unsigned char>(*p);
    }
    if (c >= 0x80) {
      unsigned len = utf8SequenceLength(p, end);
      if (len == 0)
        return fail(p, "invalid UTF-8 byte " + describeByte(c) +
                           " in string literal");
      p += len;
      continue;
    }
    if (c < 0x20 && c != '\t')
      return fail(p, "unexpected character " + describeByte(c) +
                         " in string literal");
    ++p;
  }
}

bool Lexer::stepOverChar(const char *&p) {
  unsigned char c = static_cast<unsigned char>(*p);
  unsigned length = c >= 0x80 ? utf8SequenceLength(p, end) : 1;
  if (length == 0 || (c < 0x20 && c != '\t' && c != '\r')) {
    badChar(p);
    return false;
  }
  p += length;
  return true;
}

bool Lexer::lexScope(llvm::StringRef &scope) {
  const char *p = cur;
  while (p != end && is(*p, kSpace))
    ++p;
  llvm::StringRef rest(p, end - p);
  if (!rest.starts_with("scope"))
    return false;
  p += 5;
  while (p != end && is(*p, kSpace))
    ++p;
  if (p == end || *p != ':')
    return false;
  ++p;
  while (p != end && is(*p, kSpace))
    ++p;
  const char *begin = p;
  while (p != end && *p != '\n' && *p != '#')
    if (!stepOverChar(p))
      return false;
  const char *stop = p;
  while (stop != begin && is(stop[-1], kSpace))
    --stop;
  scope = llvm::StringRef(begin, stop - begin);
  cur = p;
  return true;
}

bool Lexer::skipBalancedParens(SourcePos openPos) {
  unsigned depth = 1;
  const char *p = cur;
  while (p != end) {
    char c = *p;
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth == 0) {
        cur = p + 1;
        return true;
      }
    } else if (c == '"' || c == '\'') {
      cur = p;
      Token s = lexString(p, posOf(p));
      if (s.kind == TokKind::Error)
        return false;
      p = cur;
      continue;
    } else if (c == '\n') {
      ++line;
      lineStart = p + 1;
    } else {
      if (!stepOverChar(p))
        return false;
      continue;
    }
    ++p;
  }
  errMsg = "unterminated python op arguments; expected ')'";
  errPos = openPos;
  cur = end;
  return false;
}

bool Lexer::scanFieldDefault(llvm::StringRef &text, SourcePos &pos) {
  const char *p = cur;
  while (p != end && is(*p, kSpace))
    ++p;
  const char *begin = p;
  pos = posOf(p);
  // Brackets nest in list, tuple and dict defaults; a str default may hold
  // anything, but torch prints it bare, so its own ',' or ')' ends it
  // here as it would for any reader of that text.
  unsigned depth = 0;
  while (p != end) {
    char c = *p;
    if (depth == 0 && (c == ',' || c == ')'))
      break;
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth)
        --depth;
    } else if (c == '\n') {
      errMsg = "unterminated NamedTuple field default; expected ',' or ')' "
               "on the same line";
      errPos = pos;
      return false;
    } else {
      if (!stepOverChar(p))
        return false;
      continue;
    }
    ++p;
  }
  if (p == end) {
    errMsg = "unterminated NamedTuple field default; expected ',' or ')'";
    errPos = pos;
    return false;
  }
  // Trailing blanks belong to the layout, not to the value.
  const char *last = p;
  while (last != begin && is(last[-1], kSpace))
    --last;
  text = llvm::StringRef(begin, last - begin);
  cur = p;
  return true;
}

bool Lexer::atSliceHeader() const {
  // `(1,.,.) =` / `(2,3,.,.)`: one or more `index,` then `.` (`,.`)* `)`,
  // no spaces in between. A tuple such as `(2.5, "x")` must not match.
  const char *p = cur;
  bool sawIndex = false;
  for (;;) {
    const char *q = p;
    while (q != end && is(*q, kDigit))
      ++q;
    if (q == p || q == end || *q != ',')
      break;
    p = q + 1;
    sawIndex = true;
  }
  if (!sawIndex || p == end || *p != '.')
    return false;
  ++p;
  while (end - p >= 2 && p[0] == ',' && p[1] == '.')
    p += 2;
  return p != end && *p == ')';
}

bool Lexer::atTensorTrailer() const {
  const char *p = cur;
  while (p != end && (is(*p, kSpace) || *p == '\n'))
    ++p;
  const char *begin = p;
  while (p != end && is(*p, kIdentBody))
    ++p;
  llvm::StringRef name(begin, p - begin);
  return name.size() > 4 && name.ends_with("Type") && p != end && *p == '{';
}

//===----------------------------------------------------------------------===//
// Literal decoding
//===----------------------------------------------------------------------===//

bool tsir::ts::decodeStringLiteral(llvm::StringRef token, std::string &out,
                                   size_t &errOffset, std::string &errMessage) {
  // Pairs of escape letter and the byte it stands for.
  static constexpr char kSimple[] = "n\nt\tr\ra\ab\bf\fv\v\\\\\"\"''??";
  auto hexVal = [](char h) {
    return h >= '0' && h <= '9'   ? h - '0'
           : h >= 'a' && h <= 'f' ? h - 'a' + 10
           : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                  : -1;
  };
  llvm::StringRef body = token.drop_front().drop_back();
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out += body[i];
      continue;
    }
    errOffset = i + 1;  // the backslash, counting the opening quote
    char e = body[++i]; // the lexer guarantees a character after '\'
    if (const char *m = std::strchr(kSimple, e);
        m && e && (m - kSimple) % 2 == 0) {
      out += m[1];
    } else if (e == 'x') {
      int value = 0, digits = 0;
      for (; digits < 2 && i + 1 < body.size() && hexVal(body[i + 1]) >= 0;
           ++digits)
        value = value * 16 + hexVal(body[++i]);
      if (digits == 0) {
        errMessage = "expected hex digits after '\\x' in string literal";
        return false;
      }
      out += static_cast<char>(value);
    } else if (e >= '0' && e <= '7') {
      int value = e - '0';
      for (int digits = 1; digits < 3 && i + 1 < body.size() &&
                           body[i + 1] >= '0' && body[i + 1] <= '7';
           ++digits)
        value = value * 8 + (body[++i] - '0');
      if (value > 255) {
        errMessage = "octal escape out of range in string literal";
        return false;
      }
      out += static_cast<char>(value);
    } else {
      errMessage = "unknown escape sequence '\\" + std::string(1, e) +
                   "' in string literal";
      return false;
    }
  }
  return true;
}

bool tsir::ts::parseInt64Literal(llvm::StringRef s, int64_t &out) {
  bool neg = s.consume_front("-");
  uint64_t limit = neg ? uint64_t(1) << 63 : uint64_t(INT64_MAX);
  uint64_t mag = 0;
  for (char c : s) {
    uint64_t digit = c - '0';
    if (mag > (limit - digit) / 10)
      return false;
    mag = mag * 10 + digit;
  }
  out = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
  return true;
}

bool tsir::ts::parseSourceLocation(llvm::StringRef comment,
                                   llvm::StringRef &file, uint32_t &line,
                                   uint32_t &col) {
  const char *begin = comment.begin(), *p = comment.end();
  while (p != begin && is(p[-1], kSpace))
    --p;
  // Reads the decimal number ending at p, moving p to its start; at most 9
  // digits so it cannot overflow.
  auto number = [&](uint32_t &out) {
    const char *stop = p;
    while (p != begin && is(p[-1], kDigit) && stop - p < 9)
      --p;
    if (p == stop)
      return false;
    out = 0;
    for (const char *q = p; q != stop; ++q)
      out = out * 10 + (*q - '0');
    return true;
  };
  uint32_t l, c;
  if (!number(c) || p == begin || *--p != ':' || !number(l) || p == begin ||
      *--p != ':')
    return false;
  while (begin != p && is(*begin, kSpace))
    ++begin;
  if (begin == p)
    return false;
  file = llvm::StringRef(begin, p - begin);
  line = l;
  col = c;
  return true;
}
