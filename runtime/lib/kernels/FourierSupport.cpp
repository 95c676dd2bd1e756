//===- FourierSupport.cpp - Direct DFTs shared by the Fourier kernels -----===//
//
// See FourierSupport.h.
//
//===----------------------------------------------------------------------===//

#include "FourierSupport.h"
#include "DataKernelSupport.h"

#include <algorithm>
#include <cmath>

namespace tsir::rt::fourier {

using data::DimSplit;
using data::splitAt;



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

} // namespace tsir::rt::fourier
