//===- WindowKernels.cpp - The window functions of signal processing ------===//
//
// hann_window, hamming_window, blackman_window, bartlett_window and
// kaiser_window, with their overloads: the windows stft and istft are
// given. They follow ATen's TensorFactories.cpp: a periodic window of L
// points is the symmetric window of L + 1 without its last point; a window
// of 0 points is empty and one of 1 point is [1].
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "SpecialFunctions.h"

#include <cmath>

namespace tsir::rt {

using namespace data;

namespace {

constexpr double kPi = 3.14159265358979323846264338327950288;

enum class Window { Hann, Hamming, Blackman, Bartlett, Kaiser };

/// Point `i` of the symmetric window of `n` (> 1) points.
double pointOf(Window window, int64_t i, int64_t n, double alpha,
               double beta) {
  double step = static_cast<double>(i) / static_cast<double>(n - 1);
  switch (window) {
  case Window::Hann:
  case Window::Hamming:
    return alpha - beta * std::cos(2 * kPi * step);
  case Window::Blackman:
    return 0.08 * std::cos(4 * kPi * step) - 0.5 * std::cos(2 * kPi * step) +
           0.42;
  case Window::Bartlett:
    // Rising to 1 at the middle; the second half is 2 minus the rise.
    return i < ((n - 1) >> 1) + 1 ? 2 * step : 2 - 2 * step;
  case Window::Kaiser: {
    double middle = static_cast<double>(n - 1) / 2;
    double ratio = (static_cast<double>(i) - middle) / middle;
    return special::besselI0(beta * std::sqrt(1 - ratio * ratio)) /
           special::besselI0(beta);
  }
  }
  return 0;
}

/// A window of `length` points, periodic or symmetric: hann's and
/// hamming's `alpha - beta * cos(...)`, kaiser's `beta`.
StatusOr<Tensor> windowOf(Window window, int64_t length, bool periodic,
                          double alpha, double beta,
                          std::optional<DType> dtypeArg) {
  DType dtype = dtypeArg.value_or(DType::Float32);
  if (!isFloating(dtype))
    return Status::error("window functions expect a floating point dtype, "
                         "got " + std::string(dtypeTorchName(dtype)));
  if (length < 0)
    return Status::error("window_length must be non-negative, got " +
                         std::to_string(length));
  std::vector<double> points(length, 1.0);
  if (length > 1) {
    int64_t symmetric = periodic ? length + 1 : length;
    for (int64_t i = 0; i < length; ++i)
      points[i] = pointOf(window, i, symmetric, alpha, beta);
  }
  return fromDoubles(points, {length}, dtype);
}

/// hann's and hamming's alpha and beta by default (kaiser's beta is 12).
double defaultAlpha(Window window) {
  return window == Window::Hann ? 0.5 : 0.54;
}
double defaultBeta(Window window) {
  return window == Window::Kaiser ? 12.0 : window == Window::Hann ? 0.5 : 0.46;
}

// The overloads, by their arguments after window_length; each ends with
// dtype, layout, device and pin_memory.
template <Window W>
StatusOr<Tensor> window(int64_t length, std::optional<DType> dtype,
                        const Value & /*layout*/, const Value & /*device*/,
                        const Value & /*pinMemory*/) {
  return windowOf(W, length, true, defaultAlpha(W), defaultBeta(W), dtype);
}
template <Window W>
StatusOr<Tensor>
periodicWindow(int64_t length, bool periodic, std::optional<DType> dtype,
               const Value & /*layout*/, const Value & /*device*/,
               const Value & /*pinMemory*/) {
  return windowOf(W, length, periodic, defaultAlpha(W), defaultBeta(W), dtype);
}
StatusOr<Tensor> hammingAlpha(int64_t length, bool periodic, double alpha,
                              std::optional<DType> dtype,
                              const Value & /*layout*/,
                              const Value & /*device*/,
                              const Value & /*pinMemory*/) {
  return windowOf(Window::Hamming, length, periodic, alpha,
                  defaultBeta(Window::Hamming), dtype);
}
StatusOr<Tensor> hammingAlphaBeta(int64_t length, bool periodic, double alpha,
                                  double beta, std::optional<DType> dtype,
                                  const Value & /*layout*/,
                                  const Value & /*device*/,
                                  const Value & /*pinMemory*/) {
  return windowOf(Window::Hamming, length, periodic, alpha, beta, dtype);
}
StatusOr<Tensor> kaiserBeta(int64_t length, bool periodic, double beta,
                            std::optional<DType> dtype,
                            const Value & /*layout*/, const Value & /*device*/,
                            const Value & /*pinMemory*/) {
  return windowOf(Window::Kaiser, length, periodic,
                  defaultAlpha(Window::Kaiser), beta, dtype);
}

} // namespace

// The keyword arguments every window's schema ends with.
#define TSIR_WINDOW_KEYWORDS                                                   \
  "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "      \
  "bool? pin_memory=None) -> Tensor"

/// One row of the table: the overload, its function, and its schema from
/// its arguments after window_length.
#define TSIR_WINDOW(NAME, FN, ARGUMENTS)                                       \
  {                                                                            \
    "aten::" NAME "(int window_length, " ARGUMENTS TSIR_WINDOW_KEYWORDS,       \
        bindKernel(FN)                                                         \
  }

void registerWindowKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          TSIR_WINDOW("hann_window", window<Window::Hann>, ""),
          TSIR_WINDOW("hann_window.periodic", periodicWindow<Window::Hann>,
                      "bool periodic, "),
          TSIR_WINDOW("hamming_window", window<Window::Hamming>, ""),
          TSIR_WINDOW("hamming_window.periodic",
                      periodicWindow<Window::Hamming>, "bool periodic, "),
          TSIR_WINDOW("hamming_window.periodic_alpha", hammingAlpha,
                      "bool periodic, float alpha, "),
          TSIR_WINDOW("hamming_window.periodic_alpha_beta", hammingAlphaBeta,
                      "bool periodic, float alpha, float beta, "),
          TSIR_WINDOW("blackman_window", window<Window::Blackman>, ""),
          TSIR_WINDOW("blackman_window.periodic",
                      periodicWindow<Window::Blackman>, "bool periodic, "),
          TSIR_WINDOW("bartlett_window", window<Window::Bartlett>, ""),
          TSIR_WINDOW("bartlett_window.periodic",
                      periodicWindow<Window::Bartlett>, "bool periodic, "),
          TSIR_WINDOW("kaiser_window", window<Window::Kaiser>, ""),
          TSIR_WINDOW("kaiser_window.periodic", periodicWindow<Window::Kaiser>,
                      "bool periodic, "),
          TSIR_WINDOW("kaiser_window.beta", kaiserBeta,
                      "bool periodic, float beta, "),
      });
}

#undef TSIR_WINDOW
#undef TSIR_WINDOW_KEYWORDS

} // namespace tsir::rt
