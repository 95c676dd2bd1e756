//===- PlaceBuffers.cpp - tsir-gpu-place-buffers --------------------------===//
//
// After bufferization a graph is host code over memrefs. This pass decides
// where each buffer lives: tensor buffers on the device, copied between host
// and device only at the graph's inputs and results, and the few host-side
// accesses to tensor elements (aten::item, an `if` on a tensor) turned into
// one-thread kernels plus a one-element copy, so that nothing on the host
// ever dereferences a device pointer (passes/Conversion.td, docs/gpu.md).
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRGPUPLACEBUFFERSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

/// The buffer `value` is a view of (through views and metadata reads).
Value tsir::gpu_lowering::bufferRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      value = view.getViewSource();
      continue;
    }
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      value = meta.getSource();
      continue;
    }
    break;
  }
  return value;
}

/// The deallocation helper's buffers of pointers and flags: allocated on the
/// host and passed (through a cast) to a call. They must stay on the host.
static bool isHostScratch(Value value) {
  Value root = tsir::gpu_lowering::bufferRoot(value);
  Operation *def = root.getDefiningOp();
  if (!def || !isa<memref::AllocOp, memref::AllocaOp>(def))
    return false;
  for (Operation *user : root.getUsers()) {
    if (isa<func::CallOp>(user))
      return true;
    if (auto cast = dyn_cast<memref::CastOp>(user))
      for (Operation *castUser : cast->getUsers())
        if (isa<func::CallOp>(castUser))
          return true;
  }
  return false;
}

static bool inKernel(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() != nullptr;
}

/// The dynamic sizes of `value` (a memref), for allocating a copy of it.
static SmallVector<Value> dynamicSizes(OpBuilder &b, Location loc,
                                       Value value) {
  SmallVector<Value> sizes;
  auto type = cast<MemRefType>(value.getType());
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(memref::DimOp::create(b, loc, value, dim));
  return sizes;
}

static Value deviceAlloc(OpBuilder &b, Location loc, MemRefType type,
                         ValueRange sizes) {
  return gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(), ValueRange(),
                              sizes, ValueRange(),
                              /*hostShared=*/false)
      .getMemref();
}

/// A one-thread gpu.launch before the builder's insertion point; returns a
/// builder inside its body, before the terminator.
gpu::LaunchOp tsir::gpu_lowering::createLaunch(OpBuilder &b, Location loc,
                                               Value blocks, Value threads) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks ? blocks : one, one, one,
                                      threads ? threads : one, one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

