// RUN: tsir-opt --prim-peephole -split-input-file %s | FileCheck %s

// x.t().t() is x. A single transpose stays.
// CHECK-LABEL: func.func @double_transpose
// CHECK-NEXT: %[[T:.*]] = aten.t %arg0
// CHECK-NEXT: %[[R:.*]] = aten.relu %arg0
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @double_transpose(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %a = aten.t %x : (!prim.tensor) -> !prim.tensor
  %b = aten.t %a : (!prim.tensor) -> !prim.tensor
  %r = aten.relu %b : (!prim.tensor) -> !prim.tensor
  return %r, %a : !prim.tensor, !prim.tensor
}

// -----

// A refined input replaces the plain result directly in aten ops, and
// through a cast where the function's result type must match.
// CHECK-LABEL: func.func @double_transpose_refined
// CHECK-NEXT: %[[C:.*]] = prim.unchecked_cast %arg0 : (!prim.tensor<dtype = f32>) -> !prim.tensor
// CHECK-NEXT: %[[R:.*]] = aten.relu %arg0
// CHECK-NEXT: return %[[R]], %[[C]]
func.func @double_transpose_refined(%x: !prim.tensor<dtype = f32>) -> (!prim.tensor, !prim.tensor) {
  %a = aten.t %x : (!prim.tensor<dtype = f32>) -> !prim.tensor
  %b = aten.t %a : (!prim.tensor) -> !prim.tensor
  %r = aten.relu %b : (!prim.tensor) -> !prim.tensor
  return %r, %b : !prim.tensor, !prim.tensor
}

// -----

// expand to the sizes the type states is a no-op; to other sizes, or with
// sizes unknown, it stays.
// CHECK-LABEL: func.func @expand
// CHECK: %[[B:.*]] = aten.expand %arg0
// CHECK-NEXT: %[[C:.*]] = aten.expand %arg1
// CHECK-NEXT: %[[A:.*]] = prim.unchecked_cast %arg0
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @expand(%x: !prim.tensor<sizes = [2, 3]>, %y: !prim.tensor<sizes = [2, ?]>) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %f = prim.Constant {value = false} : i1
  %2 = prim.Constant {value = 2 : i64} : i64
  %3 = prim.Constant {value = 3 : i64} : i64
  %same = prim.ListConstruct %2, %3 : (i64, i64) -> !prim.list<i64>
  %other = prim.Constant {value = [4, 2, 3]} : !prim.list<i64>
  %a = aten.expand %x, %same, %f : (!prim.tensor<sizes = [2, 3]>, !prim.list<i64>, i1) -> !prim.tensor<sizes = [2, 3]>
  %b = aten.expand %x, %other, %f : (!prim.tensor<sizes = [2, 3]>, !prim.list<i64>, i1) -> !prim.tensor
  %c = aten.expand %y, %same, %f : (!prim.tensor<sizes = [2, ?]>, !prim.list<i64>, i1) -> !prim.tensor
  %r = prim.unchecked_cast %a : (!prim.tensor<sizes = [2, 3]>) -> !prim.tensor
  return %r, %b, %c : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// type_as is a no-op when both types state the same dtype and device; an
// unknown or different one keeps it.
// CHECK-LABEL: func.func @type_as
// CHECK-NEXT: %[[B:.*]] = aten.type_as %arg0, %arg1
// CHECK-NEXT: %[[C:.*]] = aten.type_as %arg0, %arg2
// CHECK-NEXT: return %arg0, %[[B]], %[[C]]
func.func @type_as(%x: !prim.tensor<dtype = f32, device = "cpu">, %y: !prim.tensor<dtype = f64, device = "cpu">, %z: !prim.tensor<dtype = f32>, %w: !prim.tensor<dtype = f32, sizes = [1], device = "cpu">) -> (!prim.tensor<dtype = f32, device = "cpu">, !prim.tensor, !prim.tensor) {
  %a = aten.type_as %x, %w : (!prim.tensor<dtype = f32, device = "cpu">, !prim.tensor<dtype = f32, sizes = [1], device = "cpu">) -> !prim.tensor<dtype = f32, device = "cpu">
  %b = aten.type_as %x, %y : (!prim.tensor<dtype = f32, device = "cpu">, !prim.tensor<dtype = f64, device = "cpu">) -> !prim.tensor
  %c = aten.type_as %x, %z : (!prim.tensor<dtype = f32, device = "cpu">, !prim.tensor<dtype = f32>) -> !prim.tensor
  return %a, %b, %c : !prim.tensor<dtype = f32, device = "cpu">, !prim.tensor, !prim.tensor
}

