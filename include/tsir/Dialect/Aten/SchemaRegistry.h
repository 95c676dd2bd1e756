//===- SchemaRegistry.h - TorchScript operator schemas ----------*- C++ -*-===//
//
// The FunctionSchema of every aten:: and prim:: operator PyTorch 1.13
// registers, parsed into a structured form, for the importer's overload
// resolution and for anything else that needs an op's declared signature.
// Built from dialects/aten/schemas.txt; no MLIR types here.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_ATEN_SCHEMAREGISTRY_H
#define TSIR_DIALECT_ATEN_SCHEMAREGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tsir::aten {

/// A type as written in a schema.
struct SchemaType {
  enum class Kind {
    Tensor,
    Int, // `int`, and `SymInt` (name = "SymInt")
    Float,
    Bool,
    Complex,
    Str,  // `str`, and `Dimname` (name = "Dimname")
    None, // `NoneType`
    Device,
    Number, // `Scalar`
    Layout,
    ScalarType,
    MemoryFormat,
    Generator,
    Storage,
    Stream,
    Any,
    TypeVar,  // `t`, `t1`, `tVal`: name holds it
    List,     // elements[0]; fixedListSize for `int[2]`
    Tuple,    // elements
    Optional, // elements[0]
    Dict,     // elements = {key, value}
    Union,    // elements
    Future,   // elements[0]
    RRef,     // elements[0]
    Await,    // elements[0]
    Class,    // `__torch__.torch.classes.x.Y`: name holds it
    AnyClass, // `AnyClassType`
    AnyEnum,  // `AnyEnumType`
    QScheme,
    Capsule,
    Other, // any other base type torch knows; name holds it
  };

  Kind kind = Kind::Any;
  /// The type variable or class name; for Int/Str/None, the spelling when it
  /// is not the canonical one (`SymInt`, `Dimname`); for Other, the name.
  std::string name;
  std::vector<SchemaType> elements;
  /// `N` in `int[N]`; -1 for `int[]` and for non-lists.
  int fixedListSize = -1;
  /// The alias annotation written on this level, without parentheses
  /// (`a!`, `a -> *`, `*`, `b|a`); empty if none. In `Tensor(a)[]` it sits on
  /// the element, in `t[](a!)` on the list.
  std::string alias;

  /// The type in schema syntax, alias annotations included.
  std::string str() const;
};

struct SchemaArg {
  std::string name; // may be empty for returns
  SchemaType type;
  bool kwargOnly = false;
  /// Some alias annotation in the type has `!`: the op writes this value
  /// (or, for `Tensor(a!)[]`, the values it holds).
  bool isWrite = false;
  /// The alias set of the outermost annotation (`a` in `Tensor(a!)` and in
  /// `Tensor(a)[]`, `*` in `t(*)`, `b|a`); empty if unannotated.
  std::string aliasSet;
  /// What `a -> *` says the value is afterwards (`*`); usually empty.
  std::string aliasAfterSet;
  bool hasDefault = false;
  /// The default as written (`1`, `None`, `[0, 0]`, `"mean"`, `1e-05`).
  std::string defaultValue;
};

struct Schema {
  std::string qualifiedName; // aten::add
  std::string overload;      // Tensor; empty for the plain overload
  std::string typedOpName;   // aten.add.Tensor, or empty if not a typed op
  std::string text;          // the schema string as torch prints it
  std::vector<SchemaArg> arguments, returns;
  bool isVararg = false, isVarret = false;
};

/// Every aten:: and prim:: schema of the checked-in schemas.txt.
class SchemaRegistry {
public:
  /// Built once, on first use (thread-safe).
  static const SchemaRegistry &get();

  /// The overloads of `aten::add`, `prim::min`, ... in registry order, which
  /// is the order TorchScript's overload resolution tries them in; empty if
  /// the name is unknown. Each name's schemas are parsed on first lookup.
  llvm::ArrayRef<const Schema *> lookup(llvm::StringRef qualifiedName) const;

  /// The schema of a typed op, by MLIR op name (`aten.add.Tensor`); null if
  /// there is no such typed op.
  const Schema *lookupTypedOp(llvm::StringRef mlirOpName) const;

  /// Up to `count` known names closest to an unknown one (`aten::addd` ->
  /// `aten::add`, ...), nearest first: what a typo was meant to be.
  std::vector<llvm::StringRef> nearestNames(llvm::StringRef qualifiedName,
                                            size_t count = 3) const;

  /// All qualified names, in schemas.txt order.
  std::vector<llvm::StringRef> names() const;

  ~SchemaRegistry();
  SchemaRegistry(const SchemaRegistry &) = delete;
  SchemaRegistry &operator=(const SchemaRegistry &) = delete;

private:
  SchemaRegistry();
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Parses one schema string; used by the registry and by tests. On failure
/// returns nullopt and sets `error`.
std::optional<Schema> parseSchema(llvm::StringRef text, std::string &error);

} // namespace tsir::aten

#endif // TSIR_DIALECT_ATEN_SCHEMAREGISTRY_H
