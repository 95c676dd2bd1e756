// The installed package works for an embedder: install this build into a
// fresh prefix, build examples/embedding against it with find_package(tsir)
// (its own dialect's ODS includes the installed PrimTypes.td; it links
// tsir::tsir), and run its probe-opt on a pipeline that mixes tsir's passes
// with its own.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cmake --install %tsir_obj --prefix %t/prefix > %t/install.log
// RUN: test -f %t/prefix/lib/cmake/tsir/tsirConfig.cmake
// RUN: test -f %t/prefix/include/tsir/Dialect/Prim/PrimOps.h.inc
// RUN: test -f %t/prefix/include/tsir/Dialect/Aten/AtenOps.td
// RUN: %t/prefix/bin/tsir-opt --version | FileCheck %s --check-prefix=TOOL
// RUN: %cmake_configure -S %tsir_src/examples/embedding -B %t/build -DCMAKE_PREFIX_PATH=%t/prefix > %t/configure.log
// RUN: FileCheck %s --check-prefix=CONFIG --input-file=%t/configure.log -DPREFIX=%t/prefix
// RUN: %cmake --build %t/build > %t/build.log
// RUN: %t/build/bin/probe-opt %s --pass-pipeline='builtin.module(func.func(prim-cse,prim-dce,probe-tap-outputs))' | FileCheck %s

// TOOL: LLVM version
// CONFIG: Using tsirConfig.cmake in: [[PREFIX]]/lib/cmake/tsir

// prim-cse merges the two additions, prim-dce drops the unused relu, and
// the example's pass taps the output.
// CHECK-LABEL: func.func @graph
// CHECK:         %[[ONE:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK-NEXT:    %[[SUM:.*]] = aten.add.Tensor %arg0, %arg0, %[[ONE]]
// CHECK-NEXT:    %[[MUL:.*]] = aten.mul.Tensor %[[SUM]], %[[SUM]]
// CHECK-NEXT:    %[[TAP:.*]] = probe.tap %[[MUL]] "output 0" : !prim.tensor<dtype = f32, sizes = [2, 3]>
// CHECK-NEXT:    return %[[TAP]]
func.func @graph(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %s1 = aten.add.Tensor %a, %a, %one : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  %s2 = aten.add.Tensor %a, %a, %one : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  %unused = aten.relu %s1 : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  %m = aten.mul.Tensor %s1, %s2 : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %m : !prim.tensor<dtype = f32, sizes = [2, 3]>
}
