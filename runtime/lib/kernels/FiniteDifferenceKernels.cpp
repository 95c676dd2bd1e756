//===- FiniteDifferenceKernels.cpp - torch.gradient -----------------------===//
//
// aten::gradient in all its overloads: the derivative of sampled values
// along each asked dim by finite differences, as ATen's ReduceOps.cpp
// computes it. Inside, the central difference (for coordinates, the
// second-order one of unevenly spaced points); at the two ends, the
// one-sided difference of the first or second order (edge_order). The
// spacing is 1, one step for every dim, a step per dim, or each dim's
// coordinates.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <algorithm>
#include <optional>

namespace tsir::rt {

using namespace data;

namespace {

/// How the samples along one dim are spaced: a step, or coordinates.
struct Spacing {
  double step = 1.0;
  std::vector<double> coordinates;
};

/// The derivative of `values` (row-major, of `sizes`) along `dim`.
std::vector<double> differentiate(const std::vector<double> &values,
                                  const std::vector<int64_t> &sizes,
                                  int64_t dim, const Spacing &spacing,
                                  int64_t edgeOrder) {
  DimSplit s = splitAt(sizes, dim);
  int64_t n = s.size;
  // The distance between samples j and j + 1.
  std::vector<double> dx(n - 1, spacing.step);
  if (!spacing.coordinates.empty())
    for (int64_t j = 0; j + 1 < n; ++j)
      dx[j] = spacing.coordinates[j + 1] - spacing.coordinates[j];
  bool uniform = spacing.coordinates.empty();
  std::vector<double> out(values.size());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      auto x = [&](int64_t k) { return values[(o * n + k) * s.inner + i]; };
      auto at = [&](int64_t k) -> double & {
        return out[(o * n + k) * s.inner + i];
      };
      for (int64_t k = 1; k + 1 < n; ++k) {
        if (uniform) {
          at(k) = (x(k + 1) - x(k - 1)) / spacing.step / 2;
          continue;
        }
        double dx1 = dx[k - 1], dx2 = dx[k];
        at(k) = -dx2 / (dx1 * (dx1 + dx2)) * x(k - 1) +
                (dx2 - dx1) / (dx1 * dx2) * x(k) +
                dx1 / (dx2 * (dx1 + dx2)) * x(k + 1);
      }
      if (edgeOrder == 1) {
        at(0) = (x(1) - x(0)) / dx[0];
        at(n - 1) = (x(n - 1) - x(n - 2)) / dx[n - 2];
      } else if (uniform) {
        double h = spacing.step;
        at(0) = (-1.5 * x(0) + 2 * x(1) - 0.5 * x(2)) / h;
        at(n - 1) = (0.5 * x(n - 3) - 2 * x(n - 2) + 1.5 * x(n - 1)) / h;
      } else {
        double d0 = dx[0], d1 = dx[1];
        at(0) = -(2.0 * d0 + d1) / (d0 * (d0 + d1)) * x(0) +
                (d0 + d1) / (d0 * d1) * x(1) +
                -d0 / (d1 * (d0 + d1)) * x(2);
        double e1 = dx[n - 2], e2 = dx[n - 3];
        at(n - 1) = e1 / (e2 * (e1 + e2)) * x(n - 3) -
                    (e1 + e2) / (e1 * e2) * x(n - 2) +
                    (2 * e1 + e2) / (e1 * (e1 + e2)) * x(n - 1);
      }
    }
  return out;
}

/// The forms of the `spacing` argument, by overload.
enum class SpacingForm { OptionalScalar, Scalar, None, Scalars, Tensors };

/// aten::gradient.<overload>(Tensor self, *, [spacing,] dim, int edge_order)
/// -> Tensor[]. `form` says what `spacingArg` is (the step of the scalar
/// forms is `step`, the list of the list forms `spacingArg`); `dimArg` is
/// the dims asked, nullopt for an `int? dim` of None.
StatusOr<Value> gradient(const Tensor &self, SpacingForm form,
                         std::optional<double> step, const Value &spacingArg,
                         std::optional<std::vector<int64_t>> dimArg,
                         int64_t edgeOrder) {
  int64_t rank = self.dim();

  // The dims, and whether the caller named them.
  std::vector<int64_t> rawDims;
  bool dimsGiven = dimArg.has_value();
  if (dimsGiven) {
    rawDims = *dimArg;
  } else {
    for (int64_t d = 0; d < rank; ++d)
      rawDims.push_back(d);
  }

  // One spacing per dim.
  std::vector<Spacing> spacings(rawDims.size());
  std::optional<size_t> givenCount;
  if (form == SpacingForm::Scalar ||
      (form == SpacingForm::OptionalScalar && step)) {
    for (Spacing &spacing : spacings)
      spacing.step = *step;
    if (form == SpacingForm::OptionalScalar)
      givenCount = rawDims.size();
  } else if (form == SpacingForm::Scalars || form == SpacingForm::Tensors) {
    if (!spacingArg.isList())
      return Status::error("torch.gradient expected spacing to be a list");
    const std::vector<Value> &list = spacingArg.toList();
    givenCount = list.size();
    if (list.size() == rawDims.size())
      for (size_t i = 0; i < list.size(); ++i) {
        if (form == SpacingForm::Scalars) {
          TSIR_RT_ASSIGN_OR_RETURN(spacings[i].step,
                                   scalarArg(list[i], "spacing"));
          continue;
        }
        TSIR_RT_ASSIGN_OR_RETURN(Tensor coordinates, requireTensor(list[i]));
        if (coordinates.dim() != 1)
          return Status::error(
              "torch.gradient expected each element of spacing to have one "
              "dimension, but got an element with " +
              std::to_string(coordinates.dim()) + " dimensions!");
        spacings[i].coordinates = toDoubles(coordinates);
      }
  }

  // torch's pre_check_gradient.
  if (givenCount && !dimsGiven && *givenCount != static_cast<size_t>(rank))
    return Status::error(
        "torch.gradient expected spacing to be unspecified, a scalar, or a "
        "list of length equal to 'self.dim() = " + std::to_string(rank) +
        "', since dim argument was not given, but got a list of length " +
        std::to_string(*givenCount));
  if (givenCount && dimsGiven && *givenCount != rawDims.size())
    return Status::error(
        "torch.gradient expected spacing to be unspecified, a scalar or "
        "it's spacing and dim arguments to have the same length, but got a "
        "spacing argument of length " + std::to_string(*givenCount) +
        " and a dim argument of length " + std::to_string(rawDims.size()) +
        ".");
  if (edgeOrder != 1 && edgeOrder != 2)
    return Status::error(
        "torch.gradient only supports edge_order=1 and edge_order=2.");
  std::vector<int64_t> dims;
  for (int64_t raw : rawDims) {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(raw, rank));
    if (std::find(dims.begin(), dims.end(), dim) != dims.end())
      return Status::error("dim " + std::to_string(dim) +
                           " appears multiple times in the list of dims");
    dims.push_back(dim);
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t size = self.size(dims[i]);
    if (size < edgeOrder + 1)
      return Status::error("torch.gradient expected each dimension size to "
                           "be at least edge_order+1");
    if (!spacings[i].coordinates.empty() &&
        static_cast<int64_t>(spacings[i].coordinates.size()) != size)
      return Status::error("The size of tensor a (" + std::to_string(size) +
                           ") must match the size of tensor b (" +
                           std::to_string(spacings[i].coordinates.size()) +
                           ") at non-singleton dimension " +
                           std::to_string(dims[i]));
  }

