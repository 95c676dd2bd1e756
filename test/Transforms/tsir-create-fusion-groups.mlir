// RUN: tsir-opt --tsir-create-fusion-groups -split-input-file %s | FileCheck %s
// RUN: tsir-opt --tsir-create-fusion-groups="min-group-size=3" -split-input-file %s | FileCheck %s --check-prefix=MIN3

// A chain of three ops becomes one group: the graph inputs are its inputs,
// the alpha constant is cloned into the body (and the original, now unused,
// goes), the last op's value is its result.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:      (%[[A:.*]]: !prim.tensor, %[[B:.*]]: !prim.tensor)
// CHECK-NEXT:    %[[G:.*]] = prim.FusionGroup(%[[A]], %[[B]]) : (!prim.tensor, !prim.tensor) -> !prim.tensor {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: !prim.tensor, %[[Y:.*]]: !prim.tensor):
// CHECK-NEXT:      %[[ONE:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK-NEXT:      %[[ADD:.*]] = aten.add.Tensor %[[X]], %[[Y]], %[[ONE]]
// CHECK-NEXT:      %[[MUL:.*]] = aten.mul.Tensor %[[ADD]], %[[ADD]]
// CHECK-NEXT:      %[[TANH:.*]] = aten.tanh %[[MUL]]
// CHECK-NEXT:      prim.Return %[[TANH]] : !prim.tensor
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[G]] : !prim.tensor
// MIN3-LABEL: func.func @chain
// MIN3:         prim.FusionGroup
func.func @chain(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Tensor %a, %b, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %1 = aten.mul.Tensor %0, %0 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %2 = aten.tanh %1 : (!prim.tensor) -> !prim.tensor
  return %2 : !prim.tensor
}

// -----

// A value used inside and after the group is one of its results.
// CHECK-LABEL: func.func @two_outputs
// CHECK:         %[[G:.*]]:2 = prim.FusionGroup(%{{.*}}) : (!prim.tensor) -> (!prim.tensor, !prim.tensor) {
// CHECK:           %[[SIG:.*]] = aten.sigmoid
// CHECK-NEXT:      %[[MUL:.*]] = aten.mul.Tensor %[[SIG]]
// CHECK-NEXT:      %[[RELU:.*]] = aten.relu %[[MUL]]
// CHECK-NEXT:      prim.Return %[[SIG]], %[[RELU]] : !prim.tensor, !prim.tensor
// CHECK:         return %[[G]]#0, %[[G]]#1
func.func @two_outputs(%a: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %0 = aten.sigmoid %a : (!prim.tensor) -> !prim.tensor
  %1 = aten.mul.Tensor %0, %a : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %2 = aten.relu %1 : (!prim.tensor) -> !prim.tensor
  return %0, %2 : !prim.tensor, !prim.tensor
}

// -----

// Two chains that share nothing make two groups, even interleaved.
// CHECK-LABEL: func.func @independent_chains
// CHECK-SAME:      (%[[A:.*]]: !prim.tensor, %[[B:.*]]: !prim.tensor)
// CHECK:         %[[G0:.*]] = prim.FusionGroup(%[[A]])
// CHECK:           aten.exp
// CHECK-NEXT:      aten.neg
// CHECK-NEXT:      prim.Return
// CHECK:         %[[G1:.*]] = prim.FusionGroup(%[[B]])
// CHECK:           aten.log
// CHECK-NEXT:      aten.sqrt
// CHECK-NEXT:      prim.Return
// CHECK:         return %[[G0]], %[[G1]]
// MIN3-LABEL: func.func @independent_chains
// MIN3-NOT:     prim.FusionGroup
// MIN3:         return
func.func @independent_chains(%a: !prim.tensor, %b: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %0 = aten.exp %a : (!prim.tensor) -> !prim.tensor
  %1 = aten.log %b : (!prim.tensor) -> !prim.tensor
  %2 = aten.neg %0 : (!prim.tensor) -> !prim.tensor
  %3 = aten.sqrt %1 : (!prim.tensor) -> !prim.tensor
  return %2, %3 : !prim.tensor, !prim.tensor
}

// -----

