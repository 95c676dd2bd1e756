//===- Device.h - Where a tensor's memory lives -----------------*- C++ -*-===//
//
// Device names a memory space: the host, or one CUDA device. Printed and
// parsed as torch spells it ("cpu", "cuda:0").
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_DEVICE_H
#define TSIR_RUNTIME_DEVICE_H

#include <optional>
#include <string>
#include <string_view>

namespace tsir::rt {

struct Device {
  enum Kind { CPU, CUDA };

  Kind kind = CPU;
  /// The CUDA ordinal; always 0 for CPU (there is one host).
  int index = 0;

  static Device cpu() { return Device{CPU, 0}; }
  static Device cuda(int index = 0) { return Device{CUDA, index}; }

  bool isCPU() const { return kind == CPU; }
  bool isCUDA() const { return kind == CUDA; }

  /// "cpu" or "cuda:<index>".
  std::string toString() const;
  /// Accepts "cpu", "cuda" (index 0) and "cuda:<n>".
  static std::optional<Device> parse(std::string_view text);

  friend bool operator==(const Device &a, const Device &b) {
    return a.kind == b.kind && a.index == b.index;
  }
  friend bool operator!=(const Device &a, const Device &b) { return !(a == b); }
};

} // namespace tsir::rt

#endif // TSIR_RUNTIME_DEVICE_H