  std::vector<double> values = toDoubles(self);
  DType dtype = isFloating(self.dtype()) ? self.dtype() : DType::Float32;
  std::vector<Value> results;
  for (size_t i = 0; i < dims.size(); ++i) {
    std::vector<double> derivative =
        differentiate(values, self.sizes(), dims[i], spacings[i], edgeOrder);
    TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                             fromDoubles(derivative, self.sizes(), dtype));
    results.emplace_back(std::move(result));
  }
  return Value::list(std::move(results));
}

/// An `int? dim` as gradient's dims: one, or nullopt for None.
std::optional<std::vector<int64_t>> dimsOf(std::optional<int64_t> dim) {
  if (!dim)
    return std::nullopt;
  return std::vector<int64_t>{*dim};
}

StatusOr<Value> gradientScalarInt(Tensor self, std::optional<double> spacing,
                                  std::optional<int64_t> dim,
                                  int64_t edgeOrder) {
  return gradient(self, SpacingForm::OptionalScalar, spacing, Value(),
                  dimsOf(dim), edgeOrder);
}

StatusOr<Value> gradientScalarArray(Tensor self, double spacing,
                                    std::vector<int64_t> dim,
                                    int64_t edgeOrder) {
  return gradient(self, SpacingForm::Scalar, spacing, Value(), dim, edgeOrder);
}