// Constants are cloned in, once per value; scalars that are not constants
// become inputs.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME:      (%[[A:.*]]: !prim.tensor, %[[S:.*]]: f64, %[[K:.*]]: i64)
// CHECK-NEXT:    prim.FusionGroup(%[[A]], %[[S]], %[[K]]) : (!prim.tensor, f64, i64) -> !prim.tensor {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: !prim.tensor, %[[Y:.*]]: f64, %[[Z:.*]]: i64):
// CHECK-NEXT:      %[[ONE:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK-NEXT:      %[[HALF:.*]] = prim.Constant {value = 5.000000e-01 : f64} : f64
// CHECK-NEXT:      %[[M:.*]] = aten.mul.Scalar %[[X]], %[[Y]]
// CHECK-NEXT:      %[[P:.*]] = aten.add.Scalar %[[M]], %[[Z]], %[[ONE]]
// CHECK-NEXT:      aten.sub.Scalar %[[P]], %[[HALF]], %[[ONE]]
func.func @scalars(%a: !prim.tensor, %s: f64, %k: i64) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %half = prim.Constant {value = 5.000000e-01 : f64} : f64
  %0 = aten.mul.Scalar %a, %s : (!prim.tensor, f64) -> !prim.tensor
  %1 = aten.add.Scalar %0, %k, %one : (!prim.tensor, i64, i64) -> !prim.tensor
  %2 = aten.sub.Scalar %1, %half, %one : (!prim.tensor, f64, i64) -> !prim.tensor
  return %2 : !prim.tensor
}

// -----

