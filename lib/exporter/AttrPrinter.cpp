//===- AttrPrinter.cpp - TorchScript spellings of constants and attributes ===//
//
// Numbers, strings, prim::Constant values and node attributes as torch 1.13
// prints them (IValue's and Node::printAttrValue's operator<<), except where
// torch's text loses information that tsir's importer would then lose too:
// tensor elements print with as many digits as re-reading them exactly
// takes, not torch's four.
//
//===----------------------------------------------------------------------===//

#include "Printers.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace mlir;
using namespace tsir;
namespace prim = tsir::prim;

//===----------------------------------------------------------------------===//
// Numbers and strings
//===----------------------------------------------------------------------===//

std::string exporter::formatDouble(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  // torch prints small integral values as `2.` (and -0.0 as `-0.`) ...
  if (std::fabs(value) < 1e10 && value == std::trunc(value)) {
    std::string text = std::to_string(static_cast<int64_t>(value)) + ".";
    return std::signbit(value) && value == 0 ? "-" + text : text;
  }
  // ... and everything else with max_digits10 significant digits, which
  // reads back as the same double.
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  std::string text = buffer;
  // torch prints 1e16 as `10000000000000000`, which reads back as an int;
  // the `.` keeps it a float.
  if (text.find_first_of(".e") == std::string::npos)
    text += '.';
  return text;
}

void exporter::printQuotedString(StringRef text, raw_ostream &os) {
  // The escapes c10::printQuotedString writes, and the letters it uses.
  static constexpr StringLiteral kEscaped = "\\'\"\a\b\f\n\r\t\v";
  static constexpr StringLiteral kLetters = "\\'\"abfnrtv";
  os << '"';
  for (unsigned char c : text) {
    if (size_t i = kEscaped.find(c); i != StringRef::npos) {
      os << '\\' << kLetters[i];
    } else if (llvm::isPrint(c)) {
      os << c;
    } else {
      // Three octal digits, as c10::printQuotedString intends (it prints
      // bytes >= 0x80 wrongly, as negative chars).
      os << '\\' << static_cast<char>('0' + (c >> 6))
         << static_cast<char>('0' + ((c >> 3) & 7))
         << static_cast<char>('0' + (c & 7));
    }
  }
  os << '"';
}

/// The shortest decimal that the importer's path (text -> double -> the
/// element type, rounding to nearest even) maps back to `value` exactly.
static std::string formatElement(const APFloat &value) {
  if (value.isNaN())
    return "nan";
  if (value.isInfinity())
    return value.isNegative() ? "-inf" : "inf";
  if (value.isZero() && value.isNegative())
    return "-0."; // `-0` would read back as the integer 0.
  APFloat asDouble = value;
  bool lost;
  asDouble.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  double d = asDouble.convertToDouble();
  char buffer[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, d);
    APFloat reread(std::strtod(buffer, nullptr));
    reread.convert(value.getSemantics(), APFloat::rmNearestTiesToEven, &lost);
    if (reread.bitwiseIsEqual(value))
      break;
  }
  return buffer;
}

