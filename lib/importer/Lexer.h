//===- Lexer.h - Tokenizer for TorchScript's textual graph IR ---*- C++ -*-===//
//
// Splits graph text into tokens that point into the buffer. Newlines are
// plain whitespace here: every printed form can be parsed without them, and
// treating them as layout would break on the 2018 and 2019 dumps. Comments
// are skipped too, but the first one before a token is remembered on it so
// the parser can pick up a node's trailing `# file.py:7:8`.
//
// A few printed forms are not token streams (`, scope: a/b[c]`, python-op
// argument text); the parser handles those with the raw scanning helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_LEXER_H
#define TSIR_LIB_IMPORTER_LEXER_H

#include "tsir/Importer/AST.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tsir::ts {

enum class TokKind : uint8_t {
  Eof,
  Error,     // the lexer's message and position describe it
  ValueName, // %x.1 ; text excludes the '%'
  Ident,     // aten::add, Float, __torch__.a.B, block0, inf
  PyOpName,  // ^Name ; text includes the '^'
  Number,    // 12, -3, 2., 1e-05, 3.j, 1.+2.j ; text includes any '-'
  String,    // "..." or '...' ; text includes the quotes, escapes undecoded
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Equal,
  Question,
  Star,
  Bang,
  Less,
  Greater,
  Arrow,
  Semicolon,
  Minus,
  Dot,
};

struct Token {
  TokKind kind = TokKind::Eof;
  llvm::StringRef text;
  SourcePos pos;
  // The first `#` comment between the previous token and this one (text
  // after the '#'), and the line it is on; empty if there was none.
  llvm::StringRef comment;
  uint32_t commentLine = 0;
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer);

  /// Lexes the next token. After an Error token, errorMessage()/errorPos()
  /// say what went wrong; lexing further is not meaningful.
  Token next();

  bool hadError() const { return !errMsg.empty(); }
  const std::string &errorMessage() const { return errMsg; }
  SourcePos errorPos() const { return errPos; }

  /// Where the next token would start lexing; used to backtrack.
  struct State {
    const char *cur;
    const char *lineStart;
    uint32_t line;
  };
  State save() const { return {cur, lineStart, line}; }
  void restore(State s) {
    errMsg.clear(); // an error met while peeking is met again, or not at all
    cur = s.cur;
    lineStart = s.lineStart;
    line = s.line;
  }

  /// After a ',' that follows node inputs: matches `scope: TEXT` and returns
  /// TEXT, which runs to a '#' or the end of the line. Returns false if the
  /// text is not a scope, with hadError() set if it held bad bytes.
  bool lexScope(llvm::StringRef &scope);

  /// After an opening '(' : skips to just past the matching ')', stepping
  /// over quoted strings. Python-op argument text is arbitrary Python repr,
  /// so it is skipped rather than tokenized. Returns false with an error
  /// set if the parenthesis is never closed.
  bool skipBalancedParens(SourcePos openPos);

  /// After the '=' of a NamedTuple field default (`b : int = 3`): the
  /// default's text, which torch prints as an IValue (`[1, 2]`, `None`, a
  /// str without quotes), runs to the next ',' or ')' outside brackets.
  /// Leaves the lexer at that ','/')'. False, with an error set, at a
  /// newline, a bad byte or the end of the input, or for an empty default
  /// that is not followed by one of them.
  bool scanFieldDefault(llvm::StringRef &text, SourcePos &pos);

  /// After a '(' in an attribute value: true if the text is an inline
  /// tensor's slice header such as `(1,.,.) =`, not a tuple.
  bool atSliceHeader() const;

  /// After a '[': true if the text is an inline tensor's trailer
  /// `[ CPUFloatType{2} ]` rather than a list.
  bool atTensorTrailer() const;

private:
  Token make(TokKind kind, const char *begin, const char *end, SourcePos pos);
  Token fail(const char *at, const std::string &message);
  Token lexNumber(const char *begin, SourcePos pos);
  const char *scanImaginary(const char *p) const;
  Token lexString(const char *begin, SourcePos pos);
  Token badChar(const char *at);
  /// Steps `p` over one character of text other than a newline: printable
  /// ASCII, a tab, a CR or a whole UTF-8 sequence; false (badChar's error
  /// set) for any other byte.
  bool stepOverChar(const char *&p);
  /// Skips a comment starting at '#'; false (error set) on bad bytes.
  bool skipComment(Token &tok);
  SourcePos posOf(const char *p) const {
    return {line, static_cast<uint32_t>(p - lineStart) + 1};
  }

  const char *cur;
  const char *end;
  const char *lineStart;
  uint32_t line = 1;
  std::string errMsg;
  SourcePos errPos;
};

/// Decodes the text of a String token (quotes included) into `out`:
/// \n \t \\ \" \' \xNN and octal \ooo, as c10::printQuotedString writes
/// them. On a bad escape returns false with `errOffset` (bytes into the
/// token) and `errMessage`.
bool decodeStringLiteral(llvm::StringRef token, std::string &out,
                         size_t &errOffset, std::string &errMessage);

/// Converts a Number token without '.' or exponent; INT64_MIN is accepted.
/// False when the value does not fit in int64.
bool parseInt64Literal(llvm::StringRef text, int64_t &out);

/// Splits a source comment `cases/x.py:7:8` at its last two colons (the
/// file may contain colons itself). False, with nothing set, when the text
/// is not such a location; comments are free text, so that is no error.
bool parseSourceLocation(llvm::StringRef comment, llvm::StringRef &file,
                         uint32_t &line, uint32_t &col);

/// Length of the valid UTF-8 sequence starting at p (1-4), or 0 if the bytes
/// there are not well-formed UTF-8 (overlong, surrogate, truncated, ...).
unsigned utf8SequenceLength(const char *p, const char *end);

/// Quotes a byte for a message: 'a' for printable ASCII, '\x01' otherwise.
std::string describeByte(unsigned char c);

} // namespace tsir::ts

#endif // TSIR_LIB_IMPORTER_LEXER_H