StatusOr<Value> gradientArray(Tensor self, std::vector<int64_t> dim,
                              int64_t edgeOrder) {
  return gradient(self, SpacingForm::None, std::nullopt, Value(), dim,
                  edgeOrder);
}

/// spacing is a Scalar[].
StatusOr<Value> gradientScalarArrayInt(Tensor self, Value spacing,
                                       std::optional<int64_t> dim,
                                       int64_t edgeOrder) {
  return gradient(self, SpacingForm::Scalars, std::nullopt, spacing,
                  dimsOf(dim), edgeOrder);
}

StatusOr<Value> gradientScalarArrayArray(Tensor self, Value spacing,
                                         std::vector<int64_t> dim,
                                         int64_t edgeOrder) {
  return gradient(self, SpacingForm::Scalars, std::nullopt, spacing, dim,
                  edgeOrder);
}

/// spacing is a Tensor[], each sample's coordinates along its dim.
StatusOr<Value> gradientTensorArrayInt(Tensor self, Value spacing,
                                       std::optional<int64_t> dim,
                                       int64_t edgeOrder) {
  return gradient(self, SpacingForm::Tensors, std::nullopt, spacing,
                  dimsOf(dim), edgeOrder);
}

StatusOr<Value> gradientTensorArray(Tensor self, Value spacing,
                                    std::vector<int64_t> dim,
                                    int64_t edgeOrder) {
  return gradient(self, SpacingForm::Tensors, std::nullopt, spacing, dim,
                  edgeOrder);
}

} // namespace

void registerFiniteDifferenceKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::gradient.scalarint(Tensor self, *, Scalar? spacing=None, "
           "int? dim=None, int edge_order=1) -> Tensor[]",
           bindKernel(gradientScalarInt)},
          {"aten::gradient.scalararray(Tensor self, *, Scalar spacing, int[] "
           "dim, int edge_order=1) -> Tensor[]",
           bindKernel(gradientScalarArray)},
          {"aten::gradient.array(Tensor self, *, int[] dim, int edge_order=1) "
           "-> Tensor[]",
           bindKernel(gradientArray)},
          {"aten::gradient.scalarrayint(Tensor self, *, Scalar[] spacing, int? "
           "dim=None, int edge_order=1) -> Tensor[]",
           bindKernel(gradientScalarArrayInt)},
          {"aten::gradient.scalarrayarray(Tensor self, *, Scalar[] spacing, "
           "int[] dim, int edge_order=1) -> Tensor[]",
           bindKernel(gradientScalarArrayArray)},
          {"aten::gradient.tensorarrayint(Tensor self, *, Tensor[] spacing, "
           "int? dim=None, int edge_order=1) -> Tensor[]",
           bindKernel(gradientTensorArrayInt)},
          {"aten::gradient.tensorarray(Tensor self, *, Tensor[] spacing, int[] "
           "dim, int edge_order=1) -> Tensor[]",
           bindKernel(gradientTensorArray)},
      });
}

} // namespace tsir::rt
