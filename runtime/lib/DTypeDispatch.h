//===- DTypeDispatch.h - Typed element access by DType ----------*- C++ -*-===//
//
// Private to the runtime: maps a DType to a C++ element type at compile
// time (dispatchDType), and loads/stores elements of any dtype through a
// double or int64 intermediate with torch's conversion rules. Loads and
// stores use memcpy because adopted buffers (an .npy payload, a mapped
// safetensors file) need not be aligned.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_DTYPEDISPATCH_H
#define TSIR_RUNTIME_LIB_DTYPEDISPATCH_H

#include "tsir-runtime/DType.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tsir::rt::detail {

/// The 16-bit float types, distinct from uint16_t so overloads can tell
/// them apart.
struct HalfBits {
  uint16_t bits;
};
struct BFloat16Bits {
  uint16_t bits;
};

template <class T> struct TypeTag { using type = T; };

/// Calls `fn(TypeTag<T>{})` with the element type of `dtype`.
template <class Fn> decltype(auto) dispatchDType(DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::Float32:
    return fn(TypeTag<float>{});
  case DType::Float64:
    return fn(TypeTag<double>{});
  case DType::Float16:
    return fn(TypeTag<HalfBits>{});
  case DType::BFloat16:
    return fn(TypeTag<BFloat16Bits>{});
  case DType::Int64:
    return fn(TypeTag<int64_t>{});
  case DType::Int32:
    return fn(TypeTag<int32_t>{});
  case DType::Int16:
    return fn(TypeTag<int16_t>{});
  case DType::Int8:
    return fn(TypeTag<int8_t>{});
  case DType::UInt8:
    return fn(TypeTag<uint8_t>{});
  case DType::Bool:
    return fn(TypeTag<bool>{});
  }
  __builtin_unreachable();
}

template <class T>
inline constexpr bool kIsFloat =
    std::is_floating_point_v<T> || std::is_same_v<T, HalfBits> ||
    std::is_same_v<T, BFloat16Bits>;

template <class T> T loadRaw(const void *ptr) {
  T value;
  std::memcpy(&value, ptr, sizeof(T));
  return value;
}

template <class T> void storeRaw(void *ptr, T value) {
  std::memcpy(ptr, &value, sizeof(T));
}

/// The element at `ptr` as a double (exact for every type but int64 beyond
/// 2^53).
template <class T> double loadDouble(const void *ptr) {
  if constexpr (std::is_same_v<T, HalfBits>)
    return halfToFloat(loadRaw<uint16_t>(ptr));
  else if constexpr (std::is_same_v<T, BFloat16Bits>)
    return bfloat16ToFloat(loadRaw<uint16_t>(ptr));
  else if constexpr (std::is_same_v<T, bool>)
    return loadRaw<uint8_t>(ptr) != 0 ? 1.0 : 0.0;
  else
    return static_cast<double>(loadRaw<T>(ptr));
}

/// An integer or bool element at `ptr` as int64.
template <class T> int64_t loadInt(const void *ptr) {
  static_assert(!kIsFloat<T>);
  if constexpr (std::is_same_v<T, bool>)
    return loadRaw<uint8_t>(ptr) != 0;
  else
    return static_cast<int64_t>(loadRaw<T>(ptr));
}

template <class T> bool loadTruth(const void *ptr) {
  if constexpr (kIsFloat<T>)
    return loadDouble<T>(ptr) != 0.0; // NaN is true, as in torch.
  else
    return loadInt<T>(ptr) != 0;
}

/// float -> int64 truncates toward zero; NaN becomes 0 and out-of-range
/// values saturate, where C++ (and torch) leave the result undefined.
inline int64_t doubleToInt64(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 9223372036854775807.0)
    return INT64_MAX;
  if (value <= -9223372036854775808.0)
    return INT64_MIN;
  return static_cast<int64_t>(value);
}

template <class T> void storeDouble(void *ptr, double value) {
  if constexpr (std::is_same_v<T, HalfBits>)
    storeRaw<uint16_t>(ptr, floatToHalf(static_cast<float>(value)));
  else if constexpr (std::is_same_v<T, BFloat16Bits>)
    storeRaw<uint16_t>(ptr, floatToBFloat16(static_cast<float>(value)));
  else if constexpr (std::is_same_v<T, bool>)
    storeRaw<uint8_t>(ptr, value != 0.0);
  else if constexpr (std::is_floating_point_v<T>)
    storeRaw<T>(ptr, static_cast<T>(value));
  else
    storeRaw<T>(ptr, static_cast<T>(doubleToInt64(value)));
}

/// Integer stores wrap (two's complement), as torch's static_cast does.
template <class T> void storeInt(void *ptr, int64_t value) {
  if constexpr (kIsFloat<T>)
    storeDouble<T>(ptr, static_cast<double>(value));
  else if constexpr (std::is_same_v<T, bool>)
    storeRaw<uint8_t>(ptr, value != 0);
  else
    storeRaw<T>(ptr, static_cast<T>(static_cast<uint64_t>(value)));
}

/// Copies one element of type S at `src` to type D at `dst`.
template <class S, class D> void convertElement(const void *src, void *dst) {
  if constexpr (std::is_same_v<D, bool>)
    storeRaw<uint8_t>(dst, loadTruth<S>(src));
  else if constexpr (kIsFloat<D> || kIsFloat<S>)
    storeDouble<D>(dst, loadDouble<S>(src));
  else
    storeInt<D>(dst, loadInt<S>(src));
}

/// The element at `ptr` of dtype `dtype` as a double.
inline double loadAsDouble(const void *ptr, DType dtype) {
  return dispatchDType(dtype, [&](auto tag) {
    return loadDouble<typename decltype(tag)::type>(ptr);
  });
}

} // namespace tsir::rt::detail

#endif // TSIR_RUNTIME_LIB_DTYPEDISPATCH_H
