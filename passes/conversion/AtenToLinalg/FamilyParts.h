//===- FamilyParts.h - Extra files of four op families ----------*- C++ -*-===//
//
// The populate functions of the files that the Views, Concat, Creation and
// Indexing families are split into, called from their family's populate
// function so that PopulatePatterns.h keeps one entry per family. Private
// to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_FAMILYPARTS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_FAMILYPARTS_H

#include "mlir/Transforms/DialectConversion.h"

namespace tsir::conversion {

/// slice/select/narrow as tensor.extract_slice; flip/roll as gathers;
/// repeat/tile as a broadcast and a collapse (Slices.cpp).
void populateSlicePatterns(const mlir::TypeConverter &typeConverter,
                           mlir::RewritePatternSet &patterns);

/// diagonal, diag and diag_embed as linalg.generics (Diagonals.cpp).
void populateDiagonalPatterns(const mlir::TypeConverter &typeConverter,
                              mlir::RewritePatternSet &patterns);

/// chunk/split/split_with_sizes/unbind whose lists are only unpacked or
/// indexed with constants (Split.cpp).
void populateSplitPatterns(const mlir::TypeConverter &typeConverter,
                           mlir::RewritePatternSet &patterns);

/// arange, linspace, eye and one_hot (Ranges.cpp).
void populateRangePatterns(const mlir::TypeConverter &typeConverter,
                           mlir::RewritePatternSet &patterns);

/// index.Tensor as a gather and index_put as loops of tensor.insert, for
/// index tensors on any dims (AdvancedIndexing.cpp).
void populateAdvancedIndexingPatterns(const mlir::TypeConverter &typeConverter,
                                      mlir::RewritePatternSet &patterns);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_FAMILYPARTS_H