// Ops in a loop body are fused within the body.
// CHECK-LABEL: func.func @in_loop
// CHECK:         prim.Loop
// CHECK-NEXT:    ^bb0(%{{.*}}: i64, %[[ACC:.*]]: !prim.tensor):
// CHECK-NEXT:      %[[G:.*]] = prim.FusionGroup(%[[ACC]])
// CHECK-NEXT:      ^bb0(%[[X:.*]]: !prim.tensor):
// CHECK-NEXT:        %[[SIG:.*]] = aten.sigmoid %[[X]]
// CHECK-NEXT:        %[[MUL:.*]] = aten.mul.Tensor %[[SIG]], %[[X]]
// CHECK-NEXT:        prim.Return %[[MUL]]
// CHECK-NEXT:      }
// CHECK-NEXT:      prim.Yield %{{.*}}, %[[G]] : i1, !prim.tensor
func.func @in_loop(%a: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %r = prim.Loop %n, %true, %a : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %0 = aten.sigmoid %acc : (!prim.tensor) -> !prim.tensor
    %1 = aten.mul.Tensor %0, %acc : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %true, %1 : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// A constant from outside the loop is cloned into the group in the body.
// CHECK-LABEL: func.func @outer_constant
// CHECK-NOT:     prim.Constant {value = 5.000000e-01 : f64}
// CHECK:         prim.Loop
// CHECK:           prim.FusionGroup
// CHECK-NEXT:      ^bb0(%[[X:.*]]: !prim.tensor):
// CHECK-NEXT:        %[[HALF:.*]] = prim.Constant {value = 5.000000e-01 : f64} : f64
// CHECK-NEXT:        aten.mul.Scalar %[[X]], %[[HALF]]
// CHECK-NEXT:        aten.tanh
func.func @outer_constant(%a: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %half = prim.Constant {value = 5.000000e-01 : f64} : f64
  %r = prim.Loop %n, %true, %a : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %0 = aten.mul.Scalar %acc, %half : (!prim.tensor, f64) -> !prim.tensor
    %1 = aten.tanh %0 : (!prim.tensor) -> !prim.tensor
    prim.Yield %true, %1 : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// Groups never cross a block: the relu before the If and the tanh after it
// stay alone, the then-branch's pair fuses, the else-branch's single op not.
// CHECK-LABEL: func.func @if_blocks
// CHECK-NEXT:    %[[RELU:.*]] = aten.relu
// CHECK-NEXT:    %[[IF:.*]] = prim.If
// CHECK-NEXT:      %[[G:.*]] = prim.FusionGroup(%[[RELU]])
// CHECK:             aten.exp
// CHECK-NEXT:        aten.neg
// CHECK:           prim.Yield %[[G]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[LOG:.*]] = aten.log %[[RELU]]
// CHECK-NEXT:      prim.Yield %[[LOG]]
// CHECK-NEXT:    }
// CHECK-NEXT:    aten.tanh %[[IF]]
func.func @if_blocks(%a: !prim.tensor, %c: i1) -> !prim.tensor {
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %r = prim.If %c -> (!prim.tensor) {
    %1 = aten.exp %0 : (!prim.tensor) -> !prim.tensor
    %2 = aten.neg %1 : (!prim.tensor) -> !prim.tensor
    prim.Yield %2 : !prim.tensor
  } else {
    %1 = aten.log %0 : (!prim.tensor) -> !prim.tensor
    prim.Yield %1 : !prim.tensor
  }
  %3 = aten.tanh %r : (!prim.tensor) -> !prim.tensor
  return %3 : !prim.tensor
}

// -----

// Both branches of a diamond join the group.
// CHECK-LABEL: func.func @diamond
// CHECK-NEXT:    prim.FusionGroup
// CHECK:           aten.relu
// CHECK-NEXT:      aten.exp
// CHECK-NEXT:      aten.neg
// CHECK-NEXT:      aten.sub.Tensor
// CHECK-NEXT:      prim.Return
// MIN3-LABEL: func.func @diamond
// MIN3-NEXT:    prim.FusionGroup
func.func @diamond(%a: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %1 = aten.exp %0 : (!prim.tensor) -> !prim.tensor
  %2 = aten.neg %0 : (!prim.tensor) -> !prim.tensor
  %3 = aten.sub.Tensor %1, %2, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %3 : !prim.tensor
}

// -----

// A single fusible op is left alone.
// CHECK-LABEL: func.func @single
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.mul.Tensor
func.func @single(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  %0 = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// Matrix products stay out; the ops around one are not fused through it.
// CHECK-LABEL: func.func @matmul_between
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.relu
// CHECK-NEXT:    aten.mm
// CHECK-NEXT:    aten.tanh
func.func @matmul_between(%a: !prim.tensor, %w: !prim.tensor) -> !prim.tensor {
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %1 = aten.mm %0, %w : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %2 = aten.tanh %1 : (!prim.tensor) -> !prim.tensor
  return %2 : !prim.tensor
}

// -----

// Convolutions stay out too.
// CHECK-LABEL: func.func @conv_between
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.sigmoid
// CHECK-NEXT:    aten.conv2d
// CHECK-NEXT:    aten.relu
func.func @conv_between(%x: !prim.tensor, %w: !prim.tensor, %stride: !prim.list<i64>, %pad: !prim.list<i64>) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.sigmoid %x : (!prim.tensor) -> !prim.tensor
  %1 = aten.conv2d %0, %w, %none, %stride, %pad, %stride, %one : (!prim.tensor, !prim.tensor, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor
  %2 = aten.relu %1 : (!prim.tensor) -> !prim.tensor
  return %2 : !prim.tensor
}

// -----

// A fused op may sit away from its group's other members: the mm between
// them stays where it is and the group goes after it.
// CHECK-LABEL: func.func @not_adjacent
// CHECK-SAME:      (%[[A:.*]]: !prim.tensor, %[[W:.*]]: !prim.tensor)
// CHECK-NEXT:    %[[MM:.*]] = aten.mm %[[W]], %[[W]]
// CHECK-NEXT:    %[[G:.*]] = prim.FusionGroup(%[[A]], %[[MM]])
// CHECK:           aten.relu
// CHECK-NEXT:      aten.mul.Tensor
// CHECK:         return %[[G]], %[[MM]]
func.func @not_adjacent(%a: !prim.tensor, %w: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %m = aten.mm %w, %w : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %1 = aten.mul.Tensor %0, %m : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %1, %m : !prim.tensor, !prim.tensor
}

// -----

// An op that reads a member early needs the group before it: the group
// moves up to the first such use, with the later member.
// CHECK-LABEL: func.func @use_between
// CHECK:         %[[G:.*]]:2 = prim.FusionGroup
// CHECK:           %[[RELU:.*]] = aten.relu
// CHECK-NEXT:      %[[EXP:.*]] = aten.exp %[[RELU]]
// CHECK-NEXT:      prim.Return %[[RELU]], %[[EXP]]
// CHECK:         %[[SUM:.*]] = aten.sum %[[G]]#0
// CHECK-NEXT:    return %[[SUM]], %[[G]]#1
func.func @use_between(%a: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %s = aten.sum %0, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %1 = aten.exp %0 : (!prim.tensor) -> !prim.tensor
  return %s, %1 : !prim.tensor, !prim.tensor
}

// -----

// The add reads both the relu and the mm of the relu: relu + add in one
// group would need the mm both after and before it. The relu stays out,
// the add and the sigmoid fuse after the mm.
// CHECK-LABEL: func.func @cycle
// CHECK-NEXT:    %[[RELU:.*]] = aten.relu
// CHECK-NEXT:    %[[MM:.*]] = aten.mm %[[RELU]]
// CHECK-NEXT:    prim.FusionGroup(%[[RELU]], %[[MM]])
// CHECK:           aten.add.Tensor
// CHECK-NEXT:      aten.sigmoid
func.func @cycle(%a: !prim.tensor, %w: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %1 = aten.mm %0, %w : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %2 = aten.add.Tensor %0, %1, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %3 = aten.sigmoid %2 : (!prim.tensor) -> !prim.tensor
  return %3 : !prim.tensor
}

// -----

// The same cycle through a reduction: exp reads sum(relu), mul reads exp
// and relu. The mul joins the exp, not the relu.
// CHECK-LABEL: func.func @cycle_through_use
// CHECK:         %[[RELU:.*]] = aten.relu
// CHECK-NEXT:    %[[SUM:.*]] = aten.sum %[[RELU]]
// CHECK-NEXT:    prim.FusionGroup(%[[SUM]], %[[RELU]])
// CHECK:           aten.exp
// CHECK-NEXT:      aten.mul.Tensor
func.func @cycle_through_use(%a: !prim.tensor) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %s = aten.sum %0, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %1 = aten.exp %s : (!prim.tensor) -> !prim.tensor
  %2 = aten.mul.Tensor %1, %0 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %2 : !prim.tensor
}

// -----

// A group read by a non-fused op, whose result a second group reads: both
// groups form, in order around the chunk.
// CHECK-LABEL: func.func @dependent_groups
// CHECK:         %[[G0:.*]] = prim.FusionGroup
// CHECK:           aten.add.Tensor
// CHECK-NEXT:      aten.relu
// CHECK:         %[[CHUNK:.*]] = aten.chunk %[[G0]]
// CHECK-NEXT:    %[[PARTS:.*]]:2 = prim.ListUnpack %[[CHUNK]]
// CHECK-NEXT:    prim.FusionGroup(%[[PARTS]]#0, %[[PARTS]]#1)
// CHECK:           aten.sigmoid
// CHECK-NEXT:      aten.mul.Tensor
func.func @dependent_groups(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2 : i64} : i64
  %0 = aten.add.Tensor %a, %b, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %1 = aten.relu %0 : (!prim.tensor) -> !prim.tensor
  %2 = aten.chunk %1, %two, %one : (!prim.tensor, i64, i64) -> !prim.list<!prim.tensor>
  %3:2 = prim.ListUnpack %2 : (!prim.list<!prim.tensor>) -> (!prim.tensor, !prim.tensor)
  %4 = aten.sigmoid %3#0 : (!prim.tensor) -> !prim.tensor
  %5 = aten.mul.Tensor %4, %3#1 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %5 : !prim.tensor
}

// -----

// An op whose input is later written in place (add_) is not fused, nor is
// the op producing that input.
// CHECK-LABEL: func.func @written_later
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.mul.Tensor
// CHECK-NEXT:    aten.relu
// CHECK-NEXT:    aten.add_.Tensor
func.func @written_later(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %1 = aten.relu %0 : (!prim.tensor) -> !prim.tensor
  %2 = aten.add_.Tensor %0, %b, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %1 : !prim.tensor
}

// -----

// Writing through a view counts as writing its base.
// CHECK-LABEL: func.func @written_through_view
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.mul.Tensor
// CHECK-NEXT:    aten.relu
func.func @written_through_view(%a: !prim.tensor, %b: !prim.tensor, %shape: !prim.list<i64>) -> !prim.tensor {
  %0 = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %1 = aten.relu %0 : (!prim.tensor) -> !prim.tensor
  %v = aten.view %0, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %2 = aten.relu_ %v : (!prim.tensor) -> !prim.tensor
  return %1 : !prim.tensor
}

// -----

// TorchScript never moves an op across one with side effects.
// CHECK-LABEL: func.func @side_effect_between
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.relu
// CHECK-NEXT:    prim.Print
// CHECK-NEXT:    aten.exp
func.func @side_effect_between(%a: !prim.tensor) -> !prim.tensor {
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  prim.Print %a : !prim.tensor
  %1 = aten.exp %0 : (!prim.tensor) -> !prim.tensor
  return %1 : !prim.tensor
}

// -----

// A `Scalar` operand may be an int or a float at run time: not fused.
// CHECK-LABEL: func.func @number_operand
// CHECK-NOT:     prim.FusionGroup
// CHECK:         aten.add.Scalar
// CHECK-NEXT:    aten.relu
func.func @number_operand(%a: !prim.tensor, %n: !prim.number) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Scalar %a, %n, %one : (!prim.tensor, !prim.number, i64) -> !prim.tensor
  %1 = aten.relu %0 : (!prim.tensor) -> !prim.tensor
  return %1 : !prim.tensor
}

