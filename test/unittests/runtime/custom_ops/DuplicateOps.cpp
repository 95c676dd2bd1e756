//===- DuplicateOps.cpp - An operator library whose names collide ---------===//
//
// Registers my_ns::dup_unique and my_ns::dup_taken; the test registers
// my_ns::dup_taken first, so loading must fail and roll back dup_unique.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"

namespace {
tsir::rt::Status nothing(tsir::rt::Stack &) { return tsir::rt::Status::ok(); }

auto registry = tsir::rt::RegisterKernels()
                    .op("my_ns::dup_unique() -> ()", nothing)
                    .op("my_ns::dup_taken() -> ()", nothing);
} // namespace
