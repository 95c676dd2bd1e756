//===- Status.h - Error values of the runtime -------------------*- C++ -*-===//
//
// Status (ok, or an error carrying a message and its kind) and StatusOr<T>
// (a value or the error that prevented it). The runtime is built with
// -fno-exceptions inside the main tree, so every fallible call returns one
// of these.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_STATUS_H
#define TSIR_RUNTIME_STATUS_H

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace tsir::rt {

/// What an error's message already says, so that the code passing it up
/// knows what to add without reading the text.
enum class ErrorKind {
  /// A message about a value or an op, named by whoever reports it: the
  /// kernel registry adds the kernel's name, the executor the place in the
  /// graph.
  Plain,
  /// The message names its place in the user's source already
  /// (`model.py:7:8: error: ...`, from formatError): nothing is added.
  Located,
  /// TorchScript's `raise`: the program's own exception as Python prints
  /// it (`builtins.ValueError: msg`); it is located, never renamed.
  Raised,
};

/// Either success or an error message of some ErrorKind. An error always
/// has a non-empty message so that callers can print it without checking.
class [[nodiscard]] Status {
public:
  /// A default-constructed Status is ok, so `Status s; ... return s;` reads
  /// naturally in functions that accumulate work.
  Status() = default;

  static Status ok() { return Status(); }
  static Status error(std::string message,
                      ErrorKind kind = ErrorKind::Plain) {
    Status status;
    status.failed = true;
    status.errorKind = kind;
    status.text = message.empty() ? "unknown error" : std::move(message);
    return status;
  }
  /// An error whose message formatError already placed in the user's text.
  static Status located(std::string message) {
    return error(std::move(message), ErrorKind::Located);
  }
  /// The exception a TorchScript `raise` raises.
  static Status raised(std::string message) {
    return error(std::move(message), ErrorKind::Raised);
  }

  bool isOk() const { return !failed; }

  /// The error message; empty when ok.
  const std::string &message() const { return text; }

  /// What the message says already; Plain when ok.
  ErrorKind kind() const { return errorKind; }

  /// Returns a copy of this error with `context` prepended ("context: msg").
  /// An ok status stays ok, and a Located or Raised one as it is: its
  /// message is already what the user reads.
  Status withContext(const std::string &context) const {
    if (isOk() || errorKind != ErrorKind::Plain)
      return *this;
    return error(context + ": " + text);
  }

  /// Silences [[nodiscard]] where ignoring an error is a deliberate choice.
  void ignoreError() const {}

private:
  bool failed = false;
  ErrorKind errorKind = ErrorKind::Plain;
  std::string text;
};

namespace detail {
[[noreturn]] inline void fatalStatus(const char *what, const Status &status) {
  std::fprintf(stderr, "tsir runtime: fatal: %s: %s\n", what,
               status.message().c_str());
  std::abort();
}
} // namespace detail

/// A T or the error Status explaining why there is none. Accessing the
/// value of an error aborts with the message (there are no exceptions to
/// throw), so check ok() first.
template <class T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : payload(std::move(value)) {}
  StatusOr(Status status) : errorStatus(std::move(status)) {
    if (errorStatus.isOk())
      errorStatus = Status::error("StatusOr constructed from an ok Status");
  }

  bool ok() const { return payload.has_value(); }
  explicit operator bool() const { return ok(); }

  /// The error, or an ok Status when a value is held.
  const Status &status() const { return errorStatus; }

  T &value() & {
    check();
    return *payload;
  }
  const T &value() const & {
    check();
    return *payload;
  }
  T &&value() && {
    check();
    return std::move(*payload);
  }

  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  void check() const {
    if (!payload)
      detail::fatalStatus("value() of an error StatusOr", errorStatus);
  }

  std::optional<T> payload;
  Status errorStatus;
};

} // namespace tsir::rt

/// Returns the Status of `expr` from the enclosing function if it is an
/// error.
#define TSIR_RT_RETURN_IF_ERROR(expr)                                          \
  do {                                                                         \
    ::tsir::rt::Status tsirRtStatus_ = (expr);                                 \
    if (!tsirRtStatus_.isOk())                                                 \
      return tsirRtStatus_;                                                    \
  } while (false)

#define TSIR_RT_CONCAT_INNER(a, b) a##b
#define TSIR_RT_CONCAT(a, b) TSIR_RT_CONCAT_INNER(a, b)

/// `TSIR_RT_ASSIGN_OR_RETURN(Tensor t, makeTensor());` declares or assigns
/// `lhs` from a StatusOr, returning its error from the enclosing function.
#define TSIR_RT_ASSIGN_OR_RETURN(lhs, expr)                                    \
  TSIR_RT_ASSIGN_OR_RETURN_IMPL(TSIR_RT_CONCAT(tsirRtOr_, __LINE__), lhs, expr)
#define TSIR_RT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                          \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  lhs = std::move(tmp).value()

#endif // TSIR_RUNTIME_STATUS_H
