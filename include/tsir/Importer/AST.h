//===- AST.h - Syntax tree of a TorchScript textual graph -------*- C++ -*-===//
//
// The parser turns graph text into this tree; MLIRGen turns the tree into the
// prim/aten dialects. Splitting the two keeps the grammar (every format torch
// has printed since 2018) apart from overload resolution and op building, and
// lets the `with` subgraphs that follow a graph be resolved before building.
//
// Strings that appear verbatim in the text are llvm::StringRefs into the
// buffer, which must outlive the tree; decoded strings are owned.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_IMPORTER_AST_H
#define TSIR_IMPORTER_AST_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tsir::ts {

/// A 1-based position in the graph text.
struct SourcePos {
  uint32_t line = 0;
  uint32_t col = 0;
};

/// A type as printed by TorchScript (`Float(2, *, strides=[3, 1])`,
/// `Tensor?[]`, `(Tensor, int)`, `Dict(str, Tensor)`, `Dynamic`, ...).
struct TypeExpr {
  enum class Kind {
    Tensor,      // Tensor, Dynamic (2018) and refined forms such as Float(2, 3)
    Int,         // int
    Float,       // float
    Bool,        // bool
    Complex,     // complex
    Str,         // str
    None,        // None / NoneType
    Device,      // Device
    Number,      // Scalar / number
    Layout,      // Layout (an int in TorchScript)
    ScalarTypeK, // ScalarType (an int in TorchScript)
    MemoryFormat, // MemoryFormat (an int in TorchScript)
    List,         // T[] / List[T]; elements[0] is T
    Tuple,        // (T1, T2) / Tuple[T1, T2]; elements
    AnyTuple,     // bare `Tuple` (2018) / `tuple`
    AnyList,      // bare `list`
    Optional,     // T? / Optional[T]; elements[0] is T
    Dict,         // Dict(K, V) / Dict[K, V]; elements[0], elements[1]
    Union,        // Union(T1, T2) / Union[T1, T2]; elements
    Future,       // Future(T) / Future[T]; elements[0]
    Class,        // __torch__.foo.Bar (a qualified name); name
    Function,     // Function
    Generator,    // Generator
    Any,          // Any
    World,        // World (2018 effect token)
    Handle,       // Handle (2018)
    Storage,      // Storage
    Stream,       // Stream
    Capsule,      // Capsule
    NamedTuple,   // NamedTuple(a : T, b : U = 3); elements, fields
    Enum,         // Enum<__torch__.Color>; name
    AnyEnum,      // AnyEnumType
    QScheme,      // QScheme
  };
  Kind kind = Kind::Any;
  SourcePos pos;
  std::vector<std::unique_ptr<TypeExpr>> elements;
  llvm::StringRef name; // Class, Enum: the qualified name.
  // NamedTuple: one per element, the field's name and its default as torch
  // printed it (IValue text, e.g. `3`, `[1, 2]`, or a str unquoted); the
  // default's text is empty when `hasDefault` is false.
  struct Field {
    llvm::StringRef name;
    bool hasDefault = false;
    llvm::StringRef defaultText;
  };
  std::vector<Field> fields;
  // The value was written without `: Type` (`graph(%x):`, `%y = op(%x)`).
  // torch types it as Tensor, or, for an output of an op with a schema, as
  // the schema's return type; MLIRGen does the same.
  bool implicit = false;

  // Tensor refinements; every one is optional, as in TorchScript's TensorType.
  llvm::StringRef dtype;      // "Float", "Long", ... empty if unknown.
  bool hasSizes = false;      // Float(2, 3) vs Float / Tensor
  std::vector<int64_t> sizes; // -1 for an unknown dim (`*`)
  std::vector<bool> legacyNonContiguous; // 2019 `3!` marker, one per dim
  bool hasStrides = false;
  std::vector<int64_t> strides;     // -1 for an unknown stride (`*`)
  llvm::StringRef device;           // "cpu", "cuda:0"; empty if unknown
  std::optional<bool> requiresGrad; // requires_grad=0/1
};

struct Quantizer;