// -----

// Conversions fuse when their dtype is a constant, not otherwise.
// CHECK-LABEL: func.func @to_dtype
// CHECK-SAME:      (%[[A:.*]]: !prim.tensor, %[[D:.*]]: i64)
// CHECK:         prim.FusionGroup(%[[A]])
// CHECK:           aten.relu
// CHECK-NEXT:      aten.to.dtype
// CHECK:         %[[SIG:.*]] = aten.sigmoid %[[A]]
// CHECK-NEXT:    aten.to.dtype %[[SIG]], %[[D]]
func.func @to_dtype(%a: !prim.tensor, %d: i64) -> (!prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %double = prim.Constant {value = 7 : i64} : i64
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %1 = aten.to.dtype %0, %double, %false, %false, %none : (!prim.tensor, i64, i1, i1, !prim.none) -> !prim.tensor
  %2 = aten.sigmoid %a : (!prim.tensor) -> !prim.tensor
  %3 = aten.to.dtype %2, %d, %false, %false, %none : (!prim.tensor, i64, i1, i1, !prim.none) -> !prim.tensor
  return %1, %3 : !prim.tensor, !prim.tensor
}

// -----

// fmod fuses on float tensors with a float divisor only (an integer
// divisor must raise on zero), as in torch's typesAreSupported.
// CHECK-LABEL: func.func @fmod_types
// CHECK:         %[[NEGI:.*]] = aten.neg %{{.*}} : (!prim.tensor<dtype = si64>)
// CHECK-NEXT:    aten.fmod.Scalar %[[NEGI]]
// CHECK-NEXT:    %[[G:.*]]:2 = prim.FusionGroup
// CHECK:           %[[NEGF:.*]] = aten.neg
// CHECK-NEXT:      aten.fmod.Scalar %[[NEGF]], %{{.*}} : (!prim.tensor<dtype = f32>, f64)
// CHECK:         aten.fmod.Scalar %[[G]]#0, %{{.*}} : (!prim.tensor<dtype = f32>, i64)
func.func @fmod_types(%i: !prim.tensor<dtype = si64>, %f: !prim.tensor<dtype = f32>) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %two = prim.Constant {value = 2 : i64} : i64
  %twof = prim.Constant {value = 2.000000e+00 : f64} : f64
  %0 = aten.neg %i : (!prim.tensor<dtype = si64>) -> !prim.tensor<dtype = si64>
  %1 = aten.fmod.Scalar %0, %two : (!prim.tensor<dtype = si64>, i64) -> !prim.tensor
  %2 = aten.neg %f : (!prim.tensor<dtype = f32>) -> !prim.tensor<dtype = f32>
  %3 = aten.fmod.Scalar %2, %two : (!prim.tensor<dtype = f32>, i64) -> !prim.tensor
  %4 = aten.fmod.Scalar %2, %twof : (!prim.tensor<dtype = f32>, f64) -> !prim.tensor
  return %1, %3, %4 : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Ops without a typed op are opaque and never fused.
