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
#include "tsir-runtime/Stack.h"

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

/// A window op with `params` arguments after window_length (periodic, then
/// hamming's alpha and beta or kaiser's beta), then dtype, layout, device
/// and pin_memory.
Status windowOf(Stack &stack, Window window, size_t params) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args,
                           popArgs(stack, 1 + params + 4));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t length, intArg(args[0], "window_length"));
  bool periodic = true;
  if (params >= 1) {
    TSIR_RT_ASSIGN_OR_RETURN(periodic, boolArg(args[1], "periodic"));
  }
  double alpha = window == Window::Hann ? 0.5 : 0.54;
  double beta = window == Window::Hann ? 0.5 : 0.46;
  if (window == Window::Kaiser) {
    beta = 12.0;
    if (params >= 2) {
      TSIR_RT_ASSIGN_OR_RETURN(beta, scalarArg(args[2], "beta"));
    }
  } else if (params >= 2) {
    TSIR_RT_ASSIGN_OR_RETURN(alpha, scalarArg(args[2], "alpha"));
    if (params >= 3) {
      TSIR_RT_ASSIGN_OR_RETURN(beta, scalarArg(args[3], "beta"));
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(DType dtype,
                           optionalDType(args[1 + params], DType::Float32));
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
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(points, {length}, dtype));
  push(stack, std::move(result));
  return Status::ok();
}

} // namespace

// The keyword arguments every window's schema ends with.
#define TSIR_WINDOW_KEYWORDS                                                   \
  "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "      \
  "bool? pin_memory=None) -> Tensor"

/// One row of the table: the overload, its kernel, and its schema from its
/// arguments after window_length.
#define TSIR_WINDOW(NAME, KIND, PARAMS, ARGUMENTS)                             \
  {"aten::" NAME, [](Stack &s) { return windowOf(s, Window::KIND, PARAMS); }, \
   "aten::" NAME "(int window_length, " ARGUMENTS TSIR_WINDOW_KEYWORDS}

void registerWindowKernels(KernelRegistry &registry) {
  registerKernelTable(registry, {
      TSIR_WINDOW("hann_window", Hann, 0, ""),
      TSIR_WINDOW("hann_window.periodic", Hann, 1, "bool periodic, "),
      TSIR_WINDOW("hamming_window", Hamming, 0, ""),
      TSIR_WINDOW("hamming_window.periodic", Hamming, 1, "bool periodic, "),
      TSIR_WINDOW("hamming_window.periodic_alpha", Hamming, 2,
                  "bool periodic, float alpha, "),
      TSIR_WINDOW("hamming_window.periodic_alpha_beta", Hamming, 3,
                  "bool periodic, float alpha, float beta, "),
      TSIR_WINDOW("blackman_window", Blackman, 0, ""),
      TSIR_WINDOW("blackman_window.periodic", Blackman, 1, "bool periodic, "),
      TSIR_WINDOW("bartlett_window", Bartlett, 0, ""),
      TSIR_WINDOW("bartlett_window.periodic", Bartlett, 1, "bool periodic, "),
      TSIR_WINDOW("kaiser_window", Kaiser, 0, ""),
      TSIR_WINDOW("kaiser_window.periodic", Kaiser, 1, "bool periodic, "),
      TSIR_WINDOW("kaiser_window.beta", Kaiser, 2,
                  "bool periodic, float beta, "),
  });
}

#undef TSIR_WINDOW
#undef TSIR_WINDOW_KEYWORDS

} // namespace tsir::rt
