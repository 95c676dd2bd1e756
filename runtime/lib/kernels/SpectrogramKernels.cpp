//===- SpectrogramKernels.cpp - stft and istft of real signals ------------===//
//
// The short-time Fourier transform and its inverse, in the form whose
// spectra are real tensors with a trailing dim of 2 (real, imaginary):
// stft with return_complex False or None, and istft of such a spectrum
// with return_complex False. tsir has no complex dtype, so these are the
// forms it runs; a complex result is an error that says so.
//
// They follow ATen's SpectralOps.cpp (torch 1.13): the window zero-padded
// to n_fft at the centre; stft frames the signal every hop_length, weights
// each frame by the window and transforms it (onesided: n_fft / 2 + 1
// bins), scaled by 1 / sqrt(n_fft) when normalized; istft transforms each
// frame back (1 / n_fft, or 1 / sqrt(n_fft) when normalized), weights it
// by the window, overlap-adds the frames and divides by the overlap-added
// squared window, trimming n_fft / 2 at each end when centred.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "FourierSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <optional>
#include <string>

namespace tsir::rt {

using namespace data;
using namespace fourier;

namespace {

/// The arguments both transforms share.
struct Framing {
  int64_t nFft = 0, hop = 0, windowLength = 0;
  /// The window zero-padded to n_fft at the centre (ones when none).
  std::vector<double> window;
};

/// hop_length, win_length and the window, defaulted and checked as torch
/// does; `name` starts the messages.
StatusOr<Framing> framingOf(int64_t nFft, std::optional<int64_t> hopLength,
                            std::optional<int64_t> winLength,
                            const std::optional<Tensor> &window,
                            const char *name) {
  Framing framing;
  framing.nFft = nFft;
  framing.hop = hopLength.value_or(nFft >> 2);
  framing.windowLength = winLength.value_or(nFft);
  std::string prefix = std::string(name) + ": ";
  if (framing.hop <= 0)
    return Status::error(prefix + "expected hop_length > 0, but got "
                                  "hop_length=" +
                         std::to_string(framing.hop));
  if (framing.windowLength <= 0 || framing.windowLength > framing.nFft)
    return Status::error(prefix + "expected 0 < win_length <= n_fft, but "
                                  "got win_length=" +
                         std::to_string(framing.windowLength));
  Tensor windowTensor = window.value_or(Tensor());
  std::vector<double> given(framing.windowLength, 1.0);
  if (windowTensor.defined()) {
    if (windowTensor.dim() != 1 ||
        windowTensor.size(0) != framing.windowLength)
      return Status::error(prefix + "expected a 1D window tensor of size "
                                    "equal to win_length=" +
                           std::to_string(framing.windowLength) +
                           ", but got window with size " +
                           sizesToString(windowTensor.sizes()));
    given = toDoubles(windowTensor);
  }
  framing.window.assign(framing.nFft, 0.0);
  int64_t left = (framing.nFft - framing.windowLength) / 2;
  for (int64_t i = 0; i < framing.windowLength; ++i)
    framing.window[left + i] = given[i];
  return framing;
}

/// A floating dtype's result dtype (the spectra and signals of Float64
/// stay Float64).
DType realDtypeOf(const Tensor &tensor) {
  return tensor.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
}

/// The signal of each row of `rows` (batch x length) padded by `pad` at
/// both ends as `mode` says (stft.center's pad_mode).
StatusOr<std::vector<double>> padded(const std::vector<double> &rows,
                                     int64_t batch, int64_t length,
                                     int64_t pad, const std::string &mode) {
  if (mode == "reflect" && pad >= length)
    return Status::error("Argument #4: Padding size should be less than the "
                         "corresponding input dimension, but got: padding (" +
                         std::to_string(pad) + ", " + std::to_string(pad) +
                         ") at dimension 1 of input " +
                         sizesToString({batch, length}));
  if (mode != "reflect" && mode != "constant" && mode != "replicate" &&
      mode != "circular")
    return Status::error("Unrecognised padding mode " + mode);
  int64_t out = length + 2 * pad;
  std::vector<double> result(batch * out, 0.0);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < out; ++t) {
      int64_t at = t - pad;
      if (at < 0 || at >= length) {
        if (mode == "constant")
          continue;
        if (mode == "reflect")
          at = at < 0 ? -at : 2 * (length - 1) - at;
        else if (mode == "replicate")
          at = at < 0 ? 0 : length - 1;
        else
          at = ((at % length) + length) % length;
      }
      result[b * out + t] = rows[b * length + at];
    }
  return result;
}

/// stft of a 1-d or 2-d real signal: (batch x) bins x frames x 2; the
/// signal padded as `padMode` says when `center` (stft.center).
StatusOr<Tensor>
stftOf(const Tensor &self, int64_t nFft, std::optional<int64_t> hopLength,
       std::optional<int64_t> winLength, const std::optional<Tensor> &window,
       bool center, const std::string &padMode, bool normalized,
       std::optional<bool> onesided, std::optional<bool> returnComplex) {
  TSIR_RT_ASSIGN_OR_RETURN(
      Framing framing, framingOf(nFft, hopLength, winLength, window, "stft"));
  bool oneSided = onesided.value_or(true);
  if (returnComplex) {
    if (*returnComplex)
      return Status::error("stft with return_complex=True gives a complex "
                           "tensor, and tsir has no complex dtype; "
                           "return_complex=False gives the same spectrum "
                           "as real and imaginary parts");
  }
  if (!isFloating(self.dtype()) || self.dim() < 1 || self.dim() > 2)
    return Status::error("stft: expected a 1D or 2D tensor of floating "
                         "types, but got " + self.toString());
  int64_t batch = self.dim() == 2 ? self.size(0) : 1;
  int64_t length = self.size(-1);
  std::vector<double> signal = toDoubles(self);
  if (center) {
    int64_t pad = framing.nFft / 2;
    TSIR_RT_ASSIGN_OR_RETURN(signal,
                             padded(signal, batch, length, pad, padMode));
    length += 2 * pad;
  }
  if (nFft <= 0 || nFft > length)
    return Status::error("stft: expected 0 < n_fft < " +
                         std::to_string(length) +
                         ", but got n_fft=" + std::to_string(nFft));
  int64_t frames = 1 + (length - nFft) / framing.hop;
  int64_t bins = oneSided ? nFft / 2 + 1 : nFft;
  double scale = normalized ? 1.0 / std::sqrt(static_cast<double>(nFft)) : 1.0;
  std::vector<double> cosines(nFft), sines(nFft), frame(nFft);
  for (int64_t j = 0; j < nFft; ++j) {
    cosines[j] = std::cos(kTwoPi * j / nFft);
    sines[j] = std::sin(kTwoPi * j / nFft);
  }
  // Laid out as torch returns it: batch x bins x frames x (re, im).
  std::vector<double> out(batch * bins * frames * 2);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t t = 0; t < nFft; ++t)
        frame[t] = signal[b * length + f * framing.hop + t] * framing.window[t];
      for (int64_t k = 0; k < bins; ++k) {
        double re = 0, im = 0;
        for (int64_t t = 0; t < nFft; ++t) {
          int64_t phase = (k * t) % nFft;
          re += frame[t] * cosines[phase];
          im -= frame[t] * sines[phase];
        }
        int64_t at = ((b * bins + k) * frames + f) * 2;
        out[at] = re * scale;
        out[at + 1] = im * scale;
      }
    }
  std::vector<int64_t> sizes = {bins, frames, 2};
  if (self.dim() == 2)
    sizes.insert(sizes.begin(), batch);
  return fromDoubles(out, sizes, realDtypeOf(self));
}

