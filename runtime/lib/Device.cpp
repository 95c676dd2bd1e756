//===- Device.cpp - Device names ------------------------------------------===//
//
// Printing and parsing of torch's device strings.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Device.h"

namespace tsir::rt {

std::string Device::toString() const {
  if (kind == CPU)
    return "cpu";
  return "cuda:" + std::to_string(index);
}

std::optional<Device> Device::parse(std::string_view text) {
  if (text == "cpu")
    return cpu();
  if (text == "cuda")
    return cuda(0);
  constexpr std::string_view prefix = "cuda:";
  if (text.substr(0, prefix.size()) != prefix || text.size() == prefix.size() ||
      text.size() > prefix.size() + 6)
    return std::nullopt;
  int index = 0;
  for (char c : text.substr(prefix.size())) {
    if (c < '0' || c > '9')
      return std::nullopt;
    index = index * 10 + (c - '0');
  }
  return cuda(index);
}

} // namespace tsir::rt