// -----

// int(NumToTensor(n)) is n; a conversion to another type (float of an int
// tensor) stays. ScalarImplicit gives a Scalar: the return gets a cast.
// CHECK-LABEL: func.func @num_to_tensor
// CHECK-NEXT: %[[S:.*]] = prim.unchecked_cast %arg1 : (f64) -> !prim.number
// CHECK-NEXT: %[[T:.*]] = prim.NumToTensor %arg0
// CHECK-NEXT: %[[F:.*]] = aten.Float.Tensor %[[T]]
// CHECK-NEXT: return %arg0, %[[F]], %[[S]]
func.func @num_to_tensor(%i: i64, %f: f64) -> (i64, f64, !prim.number) {
  %t = prim.NumToTensor %i : (i64) -> !prim.tensor
  %a = aten.Int.Tensor %t : (!prim.tensor) -> i64
  %b = aten.Float.Tensor %t : (!prim.tensor) -> f64
  %u = prim.NumToTensor %f : (f64) -> !prim.tensor
  %c = aten.ScalarImplicit %u : (!prim.tensor) -> !prim.number
  return %a, %b, %c : i64, f64, !prim.number
}

// -----

// The tensor is written in place before the conversion: it stays.
// CHECK-LABEL: func.func @num_to_tensor_written
// CHECK: aten.add_.Scalar
// CHECK-NEXT: %[[I:.*]] = aten.Int.Tensor
// CHECK-NEXT: return %[[I]]
func.func @num_to_tensor_written(%i: i64) -> i64 {
  %1 = prim.Constant {value = 1 : i64} : i64
  %t = prim.NumToTensor %i : (i64) -> !prim.tensor
  %u = aten.add_.Scalar %t, %1, %1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %a = aten.Int.Tensor %t : (!prim.tensor) -> i64
  return %a : i64
}

// -----

// `x is None` is false (`is not`, true) when x cannot be None; an optional
// or an Any may be None: those stay.
// CHECK-LABEL: func.func @is_none
// CHECK-DAG: %[[FALSE:.*]] = prim.Constant {value = false}
// CHECK-DAG: %[[TRUE:.*]] = prim.Constant {value = true}
// CHECK-DAG: %[[C:.*]] = aten.__is__ %arg2, %{{.*}}
// CHECK-DAG: %[[D:.*]] = aten.__isnot__ %{{.*}}, %arg3
// CHECK: return %[[FALSE]], %[[TRUE]], %[[C]], %[[D]]
func.func @is_none(%i: i64, %x: !prim.tensor, %o: !prim.optional<i64>, %a: !prim.any) -> (i1, i1, i1, i1) {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.__is__ %i, %none : (i64, !prim.none) -> i1
  %1 = aten.__isnot__ %none, %x : (!prim.none, !prim.tensor) -> i1
  %2 = aten.__is__ %o, %none : (!prim.optional<i64>, !prim.none) -> i1
  %3 = aten.__isnot__ %none, %a : (!prim.none, !prim.any) -> i1
  return %0, %1, %2, %3 : i1, i1, i1, i1
}

// -----