/// A complex number. torch prints `1.+2.j`, which its own parser cannot
/// read; it reads only imaginary literals (`2.j`, `-3.14j`), so a number
/// with no real part prints as one.
static std::string formatComplex(double real, double imag) {
  if (real == 0 && !std::signbit(real) && std::isfinite(imag))
    return exporter::formatDouble(imag) + "j";
  return exporter::formatDouble(real) + (std::signbit(imag) ? "-" : "+") +
         exporter::formatDouble(std::fabs(imag)) + "j";
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

/// torch's name of a tensor element type; signless integers, which a pass
/// may leave in an attribute, count as signed.
static StringRef dtypeNameOf(Type elementType) {
  StringRef name = prim::torchNameOfDtype(elementType);
  if (!name.empty() || !elementType.isSignlessInteger())
    return name;
  switch (elementType.getIntOrFloatBitWidth()) {
  case 8:
    return "Char";
  case 16:
    return "Short";
  case 32:
    return "Int";
  case 64:
    return "Long";
  default:
    return "";
  }
}

static bool printTensor(Attribute attr, raw_ostream &os, Type declared = {});

/// A quantized tensor as torch prints one inline: its dequantized values,
/// then `[ QuantizedCPUQInt8Type{2}, qscheme: per_tensor_affine, scale: 0.1,
/// zero_point: 0 ]` (scales, zero points and axis for a per-channel
/// quantizer); or, where torch printed a one-element tensor as a boxed
/// scalar, `{0.3}`.
static bool printQuantizedTensor(prim::QuantizedTensorAttr attr,
                                 raw_ostream &os) {
  DenseElementsAttr values = attr.getValues();
  if (!attr.getQscheme()) {
    if (values.getNumElements() != 1)
      return false;
    os << '{'
       << exporter::formatDouble(
              (*values.getValues<APFloat>().begin()).convertToDouble())
       << '}';
    return true;
  }
  StringRef dtype = prim::torchNameOfDtype(attr.getDtype());
  if (dtype.empty())
    return false;
  for (const APFloat &value : values.getValues<APFloat>())
    os << ' ' << formatElement(value);
  if (!values.empty())
    os << ' ';
  os << "[ QuantizedCPU" << dtype << "Type{";
  llvm::interleave(values.getType().getShape(), os, ",");
  os << "}, qscheme: " << attr.getQscheme().getValue();
  DenseElementsAttr scales = attr.getScales();
  DenseElementsAttr zeroPoints = attr.getZeroPoints();
  if (scales && scales.getType().getRank() == 0) {
    auto scale = dyn_cast<FloatType>(scales.getElementType());
    auto zeroPoint = dyn_cast<IntegerType>(zeroPoints.getElementType());
    if (!scale || !zeroPoint)
      return false;
    os << ", scale: "
       << exporter::formatDouble(
              (*scales.getValues<APFloat>().begin()).convertToDouble())
       << ", zero_point: "
       << llvm::toString(*zeroPoints.getValues<APInt>().begin(), 10,
                         !zeroPoint.isUnsigned());
  } else if (scales) {
    os << ", scales: ";
    if (!printTensor(scales, os))
      return false;
    os << ", zero_points: ";
    if (!printTensor(zeroPoints, os))
      return false;
    if (IntegerAttr axis = attr.getAxis())
      os << ", axis: " << axis.getValue().getSExtValue();
  }
  os << " ]";
  return true;
}

/// Whether `declared` (a constant's result type) states `type`'s dtype and
/// sizes: torch reads a one-element `{v}` back through them.
static bool declaresExactly(Type declared, ShapedType type) {
  auto tensor = dyn_cast_or_null<prim::TensorType>(declared);
  return tensor && tensor.getDtype() == type.getElementType() &&
         tensor.getHasSizes() && tensor.getSizes() == type.getShape();
}

/// A tensor constant inline, as torch prints one with operator<< and its
/// newlines turned into spaces: ` 1.5 -2 [ CPUFloatType{2} ]`, or `{3}` for
/// a one-element tensor. Data that is not in the attribute prints as
/// `<Tensor>`. `declared` is the constant's type, where there is one.
static bool printTensor(Attribute attr, raw_ostream &os, Type declared) {
  if (auto quantized = dyn_cast<prim::QuantizedTensorAttr>(attr))
    return printQuantizedTensor(quantized, os);
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense) {
    // dense_resource weights, #prim.tensor_ref, or any other elements
    // attribute whose data lives elsewhere: torch's spelling of a tensor
    // too large to print.
    if (isa<ElementsAttr, prim::TensorRefAttr>(attr)) {
      os << "<Tensor>";
      return true;
    }
    return false;
  }
  ShapedType type = dense.getType();
  Type elementType = type.getElementType();
  StringRef dtype = dtypeNameOf(elementType);
  if (dtype.empty() || isa<ComplexType>(elementType))
    return false;

  SmallVector<std::string> values;
  if (isa<FloatType>(elementType)) {
    for (const APFloat &value : dense.getValues<APFloat>())
      values.push_back(formatElement(value));
  } else {
    bool isSigned =
        !elementType.isUnsignedInteger() && !elementType.isInteger(1);
    for (const APInt &value : dense.getValues<APInt>())
      values.push_back(llvm::toString(value, 10, isSigned));
  }

  // torch prints a one-element tensor as a boxed scalar, `{3}`, which has
  // neither shape nor dtype: its parser (and tsir's importer) takes both
  // from the node's type, which must state them. Without them tsir reads
  // `{3}` as a 0-d Long (integral value) or Double, so only such tensors
  // print this way then.
  if (type.getNumElements() == 1 && declaresExactly(declared, type)) {
    os << '{' << values.front() << '}';
    return true;
  }
  if (type.getRank() == 0) {
    std::optional<std::string> boxed;
    if (dtype == "Long") {
      boxed = values.front();
    } else if (elementType.isF64()) {
      double d = (*dense.getValues<APFloat>().begin()).convertToDouble();
      if (std::isfinite(d) && d != std::trunc(d))
        boxed = exporter::formatDouble(d);
    }
    if (boxed) {
      os << '{' << *boxed << '}';
      return true;
    }
  }

  for (const std::string &value : values)
    os << ' ' << value;
  if (!values.empty())
    os << ' ';
  os << "[ CPU" << dtype << "Type{";
  llvm::interleave(type.getShape(), os, ",");
  os << "} ]";
  return true;
}

//===----------------------------------------------------------------------===//
// Constant values (IValues)
//===----------------------------------------------------------------------===//

/// Can torch tell a list's element type from its elements? If not (or if
/// there are none) it prints `annotate(List[T], [...])`.
static bool elementTypeIsInferable(Type elementType) {
  return !isa<prim::UnionType, prim::OptionalType, prim::NumberType,
              prim::AnyType>(elementType);
}

