//===- OpRoles.cpp - How the segmented executor runs each op --------------===//
//
// See OpRoles.h.
//
//===----------------------------------------------------------------------===//

#include "OpRoles.h"

#include "tsir/Compiler/Diagnostics.h"
#include "NativeOpKinds.h"

#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/ObjectOps.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;
using namespace tsir;

tsir::OpRoles::OpRoles(MLIRContext *context, const rt::KernelRegistry &kernels)
    : registry(kernels) {
  TsirTypeConverter typeConverter;
  RewritePatternSet patterns(context);
  populateAtenToLinalgPatterns(typeConverter, patterns);
  populateAtenToArithPatterns(typeConverter, patterns);
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      loweredOps.insert(root->getStringRef());
}

/// `aten.add.Tensor` for `aten.add_.Tensor`: what tsir-value-semantics
/// turns an in-place op into.
static std::string functionalName(StringRef name) {
  if (!name.consume_front("aten."))
    return "";
  auto [base, overload] = name.split('.');
  if (!base.ends_with("_") || base.starts_with("__"))
    return "";
  std::string functional = "aten." + base.drop_back().str();
  if (!overload.empty())
    functional += "." + overload.str();
  return functional;
}

bool tsir::OpRoles::hasLowering(Operation *op) const {
  StringRef name = op->getName().getStringRef();
  if (loweredOps.contains(name) || name == "aten.copy_")
    return true;
  std::string functional = functionalName(name);
  return !functional.empty() && loweredOps.contains(functional);
}

std::string tsir::OpRoles::torchName(Operation *op) {
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    // The importer records the overload it resolved an aten node to.
    if (auto overload = op->getAttrOfType<StringAttr>("tsir.overload"))
      return (generic.getKind() + "." + overload.getValue()).str();
    return generic.getKind().str();
  }
  StringRef name = op->getName().getStringRef();
  if (const aten::Schema *schema =
          aten::SchemaRegistry::get().lookupTypedOp(name))
    return schema->qualifiedName +
           (schema->overload.empty() ? "" : "." + schema->overload);
  auto [dialect, rest] = name.split('.');
  return (dialect + "::" + rest).str();
}

std::string tsir::OpRoles::kernelName(Operation *op) const {
  // The interpreter's own ops have runtime kernels too, but the partition
  // keeps them native: they run between segments without cutting there.
  if (isNativeOp(op))
    return "";
  std::string name = torchName(op);
  if (registry.lookup(name))
    return name;
  // An overload may be registered under the bare name, and a bare name
  // (`aten::foo`, a generic node's kind) under one of its overloads. An
  // overload never takes another overload's kernel: `sum.dim_IntList` is
  // not `sum.int`.
  StringRef bare = StringRef(name).split('.').first;
  if (bare.size() != name.size())
    return registry.lookup(bare) ? bare.str() : "";
  for (const aten::Schema *schema : aten::SchemaRegistry::get().lookup(bare)) {
    if (schema->overload.empty())
      continue;
    std::string overload = bare.str() + "." + schema->overload;
    if (registry.lookup(overload))
      return overload;
  }
  return "";
}

/// Whether `op` is a tensor-to-tensor unchecked_cast, which the conversion
/// lowers (others are the interpreter's identity).
static bool isTensorCast(prim::UncheckedCastOp cast) {
  return isa<prim::TensorType>(cast.getType()) &&
         isa<prim::TensorType, prim::OptionalType>(cast.getInput().getType());
}

OpRole tsir::OpRoles::classify(Operation *op) const {
  if (isa<prim::ConstantOp, prim::ListConstructOp, prim::TupleConstructOp>(op))
    return OpRole::Free;
  if (isa<prim::IfOp, prim::LoopOp, prim::ListUnpackOp, prim::TupleUnpackOp,
          prim::TupleIndexOp, prim::UninitializedOp, prim::DictConstructOp,
          prim::GetAttrOp, prim::SetAttrOp>(op) ||
      prim::isCreateObject(op))
    return OpRole::Native;
  if (auto cast = dyn_cast<prim::UncheckedCastOp>(op))
    return isTensorCast(cast) ? OpRole::Lowered : OpRole::Native;
  if (isa<prim::GenericOp>(op) ? isLoweredPrimScalarOp(op) : hasLowering(op))
    return OpRole::Lowered;
  if (!kernelName(op).empty())
    return OpRole::Kernel;
  if (isNativeOp(op))
    return OpRole::Native;
  return OpRole::Missing;
}

std::string tsir::describeMissingOp(Operation *op, bool lowersInSegments) {
  std::string name = OpRoles::torchName(op);
  StringRef ns = StringRef(name).split("::").first;
  std::string hint = ns == "aten" || ns == "prim"
                         ? "tsir has no conversion for it, and no runtime "
                           "kernel is registered under that name"
                         : "load one with --load-ops";
  // `aten::upsample_nearest3d.vec` names an overload of an operator torch
  // has: only an unknown operator name gets "did you mean".
  StringRef operatorName = StringRef(name).split('.').first;
  std::vector<StringRef> nearest =
      ns == "aten" && aten::SchemaRegistry::get().lookup(operatorName).empty()
          ? aten::SchemaRegistry::get().nearestNames(name)
          : std::vector<StringRef>();
  if (!nearest.empty()) {
    hint = "torch has no operator of that name; did you mean ";
    for (auto [index, candidate] : llvm::enumerate(nearest))
      hint += (index ? ", " : "") + candidate.str();
    hint += "?";
  }
  // Complex results: computed only where every reader reads them as
  // real (Decompose/ComplexPairs.cpp).
  static constexpr llvm::StringLiteral kComplexMakers[] = {
      "aten::fft_fft",   "aten::fft_rfft", "aten::fft_ifft",
      "aten::fft_fft2",  "aten::fft_rfft2", "aten::fft_fftn",
      "aten::fft_rfftn", "aten::polar",    "aten::complex",
      "aten::view_as_complex"};
  if (llvm::is_contained(kComplexMakers, operatorName))
    hint = "its result is complex, and tsir has no complex dtype; tsir "
           "computes it where the graph reads it only as real: "
           "view_as_real, .real, .imag, .abs(), .angle() of fft_rfft or "
           "fft_fft of a real signal, polar or complex";
  if (lowersInSegments)
    hint = "it lowers only where compiled code consumes its result, and "
           "interpreted code reads it here; no runtime kernel is registered "
           "under that name";
  return formatError(op->getLoc(), "no lowering and no runtime kernel for " +
                                       name + " (" + hint + ")");
}