StatusOr<Tensor> stft(Tensor self, int64_t nFft,
                      std::optional<int64_t> hopLength,
                      std::optional<int64_t> winLength,
                      std::optional<Tensor> window, bool normalized,
                      std::optional<bool> onesided,
                      std::optional<bool> returnComplex) {
  return stftOf(self, nFft, hopLength, winLength, window, /*center=*/false, "",
                normalized, onesided, returnComplex);
}

/// stft.center has `center` and `pad_mode` after the window.
StatusOr<Tensor>
stftCenter(Tensor self, int64_t nFft, std::optional<int64_t> hopLength,
           std::optional<int64_t> winLength, std::optional<Tensor> window,
           bool center, std::string padMode, bool normalized,
           std::optional<bool> onesided, std::optional<bool> returnComplex) {
  return stftOf(self, nFft, hopLength, winLength, window, center, padMode,
                normalized, onesided, returnComplex);
}

/// istft of a (batch x) bins x frames x 2 spectrum to a real signal.
StatusOr<Tensor> istft(Tensor self, int64_t nFft,
                       std::optional<int64_t> hopLength,
                       std::optional<int64_t> winLength,
                       std::optional<Tensor> window, bool center,
                       bool normalized, std::optional<bool> onesided,
                       std::optional<int64_t> length, bool returnComplex) {
  TSIR_RT_ASSIGN_OR_RETURN(
      Framing framing, framingOf(nFft, hopLength, winLength, window, "istft"));
  if (returnComplex)
    return Status::error("istft with return_complex=True gives a complex "
                         "tensor, and tsir has no complex dtype");
  if (!isFloating(self.dtype()))
    return Status::error("istft: expected a real tensor of floating types "
                         "holding real and imaginary parts, but got " +
                         self.toString());
  if (self.numel() == 0)
    return Status::error("istft: input tensor cannot be empty.");
  if (self.dim() != 3 && self.dim() != 4)
    return Status::error("istft: expected a tensor with 3 or 4 dimensions, "
                         "but got " + std::to_string(self.dim()));
  if (self.size(-1) != 2)
    return Status::error("istft: expected the last dimension to be 2 "
                         "(corresponding to real and imaginary parts), but "
                         "got " + std::to_string(self.size(-1)));
  int64_t hop = framing.hop;
  int64_t bins = self.size(-3), frames = self.size(-2);
  int64_t batch = self.dim() == 4 ? self.size(0) : 1;
  bool oneSided = onesided.value_or(bins != nFft);
  if (oneSided && bins != nFft / 2 + 1)
    return Status::error("istft: expected the frequency dimension (3rd to "
                         "the last) of the input tensor to match n_fft / 2 + "
                         "1 when onsided=True, but got " +
                         std::to_string(bins));
  if (!oneSided && bins != nFft)
    return Status::error("istft: expected the frequency dimension (3rd to "
                         "the last) of the input tensor to match n_fft when "
                         "onsided=False, but got " + std::to_string(bins));
  if (hop > framing.windowLength)
    return Status::error("istft: expected 0 < hop_length <= win_length");

  // Each frame's spectrum, as batch x frames x (the first nFft / 2 + 1)
  // bins: a full spectrum of a real result is read by its first half, as
  // torch's complex-to-real transform does.
  std::vector<double> spectrum = toDoubles(self);
  int64_t half = nFft / 2 + 1;
  Signal lines;
  lines.sizes = {batch, frames, half};
  lines.re.resize(batch * frames * half);
  lines.im.resize(lines.re.size());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t k = 0; k < half; ++k)
      for (int64_t f = 0; f < frames; ++f) {
        int64_t from = ((b * bins + k) * frames + f) * 2;
        int64_t to = (b * frames + f) * half + k;
        lines.re[to] = spectrum[from];
        lines.im[to] = spectrum[from + 1];
      }
  std::vector<int64_t> frameSizes;
  std::vector<double> framesOut = toRealSignal(lines, 2, nFft, frameSizes);
  double scale = normalized ? 1.0 / std::sqrt(static_cast<double>(nFft))
                            : 1.0 / static_cast<double>(nFft);

  // Overlap-add of the windowed frames and of the squared window.
  int64_t expected = nFft + hop * (frames - 1);
  std::vector<double> signal(batch * expected, 0.0), envelope(expected, 0.0);
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t t = 0; t < nFft; ++t) {
      double w = framing.window[t];
      envelope[f * hop + t] += w * w;
      for (int64_t b = 0; b < batch; ++b)
        signal[b * expected + f * hop + t] +=
            framesOut[(b * frames + f) * nFft + t] * scale * w;
    }
  // A centred signal ends n_fft / 2 before the frames do.
  int64_t start = center ? nFft / 2 : 0;
  int64_t end = center ? expected - nFft / 2 : expected;
  if (length)
    end = start + *length;
  // A `length` past the frames' end pads the signal with zeros.
  int64_t kept = std::max<int64_t>(0, std::min(end, expected) - start);
  int64_t total = std::max<int64_t>(kept, end - start);
  for (int64_t t = start; t < start + kept; ++t)
    if (std::abs(envelope[t]) < 1e-11)
      return Status::error("istft: window overlap add min: " +
                           std::to_string(std::abs(envelope[t])));
  std::vector<double> out(batch * total, 0.0);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < kept; ++t)
      out[b * total + t] =
          signal[b * expected + start + t] / envelope[start + t];
  std::vector<int64_t> sizes = {total};
  if (self.dim() == 4)
    sizes.insert(sizes.begin(), batch);
  return fromDoubles(out, sizes, realDtypeOf(self));
}

} // namespace

void registerSpectrogramKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::stft(Tensor self, int n_fft, int? hop_length=None, int? "
           "win_length=None, Tensor? window=None, bool normalized=False, bool? "
           "onesided=None, bool? return_complex=None) -> Tensor",
           bindKernel(stft)},
          {"aten::stft.center(Tensor self, int n_fft, int? hop_length=None, "
           "int? win_length=None, Tensor? window=None, bool center=True, str "
           "pad_mode=\"reflect\", bool normalized=False, bool? onesided=None, "
           "bool? return_complex=None) -> Tensor",
           bindKernel(stftCenter)},
          {"aten::istft(Tensor self, int n_fft, int? hop_length=None, int? "
           "win_length=None, Tensor? window=None, bool center=True, bool "
           "normalized=False, bool? onesided=None, int? length=None, bool "
           "return_complex=False) -> Tensor",
           bindKernel(istft)},
      });
}

} // namespace tsir::rt