// `a is b` of different tensor values is false (`is not`, true) when they
// cannot be one object: a layer's fresh output is not its input, and two
// views of one tensor are two objects, as is a view and the graph input it
// views (torch.nn's attention asks `query is key`, `key is value`). Two
// graph inputs may be one object, `contiguous` may hand back its input, an
// If's result may be either branch's value, and a list's element may be
// any tensor put in it: those stay.
// CHECK-LABEL: func.func @is_distinct_tensor
// CHECK: %[[A:.*]] = prim.Constant {value = false}
// CHECK: %[[B:.*]] = prim.Constant {value = true}
// CHECK: %[[INPUTS:.*]] = aten.__is__ %arg0, %arg1
// CHECK: %[[C:.*]] = prim.Constant {value = true}
// CHECK: %[[D:.*]] = prim.Constant {value = false}
// CHECK: %[[MAYBE:.*]] = aten.__is__ %{{.*}}, %arg0
// CHECK: %[[EITHER:.*]] = aten.__isnot__ %{{.*}}, %{{.*}} : (!prim.tensor, !prim.tensor)
// CHECK: %[[ELEMENT:.*]] = aten.__is__ %{{.*}}, %{{.*}} : (!prim.tensor, !prim.tensor)
// CHECK: return %[[A]], %[[B]], %[[INPUTS]], %[[C]], %[[D]], %[[MAYBE]], %[[EITHER]], %[[ELEMENT]]
func.func @is_distinct_tensor(%x: !prim.tensor, %m: !prim.tensor, %c: i1, %list: !prim.list<!prim.tensor>) -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %fresh = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %view = aten.transpose.int %x, %zero, %one : (!prim.tensor, i64, i64) -> !prim.tensor
  %view2 = aten.unsqueeze %x, %one : (!prim.tensor, i64) -> !prim.tensor
  %same = aten.contiguous %x, %zero : (!prim.tensor, i64) -> !prim.tensor
  %either = prim.If %c -> (!prim.tensor) {
    prim.Yield %view : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  %0 = aten.__is__ %fresh, %m : (!prim.tensor, !prim.tensor) -> i1
  %1 = aten.__isnot__ %m, %fresh : (!prim.tensor, !prim.tensor) -> i1
  %2 = aten.__is__ %x, %m : (!prim.tensor, !prim.tensor) -> i1
  %3 = aten.__isnot__ %x, %view : (!prim.tensor, !prim.tensor) -> i1
  %4 = aten.__is__ %view, %view2 : (!prim.tensor, !prim.tensor) -> i1
  %5 = aten.__is__ %same, %x : (!prim.tensor, !prim.tensor) -> i1
  %6 = aten.__isnot__ %either, %view : (!prim.tensor, !prim.tensor) -> i1
  %grown = aten.append.t %list, %fresh : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %element = aten.__getitem__.t %list, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %7 = aten.__is__ %element, %fresh : (!prim.tensor, !prim.tensor) -> i1
  return %0, %1, %2, %3, %4, %5, %6, %7 : i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// Unwrapping or casting a value to a type it has is the value; unwrapping an
// optional stays.
// CHECK-LABEL: func.func @unwrap
// CHECK-NEXT: %[[U:.*]] = aten._unwrap_optional %arg1
// CHECK-NEXT: %[[C:.*]] = prim.unchecked_cast %arg1
// CHECK-NEXT: return %arg0, %[[U]], %arg0, %[[C]]
func.func @unwrap(%i: i64, %o: !prim.optional<i64>) -> (i64, i64, i64, i64) {
  %0 = aten._unwrap_optional %i : (i64) -> i64
  %1 = aten._unwrap_optional %o : (!prim.optional<i64>) -> i64
  %2 = prim.unchecked_cast %i : (i64) -> i64
  %3 = prim.unchecked_cast %o : (!prim.optional<i64>) -> i64
  return %0, %1, %2, %3 : i64, i64, i64, i64
}

// -----

// A cast to a supertype is skipped by the aten ops using it; the return
// needs the cast's type and keeps it.
// CHECK-LABEL: func.func @cast_to_supertype
// CHECK-NEXT: %[[C:.*]] = prim.unchecked_cast %arg0
// CHECK-NEXT: %[[R:.*]] = aten.relu %arg0
// CHECK-NEXT: return %[[R]], %[[C]]
func.func @cast_to_supertype(%x: !prim.tensor<dtype = f32>) -> (!prim.tensor, !prim.tensor) {
  %c = prim.unchecked_cast %x : (!prim.tensor<dtype = f32>) -> !prim.tensor
  %r = aten.relu %c : (!prim.tensor) -> !prim.tensor
  return %r, %c : !prim.tensor, !prim.tensor
}

// -----

// len, [i], unpacking, `+` and slicing of a list literal that only readers
// use. An index out of range raises: it stays.
// CHECK-LABEL: func.func @list_idioms
// CHECK-DAG: %[[TWO:.*]] = prim.Constant {value = 2 : i64}
// CHECK-DAG: %[[L:.*]] = prim.ListConstruct %arg0, %arg1
// CHECK-DAG: %[[OUT:.*]] = aten.__getitem__.t %[[L]], %{{.*}}
// CHECK-DAG: %[[CAT:.*]] = prim.ListConstruct %arg0, %arg1, %arg1, %arg0 : (i64, i64, i64, i64) -> !prim.list<i64>
// CHECK-DAG: %[[REV:.*]] = prim.ListConstruct %arg1, %arg0 : (i64, i64) -> !prim.list<i64>
// CHECK: return %[[TWO]], %arg1, %arg0, %arg1, %[[OUT]], %[[CAT]], %[[REV]]
func.func @list_idioms(%a: i64, %b: i64) -> (i64, i64, i64, i64, i64, !prim.list<i64>, !prim.list<i64>) {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %5 = prim.Constant {value = 5 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %l = prim.ListConstruct %a, %b : (i64, i64) -> !prim.list<i64>
  %r = prim.ListConstruct %b, %a : (i64, i64) -> !prim.list<i64>
  %0 = aten.len.t %l : (!prim.list<i64>) -> i64
  %1 = aten.__getitem__.t %l, %m1 : (!prim.list<i64>, i64) -> i64
  %2:2 = prim.ListUnpack %l : (!prim.list<i64>) -> (i64, i64)
  %3 = aten.__getitem__.t %l, %5 : (!prim.list<i64>, i64) -> i64
  %4 = aten.add.t %l, %r : (!prim.list<i64>, !prim.list<i64>) -> !prim.list<i64>
  %6 = aten.slice.t %l, %none, %none, %m1 : (!prim.list<i64>, !prim.none, !prim.none, i64) -> !prim.list<i64>
  return %0, %1, %2#0, %2#1, %3, %4, %6 : i64, i64, i64, i64, i64, !prim.list<i64>, !prim.list<i64>
}

// -----

// A list that is appended to, handed to an opaque op, or returned may be
// mutated: its length and elements stay.
// CHECK-LABEL: func.func @mutable_lists_stay
// CHECK: aten.append.t
// CHECK: aten.len.t
// CHECK: prim.Generic "my::mutate"
// CHECK: aten.__getitem__.t
// CHECK: aten.len.t
func.func @mutable_lists_stay(%a: i64) -> (i64, i64, i64, !prim.list<i64>) {
  %0 = prim.Constant {value = 0 : i64} : i64
  %l1 = prim.ListConstruct %a : (i64) -> !prim.list<i64>
  %x = aten.append.t %l1, %a : (!prim.list<i64>, i64) -> !prim.list<i64>
  %n1 = aten.len.t %l1 : (!prim.list<i64>) -> i64
  %l2 = prim.ListConstruct %a : (i64) -> !prim.list<i64>
  prim.Generic "my::mutate"(%l2) : (!prim.list<i64>) -> ()
  %g = aten.__getitem__.t %l2, %0 : (!prim.list<i64>, i64) -> i64
  %l3 = prim.ListConstruct %a : (i64) -> !prim.list<i64>
  %n3 = aten.len.t %l3 : (!prim.list<i64>) -> i64
  return %n1, %g, %n3, %l3 : i64, i64, i64, !prim.list<i64>
}

// -----

// Tuple construct/unpack and construct/index pairs cancel.
// CHECK-LABEL: func.func @tuples
// CHECK-NEXT: return %arg0, %arg1, %arg1
func.func @tuples(%x: !prim.tensor, %i: i64) -> (!prim.tensor, i64, i64) {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %t = prim.TupleConstruct %x, %i : (!prim.tensor, i64) -> !prim.tuple<!prim.tensor, i64>
  %a:2 = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, i64>) -> (!prim.tensor, i64)
  %b = prim.TupleIndex %t, %m1 : (!prim.tuple<!prim.tensor, i64>, i64) -> i64
  return %a#0, %a#1, %b : !prim.tensor, i64, i64
}

// A cast of a cast casts the first input, and a round trip is no cast.
// CHECK-LABEL: func.func @cast_of_cast
// CHECK-NEXT: return %arg0
func.func @cast_of_cast(%l: !prim.list<i64>) -> !prim.list<i64> {
  %o = prim.unchecked_cast %l : (!prim.list<i64>) -> !prim.optional<!prim.list<i64>>
  %b = prim.unchecked_cast %o : (!prim.optional<!prim.list<i64>>) -> !prim.list<i64>
  return %b : !prim.list<i64>
}

// An unpack through an unchecked_cast of the construct (what
// nn.MultiheadAttention's `(out, None)` is): each element is cast to the
// unpacked type where it differs.
// CHECK-LABEL: func.func @unpack_cast_tuple
// CHECK-NEXT: %[[NONE:.*]] = prim.Constant {value} : !prim.none
// CHECK-NEXT: %[[CAST:.*]] = prim.unchecked_cast %[[NONE]] : (!prim.none) -> !prim.optional<!prim.tensor>
// CHECK-NEXT: return %arg0, %[[CAST]]
func.func @unpack_cast_tuple(%x: !prim.tensor) -> (!prim.tensor, !prim.optional<!prim.tensor>) {
  %none = prim.Constant {value} : !prim.none
  %t = prim.TupleConstruct %x, %none : (!prim.tensor, !prim.none) -> !prim.tuple<!prim.tensor, !prim.none>
  %c = prim.unchecked_cast %t : (!prim.tuple<!prim.tensor, !prim.none>) -> !prim.tuple<!prim.tensor, !prim.optional<!prim.tensor>>
  %a:2 = prim.TupleUnpack %c : (!prim.tuple<!prim.tensor, !prim.optional<!prim.tensor>>) -> (!prim.tensor, !prim.optional<!prim.tensor>)
  return %a#0, %a#1 : !prim.tensor, !prim.optional<!prim.tensor>
}

// -----

// The int idioms: x + 0, 0 + x, x - 0, x * 1, x // 1, int(x) of an int,
// x == x and x != x on ints and bools. On floats x == x stays (NaN).
// CHECK-LABEL: func.func @int_idioms
// CHECK-DAG: %[[T:.*]] = prim.Constant {value = true}
// CHECK-DAG: %[[F:.*]] = prim.Constant {value = false}
// CHECK-DAG: %[[FE:.*]] = aten.eq.float %arg2, %arg2
// CHECK-DAG: %[[S:.*]] = aten.sub.int %[[Z:.*]], %arg0
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %[[T]], %[[F]], %[[FE]], %[[S]]
func.func @int_idioms(%x: i64, %b: i1, %f: f64) -> (i64, i64, i64, i64, i64, i64, i1, i1, i1, i64) {
  %0 = prim.Constant {value = 0 : i64} : i64
  %1 = prim.Constant {value = 1 : i64} : i64
  %a = aten.add.int %x, %0 : (i64, i64) -> i64
  %c = aten.add.int %0, %x : (i64, i64) -> i64
  %d = aten.sub.int %x, %0 : (i64, i64) -> i64
  %e = aten.mul.int %1, %x : (i64, i64) -> i64
  %g = aten.floordiv.int %x, %1 : (i64, i64) -> i64
  %h = aten.Int.Scalar %x : (i64) -> i64
  %i = aten.eq.int %x, %x : (i64, i64) -> i1
  %j = aten.ne.bool %b, %b : (i1, i1) -> i1
  %k = aten.eq.float %f, %f : (f64, f64) -> i1
  %l = aten.sub.int %0, %x : (i64, i64) -> i64
  return %a, %c, %d, %e, %g, %h, %i, %j, %k, %l : i64, i64, i64, i64, i64, i64, i1, i1, i1, i64
}

// -----

// An If whose bool result is true by the then branch and false by the else
// branch is its condition (`c and True`); other results stay.
// CHECK-LABEL: func.func @if_result_is_condition
// CHECK: %[[R:.*]]:2 = prim.If %arg0
// CHECK: return %arg0, %[[R]]#1
func.func @if_result_is_condition(%c: i1, %d: i1) -> (i1, i1) {
  %r:2 = prim.If %c -> (i1, i1) {
    %t = prim.Constant {value = true} : i1
    prim.Yield %t, %d : i1, i1
  } else {
    %f = prim.Constant {value = false} : i1
    prim.Yield %f, %f : i1, i1
  }
  return %r#0, %r#1 : i1, i1
}

// -----

// isinstance that the operand's type decides (torchvision's
// `isinstance(rois, (list, tuple))` of a Tensor); an Optional leaves it open.
// CHECK-LABEL: func.func @isinstance
// CHECK: %[[FALSE:.*]] = prim.Constant {value = false} : i1
// CHECK: %[[TRUE:.*]] = prim.Constant {value = true} : i1
// CHECK: %[[OPEN:.*]] = prim.Generic "prim::isinstance"(%arg2)
// CHECK: %[[TRUE2:.*]] = prim.Constant {value = true} : i1
// CHECK: return %[[FALSE]], %[[TRUE]], %[[OPEN]], %[[TRUE2]]
func.func @isinstance(%arg0: !prim.tensor, %arg1: !prim.list<i64>, %arg2: !prim.optional<!prim.tensor>) -> (i1, i1, i1, i1) {
  %0 = prim.Generic "prim::isinstance"(%arg0) {node_attrs = {types = [!prim.any_list, !prim.any_tuple]}} : (!prim.tensor) -> i1
  %1 = prim.Generic "prim::isinstance"(%arg1) {node_attrs = {types = [!prim.any_list]}} : (!prim.list<i64>) -> i1
  %2 = prim.Generic "prim::isinstance"(%arg2) {node_attrs = {types = [!prim.tensor]}} : (!prim.optional<!prim.tensor>) -> i1
  %3 = prim.Generic "prim::isinstance"(%arg0) {node_attrs = {types = [i64, !prim.tensor]}} : (!prim.tensor) -> i1
  return %0, %1, %2, %3 : i1, i1, i1, i1
}
