//===- KernelRegistry.cpp - The kernel registry ---------------------------===//
//
// Registration, lookup and calls of kernels, and the RegisterKernels helper
// for static registration.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"

#include "LibraryLoad.h"

#include <cstdio>

namespace tsir::rt {

namespace detail {
LibraryLoad *&currentLibraryLoad() {
  static thread_local LibraryLoad *load = nullptr;
  return load;
}
} // namespace detail

namespace {
bool isIdentifier(std::string_view text) {
  if (text.empty() || (text[0] >= '0' && text[0] <= '9'))
    return false;
  for (char c : text)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9')))
      return false;
  return true;
}

/// "ns::name" or "ns::name.overload" with identifier parts.
bool isQualifiedName(std::string_view name) {
  size_t colons = name.find("::");
  if (colons == std::string_view::npos || !isIdentifier(name.substr(0, colons)))
    return false;
  std::string_view rest = name.substr(colons + 2);
  size_t dot = rest.find('.');
  if (dot == std::string_view::npos)
    return isIdentifier(rest);
  return isIdentifier(rest.substr(0, dot)) &&
         isIdentifier(rest.substr(dot + 1));
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  return text;
}

Status checkName(const std::string &name, const Kernel &kernel,
                 const std::string &schema) {
  if (!isQualifiedName(name))
    return Status::error("invalid kernel name '" + name +
                         "': expected 'namespace::name' or "
                         "'namespace::name.overload'");
  if (!kernel)
    return Status::error("kernel '" + name + "' is empty");
  if (!schema.empty()) {
    size_t paren = schema.find('(');
    if (paren == std::string::npos || trim(schema.substr(0, paren)) != name)
      return Status::error("schema '" + schema + "' does not declare '" + name +
                           "'");
  }
  return Status::ok();
}
} // namespace

KernelRegistry::KernelRegistry() { detail::initLibraryBookkeeping(); }

KernelRegistry::~KernelRegistry() { detail::forgetRegistry(this); }

KernelRegistry &KernelRegistry::global() {
  static KernelRegistry registry;
  static std::once_flag builtins;
  std::call_once(builtins, [] { registerBuiltinKernels(registry); });
  return registry;
}

Status KernelRegistry::registerKernel(std::string qualifiedName, Kernel kernel,
                                      std::string schema) {
  Status status = checkName(qualifiedName, kernel, schema);
  if (status.isOk()) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = kernels.find(qualifiedName);
    if (it != kernels.end()) {
      status =
          Status::error("kernel '" + qualifiedName + "' is already registered");
    } else {
      KernelInfo info;
      info.name = qualifiedName;
      info.variadic = schema.find("...") != std::string::npos;
      info.schema = std::move(schema);
      info.kernel = std::move(kernel);
      kernels.emplace(qualifiedName, std::move(info));
    }
  }
  detail::LibraryLoad *load = detail::currentLibraryLoad();
  if (load && load->registry == this) {
    if (status.isOk())
      load->registered.push_back(qualifiedName);
    else
      load->errors.push_back(status.message());
  }
  return status;
}

const KernelInfo *KernelRegistry::lookupInfo(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find(name);
  return it == kernels.end() ? nullptr : &it->second;
}

const Kernel *KernelRegistry::lookup(std::string_view name) const {
  const KernelInfo *info = lookupInfo(name);
  return info ? &info->kernel : nullptr;
}

std::vector<std::string> KernelRegistry::names() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::string> result;
  for (const auto &entry : kernels)
    result.push_back(entry.first);
  return result;
}

void KernelRegistry::unregisterKernel(const std::string &name) {
  std::lock_guard<std::mutex> lock(mutex);
  kernels.erase(name);
}

StatusOr<std::vector<Value>> callKernel(std::string_view name,
                                        std::vector<Value> inputs,
                                        const KernelRegistry &registry) {
  const KernelInfo *info = registry.lookupInfo(name);
  if (!info)
    return Status::error("unknown kernel '" + std::string(name) + "'");
  Stack stack = std::move(inputs);
  if (info->variadic)
    stack.emplace_back(static_cast<int64_t>(stack.size()));
  Status status = info->kernel(stack);
  if (!status.isOk())
    return status;
  return stack;
}

Status KernelRegistry::registerOperator(const std::string &schemaOrName,
                                        Kernel kernel) {
  size_t paren = schemaOrName.find('(');
  std::string name(trim(std::string_view(schemaOrName).substr(0, paren)));
  std::string schema = paren == std::string::npos ? "" : schemaOrName;
  return registerKernel(std::move(name), std::move(kernel), std::move(schema));
}

RegisterKernels &RegisterKernels::op(const std::string &schemaOrName,
                                     Kernel kernel) {
  // During loadOperatorLibrary the kernels go to the registry it loads
  // into; otherwise to the global one.
  detail::LibraryLoad *load = detail::currentLibraryLoad();
  KernelRegistry &registry = load ? *load->registry : KernelRegistry::global();
  Status status = registry.registerOperator(schemaOrName, std::move(kernel));
  if (!status.isOk()) {
    // A load in progress reports the error from loadOperatorLibrary.
    if (!load)
      std::fprintf(stderr, "tsir runtime: %s\n", status.message().c_str());
    if (firstError.isOk())
      firstError = status;
  }
  return *this;
}

} // namespace tsir::rt
