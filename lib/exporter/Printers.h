//===- Printers.h - TorchScript spellings of types and values ---*- C++ -*-===//
//
// The leaf printers the exporter shares: types (`Float(2, 3)`, `int[]?`),
// numbers, strings, constant values and node attributes, each in the form
// torch 1.13 prints and tsir's importer reads back to the same MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_EXPORTER_PRINTERS_H
#define TSIR_LIB_EXPORTER_PRINTERS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tsir::exporter {

/// Prints `type` as a graph prints it (`Float(2, *)`, `(int, Tensor)`,
/// `Dict(str, Tensor)`). Returns false, having printed something partial,
/// if the type has no TorchScript spelling.
bool printType(mlir::Type type, llvm::raw_ostream &os);

/// Prints `type` in Python annotation form (`List[Optional[int]]`), as
/// torch writes it inside `annotate(...)`. Returns false as printType does.
bool printAnnotation(mlir::Type type, llvm::raw_ostream &os);

/// A float as torch prints one (`2.`, `0.10000000000000001`, `inf`): 17
/// significant digits, so that reading it back gives the same double.
std::string formatDouble(double value);

/// `"text"` with torch's escapes (c10::printQuotedString).
void printQuotedString(llvm::StringRef text, llvm::raw_ostream &os);

/// Prints the `value=` part of a prim::Constant of type `type` holding
/// `value` (without `value=`). Returns false if it cannot be printed.
bool printConstantValue(mlir::Attribute value, mlir::Type type,
                        llvm::raw_ostream &os);

/// Prints one node attribute value (`[alpha={1}, size=[3, 80]]`) as the
/// importer's node_attrs dictionary holds it. Returns false if it cannot.
bool printNodeAttr(mlir::Attribute value, llvm::raw_ostream &os);

} // namespace tsir::exporter

#endif // TSIR_LIB_EXPORTER_PRINTERS_H
