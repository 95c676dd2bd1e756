// A graph function whose reshape sizes are its int arguments
// (test/e2e/reshape-sizes-at-run-time.test).
func.func @graph(%arg0: !prim.tensor<dtype = f32, sizes = [1, 2, 3]>, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64) -> !prim.tensor<dtype = f32, sizes = [?, ?, ?, ?]> {
  %0 = prim.ListConstruct %arg1, %arg2, %arg3, %arg4 : (i64, i64, i64, i64) -> !prim.list<i64>
  %1 = aten.reshape %arg0, %0 : (!prim.tensor<dtype = f32, sizes = [1, 2, 3]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [?, ?, ?, ?]>
  return %1 : !prim.tensor<dtype = f32, sizes = [?, ?, ?, ?]>
}
