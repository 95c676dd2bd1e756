//===- ParserTypes.cpp - Types in graph text ------------------------------===//
//
// The types torch prints, every era's spelling: `Tensor`, `Float(2, 3,
// strides=[3, 1], requires_grad=0, device=cpu)`, the 2019 `Float(3!, 20)`,
// `int[]`, `Tensor?`, tuples and NamedTuples, `Dict(str, Tensor)`, classes
// and enums, each nesting bounded by kMaxNestingDepth. Part of the Parser
// (GraphParser.h).
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

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static std::unique_ptr<TypeExpr> wrapType(TypeExpr::Kind kind,
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