namespace {
struct TsirGPUPlaceBuffersPass
    : tsir::impl::TsirGPUPlaceBuffersPassBase<TsirGPUPlaceBuffersPass> {
  using TsirGPUPlaceBuffersPassBase::TsirGPUPlaceBuffersPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitError("tsir-gpu-place-buffers expects structured control "
                     "flow (one block), before convert-scf-to-cf");
      return signalPassFailure();
    }
    if (blockSize < 1 || blockSize > 1024) {
      func.emitError("block-size must be in 1..1024, not ") << blockSize;
      return signalPassFailure();
    }
    if (failed(checkSupported(func)))
      return signalPassFailure();
    // Copies first: a copy of a 0-d buffer is a serial linalg op too.
    copiesToKernels(func);
    moveSerialOpsToKernels(func);
    hostAccessesToKernels(func);
    allocationsToDevice(func);
    copyInputsToDevice(func);
    if (failed(copyResultsToHost(func)))
      return signalPassFailure();
  }

  /// Host-side ops that would touch memory this pass does not place.
  LogicalResult checkSupported(func::FuncOp func) {
    WalkResult result = func.walk([&](Operation *op) {
      if (inKernel(op))
        return WalkResult::skip();
      if (isa<memref::AllocaOp>(op) && !isHostScratch(op->getResult(0))) {
        op->emitError("tsir-gpu-place-buffers: a stack-allocated tensor "
                      "buffer cannot live on the GPU; bufferize with "
                      "memref.alloc");
        return WalkResult::interrupt();
      }
      if (auto call = dyn_cast<func::CallOp>(op)) {
        for (Value operand : call.getOperands())
          if (isa<MemRefType>(operand.getType()) && !isHostScratch(operand)) {
            op->emitError("tsir-gpu-place-buffers: a call on the host "
                          "cannot take a device buffer");
            return WalkResult::interrupt();
          }
      }
      if (llvm::any_of(op->getResultTypes(),
                       llvm::IsaPred<UnrankedMemRefType>)) {
        op->emitError("tsir-gpu-place-buffers: unranked memrefs are not "
                      "supported");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// Reductions to a few elements become a block per output element.
  /// Other linalg ops without parallel loops would run as loops on the
  /// host: they become one-thread kernels.
  void moveSerialOpsToKernels(func::FuncOp func) {
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (!inKernel(op) && op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      int64_t threads = blockSize;
      if (tsir::gpu_lowering::prefersBlockPerOutput(op, threads, blockSize) &&
          succeeded(tsir::gpu_lowering::buildBlockReduction(op, threads)))
        continue;
      if (op.getNumParallelLoops() != 0)
        continue;
      OpBuilder b(op);
      gpu::LaunchOp launch =
          tsir::gpu_lowering::createLaunch(b, op.getLoc(), Value(), Value());
      op->moveBefore(launch.getBody().front().getTerminator());
    }
  }

  /// memref.copy between tensor buffers (clones, copies into subviews)
  /// becomes a linalg.copy, which the loop mapping turns into a kernel.
  void copiesToKernels(func::FuncOp func) {
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) {
      if (!inKernel(copy) && !isHostScratch(copy.getSource()) &&
          !isHostScratch(copy.getTarget()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }

  /// A host load of a tensor element: a one-thread kernel copies it into a
  /// one-element device buffer, which is copied to the host and read there.
  /// A host store: a one-thread kernel stores the host's scalar.
  void hostAccessesToKernels(func::FuncOp func) {
    SmallVector<Operation *> accesses;
    func.walk([&](Operation *op) {
      if (inKernel(op))
        return;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        if (!isHostScratch(load.getMemRef()))
          accesses.push_back(op);
      if (auto store = dyn_cast<memref::StoreOp>(op))
        if (!isHostScratch(store.getMemRef()))
          accesses.push_back(op);
    });
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    for (Operation *op : accesses) {
      Location loc = op->getLoc();
      OpBuilder b(op);
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        gpu::LaunchOp launch =
            tsir::gpu_lowering::createLaunch(b, loc, Value(), Value());
        store->moveBefore(launch.getBody().front().getTerminator());
        continue;
      }
      auto load = cast<memref::LoadOp>(op);
      auto staged = MemRefType::get({1}, load.getType());
      // The host side of the element lives on the stack of the function
      // (allocated once at entry, so a loop does not grow the stack).
      Value host = memref::AllocaOp::create(entry, loc, staged);
      Value device = deviceAlloc(b, loc, staged, {});
      gpu::LaunchOp launch =
          tsir::gpu_lowering::createLaunch(b, loc, Value(), Value());
      {
        OpBuilder inner(launch.getBody().front().getTerminator());
        Value zero = arith::ConstantIndexOp::create(inner, loc, 0);
        Value element = memref::LoadOp::create(inner, loc, load.getMemRef(),
                                               load.getIndices());
        memref::StoreOp::create(inner, loc, element, device, zero);
      }
      gpu::MemcpyOp::create(b, loc, TypeRange(), ValueRange(), host, device);
      gpu::DeallocOp::create(b, loc, Type(), ValueRange(), device);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value value = memref::LoadOp::create(b, loc, host, zero);
      load.replaceAllUsesWith(value);
      load.erase();
    }
  }

  /// Every other tensor buffer is a device buffer.
  void allocationsToDevice(func::FuncOp func) {
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (inKernel(op))
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        if (!isHostScratch(alloc))
          ops.push_back(op);
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        if (!isHostScratch(dealloc.getMemref()))
          ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        Value device = deviceAlloc(b, alloc.getLoc(), alloc.getType(),
                                   alloc.getDynamicSizes());
        alloc.replaceAllUsesWith(device);
      } else {
        gpu::DeallocOp::create(b, op->getLoc(), Type(), ValueRange(),
                               cast<memref::DeallocOp>(op).getMemref());
      }
      op->erase();
    }
  }

  /// Memref arguments and globals are copied to the device once, at entry,
  /// and freed there at the return.
  void copyInputsToDevice(func::FuncOp func) {
    Block &body = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    SmallVector<Value> copies;
    auto copyIn = [&](Value host, Location loc) {
      // The uses to redirect: all but those of the copy's own ops.
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          host.getUses(), [](OpOperand &use) { return &use; });
      Value device = deviceAlloc(b, loc, cast<MemRefType>(host.getType()),
                                 dynamicSizes(b, loc, host));
      gpu::MemcpyOp::create(b, loc, TypeRange(), ValueRange(), device, host);
      for (OpOperand *use : uses)
        use->set(device);
      copies.push_back(device);
    };
    for (BlockArgument arg : func.getArguments())
      if (isa<MemRefType>(arg.getType()))
        copyIn(arg, func.getLoc());
    // One device copy per global, whichever region reads it.
    llvm::MapVector<StringRef, SmallVector<memref::GetGlobalOp>> globals;
    func.walk([&](memref::GetGlobalOp global) {
      if (!inKernel(global))
        globals[global.getName()].push_back(global);
    });
    for (auto &[name, reads] : globals) {
      memref::GetGlobalOp first = reads.front();
      first->moveBefore(&body, b.getInsertionPoint());
      for (memref::GetGlobalOp other : ArrayRef(reads).drop_front()) {
        other.replaceAllUsesWith(first.getResult());
        other.erase();
      }
      copyIn(first.getResult(), first.getLoc());
    }
    inputCopies.insert_range(copies);
  }

  /// Each returned buffer is copied into a fresh host buffer the caller
  /// owns; its device buffer (owned by the function after deallocation) is
  /// freed, and so are the copies of the inputs.
  LogicalResult copyResultsToHost(func::FuncOp func) {
    WalkResult result = func.walk([&](func::ReturnOp ret) {
      for (Value value : ret.getOperands())
        if (auto type = dyn_cast<MemRefType>(value.getType());
            type && !type.getLayout().isIdentity()) {
          ret.emitError("tsir-gpu-place-buffers: a returned memref must "
                        "have the identity layout, not ")
              << type;
          return WalkResult::interrupt();
        }
      OpBuilder b(ret);
      Location loc = ret.getLoc();
      llvm::SmallDenseMap<Value, Value> hostOf;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value device = operand.get();
        if (!isa<MemRefType>(device.getType()))
          continue;
        Value &host = hostOf[device];
        if (!host) {
          auto type = cast<MemRefType>(device.getType());
          host = memref::AllocOp::create(b, loc, type,
                                         dynamicSizes(b, loc, device));
          gpu::MemcpyOp::create(b, loc, TypeRange(), ValueRange(), host,
                                device);
          if (!inputCopies.contains(tsir::gpu_lowering::bufferRoot(device)))
            gpu::DeallocOp::create(b, loc, Type(), ValueRange(), device);
        }
        operand.set(host);
      }
      for (Value device : inputCopies)
        gpu::DeallocOp::create(b, loc, Type(), ValueRange(), device);
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  llvm::SetVector<Value> inputCopies;
};
} // namespace