// CHECK-LABEL: func.func @opaque
// CHECK-NOT:     prim.FusionGroup
// CHECK:         prim.Generic "aten::acos"
func.func @opaque(%a: !prim.tensor) -> !prim.tensor {
  %0 = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %1 = prim.Generic "aten::acos"(%0) : (!prim.tensor) -> !prim.tensor
  %2 = aten.exp %1 : (!prim.tensor) -> !prim.tensor
  return %2 : !prim.tensor
}

// -----

// Existing subgraphs are kernels already: their bodies are not fused again.
// CHECK-LABEL: func.func @existing_group
// CHECK:         prim.FusionGroup
// CHECK-NOT:       prim.FusionGroup
// CHECK:           aten.exp
// CHECK-NEXT:      aten.neg
func.func @existing_group(%a: !prim.tensor) -> !prim.tensor {
  %0 = prim.FusionGroup(%a) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%x: !prim.tensor):
    %1 = aten.exp %x : (!prim.tensor) -> !prim.tensor
    %2 = aten.neg %1 : (!prim.tensor) -> !prim.tensor
    prim.Return %2 : !prim.tensor
  }
  return %0 : !prim.tensor
}

// -----

// Quantized tensors are not fused (the TensorExpr fuser takes none); the
// float ops beside them are.
// CHECK-LABEL: func.func @quantized
// CHECK:         aten.relu %arg0 : (!prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>)
// CHECK-NEXT:    aten.neg %{{.*}} : (!prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>)
// CHECK-NEXT:    prim.FusionGroup(%arg1)
// CHECK-NOT:       !prim.quantized
// CHECK:           prim.Return
func.func @quantized(%q: !prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>, %x: !prim.tensor<dtype = f32, sizes = [4]>) -> (!prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) {
  %0 = aten.relu %q : (!prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>) -> !prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>
  %1 = aten.neg %0 : (!prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>) -> !prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>
  %2 = aten.relu %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %3 = aten.neg %2 : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %1, %3 : !prim.tensor<dtype = !prim.quantized<si8>, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>
}
