//===- LowerRuntimeChecks.cpp - Failed checks as errors, not aborts -------===//
//
// The lowering checks at run time what only the data decides (indices in
// range) with cf.assert and torch's message. Upstream would lower each to
// puts + abort(), ending the process that embeds tsir. Here each becomes
//
//   scf.if %failed { llvm.call @tsirRaiseError(@message) }
//
// with the message, at the node's place in the user's terms, as a constant
// string of the module; the runtime records it and the call of the graph
// fails with it (runtime/include/tsir-runtime/AbiCall.h). Or, with
// report=false, the checks are dropped (passes/Conversion.td).
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Prim/NodeLocation.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRLOWERRUNTIMECHECKSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// The module's constant C strings, one global per distinct text.
class MessageGlobals {
public:
  explicit MessageGlobals(ModuleOp module) : module(module) {}

  LLVM::GlobalOp get(Location loc, StringRef text) {
    auto found = globals.find(text);
    if (found != globals.end())
      return found->second;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    std::string data = text.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    std::string name = "tsir_check_message_" + std::to_string(globals.size());
    auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                         LLVM::Linkage::Private, name,
                                         b.getStringAttr(data));
    globals[text] = global;
    return global;
  }

private:
  ModuleOp module;
  llvm::StringMap<LLVM::GlobalOp> globals;
};

struct TsirLowerRuntimeChecksPass
    : tsir::impl::TsirLowerRuntimeChecksPassBase<TsirLowerRuntimeChecksPass> {
  using TsirLowerRuntimeChecksPassBase::TsirLowerRuntimeChecksPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> checks;
    module.walk([&](cf::AssertOp check) { checks.push_back(check); });
    if (checks.empty())
      return;
    if (!report) {
      for (cf::AssertOp check : checks)
        check.erase();
      return;
    }
    OpBuilder b(module.getContext());
    auto pointer = LLVM::LLVMPointerType::get(module.getContext());
    FailureOr<LLVM::LLVMFuncOp> raise = LLVM::lookupOrCreateFn(
        b, module, "tsirRaiseError", {pointer},
        LLVM::LLVMVoidType::get(module.getContext()));
    if (failed(raise))
      return signalPassFailure();
    MessageGlobals messages(module);
    for (cf::AssertOp check : checks) {
      Location loc = check.getLoc();
      LLVM::GlobalOp message = messages.get(
          loc, tsir::formatError(loc, check.getMsg().str()));
      b.setInsertionPoint(check);
      Value failedCheck = arith::XOrIOp::create(
          b, loc, check.getArg(),
          arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
      auto ifFailed = scf::IfOp::create(b, loc, failedCheck);
      b.setInsertionPointToStart(ifFailed.thenBlock());
      Value text = LLVM::AddressOfOp::create(b, loc, message);
      LLVM::CallOp::create(b, loc, *raise, ValueRange{text});
      check.erase();
    }
  }
};

} // namespace
