// RUN: tsir-translate --export-torchscript %s | FileCheck %s

// prim::Constant values as torch 1.13 prints them; floats and tensor
// elements with the digits it takes to read them back exactly.

// CHECK-LABEL: graph():
func.func @graph() -> i64 {
  // CHECK-NEXT:   %int : int = prim::Constant[value=-9223372036854775808]()
  // CHECK-NEXT:   %true : bool = prim::Constant[value=1]()
  // CHECK-NEXT:   %false : bool = prim::Constant[value=0]()
  // CHECK-NEXT:   %two : float = prim::Constant[value=2.]()
  // CHECK-NEXT:   %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  // CHECK-NEXT:   %tenth : float = prim::Constant[value=0.10000000000000001]()
  // CHECK-NEXT:   %big : float = prim::Constant[value=1e+20]()
  // CHECK-NEXT:   %e16 : float = prim::Constant[value=10000000000000000.]()
  // CHECK-NEXT:   %neg_zero : float = prim::Constant[value=-0.]()
  // CHECK-NEXT:   %inf : float = prim::Constant[value=inf]()
  // CHECK-NEXT:   %ninf : float = prim::Constant[value=-inf]()
  // CHECK-NEXT:   %nan : float = prim::Constant[value=nan]()
  // CHECK-NEXT:   %denormal : float = prim::Constant[value=4.9406564584124654e-324]()
  // CHECK-NEXT:   %str : str = prim::Constant[value="a\n\"b\"\t\\ \'c\' \001\303\251"]()
  // CHECK-NEXT:   %cpu : Device = prim::Constant[value="cuda:1"]()
  // CHECK-NEXT:   %fn : Function = prim::Constant[name="layer_norm"]()
  // CHECK-NEXT:   %none : NoneType = prim::Constant()
  // CHECK-NEXT:   %opt_none : int? = prim::Constant()
  // CHECK-NEXT:   %opt_three : int? = prim::Constant[value=3]()
  // CHECK-NEXT:   %scalar_int : Scalar = prim::Constant[value=2]()
  // CHECK-NEXT:   %scalar_float : Scalar = prim::Constant[value=2.5]()
  // CHECK-NEXT:   %complex : complex = prim::Constant[value=1.-2.5j]()
  %int = prim.Constant {value = -9223372036854775808 : i64} : i64 loc("int")
  %true = prim.Constant {value = true} : i1 loc("true")
  %false = prim.Constant {value = false} : i1 loc("false")
  %two = prim.Constant {value = 2.0 : f64} : f64 loc("two")
  %eps = prim.Constant {value = 1.0E-5 : f64} : f64 loc("eps")
  %tenth = prim.Constant {value = 0.1 : f64} : f64 loc("tenth")
  %big = prim.Constant {value = 1.0E+20 : f64} : f64 loc("big")
  %e16 = prim.Constant {value = 1.0E+16 : f64} : f64 loc("e16")
  %neg_zero = prim.Constant {value = -0.0 : f64} : f64 loc("neg_zero")
  %inf = prim.Constant {value = 0x7FF0000000000000 : f64} : f64 loc("inf")
  %ninf = prim.Constant {value = 0xFFF0000000000000 : f64} : f64 loc("ninf")
  %nan = prim.Constant {value = 0x7FF8000000000000 : f64} : f64 loc("nan")
  %denormal = prim.Constant {value = 0x0000000000000001 : f64} : f64 loc("denormal")
  %str = prim.Constant {value = "a\n\"b\"\09\\ 'c' \01\C3\A9"} : !prim.str loc("str")
  %cpu = prim.Constant {value = "cuda:1"} : !prim.device loc("cpu")
  %fn = prim.Constant {value = "layer_norm"} : !prim.function loc("fn")
  %none = prim.Constant {value = unit} : !prim.none loc("none")
  %opt_none = prim.Constant {value = unit} : !prim.optional<i64> loc("opt_none")
  %opt_three = prim.Constant {value = 3 : i64} : !prim.optional<i64> loc("opt_three")
  %scalar_int = prim.Constant {value = 2 : i64} : !prim.number loc("scalar_int")
  %scalar_float = prim.Constant {value = 2.5 : f64} : !prim.number loc("scalar_float")
  %complex = prim.Constant {value = [1.0 : f64, -2.5 : f64]} : complex<f64> loc("complex")

  // Lists print as Python does, with `annotate(...)` when the elements do not
  // tell the element type; tuples with Python's `(1,)`.
  // CHECK-NEXT:   %ints : int[] = prim::Constant[value=[0, -1]]()
  // CHECK-NEXT:   %empty : int[] = prim::Constant[value=annotate(List[int], [])]()
  // CHECK-NEXT:   %bools : bool[] = prim::Constant[value=[True, False]]()
  // CHECK-NEXT:   %floats : float[] = prim::Constant[value=[1., 2.5]]()
  // CHECK-NEXT:   %strs : str[] = prim::Constant[value=["a", "b"]]()
  // CHECK-NEXT:   %opts : int?[] = prim::Constant[value=annotate(List[Optional[int]], [1, None])]()
  // CHECK-NEXT:   %nested : int[][] = prim::Constant[value={{\[\[}}1, 2], annotate(List[int], [])]]()
  // CHECK-NEXT:   %tuple : ((int, int), float) = prim::Constant[value=((1, 2), 3.)]()
  // CHECK-NEXT:   %one : (bool) = prim::Constant[value=(True,)]()
  // CHECK-NEXT:   %unit : () = prim::Constant[value=()]()
  %ints = prim.Constant {value = [0 : i64, -1 : i64]} : !prim.list<i64> loc("ints")
  %empty = prim.Constant {value = []} : !prim.list<i64> loc("empty")
  %bools = prim.Constant {value = [true, false]} : !prim.list<i1> loc("bools")
  %floats = prim.Constant {value = [1.0 : f64, 2.5 : f64]} : !prim.list<f64> loc("floats")
  %strs = prim.Constant {value = ["a", "b"]} : !prim.list<!prim.str> loc("strs")
  %opts = prim.Constant {value = [1 : i64, unit]} : !prim.list<!prim.optional<i64>> loc("opts")
  %nested = prim.Constant {value = [[1 : i64, 2 : i64], []]} : !prim.list<!prim.list<i64>> loc("nested")
  %tuple = prim.Constant {value = [[1 : i64, 2 : i64], 3.0 : f64]} : !prim.tuple<!prim.tuple<i64, i64>, f64> loc("tuple")
  %one = prim.Constant {value = [true]} : !prim.tuple<i1> loc("one")
  %unit = prim.Constant {value = []} : !prim.tuple loc("unit")

  // Tensors print inline in torch's operator<< form; a one-element tensor
  // whose type states its dtype and sizes as torch's boxed scalar `{v}`,
  // which torch's parser and tsir's importer read back through that type;
  // data kept outside the text as `<Tensor>`.
  // CHECK-NEXT:   %bias : Float(2) = prim::Constant[value= 0.1586 -0.1095 [ CPUFloatType{2} ]]()
  // CHECK-NEXT:   %matrix : Float(2, 2) = prim::Constant[value= 1 2 3 4.5 [ CPUFloatType{2,2} ]]()
  // CHECK-NEXT:   %digits : Float(4) = prim::Constant[value= 0.1 16777216 1e-08 3.4028235e+38 [ CPUFloatType{4} ]]()
  // CHECK-NEXT:   %special : Float(4) = prim::Constant[value= inf -inf nan -0. [ CPUFloatType{4} ]]()
  // CHECK-NEXT:   %doubles : Double(2) = prim::Constant[value= 0.1 0.30000000000000004 [ CPUDoubleType{2} ]]()
  // CHECK-NEXT:   %long0 : Long() = prim::Constant[value={-3}]()
  // CHECK-NEXT:   %double0 : Double() = prim::Constant[value={0.1}]()
  // CHECK-NEXT:   %double_int0 : Double() = prim::Constant[value={2}]()
  // CHECK-NEXT:   %float0 : Float() = prim::Constant[value={1.5}]()
  // CHECK-NEXT:   %one_element : Float(1) = prim::Constant[value={1.5}]()
  // CHECK-NEXT:   %empty_tensor : Float(0) = prim::Constant[value=[ CPUFloatType{0} ]]()
  // CHECK-NEXT:   %mask : Bool(2) = prim::Constant[value= 1 0 [ CPUBoolType{2} ]]()
  // CHECK-NEXT:   %bytes : Byte(2) = prim::Constant[value= 255 1 [ CPUByteType{2} ]]()
  // CHECK-NEXT:   %splat : Long(3) = prim::Constant[value= 7 7 7 [ CPULongType{3} ]]()
  // CHECK-NEXT:   %weight : Float(2) = prim::Constant[value=<Tensor>]()
  // CHECK-NEXT:   %ref : Tensor = prim::Constant[value=<Tensor>]()
  %bias = prim.Constant {value = dense<[0.1586, -0.1095]> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]> loc("bias")
  %matrix = prim.Constant {value = dense<[[1.0, 2.0], [3.0, 4.5]]> : tensor<2x2xf32>} : !prim.tensor<dtype = f32, sizes = [2, 2]> loc("matrix")
  %digits = prim.Constant {value = dense<[0.1, 16777216.0, 1.0e-8, 3.40282347e+38]> : tensor<4xf32>} : !prim.tensor<dtype = f32, sizes = [4]> loc("digits")
  %special = prim.Constant {value = dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<4xf32>} : !prim.tensor<dtype = f32, sizes = [4]> loc("special")
  %doubles = prim.Constant {value = dense<[0.1, 0.30000000000000004]> : tensor<2xf64>} : !prim.tensor<dtype = f64, sizes = [2]> loc("doubles")
  %long0 = prim.Constant {value = dense<-3> : tensor<si64>} : !prim.tensor<dtype = si64, sizes = []> loc("long0")
  %double0 = prim.Constant {value = dense<0.1> : tensor<f64>} : !prim.tensor<dtype = f64, sizes = []> loc("double0")
  %double_int0 = prim.Constant {value = dense<2.0> : tensor<f64>} : !prim.tensor<dtype = f64, sizes = []> loc("double_int0")
  %float0 = prim.Constant {value = dense<1.5> : tensor<f32>} : !prim.tensor<dtype = f32, sizes = []> loc("float0")
  %one_element = prim.Constant {value = dense<[1.5]> : tensor<1xf32>} : !prim.tensor<dtype = f32, sizes = [1]> loc("one_element")
  %empty_tensor = prim.Constant {value = dense<> : tensor<0xf32>} : !prim.tensor<dtype = f32, sizes = [0]> loc("empty_tensor")
  %mask = prim.Constant {value = dense<[true, false]> : tensor<2xi1>} : !prim.tensor<dtype = i1, sizes = [2]> loc("mask")
  %bytes = prim.Constant {value = dense<[255, 1]> : tensor<2xui8>} : !prim.tensor<dtype = ui8, sizes = [2]> loc("bytes")
  %splat = prim.Constant {value = dense<7> : tensor<3xsi64>} : !prim.tensor<dtype = si64, sizes = [3]> loc("splat")
  %weight = prim.Constant {value = dense_resource<weight> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]> loc("weight")
  %ref = prim.Constant {value = #prim.tensor_ref<"ref">} : !prim.tensor loc("ref")
  // Enum members, alone and in containers, as torch prints an EnumHolder;
  // quantized tensors with their quantizer (per tensor, per channel), and
  // boxed without one.
  // CHECK-NEXT:   %red : Enum<__torch__.Color> = prim::Constant[value=__torch__.Color.RED]()
  // CHECK-NEXT:   %members : (Enum<__torch__.Color>, Enum<__torch__.Color>?) = prim::Constant[value=(__torch__.Color.GREEN, None)]()
  // CHECK-NEXT:   %member_list : Enum<__torch__.Color>[] = prim::Constant[value=[__torch__.Color.RED]]()
  // CHECK-NEXT:   %q : QInt8(2) = prim::Constant[value= 0.1 -0.2 [ QuantizedCPUQInt8Type{2}, qscheme: per_tensor_affine, scale: 0.10000000000000001, zero_point: -1 ]]()
  // CHECK-NEXT:   %qc : QUInt8(2, 1) = prim::Constant[value= 0.5 1 [ QuantizedCPUQUInt8Type{2,1}, qscheme: per_channel_affine, scales:  0.5 0.25 [ CPUDoubleType{2} ], zero_points:  0 4 [ CPULongType{2} ], axis: 0 ]]()
  // CHECK-NEXT:   %qs : QInt32() = prim::Constant[value= 3 [ QuantizedCPUQInt32Type{}, qscheme: per_tensor_symmetric ]]()
  // CHECK-NEXT:   %qboxed : QInt8(1) = prim::Constant[value={0.5}]()
  %red = prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">} : !prim.enum<"__torch__.Color"> loc("red")
  %members = prim.Constant {value = [#prim.enum_member<"__torch__.Color", "GREEN">, unit]} : !prim.tuple<!prim.enum<"__torch__.Color">, !prim.optional<!prim.enum<"__torch__.Color">>> loc("members")
  %member_list = prim.Constant {value = [#prim.enum_member<"__torch__.Color", "RED">]} : !prim.list<!prim.enum<"__torch__.Color">> loc("member_list")
  %q = prim.Constant {value = #prim.quantized_tensor<values = dense<[0.1, -0.2]> : tensor<2xf64>, dtype = !prim.quantized<si8>, qscheme = "per_tensor_affine", scales = dense<0.1> : tensor<f64>, zeroPoints = dense<-1> : tensor<si64>>} : !prim.tensor<dtype = !prim.quantized<si8>, sizes = [2]> loc("q")
  %qc = prim.Constant {value = #prim.quantized_tensor<values = dense<[[0.5], [1.0]]> : tensor<2x1xf64>, dtype = !prim.quantized<ui8>, qscheme = "per_channel_affine", scales = dense<[0.5, 0.25]> : tensor<2xf64>, zeroPoints = dense<[0, 4]> : tensor<2xsi64>, axis = 0 : i64>} : !prim.tensor<dtype = !prim.quantized<ui8>, sizes = [2, 1]> loc("qc")
  %qs = prim.Constant {value = #prim.quantized_tensor<values = dense<3.0> : tensor<f64>, dtype = !prim.quantized<si32>, qscheme = "per_tensor_symmetric">} : !prim.tensor<dtype = !prim.quantized<si32>, sizes = []> loc("qs")
  %qboxed = prim.Constant {value = #prim.quantized_tensor<values = dense<0.5> : tensor<f64>, dtype = !prim.quantized<si8>>} : !prim.tensor<dtype = !prim.quantized<si8>, sizes = [1]> loc("qboxed")
  // CHECK-NEXT:   return (%int)
  return %int : i64
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F00000040"
    }
  }
#-}
