//===- EinsumEquation.h - aten::einsum's equation, read once -----*- C++ -*-===//
//
// The equation of `aten::einsum` as torch.einsum reads it, for the three
// places that need it: shape refinement (tsir-refine-types), the lowering
// to one linalg.generic (convert-aten-to-linalg) and the gradient
// (tsir-differentiate). Torch's rules:
//
// - terms are separated by ',', the output follows "->"; spaces are
//   ignored; labels are letters; a term has at most one "...";
// - without "->" the output is the labels used exactly once, in sorted
//   order (A-Z before a-z), after the ellipsis if any term has one;
// - an explicit output names each of its labels once, and only labels the
//   inputs have;
// - a label repeated within one input takes that input's diagonal;
// - the ellipses of the inputs broadcast together, aligned from the right.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_ATEN_EINSUMEQUATION_H
#define TSIR_DIALECT_ATEN_EINSUMEQUATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tsir::aten {

/// The terms of an einsum equation, each "..." written as one '.'.
struct EinsumEquation {
  llvm::SmallVector<std::string> inputs;
  std::string output;

  /// Parses `text`; none when it breaks one of torch's rules above (which
  /// torch reports as an error when the op runs).
  static std::optional<EinsumEquation> parse(llvm::StringRef text);

  /// Whether `term` has an ellipsis.
  static bool hasEllipsis(llvm::StringRef term) {
    return term.contains('.');
  }

  /// The same equation for operands of `ranks`, each ellipsis replaced by
  /// fresh letters, one per dim it covers, aligned from the right across
  /// operands as its dims broadcast; the output's by all of them. None
  /// when the ranks do not fit the terms or there are too few letters.
  std::optional<EinsumEquation>
  withoutEllipses(llvm::ArrayRef<int64_t> ranks) const;

  /// `term` as torch spells it ('.' back to "...").
  static std::string spell(llvm::StringRef term);
  /// The whole equation as torch spells it, with an explicit output.
  std::string spell() const;
};

} // namespace tsir::aten

#endif // TSIR_DIALECT_ATEN_EINSUMEQUATION_H