/// One IValue. At the top of a prim::Constant a bool prints as `1`/`0`
/// (torch keeps it in an int attribute); inside a list or tuple as
/// `True`/`False`.
static bool printIValue(Attribute value, Type type, raw_ostream &os,
                        bool topLevel) {
  if (auto optional = dyn_cast<prim::OptionalType>(type)) {
    if (isa<UnitAttr>(value)) {
      os << "None";
      return true;
    }
    return printIValue(value, optional.getElementType(), os, topLevel);
  }
  if (isa<prim::NoneType>(type) && isa<UnitAttr>(value)) {
    os << "None";
    return true;
  }
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1)) {
      bool set = integer.getValue().getBoolValue();
      os << (topLevel ? (set ? "1" : "0") : (set ? "True" : "False"));
      return true;
    }
    if (!integer.getType().isInteger(64))
      return false;
    os << integer.getValue().getSExtValue();
    return true;
  }
  if (auto number = dyn_cast<FloatAttr>(value)) {
    if (!number.getType().isF64())
      return false;
    os << exporter::formatDouble(number.getValueAsDouble());
    return true;
  }
  if (auto text = dyn_cast<StringAttr>(value)) {
    exporter::printQuotedString(text.getValue(), os);
    return true;
  }
  if (isa<prim::TensorType>(type))
    return printTensor(value, os, type);
  // `__torch__.Color.RED`: an EnumHolder's qualified class name and name.
  if (auto member = dyn_cast<prim::EnumMemberAttr>(value)) {
    os << member.getEnumName() << '.' << member.getMemberName();
    return true;
  }

  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return false;
  if (isa<ComplexType, prim::NumberType, prim::AnyType>(type) &&
      array.size() == 2) {
    // `1.+2.j`, as torch prints a complex IValue.
    auto re = dyn_cast<FloatAttr>(array[0]), im = dyn_cast<FloatAttr>(array[1]);
    if (!re || !im)
      return false;
    os << formatComplex(re.getValueAsDouble(), im.getValueAsDouble());
    return true;
  }
  if (auto list = dyn_cast<prim::ListType>(type)) {
    Type elementType = list.getElementType();
    bool annotate = array.empty() || !elementTypeIsInferable(elementType);
    if (annotate) {
      os << "annotate(";
      if (!exporter::printAnnotation(type, os))
        return false;
      os << ", ";
    }
    os << '[';
    bool ok = true;
    llvm::interleaveComma(array, os, [&](Attribute element) {
      ok = ok && printIValue(element, elementType, os, /*topLevel=*/false);
    });
    os << ']';
    if (annotate)
      os << ')';
    return ok;
  }
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    if (array.size() != tuple.getTypes().size())
      return false;
    os << '(';
    bool ok = true;
    llvm::interleaveComma(
        llvm::zip(array, tuple.getTypes()), os, [&](auto pair) {
          ok = ok && printIValue(std::get<0>(pair), std::get<1>(pair), os,
                                 /*topLevel=*/false);
        });
    // Python's one-element tuple: `(1,)`.
    if (array.size() == 1)
      os << ',';
    os << ')';
    return ok;
  }
  return false;
}

bool exporter::printConstantValue(Attribute value, Type type, raw_ostream &os) {
  return printIValue(value, type, os, /*topLevel=*/true);
}

//===----------------------------------------------------------------------===//
// Node attributes
//===----------------------------------------------------------------------===//

bool exporter::printNodeAttr(Attribute value, raw_ostream &os) {
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1)) {
      os << (integer.getValue().getBoolValue() ? "True" : "False");
      return true;
    }
    if (!integer.getType().isInteger(64))
      return false;
    os << integer.getValue().getSExtValue();
    return true;
  }
  if (auto number = dyn_cast<FloatAttr>(value)) {
    os << formatDouble(number.getValueAsDouble());
    return true;
  }
  if (auto text = dyn_cast<StringAttr>(value)) {
    printQuotedString(text.getValue(), os);
    return true;
  }
  if (auto type = dyn_cast<TypeAttr>(value))
    return printType(type.getValue(), os);
  if (isa<UnitAttr>(value)) { // the importer's `<Graph>`
    os << "<Graph>";
    return true;
  }
  // A complex attribute (`c=2.j`) is a 0-d complex<f64> elements attribute.
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    if (dense.getType().getRank() == 0 &&
        isa<ComplexType>(dense.getElementType()) &&
        cast<ComplexType>(dense.getElementType()).getElementType().isF64()) {
      auto number = *dense.getValues<std::complex<double>>().begin();
      os << formatComplex(number.real(), number.imag());
      return true;
    }
  if (auto array = dyn_cast<ArrayAttr>(value)) {
    os << '[';
    bool ok = true;
    llvm::interleaveComma(array, os, [&](Attribute element) {
      ok = ok && printNodeAttr(element, os);
    });
    os << ']';
    return ok;
  }
  return printTensor(value, os);
}
