//===- Parser.cpp - Parser for TorchScript's textual graph IR -------------===//
//
// Recursive descent over the Lexer's tokens. The grammar is the union of what
// torch has printed since 2018, so where two eras differ both are accepted:
// `{ }` or `:` around bodies, comma- or newline-separated inputs, attributes
// or constant inputs. Block and graph bodies end at their `-> (...)` or
// `return (...)`, never at a dedent, because indentation was never reliable
// across those eras.
//
// Every recursion (blocks, types, attribute values) is bounded by
// kMaxNestingDepth, and every loop consumes a token or fails, so hostile
// input ends in a located error rather than a crash or a hang.
//
//===----------------------------------------------------------------------===//

#include "tsir/Importer/Parser.h"

#include "Lexer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <limits>

using namespace tsir::ts;
using llvm::StringRef;
using llvm::Twine;

namespace {

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

std::string formatPos(SourcePos p) {
  return std::to_string(p.line) + ":" + std::to_string(p.col);
}

bool isBlockName(StringRef s) {
  if (!s.consume_front("block") || s.empty())
    return false;
  return llvm::all_of(s, [](char c) { return c >= '0' && c <= '9'; });
}

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

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

bool Parser::error(SourcePos pos, const Twine &message) {
  if (!failed) {
    failed = true;
    err.pos = pos;
    err.message = message.str();
  }
  return false;
}

std::string describe(const Token &t) {
  switch (t.kind) {
  case TokKind::Eof:
    return "end of input";
  case TokKind::ValueName:
    return "'%" + t.text.take_front(60).str() + "'";
  default:
    return "'" + t.text.take_front(60).str() +
           (t.text.size() > 60 ? "...'" : "'");
  }
}

/// Reports that `what` was expected at the current token; a lexer error
/// there takes precedence, since it explains the token itself.
bool Parser::expected(const Twine &what) {
  if (tok.kind == TokKind::Error)
    return error(lex.errorPos(), lex.errorMessage());
  return error(tok.pos, "expected " + what + ", got " + describe(tok));
}

bool Parser::expect(TokKind kind, const Twine &what) {
  if (tok.kind != kind)
    return expected(what);
  advance();
  return true;
}

bool Parser::tooDeep(const DepthGuard &g) {
  if (!g.tooDeep())
    return false;
  error(tok.pos, "nesting deeper than " + Twine(kMaxNestingDepth) + " levels");
  return true;
}

//===----------------------------------------------------------------------===//
// Graphs, blocks and nodes
//===----------------------------------------------------------------------===//

bool Parser::parseFile(GraphFile &file) {
  advance();
  if (!parseGraph(file.main))
    return false;
  // `with prim::FusionGroup_0 = graph(...)`: subgraphs follow the graph that
  // uses them, in any number.
  while (isIdent("with")) {
    Graph &g = file.subgraphs.emplace_back();
    g.pos = tok.pos;
    advance();
    if (tok.kind != TokKind::Ident)
      return expected("subgraph name such as 'prim::FusionGroup_0'");
    g.name = tok.text;
    advance();
    if (!expect(TokKind::Equal, "'=' after subgraph name") || !parseGraph(g))
      return false;
  }
  if (tok.kind != TokKind::Eof)
    return expected("'with' or end of input after the graph");
  file.legacyFormat = legacy;
  return true;
}

bool Parser::parseGraph(Graph &g) {
  if (!isIdent("graph"))
    return expected("'graph'");
  SourcePos start = tok.pos;
  g.body.pos = start;
  if (g.name.empty())
    g.pos = start;
  advance();
  if (!expect(TokKind::LParen, "'(' after 'graph'") ||
      !parseParams(g.body.params, "graph input"))
    return false;
  bool braces = tok.kind == TokKind::LBrace;
  legacy |= braces;
  if (!braces && tok.kind != TokKind::Colon)
    return expected("':' or '{' after graph inputs");
  advance();

  Block &b = g.body;
  while (!isIdent("return")) {
    if (startsNode()) {
      if (!parseNode(b))
        return false;
    } else if (tok.kind == TokKind::Eof || isIdent("with")) {
      return error(tok.pos, "expected 'return' at end of graph started at " +
                                formatPos(start));
    } else {
      return expected("a node or 'return' in graph started at " +
                      formatPos(start));
    }
  }
  b.returnPos = tok.pos;
  advance();
  if (!expect(TokKind::LParen, "'(' after 'return'") || !parseUses(b.returns))
    return false;
  if (tok.kind == TokKind::Semicolon) { // 2018: `return (%5);`
    legacy = true;
    advance();
  }
  if (braces)
    return expect(TokKind::RBrace,
                  "'}' closing graph started at " + formatPos(start));
  return true;
}

/// After '(' : `%a : T, %b : U)`. The 2018 printer put each graph input on
/// its own line without commas, so a missing comma is accepted (as legacy).
bool Parser::parseParams(std::vector<ValueDef> &params, StringRef owner) {
  if (tok.kind == TokKind::RParen) {
    advance();
    return true;
  }
  for (;;) {
    if (!parseValueDef(params.emplace_back()))
      return false;
    if (tok.kind == TokKind::Comma) {
      advance();
    } else if (tok.kind == TokKind::RParen) {
      advance();
      return true;
    } else if (tok.kind == TokKind::ValueName) {
      legacy = true;
    } else {
      return expected("',' or ')' after " + owner);
    }
  }
}

bool Parser::parseValueDef(ValueDef &def) {
  if (tok.kind != TokKind::ValueName)
    return expected("value name such as '%x'");
  def.name = tok.text;
  def.pos = tok.pos;
  advance();
  if (tok.kind != TokKind::Colon) {
    // `graph(%x, %y):`, `%z = aten::mul(%x, %y)`: torch's parser lets the
    // type go, and MLIRGen types the value as torch does.
    def.type = std::make_unique<TypeExpr>();
    def.type->kind = TypeExpr::Kind::Tensor;
    def.type->pos = def.pos;
    def.type->implicit = true;
    return true;
  }
  advance();
  def.type = parseType();
  return def.type != nullptr;
}

/// After '(' : `%a, %b)` or `)`.
bool Parser::parseUses(std::vector<ValueUse> &uses, uint32_t *closeLine) {
  // Gather into a reused buffer so each list costs one exact allocation;
  // on big graphs the allocator, not the lexer, dominates the parse time.
  useScratch.clear();
  while (tok.kind != TokKind::RParen) {
    if (tok.kind != TokKind::ValueName)
      return expected(useScratch.empty() ? "value name or ')'"
                                         : "value name such as '%x'");
    useScratch.push_back({tok.text, tok.pos});
    advance();
    if (tok.kind == TokKind::Comma)
      advance();
    else if (tok.kind != TokKind::RParen)
      return expected("',' or ')' after value name");
  }
  uses.assign(useScratch.begin(), useScratch.end());
  if (closeLine)
    *closeLine = tok.pos.line;
  advance();
  return true;
}

/// A node starts with its outputs, with the `=` torch prints before a node
/// without outputs, or with its kind: torch's parser reads a node without
/// outputs only as a bare statement, `prim::Print(%x)`.
bool Parser::startsNode() const {
  return tok.kind == TokKind::ValueName || tok.kind == TokKind::Equal ||
         tok.kind == TokKind::PyOpName ||
         (tok.kind == TokKind::Ident && tok.text.contains("::"));
}

bool Parser::parseNode(Block &b) {
  Node &n = b.nodes.emplace_back();
  if (tok.kind == TokKind::ValueName) {
    for (;;) {
      if (!parseValueDef(n.outputs.emplace_back()))
        return false;
      if (tok.kind != TokKind::Comma)
        break;
      advance();
    }
    if (tok.kind != TokKind::Equal)
      return expected("',' or '=' after node output");
  }
  if (tok.kind == TokKind::Equal)
    advance();
  bool pyOp = tok.kind == TokKind::PyOpName;
  if (!pyOp && (tok.kind != TokKind::Ident || !tok.text.contains("::")))
    return expected("node kind such as 'aten::add' after '='");
  n.kind = tok.text;
  n.pos = tok.pos;
  advance();
  if (tok.kind == TokKind::LBracket) {
    // Ops with attributes rather than constant inputs date from 2019; only
    // aten::warn still carries one (warn_id) in current dumps.
    legacy |= n.kind.starts_with("aten::") && n.kind != "aten::warn";
    if (!parseAttrs(n))
      return false;
  }
  if (pyOp && tok.kind == TokKind::LParen && !skipPythonOpArgs())
    return false;
  uint32_t closeLine = 0;
  if (!expect(TokKind::LParen, "'(' before node inputs") ||
      !parseUses(n.inputs, &closeLine))
    return false;
  if (tok.kind == TokKind::Comma) {
    if (!lex.lexScope(n.scope)) {
      if (lex.hadError())
        return error(lex.errorPos(), lex.errorMessage());
      return error(tok.pos, "expected 'scope:' after ',' following the "
                            "inputs of " +
                                n.kind);
    }
    advance();
  }
  // Only a comment on the node's own line is its source location; comment
  // lines in between nodes are ignored.
  if (tok.comment.data() && tok.commentLine == closeLine)
    parseSourceLocation(tok.comment, n.sourceFile, n.sourceLine, n.sourceCol);
  while (tok.kind == TokKind::Ident && isBlockName(tok.text))
    if (!parseBlock(n.blocks.emplace_back()))
      return false;
  return true;
}

/// `^Name(args)(%a, %b)`: the first group is python repr text and is
/// skipped; when only one group follows the name, it is the inputs.
bool Parser::skipPythonOpArgs() {
  Lexer::State state = lex.save();
  Token open = tok;
  if (!lex.skipBalancedParens(open.pos))
    return error(lex.errorPos(), lex.errorMessage());
  Token after = lex.next();
  if (after.kind == TokKind::LParen) {
    tok = after;
    return true;
  }
  lex.restore(state);
  tok = open;
  return true;
}

bool Parser::parseBlock(Block &b) {
  DepthGuard guard(blockDepth);
  if (tooDeep(guard))
    return false;
  b.pos = tok.pos;
  auto start = [&] { return formatPos(b.pos); };
  advance();
  if (!expect(TokKind::LParen, "'(' after block name") ||
      !parseParams(b.params, "block parameter"))
    return false;
  bool braces = tok.kind == TokKind::LBrace;
  legacy |= braces;
  if (!braces && tok.kind != TokKind::Colon)
    return expected("':' or '{' after block parameters");
  advance();
  while (tok.kind != TokKind::Arrow) {
    if (startsNode()) {
      if (!parseNode(b))
        return false;
    } else if (tok.kind == TokKind::Eof) {
      return error(tok.pos,
                   "unexpected end of input in block started at " + start());
    } else {
      return expected("a node or '->' ending block started at " + start());
    }
  }
  b.returnPos = tok.pos;
  advance();
  if (!expect(TokKind::LParen, "'(' after '->'") || !parseUses(b.returns))
    return false;
  if (braces)
    return expect(TokKind::RBrace, "'}' closing block started at " + start());
  return true;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

std::unique_ptr<TypeExpr> wrapType(TypeExpr::Kind kind,
                                   std::unique_ptr<TypeExpr> inner) {
  auto t = std::make_unique<TypeExpr>();
  t->kind = kind;
  t->pos = inner->pos;
  t->elements.push_back(std::move(inner));
  return t;
}

/// primary ( '[' ']' | '?' )*
std::unique_ptr<TypeExpr> Parser::parseType() {
  DepthGuard guard(typeDepth);
  if (tooDeep(guard))
    return nullptr;
  auto t = parsePrimaryType();
  if (!t)
    return nullptr;
  // Suffixes nest without recursing, but the tree they build is destroyed
  // recursively, so they count towards the depth limit too.
  unsigned suffixes = 0;
  for (;;) {
    bool optional = tok.kind == TokKind::Question;
    if (!optional && tok.kind != TokKind::LBracket)
      return t;
    if (typeDepth + ++suffixes > kMaxNestingDepth) {
      error(tok.pos,
            "nesting deeper than " + Twine(kMaxNestingDepth) + " levels");
      return nullptr;
    }
    advance();
    if (!optional && !expect(TokKind::RBracket, "']' after '[' in list type"))
      return nullptr;
    t = wrapType(optional ? TypeExpr::Kind::Optional : TypeExpr::Kind::List,
                 std::move(t));
  }
}

enum class TypeName {
  Unknown,
  Simple,      // a kind with nothing more to parse
  Tensor,      // Tensor / Dynamic
  DType,       // Float, Long, ... with optional `(sizes, keywords)`
  DTypeTensor, // FloatTensor, LongTensor, ...: dtype without a rank
  Tuple,       // Tuple / tuple
  List,        // List / list
  Optional,
  Dict,
  Union,
  Future,
  NamedTuple, // NamedTuple(a : T, b : U = default)
  Enum,       // Enum<__torch__.Color>
};

std::unique_ptr<TypeExpr> Parser::parsePrimaryType() {
  using K = TypeExpr::Kind;
  auto t = std::make_unique<TypeExpr>();
  t->pos = tok.pos;
  if (tok.kind == TokKind::LParen) { // (T, U) / ()
    t->kind = K::Tuple;
    if (!parseTypeArgs(*t, 0, SIZE_MAX))
      return nullptr;
    return t;
  }
  if (tok.kind != TokKind::Ident) {
    expected("a type");
    return nullptr;
  }
  StringRef name = tok.text;
  TypeName what =
      llvm::StringSwitch<TypeName>(name)
          .Cases({"Tensor", "Dynamic", "UndefinedTensor"}, TypeName::Tensor)
          .Cases({"Float", "Double", "Half", "BFloat16", "Long", "Int", "Short",
                  "Char", "Byte", "Bool"},
                 TypeName::DType)
          .Cases({"ComplexFloat", "ComplexDouble", "ComplexHalf", "QInt8",
                  "QUInt8", "QInt32", "QUInt4x2", "QUInt2x4", "UInt16",
                  "UInt32", "UInt64"},
                 TypeName::DType)
          .Cases({"Float8_e5m2", "Float8_e4m3fn", "Float8_e5m2fnuz",
                  "Float8_e4m3fnuz"},
                 TypeName::DType)
          .Cases({"Tuple", "tuple"}, TypeName::Tuple)
          .Cases({"List", "list"}, TypeName::List)
          .Case("Optional", TypeName::Optional)
          .Case("Dict", TypeName::Dict)
          .Case("Union", TypeName::Union)
          .Case("Future", TypeName::Future)
          .Case("NamedTuple", TypeName::NamedTuple)
          .Case("Enum", TypeName::Enum)
          .Default(TypeName::Unknown);
  if (what == TypeName::Unknown && name.ends_with("Tensor") &&
      llvm::StringSwitch<bool>(name.drop_back(strlen("Tensor")))
          .Cases({"Float", "Double", "Half", "BFloat16", "Long", "Int", "Short",
                  "Char", "Byte", "Bool", "ComplexFloat", "ComplexDouble"},
                 true)
          .Cases({"QInt8", "QUInt8", "QInt32", "QUInt4x2", "QUInt2x4"}, true)
          .Default(false))
    what = TypeName::DTypeTensor;
  std::optional<K> simple = llvm::StringSwitch<std::optional<K>>(name)
                                .Case("int", K::Int)
                                .Case("float", K::Float)
                                .Case("bool", K::Bool)
                                .Case("complex", K::Complex)
                                .Cases({"str", "string"}, K::Str)
                                .Cases({"None", "NoneType"}, K::None)
                                .Case("Device", K::Device)
                                .Cases({"Scalar", "number"}, K::Number)
                                .Case("Layout", K::Layout)
                                .Case("ScalarType", K::ScalarTypeK)
                                .Case("MemoryFormat", K::MemoryFormat)
                                .Case("Generator", K::Generator)
                                .Case("Storage", K::Storage)
                                .Case("Stream", K::Stream)
                                .Case("Capsule", K::Capsule)
                                .Case("Any", K::Any)
                                .Case("World", K::World)
                                .Case("Handle", K::Handle)
                                .Case("Function", K::Function)
                                .Case("AnyEnumType", K::AnyEnum)
                                .Case("QScheme", K::QScheme)
                                .Default(std::nullopt);
  if (simple)
    what = TypeName::Simple;
  switch (what) {
  case TypeName::Simple:
    t->kind = *simple;
    advance();
    return t;
  case TypeName::Tensor:
    legacy |= name != "Tensor"; // Dynamic and UndefinedTensor are 2018's
    t->kind = K::Tensor;
    advance();
    // `Tensor(2, *)`: refined sizes or device without a dtype. Torch spells
    // an unknown rank `Tensor(device=cpu)` here, like `FloatTensor(...)`.
    if (name == "Tensor" && tok.kind == TokKind::LParen) {
      if (!parseTensorArgs(*t))
        return nullptr;
      t->hasSizes = !t->sizes.empty();
    }
    return t;
  case TypeName::DType:
    t->kind = K::Tensor;
    t->dtype = name;
    advance();
    if (tok.kind == TokKind::LParen && !parseTensorArgs(*t))
      return nullptr;
    return t;
  case TypeName::DTypeTensor:
    // `FloatTensor(requires_grad=0, device=cpu)`: dtype known, rank not.
    t->kind = K::Tensor;
    t->dtype = name.drop_back(strlen("Tensor"));
    advance();
    if (tok.kind == TokKind::LParen) {
      if (!parseTensorArgs(*t))
        return nullptr;
      if (!t->sizes.empty()) {
        error(t->pos, "'" + name + "' takes no sizes; write '" + t->dtype +
                          "(...)' for a tensor of known rank");
        return nullptr;
      }
      t->hasSizes = false;
    }
    return t;
  case TypeName::Tuple:
  case TypeName::List: {
    bool isTuple = what == TypeName::Tuple;
    t->kind = isTuple ? K::AnyTuple : K::AnyList;
    advance();
    if (tok.kind != TokKind::LBracket)
      return t;
    // `Tuple[]` is a list of tuples; `Tuple[int]` a tuple of an int.
    Lexer::State state = lex.save();
    if (lex.next().kind == TokKind::RBracket) {
      lex.restore(state);
      return t;
    }
    lex.restore(state);
    t->kind = isTuple ? K::Tuple : K::List;
    if (!parseTypeArgs(*t, isTuple ? 0 : 1, isTuple ? SIZE_MAX : 1))
      return nullptr;
    // Python's spelling of the empty tuple: Tuple[()].
    if (isTuple && t->elements.size() == 1 &&
        t->elements[0]->kind == K::Tuple && t->elements[0]->elements.empty())
      t->elements.clear();
    return t;
  }
  case TypeName::Optional:
  case TypeName::Dict:
  case TypeName::Union:
  case TypeName::Future: {
    // Both the `Dict(K, V)` (annotation_str) and `Dict[K, V]` spellings.
    size_t arity = what == TypeName::Dict ? 2 : 1;
    t->kind = what == TypeName::Optional ? K::Optional
              : what == TypeName::Dict   ? K::Dict
              : what == TypeName::Union  ? K::Union
                                         : K::Future;
    advance();
    if (tok.kind != TokKind::LParen && tok.kind != TokKind::LBracket) {
      expected("'[' or '(' after '" + name + "'");
      return nullptr;
    }
    if (!parseTypeArgs(*t, arity, what == TypeName::Union ? SIZE_MAX : arity))
      return nullptr;
    return t;
  }
  case TypeName::NamedTuple:
    t->kind = K::NamedTuple;
    advance();
    if (!parseNamedTupleFields(*t))
      return nullptr;
    return t;
  case TypeName::Enum:
    // `Enum<__torch__.Color>`: EnumType::str() around the qualified name.
    t->kind = K::Enum;
    advance();
    if (!expect(TokKind::Less, "'<' after 'Enum'"))
      return nullptr;
    if (tok.kind != TokKind::Ident) {
      expected("an enum's qualified name such as '__torch__.Color'");
      return nullptr;
    }
    t->name = tok.text;
    advance();
    if (!expect(TokKind::Greater, "'>' closing 'Enum<'"))
      return nullptr;
    return t;
  case TypeName::Unknown:
    break;
  }
  // Class types print as qualified names: __torch__.foo.___torch_mangle_3.Bar.
  if (name.starts_with("__torch__") || name.contains('.')) {
    t->kind = K::Class;
    t->name = name;
    advance();
    return t;
  }
  error(tok.pos, "unknown type '" + name + "'");
  return nullptr;
}

/// After `NamedTuple`: `(a : T, b : U = default)`, as torch's operator<<
/// for a tuple type with a schema prints it (field defaults as IValues).
bool Parser::parseNamedTupleFields(TypeExpr &t) {
  if (!expect(TokKind::LParen, "'(' after 'NamedTuple'"))
    return false;
  while (tok.kind != TokKind::RParen) {
    if (!t.fields.empty() &&
        !expect(TokKind::Comma, "',' or ')' after NamedTuple field"))
      return false;
    if (tok.kind != TokKind::Ident)
      return expected("NamedTuple field name");
    TypeExpr::Field &field = t.fields.emplace_back();
    field.name = tok.text;
    if (llvm::any_of(
            llvm::ArrayRef(t.fields).drop_back(),
            [&](const TypeExpr::Field &f) { return f.name == field.name; }))
      return error(tok.pos, "duplicate NamedTuple field '" + tok.text + "'");
    advance();
    if (!expect(TokKind::Colon, "':' after NamedTuple field name"))
      return false;
    std::unique_ptr<TypeExpr> element = parseType();
    if (!element)
      return false;
    t.elements.push_back(std::move(element));
    if (tok.kind == TokKind::Equal) {
      // The lexer has read the '=' only; the default is raw text after it.
      SourcePos pos;
      if (!lex.scanFieldDefault(field.defaultText, pos))
        return error(lex.errorPos(), lex.errorMessage());
      field.hasDefault = true;
      advance();
    }
  }
  advance();
  return true;
}

/// At '(' or '[': `(T, U)` / `[T, U]`, with between minArgs and maxArgs
/// types.
bool Parser::parseTypeArgs(TypeExpr &t, size_t minArgs, size_t maxArgs) {
  TokKind closer =
      tok.kind == TokKind::LBracket ? TokKind::RBracket : TokKind::RParen;
  advance();
  const char *closeText = closer == TokKind::RBracket ? "']'" : "')'";
  if (tok.kind != closer) {
    for (;;) {
      std::unique_ptr<TypeExpr> e = parseType();
      if (!e)
        return false;
      t.elements.push_back(std::move(e));
      if (tok.kind == closer)
        break;
      if (!expect(TokKind::Comma, Twine("',' or ") + closeText + " in type"))
        return false;
    }
  }
  if (t.elements.size() < minArgs || t.elements.size() > maxArgs)
    return error(tok.pos, "wrong number of type arguments: got " +
                              Twine(t.elements.size()) + ", expected " +
                              (minArgs == maxArgs ? "" : "at least ") +
                              Twine(minArgs));
  advance();
  return true;
}

/// One size or stride: `3`, `*`, `3!` (2019 non-contiguous marker, only for
/// sizes) or `SS(-2)` (a symbolic size); unknown ones are -1.
bool Parser::parseDim(std::vector<int64_t> &dims, bool *bang) {
  if (tok.kind == TokKind::Star) {
    dims.push_back(-1);
    advance();
  } else if (isIdent("SS")) {
    advance();
    int64_t ignored;
    if (!expect(TokKind::LParen, "'(' after 'SS'") || !parseInt(ignored) ||
        !expect(TokKind::RParen, "')' after symbolic size"))
      return false;
    dims.push_back(-1);
  } else {
    int64_t v;
    if (tok.kind != TokKind::Number || tok.text.starts_with("-") ||
        tok.text.find_first_of(".eE") != StringRef::npos)
      return expected("a dimension size or '*'");
    if (!parseInt(v))
      return false;
    dims.push_back(v);
  }
  if (bang && tok.kind == TokKind::Bang) {
    *bang = true;
    advance();
  }
  return true;
}

/// `(2, *, 3!, strides=[3, 1], requires_grad=0, device=cuda:0)` after a
/// dtype name; `Long()` and `Float(requires_grad=0)` are 0-d tensors.
bool Parser::parseTensorArgs(TypeExpr &t) {
  advance(); // '('
  // Torch prints the rank whenever it knows it, so `Float(device=cpu)` is a
  // 0-d tensor (an unknown rank prints as `FloatTensor(...)`).
  t.hasSizes = true;
  if (tok.kind == TokKind::Comma) // `Float(, requires_grad=0)` from 0-d
    advance();                    // tensors in some torch versions.
  if (tok.kind == TokKind::RParen) {
    t.hasSizes = true;
    advance();
    return true;
  }
  std::vector<bool> bangs;
  bool anyBang = false;
  for (;;) {
    if (tok.kind == TokKind::Ident && tok.text != "SS") {
      StringRef key = tok.text;
      SourcePos keyPos = tok.pos;
      advance();
      if (!expect(TokKind::Equal, "'=' after '" + key + "' in tensor type"))
        return false;
      if (key == "strides") {
        if (!expect(TokKind::LBracket, "'[' after 'strides='"))
          return false;
        t.hasStrides = true;
        while (tok.kind != TokKind::RBracket) {
          if (!t.strides.empty() &&
              !expect(TokKind::Comma, "',' or ']' in strides"))
            return false;
          if (!parseDim(t.strides, nullptr))
            return false;
        }
        advance();
      } else if (key == "requires_grad") {
        if (tok.kind == TokKind::Number && (tok.text == "0" || tok.text == "1"))
          t.requiresGrad = tok.text == "1";
        else if (isIdent("True") || isIdent("False"))
          t.requiresGrad = tok.text == "True";
        else
          return expected("0 or 1 after 'requires_grad='");
        advance();
      } else if (key == "device") {
        // cpu, cuda:0 — one span of the buffer across the ':'.
        if (tok.kind != TokKind::Ident)
          return expected("device name such as 'cpu' or 'cuda:0'");
        const char *begin = tok.text.begin(), *stop = tok.text.end();
        advance();
        if (tok.kind == TokKind::Colon) {
          advance();
          if (tok.kind != TokKind::Number)
            return expected("device index after ':'");
          stop = tok.text.end();
          advance();
        }
        t.device = StringRef(begin, stop - begin);
      } else {
        return error(keyPos, "unknown tensor type keyword '" + key +
                                 "'; expected strides, requires_grad or "
                                 "device");
      }
    } else {
      bool bang = false;
      if (!parseDim(t.sizes, &bang))
        return false;
      t.hasSizes = true;
      bangs.push_back(bang);
      anyBang |= bang;
    }
    if (tok.kind == TokKind::RParen)
      break;
    if (!expect(TokKind::Comma, "',' or ')' in tensor type"))
      return false;
  }
  advance();
  if (anyBang)
    t.legacyNonContiguous = std::move(bangs);
  return true;
}

//===----------------------------------------------------------------------===//
// Attribute values
//===----------------------------------------------------------------------===//

/// After the node kind, at '[': `[name=value, ...]`.
bool Parser::parseAttrs(Node &n) {
  advance();
  while (tok.kind != TokKind::RBracket) {
    if (!n.attrs.empty() &&
        !expect(TokKind::Comma, "',' or ']' after attribute value"))
      return false;
    if (tok.kind != TokKind::Ident)
      return expected("attribute name");
    // Torch keeps attributes by name, so a name printed twice is no dump.
    if (llvm::any_of(n.attrs,
                     [&](const NamedAttr &a) { return a.name == tok.text; }))
      return error(tok.pos, "duplicate attribute '" + tok.text + "'");
    NamedAttr &a = n.attrs.emplace_back();
    a.name = tok.text;
    a.pos = tok.pos;
    advance();
    if (!expect(TokKind::Equal, "'=' after attribute name '" + a.name + "'") ||
        !parseAttrValue(a.value))
      return false;
  }
  advance();
  return true;
}

bool Parser::parseInt(int64_t &out) {
  if (tok.kind != TokKind::Number ||
      tok.text.find_first_of(".eE") != StringRef::npos)
    return expected("an integer");
  if (!parseInt64Literal(tok.text, out))
    return error(tok.pos, "integer literal out of range");
  advance();
  return true;
}

/// 3, -9223372036854775808, 2., 1e-05, inf, -inf, nan.
bool Parser::parseScalar(Scalar &s) {
  bool neg = false;
  if (tok.kind == TokKind::Minus) {
    neg = true;
    advance();
    if (!isIdent("inf"))
      return expected("a number or 'inf' after '-'");
  }
  if (isIdent("inf") || isIdent("nan")) {
    s.isFloat = true;
    s.d = tok.text == "nan" ? std::numeric_limits<double>::quiet_NaN()
                            : std::numeric_limits<double>::infinity();
    if (neg)
      s.d = -s.d;
    advance();
    return true;
  }
  if (tok.kind != TokKind::Number)
    return expected("a number");
  if (tok.text.ends_with("j"))
    return parseComplex(s);
  if (tok.text.find_first_of(".eE") == StringRef::npos) {
    s.isFloat = false;
    return parseInt(s.i);
  }
  s.isFloat = true;
  if (tok.text.getAsDouble(s.d))
    return error(tok.pos, "invalid floating-point literal '" + tok.text + "'");
  advance();
  return true;
}

/// `3.j`, `-3.14j`: an imaginary number, as torch's parser reads one;
/// `1.+2.j`: a complex one, as torch prints it (real part, sign, imaginary
/// part; the sign of an exponent is no split point).
bool Parser::parseComplex(Scalar &s) {
  StringRef text = tok.text.drop_back(); // the 'j'
  size_t split = StringRef::npos;
  for (size_t i = 1; i < text.size(); ++i)
    if ((text[i] == '+' || text[i] == '-') && text[i - 1] != 'e' &&
        text[i - 1] != 'E')
      split = i;
  StringRef real = split == StringRef::npos ? StringRef() : text.take_front(split);
  StringRef imag = split == StringRef::npos ? text : text.drop_front(split);
  imag.consume_front("+");
  s.isFloat = s.isComplex = true;
  s.d = 0;
  if ((!real.empty() && real.getAsDouble(s.d)) || imag.getAsDouble(s.im))
    return error(tok.pos, "invalid complex literal '" + tok.text + "'");
  advance();
  return true;
}

bool Parser::decodeString(AttrValue &v) {
  v.kind = AttrValue::Kind::Str;
  size_t offset;
  std::string message;
  if (!decodeStringLiteral(tok.text, v.str, offset, message))
    return error({tok.pos.line, tok.pos.col + static_cast<uint32_t>(offset)},
                 message);
  advance();
  return true;
}

bool Parser::parseValueSeq(AttrValue &v, TokKind closer) {
  advance();
  while (tok.kind != closer) {
    if (!parseAttrValue(v.elements.emplace_back()))
      return false;
    if (tok.kind == TokKind::Comma)
      advance(); // also allows `(1,)`
    else if (tok.kind != closer)
      return expected(closer == TokKind::RBracket ? "',' or ']' in list"
                                                  : "',' or ')' in tuple");
  }
  advance();
  return true;
}

/// A number, or the first element of an inline tensor.
bool Parser::parseNumberValue(AttrValue &v) {
  Scalar s;
  if (!parseScalar(s))
    return false;
  if (s.isComplex) {
    v.kind = AttrValue::Kind::Complex;
    v.floatValue = s.d;
    v.imagValue = s.im;
    return true;
  }
  if (continuesTensor())
    return parseInlineTensor(v, &s);
  v.kind = s.isFloat ? AttrValue::Kind::Float : AttrValue::Kind::Int;
  v.intValue = s.i;
  v.floatValue = s.asDouble();
  return true;
}

bool Parser::parseAttrValue(AttrValue &v) {
  using K = AttrValue::Kind;
  DepthGuard guard(valueDepth);
  if (tooDeep(guard))
    return false;
  v.pos = tok.pos;
  switch (tok.kind) {
  case TokKind::Number:
  case TokKind::Minus:
    return parseNumberValue(v);
  case TokKind::String:
    return decodeString(v);
  case TokKind::LBracket:
    if (lex.atTensorTrailer()) // an empty tensor: `[ CPUFloatType{0} ]`
      return parseInlineTensor(v, nullptr);
    v.kind = K::List;
    return parseValueSeq(v, TokKind::RBracket);
  case TokKind::LParen:
    if (lex.atSliceHeader()) // `(1,.,.) = ...`, a 3-d+ inline tensor
      return parseInlineTensor(v, nullptr);
    v.kind = K::Tuple;
    return parseValueSeq(v, TokKind::RParen);
  case TokKind::LBrace: { // 2019 boxed scalar: `alpha={1}`
    advance();
    Scalar s;
    if (!parseScalar(s))
      return false;
    if (s.isComplex)
      return error(v.pos, "complex values in inline tensors are not supported");
    if (!expect(TokKind::RBrace, "'}' after scalar"))
      return false;
    // Torch printed the value with operator<<, so `{1}` may be a float
    // tensor; keep the number both ways and leave the dtype open.
    v.kind = K::Tensor;
    v.legacyScalarTensor = true;
    v.intValue = !s.isFloat                ? s.i
                 : std::fabs(s.d) < 9.2e18 ? static_cast<int64_t>(s.d)
                                           : 0; // inf/nan/huge: no int
    v.floatValue = s.asDouble();
    v.tensorValues.push_back(s.asDouble());
    if (!s.isFloat)
      v.tensorInts.push_back(s.i);
    return true;
  }
  case TokKind::Less: // <Tensor>, <Graph>: the data lives outside the text.
    advance();
    if (!isIdent("Tensor") && !isIdent("Graph"))
      return expected("'Tensor' or 'Graph' after '<'");
    v.kind = tok.text == "Graph" ? K::GraphRef : K::TensorRef;
    advance();
    return expect(TokKind::Greater, "'>' closing '<" +
                                        Twine(v.kind == K::GraphRef
                                                  ? "Graph"
                                                  : "Tensor") +
                                        "'");
  case TokKind::Ident:
    if (tok.text == "inf" || tok.text == "nan")
      return parseNumberValue(v);
    if (tok.text == "True" || tok.text == "False") {
      v.kind = K::Bool;
      v.boolValue = tok.text == "True";
      v.intValue = v.boolValue;
      advance();
      return true;
    }
    if (tok.text == "Columns") // a wide matrix printed in column blocks
      return parseInlineTensor(v, nullptr);
    if (tok.text == "annotate") {
      advance();
      v.kind = K::Annotated;
      if (!expect(TokKind::LParen, "'(' after 'annotate'") ||
          !(v.type = parseType()) ||
          !expect(TokKind::Comma, "',' after annotated type") ||
          !parseAttrValue(v.elements.emplace_back()))
        return false;
      return expect(TokKind::RParen, "')' closing 'annotate('");
    }
    v.kind = K::Type; // `types=[Float(1, 2)]`
    v.type = parseType();
    return v.type != nullptr;
  default:
    return expected("attribute value");
  }
}

//===----------------------------------------------------------------------===//
// Inline tensors
//===----------------------------------------------------------------------===//
//
// Torch prints small tensor constants with operator<< and newlines turned
// into spaces:  ` 0.1 -0.2 [ CPUFloatType{2} ]`, with an optional scale
// (`0.01 * -7.2  3.1 [ ... ]`), `(1,.,.) =` headers before each matrix of a
// 3-d+ tensor and, for wide matrices, `Columns 1 to 6` blocks.

/// After a leading number: does more tensor text follow it?
bool Parser::continuesTensor() const {
  switch (tok.kind) {
  case TokKind::Number:
  case TokKind::Star:
  case TokKind::Minus:
    return true;
  case TokKind::Ident:
    return tok.text == "inf" || tok.text == "nan" || tok.text == "Columns";
  case TokKind::LBracket:
    return lex.atTensorTrailer();
  case TokKind::LParen:
    return lex.atSliceHeader();
  default:
    return false;
  }
}

bool Parser::parseInlineTensor(AttrValue &v, const Scalar *first) {
  v.kind = AttrValue::Kind::Tensor;
  double scale = 1;
  bool lastWasNumber = false;
  double lastRaw = 0;
  llvm::SmallVector<int64_t, 8> colBlocks; // (valueIndex, first, last)...
  // Integer literals, kept exactly while every value is one.
  bool integral = true;
  auto record = [&](const Scalar &s) {
    if (s.isComplex)
      return error(v.pos, "complex values in inline tensors are not supported");
    lastRaw = s.asDouble();
    v.tensorValues.push_back(lastRaw * scale);
    integral &= !s.isFloat && scale == 1;
    if (integral)
      v.tensorInts.push_back(s.i);
    lastWasNumber = true;
    return true;
  };
  if (first && !record(*first))
    return false;
  for (;;) {
    if (tok.kind == TokKind::LBracket) {
      if (!parseTensorTrailer(v))
        return false;
      break;
    }
    if (tok.kind == TokKind::Star) {
      // `0.01 *`: the number just read was a scale, not an element.
      if (!lastWasNumber)
        return expected("a number before '*' in inline tensor");
      scale = lastRaw;
      v.tensorValues.pop_back();
      if (integral && !v.tensorInts.empty())
        v.tensorInts.pop_back();
      integral &= scale == 1;
      lastWasNumber = false;
      advance();
      continue;
    }
    lastWasNumber = false;
    if (tok.kind == TokKind::Number || tok.kind == TokKind::Minus ||
        isIdent("inf") || isIdent("nan")) {
      Scalar s;
      if (!parseScalar(s) || !record(s))
        return false;
    } else if (isIdent("Columns")) {
      advance();
      int64_t a, b;
      if (!parseInt(a))
        return false;
      if (!isIdent("to"))
        return expected("'to' in 'Columns N to M'");
      advance();
      if (!parseInt(b))
        return false;
      colBlocks.append({static_cast<int64_t>(v.tensorValues.size()), a, b});
    } else if (tok.kind == TokKind::LParen && lex.atSliceHeader()) {
      // `(2,1,.,.) =`: the values are row-major anyway, so skip it.
      advance();
      while (tok.kind != TokKind::RParen) {
        if (tok.kind != TokKind::Number && tok.kind != TokKind::Dot &&
            tok.kind != TokKind::Comma)
          return expected("index, '.' or ')' in inline tensor slice header");
        advance();
      }
      advance();
      if (!expect(TokKind::Equal, "'=' after inline tensor slice header"))
        return false;
    } else {
      return expected("a number or '[ CPU<Type>Type{...} ]' in inline tensor");
    }
  }

  // Check the element count against the shape, then undo column blocks.
  uint64_t numel = 1;
  for (int64_t d : v.tensorShape) {
    if (d < 0 || (d != 0 && numel > UINT64_MAX / static_cast<uint64_t>(d)))
      return error(v.pos, "inline tensor shape is out of range");
    numel *= static_cast<uint64_t>(d);
  }
  if (numel != v.tensorValues.size())
    return error(v.pos, "inline tensor has " + Twine(v.tensorValues.size()) +
                            " values but its shape needs " + Twine(numel));
  if (!integral)
    v.tensorInts.clear();
  return colBlocks.empty() || reorderColumns(v, colBlocks);
}

/// `[ CPUFloatType{2,3} ]`: element type and shape.
bool Parser::parseTensorTrailer(AttrValue &v) {
  advance();
  if (tok.kind != TokKind::Ident)
    return expected("tensor type such as 'CPUFloatType'");
  StringRef name = tok.text;
  StringRef dtype = name;
  bool known = dtype.consume_back("Type");
  bool quantized = false;
  if (known) {
    quantized = dtype.consume_front("QuantizedCPU") ||
                dtype.consume_front("QuantizedCUDA");
    known = quantized || dtype.consume_front("CUDA") ||
            dtype.consume_front("CPU") || dtype.consume_front("MPS") ||
            dtype.consume_front("XPU") || dtype.consume_front("Meta");
  }
  if (!known || dtype.empty())
    return error(tok.pos, "unknown inline tensor type '" + name +
                              "'; expected CPU<Name>Type or CUDA<Name>Type");
  v.tensorDtype = dtype;
  advance();
  if (!expect(TokKind::LBrace, "'{' after inline tensor type"))
    return false;
  while (tok.kind != TokKind::RBrace) {
    if (!v.tensorShape.empty() &&
        !expect(TokKind::Comma, "',' or '}' in inline tensor shape"))
      return false;
    int64_t d;
    if (!parseInt(d))
      return false;
    v.tensorShape.push_back(d);
  }
  advance();
  if (quantized) {
    if (inQuantizer)
      return error(v.pos, "a quantizer's scales and zero points are not "
                          "quantized tensors");
    if (!parseQuantizer(v))
      return false;
  }
  return expect(TokKind::RBracket, "']' closing inline tensor");
}

/// After a quantized tensor's shape: `, qscheme: per_tensor_affine, scale:
/// 0.1000, zero_point: 0` or `, qscheme: per_channel_affine, scales: ...
/// [ CPUDoubleType{2} ], zero_points: ... [ CPULongType{2} ], axis: 0`, as
/// aten's Formatting.cpp prints them.
bool Parser::parseQuantizer(AttrValue &v) {
  auto q = std::make_unique<Quantizer>();
  if (!expect(TokKind::Comma, "', qscheme:' after a quantized tensor's shape"))
    return false;
  if (!isIdent("qscheme"))
    return expected("'qscheme' after a quantized tensor's shape");
  advance();
  if (!expect(TokKind::Colon, "':' after 'qscheme'"))
    return false;
  if (tok.kind != TokKind::Ident)
    return expected("a qscheme such as 'per_tensor_affine'");
  q->qscheme = tok.text;
  q->pos = tok.pos;
  advance();
  while (tok.kind == TokKind::Comma) {
    advance();
    if (tok.kind != TokKind::Ident)
      return expected("'scale', 'zero_point', 'scales', 'zero_points' or "
                      "'axis' in a quantized tensor");
    StringRef key = tok.text;
    SourcePos keyPos = tok.pos;
    advance();
    if (!expect(TokKind::Colon, "':' after '" + key + "'"))
      return false;
    auto once = [&](bool seen) {
      return !seen ||
             error(keyPos, "'" + key + "' given twice in a quantized tensor");
    };
    if (key == "scale") {
      Scalar scale;
      if (!once(q->scale.has_value()) || !parseScalar(scale))
        return false;
      if (scale.isComplex)
        return error(keyPos, "a quantized tensor's scale is a real number");
      q->scale = scale.asDouble();
    } else if (key == "zero_point") {
      int64_t zeroPoint;
      if (!once(q->zeroPoint.has_value()) || !parseInt(zeroPoint))
        return false;
      q->zeroPoint = zeroPoint;
    } else if (key == "axis") {
      int64_t axis;
      if (!once(q->axis.has_value()) || !parseInt(axis))
        return false;
      q->axis = axis;
    } else if (key == "scales" || key == "zero_points") {
      std::unique_ptr<AttrValue> &slot =
          key == "scales" ? q->scales : q->zeroPoints;
      if (!once(slot != nullptr))
        return false;
      slot = std::make_unique<AttrValue>();
      inQuantizer = true;
      bool ok = parseAttrValue(*slot);
      inQuantizer = false;
      if (!ok)
        return false;
      if (slot->kind != AttrValue::Kind::Tensor || slot->legacyScalarTensor)
        return error(slot->pos, "'" + key +
                                    "' of a quantized tensor is an "
                                    "inline tensor such as ' 0.1 "
                                    "[ CPUDoubleType{1} ]'");
    } else {
      return error(keyPos, "unexpected '" + key + "' in a quantized tensor");
    }
  }
  v.quantizer = std::move(q);
  return true;
}

/// A matrix wider than a line prints as column blocks, each holding every
/// row; put the values back in row-major order.
bool Parser::reorderColumns(AttrValue &v, llvm::ArrayRef<int64_t> colBlocks) {
  if (v.tensorShape.size() < 2)
    return error(v.pos, "'Columns' blocks in an inline tensor of rank < 2");
  uint64_t cols = v.tensorShape.back();
  uint64_t rows = v.tensorShape[v.tensorShape.size() - 2];
  std::vector<double> out(v.tensorValues.size());
  std::vector<int64_t> outInts(v.tensorInts.size());
  size_t block = 0, in = 0;
  for (size_t base = 0; base < out.size(); base += rows * cols) {
    for (uint64_t col = 0; col < cols;) {
      if (block * 3 >= colBlocks.size() ||
          colBlocks[block * 3] != static_cast<int64_t>(in) ||
          colBlocks[block * 3 + 1] != static_cast<int64_t>(col + 1) ||
          colBlocks[block * 3 + 2] <= static_cast<int64_t>(col) ||
          colBlocks[block * 3 + 2] > static_cast<int64_t>(cols))
        return error(v.pos, "inconsistent 'Columns' blocks in inline tensor");
      uint64_t width = colBlocks[block * 3 + 2] - col;
      ++block;
      for (uint64_t r = 0; r < rows; ++r)
        for (uint64_t c = 0; c < width; ++c, ++in) {
          out[base + r * cols + col + c] = v.tensorValues[in];
          if (!outInts.empty())
            outInts[base + r * cols + col + c] = v.tensorInts[in];
        }
      col += width;
    }
  }
  v.tensorValues = std::move(out);
  v.tensorInts = std::move(outInts);
  return true;
}

} // namespace

std::optional<GraphFile> tsir::ts::parseGraphText(StringRef text,
                                                  ParseError &error) {
  GraphFile file;
  Parser parser(text, error);
  if (!parser.parseFile(file))
    return std::nullopt;
  return file;
}
