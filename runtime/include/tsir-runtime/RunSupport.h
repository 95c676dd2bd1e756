//===- RunSupport.h - What the run tools share -------------------*- C++ -*-===//
//
// `tsir-run` (graphs, with MLIR) and the runtime's own `tsir-run` (compiled
// models, without MLIR) read inputs and write outputs the same way: an
// input is a .npy file, an int, a float, true/false or None; outputs are
// written as out0.npy, out1.npy, ... flattened as the corpus stores them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_RUNSUPPORT_H
#define TSIR_RUNTIME_RUNSUPPORT_H

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Value.h"

#include <string>
#include <vector>

namespace tsir::rt {

/// The value of `--input text`, the `index`-th input: a .npy file, an int,
/// a float, true/false, None, or a list of these in brackets (`[a.npy,
/// b.npy]`). A .npy file stays a tensor even when 0-d; the graph's
/// signature decides if it is a scalar.
StatusOr<Value> parseInputArgument(const std::string &text, size_t index);

/// A 0-d array given where the graph takes `type` ("int", "float", "bool")
/// is that scalar; anything else is returned as it is.
Value scalarFromArray(const Value &value, const std::string &type);

/// Every `--input` of a command line, in order: parseInputArgument, then
/// scalarFromArray with the input's type where `types` has one.
StatusOr<std::vector<Value>>
parseInputArguments(const std::vector<std::string> &texts,
                    const std::vector<std::string> &types = {});

/// Writes `outputs` into `directory` as out0.npy, out1.npy, ...: lists and
/// tuples depth-first, scalars as 0-d arrays. Returns one line per file,
/// `out0: Float(2, 3) -> dir/out0.npy`.
StatusOr<std::vector<std::string>>
writeOutputArrays(const std::vector<Value> &outputs,
                  const std::string &directory);

/// The median of `samples` (which it sorts).
double median(std::vector<double> &samples);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_RUNSUPPORT_H
