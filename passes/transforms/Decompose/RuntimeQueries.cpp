//===- RuntimeQueries.cpp - Run-time state that tsir knows ----------------===//
//
// populateRuntimeQueryFoldingPatterns (Decompositions.h): a graph may ask
// about the state it runs in. torch.nn's transformer layers ask whether
// autocast is on and whether a tensor is nested or on the GPU, and take
// another path (or raise) if so. Under tsir none is ever true: it does not
// autocast, and its tensors are dense host tensors. Folding the answers when the graph is specialized
// lets constant propagation drop the branches they guard. For the same
// reason a `with torch.no_grad():` context is no more than its block.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/ObjectOps.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "ConstantBuilders.h"

using namespace mlir;
using namespace tsir;

namespace {

/// is_autocast_enabled(), is_autocast_cpu_enabled(): false.
template <typename OpTy> struct FoldAutocastQuery : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, decompose::boolConstant(rewriter, op.getLoc(), false));
    return success();
  }
};

/// The queries with no typed op whose answer is false for every tensor
/// tsir holds: they are dense, not nested, and in host memory (a CUDA
/// plan's inputs and outputs are host tensors too); and tsir runs graphs
/// without autograd, so no gradient is recorded and none is required.
struct FoldRuntimeQuery : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    static constexpr llvm::StringLiteral kAlwaysFalse[] = {
        "prim::is_nested", "prim::is_cuda",   "prim::is_xpu",
        "prim::is_mkldnn", "prim::is_vulkan", "prim::is_ipu",
        "prim::is_mps",    "prim::is_meta",   "prim::is_sparse",
        "prim::is_sparse_csr", "prim::requires_grad",
        "aten::is_grad_enabled"};
    if (!llvm::is_contained(kAlwaysFalse, op.getKind()) ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isInteger(1))
      return failure();
    rewriter.replaceOp(op, decompose::boolConstant(rewriter, op.getLoc(), false));
    return success();
  }
};

/// `with torch.no_grad():` (and enable_grad) in a scripted function: the
/// context object, the `prev` attribute its __init__ sets, and the
/// prim::Enter/prim::Exit around the block. tsir records no gradient, so
/// the context changes nothing and all of it goes. (tsir-differentiate,
/// which would have to honour no_grad, runs before this and refuses a
/// no_grad block that reads the path it differentiates.)
struct RemoveGradModeContext : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!prim::isCreateObject(op))
      return failure();
    auto type = dyn_cast<prim::ClassType>(op->getResult(0).getType());
    if (!type || (type.getName() != "__torch__.torch.autograd.grad_mode.no_grad" &&
                  type.getName() !=
                      "__torch__.torch.autograd.grad_mode.enable_grad"))
      return failure();
    SmallVector<Operation *> uses;
    for (Operation *user : op->getResult(0).getUsers()) {
      auto generic = dyn_cast<prim::GenericOp>(user);
      bool context = generic && (generic.getKind() == "prim::Enter" ||
                                 generic.getKind() == "prim::Exit");
      if (!isa<prim::SetAttrOp>(user) && !context)
        return failure();
      if (!user->use_empty())
        return failure();
      uses.push_back(user);
    }
    for (Operation *user : uses)
      rewriter.eraseOp(user);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tsir::populateRuntimeQueryFoldingPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldAutocastQuery<aten::IsAutocastEnabledOp>,
               FoldAutocastQuery<aten::IsAutocastCpuEnabledOp>, FoldRuntimeQuery,
               RemoveGradModeContext>(patterns.getContext());
}