/// An attribute value in `kind[name=value, ...]`.
struct AttrValue {
  enum class Kind {
    Int,       // 1, -9223372036854775808
    Float,     // 2., 1e-05, inf, -inf, nan
    Complex,   // 3.j, -3.14j, 1.+2.j ; floatValue is the real part
    Bool,      // True / False (ints print as 0/1 and stay Int)
    Str,       // "text" (decoded escapes in str)
    List,      // [a, b] ; elements
    Tuple,     // (a, b) ; elements
    Tensor,    // inline tensor: ` 0.1 -0.2 [ CPUFloatType{2} ]`, or `{1}`
    TensorRef, // <Tensor>
    TensorListRef, // <Tensors>: a whole list of tensors, printed without a count
    Type,      // a type, in `types=[Float(1, 2)]`
    Annotated, // annotate(List[int], [])  ; type + elements[0]
    GraphRef,  // <Graph>: a graph attribute, printed without its body
    Dict,      // {} or {"a": 1, "b": 2} ; elements: key, value, key, value...
  };
  Kind kind = Kind::Int;
  SourcePos pos;
  int64_t intValue = 0;
  double floatValue = 0;
  double imagValue = 0; // Complex
  bool boolValue = false;
  std::string str;
  std::vector<AttrValue> elements;
  std::unique_ptr<TypeExpr> type; // Type, Annotated

  // Tensor: the element type name from `CPUFloatType` ("Float"), the shape
  // from `{2,3}` (empty for a 0-d tensor such as `{1}`), and the values in
  // row-major order with any printed scale factor (`0.01 *`) applied.
  llvm::StringRef tensorDtype;
  std::vector<int64_t> tensorShape;
  std::vector<double> tensorValues;
  // The same values exactly, for integer dtypes: doubles lose int64 values
  // above 2^53. Empty unless every printed value was an integer literal.
  std::vector<int64_t> tensorInts;
  bool legacyScalarTensor = false; // the 2019 `{1}` form
  // A quantized tensor's trailer after its shape (`, qscheme: ...`); null
  // for other tensors.
  std::unique_ptr<Quantizer> quantizer;
};

/// What torch prints of a quantized tensor's quantizer:
/// `qscheme: per_tensor_affine, scale: 0.1, zero_point: 0` or
/// `qscheme: per_channel_affine, scales: <tensor>, zero_points: <tensor>,
/// axis: 0` (aten/src/ATen/core/Formatting.cpp).
struct Quantizer {
  llvm::StringRef qscheme;
  SourcePos pos;                                 // of the qscheme name
  std::optional<double> scale;                   // per tensor
  std::optional<int64_t> zeroPoint;              // per tensor
  std::unique_ptr<AttrValue> scales, zeroPoints; // per channel: inline tensors
  std::optional<int64_t> axis;
};

struct NamedAttr {
  llvm::StringRef name;
  AttrValue value;
  SourcePos pos;
};

/// A value definition: a graph input, block parameter or node output.
struct ValueDef {
  llvm::StringRef name; // without the leading `%`
  std::unique_ptr<TypeExpr> type;
  SourcePos pos;
};

/// A use of a value: `%x.1`.
struct ValueUse {
  llvm::StringRef name; // without the leading `%`
  SourcePos pos;
};

struct Node;

/// `block0(%i : int, %x : Tensor): ... -> (%a, %b)`, or the body of a graph
/// (params are the graph inputs, returns the `return (...)` values).
struct Block {
  SourcePos pos;
  std::vector<ValueDef> params;
  std::vector<Node> nodes;
  std::vector<ValueUse> returns;
  SourcePos returnPos;
};

/// `%a : T, %b : U = kind[attrs](%x, %y) # file.py:7:8` with nested blocks.
struct Node {
  SourcePos pos; // of the kind token
  llvm::StringRef
      kind; // "aten::add", "prim::If", "prim::FusionGroup_0", "^PythonOp"
  std::vector<ValueDef> outputs;
  std::vector<NamedAttr> attrs;
  std::vector<ValueUse> inputs;
  std::vector<Block> blocks;
  // `, scope: __module.l1` (empty if absent).
  llvm::StringRef scope;
  // `# cases/x.py:7:8` source comment (file empty if absent or unparsable).
  llvm::StringRef sourceFile;
  uint32_t sourceLine = 0;
  uint32_t sourceCol = 0;
};

/// `graph(...): body` or `with prim::FusionGroup_0 = graph(...): body`.
struct Graph {
  SourcePos pos;
  llvm::StringRef name; // empty for the main graph; "prim::FusionGroup_0"
  Block body;
};

/// A whole file: the main graph and the `with` subgraphs that follow it.
struct GraphFile {
  Graph main;
  std::vector<Graph> subgraphs;
  // True when the text used a 2018/2019 form (braces, `Dynamic`, newline
  // separated inputs, `return (...);`, node attributes). MLIRGen relaxes
  // overload resolution for such files, whose ops predate today's schemas.
  bool legacyFormat = false;
};

} // namespace tsir::ts

#endif // TSIR_IMPORTER_AST_H
