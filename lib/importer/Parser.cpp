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

#include "GraphParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace tsir::ts;
using namespace tsir::ts::detail;
using llvm::StringRef;
using llvm::Twine;

static std::string formatPos(SourcePos p) {
  return std::to_string(p.line) + ":" + std::to_string(p.col);
}

static bool isBlockName(StringRef s) {
  if (!s.consume_front("block") || s.empty())
    return false;
  return llvm::all_of(s, [](char c) { return c >= '0' && c <= '9'; });
}

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

static std::string describe(const Token &t) {
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

std::optional<GraphFile> tsir::ts::parseGraphText(StringRef text,
                                                  ParseError &error) {
  GraphFile file;
  Parser parser(text, error);
  if (!parser.parseFile(file))
    return std::nullopt;
  return file;
}

