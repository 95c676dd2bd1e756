// RUN: tsir-opt %s --tsir-lower-runtime-checks | FileCheck %s
// RUN: tsir-opt %s '--tsir-lower-runtime-checks=report=false' | FileCheck %s --check-prefix=DROP

// Each check becomes a call of the runtime's tsirRaiseError where it fails,
// with the message at the node's Python line (the graph's place as a note
// line). Two checks with one message share its string.
// CHECK: llvm.func @tsirRaiseError(!llvm.ptr)
// CHECK-LABEL: func.func @checks(
// CHECK-SAME: %[[OK:.*]]: i1, %[[OK2:.*]]: i1)
// CHECK: %[[FAILED:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK: scf.if %[[FAILED]] {
// CHECK:   %[[M:.*]] = llvm.mlir.addressof @[[MESSAGE:tsir_check_message_[0-9]+]] : !llvm.ptr
// CHECK:   llvm.call @tsirRaiseError(%[[M]]) : (!llvm.ptr) -> ()
// CHECK: }
// CHECK: scf.if
// CHECK:   llvm.mlir.addressof @[[MESSAGE]]
// CHECK: scf.if
// CHECK:   llvm.mlir.addressof @[[OTHER:tsir_check_message_[0-9]+]]
// CHECK-NOT: cf.assert
// CHECK: return
// CHECK-DAG: llvm.mlir.global private constant @[[MESSAGE]]("model.py:3:8: error: index out of range in self\0Agraph.txt:4:5: note: the graph's node for this line\00")
// CHECK-DAG: llvm.mlir.global private constant @[[OTHER]]("{{.*}}error: Target is out of bounds.\00")

// report=false drops the checks (the GPU pipeline).
// DROP-LABEL: func.func @checks(
// DROP-NOT: cf.assert
// DROP-NOT: tsirRaiseError
// DROP: return
func.func @checks(%ok: i1, %ok2: i1) {
  cf.assert %ok, "index out of range in self" loc(#node)
  cf.assert %ok2, "index out of range in self" loc(#node)
  cf.assert %ok2, "Target is out of bounds."
  return
}
#node = loc(fused["y", "graph.txt":4:5, "source"("model.py":3:8)])
