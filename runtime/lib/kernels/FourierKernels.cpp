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
// They are direct DFTs in Float64, O(n^2) per line rather than an FFT's
// O(n log n): right for the sizes graphs give them, not fast for long
// signals.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <optional>

namespace tsir::rt {

using namespace data;

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

/// A real or complex signal as two row-major planes.
struct Signal {
  std::vector<int64_t> sizes;
  std::vector<double> re, im;
};

/// `signal` with dim `dim` zero-padded or trimmed to `length`.
Signal resized(const Signal &signal, int64_t dim, int64_t length) {
  DimSplit s = splitAt(signal.sizes, dim);
  Signal out;
  out.sizes = signal.sizes;
  out.sizes[dim] = length;
  out.re.assign(s.outer * length * s.inner, 0.0);
  out.im.assign(out.re.size(), 0.0);
  int64_t kept = std::min(length, s.size);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t k = 0; k < kept; ++k)
      for (int64_t i = 0; i < s.inner; ++i) {
        int64_t from = (o * s.size + k) * s.inner + i;
        int64_t to = (o * length + k) * s.inner + i;
        out.re[to] = signal.re[from];
        out.im[to] = signal.im[from];
      }
  return out;
}

/// The inverse complex DFT (exponent +2 pi i jk / n, unscaled) of every
/// line along `dim`.
void inverseTransform(Signal &signal, int64_t dim) {
  DimSplit s = splitAt(signal.sizes, dim);
  int64_t n = s.size;
  std::vector<double> cosines(n), sines(n), lineRe(n), lineIm(n);
  for (int64_t j = 0; j < n; ++j) {
    cosines[j] = std::cos(kTwoPi * j / n);
    sines[j] = std::sin(kTwoPi * j / n);
  }
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      auto at = [&](int64_t k) { return (o * n + k) * s.inner + i; };
      for (int64_t k = 0; k < n; ++k) {
        lineRe[k] = signal.re[at(k)];
        lineIm[k] = signal.im[at(k)];
      }
      for (int64_t t = 0; t < n; ++t) {
        double re = 0, im = 0;
        for (int64_t k = 0; k < n; ++k) {
          int64_t phase = (k * t) % n;
          re += lineRe[k] * cosines[phase] - lineIm[k] * sines[phase];
          im += lineRe[k] * sines[phase] + lineIm[k] * cosines[phase];
        }
        signal.re[at(t)] = re;
        signal.im[at(t)] = im;
      }
    }
}

/// The complex-to-real transform along `dim`, whose lines hold the first
/// length / 2 + 1 coefficients of a Hermitian spectrum: a signal of
/// `length` real values per line (unscaled).
std::vector<double> toRealSignal(const Signal &signal, int64_t dim,
                                 int64_t length, std::vector<int64_t> &sizes) {
  DimSplit s = splitAt(signal.sizes, dim);
  sizes = signal.sizes;
  sizes[dim] = length;
  std::vector<double> cosines(length), sines(length);
  for (int64_t j = 0; j < length; ++j) {
    cosines[j] = std::cos(kTwoPi * j / length);
    sines[j] = std::sin(kTwoPi * j / length);
  }
  std::vector<double> out(s.outer * length * s.inner);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i)
      for (int64_t t = 0; t < length; ++t) {
        double value = 0;
        for (int64_t k = 0; k < s.size; ++k) {
          // Each coefficient but the first (and the middle one of an even
          // length) stands for itself and its conjugate mirror.
          double weight = (k == 0 || 2 * k == length) ? 1.0 : 2.0;
          int64_t at = (o * s.size + k) * s.inner + i;
          int64_t phase = (k * t) % length;
          value += weight * (signal.re[at] * cosines[phase] -
                             signal.im[at] * sines[phase]);
        }
        out[(o * length + t) * s.inner + i] = value;
      }
  return out;
}

/// The scale `norm` gives a transform of `points` points: torch's
/// norm_from_string, for a backward (irfft*) or a forward (hfft*) one.
StatusOr<double> normalization(const Value &norm, bool forward,
                               double points) {
  std::string mode = "backward";
  if (!norm.isNone()) {
    TSIR_RT_ASSIGN_OR_RETURN(mode, stringArg(norm, "norm"));
  }
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

/// The transformed dims and the signal's size along each (the last one's
/// output length), from `n`/`s` and `dim` as torch canonicalizes them
/// (canonicalize_fft_c2r_shape_and_dim_args).
Status canonicalize(Arity arity, const Tensor &self, const Value &shapeArg,
                    const Value &dimArg, std::vector<int64_t> &dims,
                    std::vector<int64_t> &shape, const char *name) {
  int64_t rank = self.dim();
  std::optional<std::vector<int64_t>> given;
  if (!shapeArg.isNone()) {
    TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> list,
                             intList(shapeArg, "s"));
    given = list;
  }
  std::vector<int64_t> rawDims;
  if (!dimArg.isNone()) {
    TSIR_RT_ASSIGN_OR_RETURN(rawDims, intList(dimArg, "dim"));
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

Status toReal(Stack &stack, Arity arity, bool forward, const char *name) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 4));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor self, requireTensor(args[0]));
  std::vector<int64_t> dims, shape;
  if (arity == Arity::One) {
    // fft_irfft(self, int? n, int dim, str? norm): one dim.
    Value dimList = args[2];
    Value lengthList = Value();
    if (!args[1].isNone()) {
      TSIR_RT_ASSIGN_OR_RETURN(int64_t n, intArg(args[1], "n"));
      lengthList = Value::list({Value(n)});
    }
    TSIR_RT_RETURN_IF_ERROR(
        canonicalize(arity, self, lengthList, dimList, dims, shape, name));
  } else {
    TSIR_RT_RETURN_IF_ERROR(
        canonicalize(arity, self, args[1], args[2], dims, shape, name));
  }
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
  TSIR_RT_ASSIGN_OR_RETURN(double scale,
                           normalization(args[3], forward, points));
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
  registerKernelTable(registry, {
      {"aten::fft_irfft",
       [](Stack &s) { return toReal(s, Arity::One, false, "fft_irfft"); },
       "aten::fft_irfft(Tensor self, int? n=None, int dim=-1, str? "
       "norm=None) -> Tensor"},
      {"aten::fft_irfft2",
       [](Stack &s) { return toReal(s, Arity::Two, false, "fft_irfft2"); },
       "aten::fft_irfft2(Tensor self, int[1]? s=None, int[1] dim=[-2, -1], "
       "str? norm=None) -> Tensor"},
      {"aten::fft_irfftn",
       [](Stack &s) { return toReal(s, Arity::Any, false, "fft_irfftn"); },
       "aten::fft_irfftn(Tensor self, int[1]? s=None, int[1]? dim=None, "
       "str? norm=None) -> Tensor"},
      {"aten::fft_hfft",
       [](Stack &s) { return toReal(s, Arity::One, true, "fft_hfft"); },
       "aten::fft_hfft(Tensor self, int? n=None, int dim=-1, str? "
       "norm=None) -> Tensor"},
      {"aten::fft_hfft2",
       [](Stack &s) { return toReal(s, Arity::Two, true, "fft_hfft2"); },
       "aten::fft_hfft2(Tensor self, int[1]? s=None, int[1] dim=[-2, -1], "
       "str? norm=None) -> Tensor"},
      {"aten::fft_hfftn",
       [](Stack &s) { return toReal(s, Arity::Any, true, "fft_hfftn"); },
       "aten::fft_hfftn(Tensor self, int[1]? s=None, int[1]? dim=None, "
       "str? norm=None) -> Tensor"},
  });
}

} // namespace tsir::rt
