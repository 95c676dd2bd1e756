//===- FourierKernels.cpp - Builtin transforms to a real signal -----------===//
//
// fft_irfft, fft_irfft2, fft_irfftn, fft_hfft, fft_hfft2 and fft_hfftn: the
// discrete Fourier transforms whose result is real. tsir has no complex
// dtype, so their input is real, which torch reads as a spectrum whose
// imaginary parts are zero. They follow ATen's SpectralOps.cpp: the input
// resized (zero-padded or trimmed) to the signal's sizes, a complex
// transform over every transformed dim but the last (inverse for irfft*;
// forward and then conjugated for hfft*, which for a real input is the
// same), then the complex-to-real transform over the last dim, scaled as
// `norm` says (irfft* are backward transforms, hfft* forward ones).
//
// The transforms themselves are FourierSupport's direct DFTs in Float64.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "FourierSupport.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <optional>

namespace tsir::rt {

using namespace data;
using namespace fourier;

namespace {
/// The scale `norm` gives a transform of `points` points: torch's
/// norm_from_string, for a backward (irfft*) or a forward (hfft*) one.
StatusOr<double> normalization(const std::optional<std::string> &norm,
                               bool forward, double points) {
  std::string mode = norm.value_or("backward");
  if (mode == "ortho")
    return 1.0 / std::sqrt(points);
  if (mode == "backward")
    return forward ? 1.0 : 1.0 / points;
  if (mode == "forward")
    return forward ? 1.0 / points : 1.0;
  return Status::error("Invalid normalization mode: \"" + mode + "\"");
}

/// The three arities of the transforms, by the arguments they take.
enum class Arity { One, Two, Any };

/// The sizes `s` (or the length `n`) and the dims `dim` of a transform:
/// an `int` reads as a list of one, so fft_irfft's `int? n` and `int dim`
/// read as fft_irfftn's `int[1]? s` and `int[1]? dim` do.
using Sizes = std::optional<std::vector<int64_t>>;

/// The transformed dims and the signal's size along each (the last one's
/// output length), from `n`/`s` and `dim` as torch canonicalizes them
/// (canonicalize_fft_c2r_shape_and_dim_args).
Status canonicalize(Arity arity, const Tensor &self, const Sizes &given,
                    const Sizes &dimArg, std::vector<int64_t> &dims,
                    std::vector<int64_t> &shape, const char *name) {
  int64_t rank = self.dim();
  std::vector<int64_t> rawDims;
  if (dimArg) {
    rawDims = *dimArg;
  } else if (given) {
    for (int64_t i = rank - static_cast<int64_t>(given->size()); i < rank; ++i)
      rawDims.push_back(i);
  } else {
    for (int64_t i = 0; i < rank; ++i)
      rawDims.push_back(i);
  }
  if (arity == Arity::Two && rawDims.size() != 2)
    return Status::error(std::string(name) + " expects two dims");
  if (given && given->size() != rawDims.size())
    return Status::error("When given, dim and shape arguments must have the "
                         "same length");
  if (rawDims.empty())
    return Status::error(std::string(name) +
                         " must transform at least one axis");
  for (int64_t raw : rawDims) {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(raw, rank));
    for (int64_t seen : dims)
      if (seen == dim)
        return Status::error("FFT dims must be unique");
    dims.push_back(dim);
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t size = self.sizes()[dims[i]];
    bool last = i + 1 == dims.size();
    int64_t wanted = given ? (*given)[i] : -1;
    if (wanted == -1)
      wanted = last ? 2 * (size - 1) : size;
    if (wanted < 1)
      return Status::error("Invalid number of data points (" +
                           std::to_string(wanted) + ") specified");
    shape.push_back(wanted);
  }
  return Status::ok();
}

/// The transforms `(Tensor self, <n or s>, dim, str? norm)`, by arity and
/// direction.
Status toReal(Stack &stack, Arity arity, bool forward, const char *name) {
  TSIR_RT_ASSIGN_OR_RETURN(
      auto args,
      (popTypedArgs<Tensor, Sizes, Sizes, std::optional<std::string>>(stack)));
  const auto &[self, given, dimArg, norm] = args;
  std::vector<int64_t> dims, shape;
  TSIR_RT_RETURN_IF_ERROR(
      canonicalize(arity, self, given, dimArg, dims, shape, name));
  Signal signal;
  signal.sizes = self.sizes();
  signal.re = toDoubles(self);
  signal.im.assign(signal.re.size(), 0.0);
  double points = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    signal = resized(signal, dims[i], shape[i]);
    inverseTransform(signal, dims[i]);
    points *= static_cast<double>(shape[i]);
  }
  int64_t last = dims.back(), length = shape.back();
  signal = resized(signal, last, length / 2 + 1);
  points *= static_cast<double>(length);
  std::vector<int64_t> sizes;
  std::vector<double> out = toRealSignal(signal, last, length, sizes);
  TSIR_RT_ASSIGN_OR_RETURN(double scale, normalization(norm, forward, points));
  for (double &value : out)
    value *= scale;
  // Integral inputs give torch's default float dtype.
  DType dtype = self.dtype() == DType::Float64 ? DType::Float64
                                                : DType::Float32;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result, fromDoubles(out, sizes, dtype));
  push(stack, std::move(result));
  return Status::ok();
}

} // namespace

void registerFourierKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::fft_irfft(Tensor self, int? n=None, int dim=-1, str? "
           "norm=None) -> Tensor",
           [](Stack &s) { return toReal(s, Arity::One, false, "fft_irfft"); }},
          {"aten::fft_irfft2(Tensor self, int[1]? s=None, int[1] dim=[-2, -1], "
           "str? norm=None) -> Tensor",
           [](Stack &s) { return toReal(s, Arity::Two, false, "fft_irfft2"); }},
          {"aten::fft_irfftn(Tensor self, int[1]? s=None, int[1]? dim=None, "
           "str? norm=None) -> Tensor",
           [](Stack &s) { return toReal(s, Arity::Any, false, "fft_irfftn"); }},
          {"aten::fft_hfft(Tensor self, int? n=None, int dim=-1, str? "
           "norm=None) -> Tensor",
           [](Stack &s) { return toReal(s, Arity::One, true, "fft_hfft"); }},
          {"aten::fft_hfft2(Tensor self, int[1]? s=None, int[1] dim=[-2, -1], "
           "str? norm=None) -> Tensor",
           [](Stack &s) { return toReal(s, Arity::Two, true, "fft_hfft2"); }},
          {"aten::fft_hfftn(Tensor self, int[1]? s=None, int[1]? dim=None, "
           "str? norm=None) -> Tensor",
           [](Stack &s) { return toReal(s, Arity::Any, true, "fft_hfftn"); }},
      });
}

} // namespace tsir::rt
