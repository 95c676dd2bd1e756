//===- Ref.h - Intrusive reference counting ---------------------*- C++ -*-===//
//
// RefCounted (an atomic count embedded in the object) and Ref<T> (the smart
// pointer that holds one reference), as c10's intrusive_ptr does for
// StorageImpl: one allocation per object and a pointer-sized handle, so a
// raw pointer can be turned back into an owning Ref.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_REF_H
#define TSIR_RUNTIME_REF_H

#include <atomic>
#include <cstdint>
#include <utility>

namespace tsir::rt {

/// Base of objects owned through Ref<T>. The count starts at zero; the
/// first Ref takes it to one.
class RefCounted {
public:
  RefCounted() = default;
  RefCounted(const RefCounted &) = delete;
  RefCounted &operator=(const RefCounted &) = delete;

  void retain() const { refs.fetch_add(1, std::memory_order_relaxed); }
  /// Drops one reference; true when it was the last (the caller deletes).
  bool release() const {
    // acq_rel: the deleting thread must see every write made through other
    // references before they were dropped.
    return refs.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }
  uint32_t refCount() const { return refs.load(std::memory_order_relaxed); }

protected:
  ~RefCounted() = default;

private:
  mutable std::atomic<uint32_t> refs{0};
};

/// An owning pointer to a RefCounted T. Deleting through T (not the base)
/// means T needs no virtual destructor.
template <class T> class Ref {
public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  /// Adopts `object` and takes a reference to it (it may already be owned
  /// by other Refs).
  explicit Ref(T *object) : ptr(object) {
    if (ptr)
      ptr->retain();
  }
  Ref(const Ref &other) : Ref(other.ptr) {}
  Ref(Ref &&other) noexcept : ptr(std::exchange(other.ptr, nullptr)) {}
  ~Ref() { reset(); }

  Ref &operator=(const Ref &other) {
    Ref(other).swap(*this);
    return *this;
  }
  Ref &operator=(Ref &&other) noexcept {
    Ref(std::move(other)).swap(*this);
    return *this;
  }

  template <class... Args> static Ref make(Args &&...args) {
    return Ref(new T(std::forward<Args>(args)...));
  }

  void reset() {
    if (ptr && ptr->release())
      delete ptr;
    ptr = nullptr;
  }
  void swap(Ref &other) noexcept { std::swap(ptr, other.ptr); }

  T *get() const { return ptr; }
  T *operator->() const { return ptr; }
  T &operator*() const { return *ptr; }
  explicit operator bool() const { return ptr != nullptr; }
  uint32_t useCount() const { return ptr ? ptr->refCount() : 0; }

  friend bool operator==(const Ref &a, const Ref &b) { return a.ptr == b.ptr; }
  friend bool operator!=(const Ref &a, const Ref &b) { return a.ptr != b.ptr; }

private:
  T *ptr = nullptr;
};

} // namespace tsir::rt

#endif // TSIR_RUNTIME_REF_H
