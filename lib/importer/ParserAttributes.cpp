//===- ParserAttributes.cpp - Attribute values in graph text --------------===//
//
// Node attributes and constant values: numbers (complex included),
// strings, lists, `<Tensor>`, devices and dtypes, and the inline tensors
// torch prints with operator<< (newlines turned into spaces, column blocks
// reordered, quantized tensors with their quantizer). Part of the Parser
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
  case TokKind::LBrace: { // 2019 boxed scalar: `alpha={1}`, or a dict
    advance();
    // A dict constant (`annotate(Dict[str, Tensor], {})`, the losses a
    // detection model returns in eval mode, or `{"a": 1}`): keys and
    // values alternate in `elements`.
    if (tok.kind == TokKind::RBrace || tok.kind == TokKind::String) {
      v.kind = K::Dict;
      while (tok.kind != TokKind::RBrace) {
        if (!v.elements.empty() && !expect(TokKind::Comma, "',' between dict entries"))
          return false;
        if (!parseAttrValue(v.elements.emplace_back()) ||
            !expect(TokKind::Colon, "':' after a dict key") ||
            !parseAttrValue(v.elements.emplace_back()))
          return false;
      }
      advance();
      return true;
    }
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
  case TokKind::Less: { // <Tensor>, <Tensors>, <Graph>: the data lives
                        // outside the text.
    advance();
    if (!isIdent("Tensor") && !isIdent("Tensors") && !isIdent("Graph"))
      return expected("'Tensor', 'Tensors' or 'Graph' after '<'");
    std::string what = tok.text.str();
    v.kind = what == "Graph"     ? K::GraphRef
             : what == "Tensors" ? K::TensorListRef
                                 : K::TensorRef;
    advance();
    return expect(TokKind::Greater, "'>' closing '<" + what + "'");
  }
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
