//===- FourierSupport.h - Direct DFTs shared by the Fourier kernels -*- C++ -*-===//
//
// Private to the runtime: the transforms FourierKernels (fft_irfft* and
// fft_hfft*) and SpectrogramKernels (stft, istft) are built from, on
// signals held as Float64 planes. They are direct DFTs, O(n^2) per line
// rather than an FFT's O(n log n): right for the sizes graphs give them,
// not fast for long signals.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_FOURIERSUPPORT_H
#define TSIR_RUNTIME_LIB_KERNELS_FOURIERSUPPORT_H

#include <cstdint>
#include <vector>

namespace tsir::rt::fourier {

constexpr double kTwoPi = 6.283185307179586476925286766559;

/// A real or complex signal as two row-major planes.
struct Signal {
  std::vector<int64_t> sizes;
  std::vector<double> re, im;
};

/// `signal` with dim `dim` zero-padded or trimmed to `length`.
Signal resized(const Signal &signal, int64_t dim, int64_t length);

/// The inverse complex DFT (exponent +2 pi i jk / n, unscaled) of every
/// line along `dim`.
void inverseTransform(Signal &signal, int64_t dim);

/// The complex-to-real transform along `dim`, whose lines hold the first
/// length / 2 + 1 coefficients of a Hermitian spectrum: a signal of
/// `length` real values per line (unscaled).
std::vector<double> toRealSignal(const Signal &signal, int64_t dim,
                                 int64_t length, std::vector<int64_t> &sizes);

} // namespace tsir::rt::fourier

#endif // TSIR_RUNTIME_LIB_KERNELS_FOURIERSUPPORT_H
