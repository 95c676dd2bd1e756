//===- GraphParser.h - The parser of graph text, as a class -----*- C++ -*-===//
//
// The recursive-descent parser behind tsir::ts::parseGraphText
// (tsir/Importer/Parser.h), declared here so that its parts can live in
// files of their own: Parser.cpp (errors, graphs, blocks and nodes),
// ParserTypes.cpp (types) and ParserAttributes.cpp (attribute values and
// inline tensors). Private to lib/importer.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_GRAPHPARSER_H
#define TSIR_LIB_IMPORTER_GRAPHPARSER_H

#include "Lexer.h"

#include "tsir/Importer/Parser.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <vector>

namespace tsir::ts::detail {
using llvm::StringRef;
using llvm::Twine;

/// Counts one level of nesting for as long as it lives.
class DepthGuard {
public:
  explicit DepthGuard(unsigned &counter) : depth(counter) { ++depth; }
  ~DepthGuard() { --depth; }
  bool tooDeep() const { return depth > kMaxNestingDepth; }

private:
  unsigned &depth;
};

/// A number in an attribute or inline tensor, before we know which it is.
struct Scalar {
  bool isFloat = false;
  bool isComplex = false; // d is the real part, im the imaginary one
  int64_t i = 0;
  double d = 0;
  double im = 0;
  double asDouble() const { return isFloat ? d : static_cast<double>(i); }
};

class Parser {
public:
  Parser(StringRef text, ParseError &err) : lex(text), err(err) {}
  bool parseFile(GraphFile &file);

private:
  // Token handling and errors.
  void advance() { tok = lex.next(); }
  bool isIdent(StringRef s) const {
    return tok.kind == TokKind::Ident && tok.text == s;
  }
  bool error(SourcePos pos, const Twine &message);
  bool expected(const Twine &what);
  bool expect(TokKind kind, const Twine &what);
  bool tooDeep(const DepthGuard &g);

  // Graphs, blocks and nodes.
  bool parseGraph(Graph &g);
  bool parseParams(std::vector<ValueDef> &params, StringRef owner);
  bool parseValueDef(ValueDef &def);
  bool parseUses(std::vector<ValueUse> &uses, uint32_t *closeLine = nullptr);
  bool parseNode(Block &b);
  bool startsNode() const;
  bool parseBlock(Block &b);
  bool skipPythonOpArgs();

  // Types.
  std::unique_ptr<TypeExpr> parseType();
  std::unique_ptr<TypeExpr> parsePrimaryType();
  bool parseTypeArgs(TypeExpr &t, size_t minArgs, size_t maxArgs);
  bool parseNamedTupleFields(TypeExpr &t);
  bool parseTensorArgs(TypeExpr &t);
  bool parseDim(std::vector<int64_t> &dims, bool *bang);

  // Attribute values.
  bool parseAttrs(Node &n);
  bool parseAttrValue(AttrValue &v);
  bool parseNumberValue(AttrValue &v);
  bool parseValueSeq(AttrValue &v, TokKind closer);
  bool parseScalar(Scalar &s);
  bool parseComplex(Scalar &s);
  bool parseInt(int64_t &out);
  bool decodeString(AttrValue &v);
  bool continuesTensor() const;
  bool parseInlineTensor(AttrValue &v, const Scalar *first);
  bool parseTensorTrailer(AttrValue &v);
  bool parseQuantizer(AttrValue &v);
  bool reorderColumns(AttrValue &v, llvm::ArrayRef<int64_t> colBlocks);

  Lexer lex;
  Token tok;
  ParseError &err;
  bool failed = false;
  bool legacy = false;
  // Parsing a quantizer's scales or zero points, which are never quantized.
  bool inQuantizer = false;
  unsigned blockDepth = 0, typeDepth = 0, valueDepth = 0;
  llvm::SmallVector<ValueUse, 16> useScratch;
};

} // namespace tsir::ts::detail

#endif // TSIR_LIB_IMPORTER_GRAPHPARSER_H
