//===- ModelTest.cpp - Ahead-of-time compiled models -----------------------===//
//
// Compiles small graphs with GraphExecutor::compileModel (what tsir-compile
// does) and runs them through rt::Model, the runtime's loader, checking
// what a deployment relies on: the values, the signature a model describes
// itself with, inputs checked against the compiled spec with errors that
// name the input, in-place writes reaching the caller (also through a
// non-contiguous input), scalars in and out, weights embedded or bound
// from their file at load time, and graphs that cannot be compiled whole
// refused with a reason.
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtils.h"

#include "tsir-runtime/Model.h"
#include "tsir-runtime/Safetensors.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace tsir;
using namespace tsir::test;

namespace {

/// A temporary path for a model (or weights), removed with the object.
struct TemporaryPath {
  explicit TemporaryPath(const char *suffix) {
    llvm::SmallString<128> name;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("model", suffix, name));
    path = std::string(name);
  }
  ~TemporaryPath() { llvm::sys::fs::remove(path); }
  std::string path;
};

/// Compile options writing `output`, with the ABI archive of this build
/// (bin/../lib, as tsir-compile finds it).
ModelCompileOptions optionsFor(const std::string &spec,
                               const std::string &output) {
  ModelCompileOptions options;
  options.spec = spec;
  options.output = output;
  static int anchor;
  options.abiArchive = modelAbiArchive(
      libraryDirectoryBeside("tsir-unittests", &anchor));
  return options;
}

/// Compiles `text` for `spec` and loads the model.
std::unique_ptr<rt::Model> compileAndLoad(const std::string &text,
                                          const std::string &spec,
                                          const TemporaryPath &model,
                                          ExecutorOptions executorOptions = {},
                                          bool embedWeights = true) {
  GraphFile file(text);
  auto executor = load(file, executorOptions);
  if (!executor)
    return nullptr;
  ModelCompileOptions options = optionsFor(spec, model.path);
  options.embedWeights = embedWeights;
  rt::Status compiled = executor->compileModel(options);
  EXPECT_TRUE(compiled.isOk()) << compiled.message();
  if (!compiled.isOk())
    return nullptr;
  auto loaded = rt::Model::load(model.path);
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  return loaded.ok() ? std::move(*loaded) : nullptr;
}

const char *kAddGraph = R"(graph(%x : Float(*, *), %y : Float(*, *)):
  %one : int = prim::Constant[value=1]()
  %z : Tensor = aten::add(%x, %y, %one)
  return (%z)
)";

TEST(ModelTest, RunsWhatItWasCompiledFor) {
  TemporaryPath path("so");
  auto model = compileAndLoad(kAddGraph, "Float(2, 3), Float(2, 3)", path);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->device(), "cpu");
  EXPECT_EQ(model->spec(), "Float(2, 3), Float(2, 3)");
  ASSERT_EQ(model->inputs().size(), 2u);
  EXPECT_EQ(model->inputs()[1].name, "y");
  EXPECT_EQ(model->numOutputs(), 1u);
  auto outputs = model->run({filled({2, 3}, 0), filled({2, 3}, 10)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ(elements((*outputs)[0].toTensor()),
            (std::vector<float>{10, 12, 14, 16, 18, 20}));
  // Each call's outputs are its own.
  auto again = model->run({filled({2, 3}, 1), filled({2, 3}, 1)});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(elements((*again)[0].toTensor()),
            (std::vector<float>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(elements((*outputs)[0].toTensor())[0], 10);
}

TEST(ModelTest, OutputsOutliveTheModel) {
  // An output's buffer goes back through the model library's
  // tsir_model_free: the library must stay loaded until the last output
  // is gone, whenever the Model itself goes.
  TemporaryPath path("so");
  auto model = compileAndLoad(kAddGraph, "Float(2, 3), Float(2, 3)", path);
  ASSERT_TRUE(model);
  auto outputs = model->run({filled({2, 3}, 0), filled({2, 3}, 10)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  model.reset();
  EXPECT_EQ(elements((*outputs)[0].toTensor()),
            (std::vector<float>{10, 12, 14, 16, 18, 20}));
  outputs->clear(); // frees the buffer through the still-loaded library
}

TEST(ModelTest, BadInputsNameTheInput) {
  TemporaryPath path("so");
  auto model = compileAndLoad(kAddGraph, "Float(2, 3), Float(2, 3)", path);
  ASSERT_TRUE(model);
  auto expectError = [&](const std::vector<rt::Value> &inputs,
                         const std::string &message) {
    auto outputs = model->run(inputs);
    ASSERT_FALSE(outputs.ok()) << "expected: " << message;
    EXPECT_NE(outputs.status().message().find(message), std::string::npos)
        << outputs.status().message();
  };
  expectError({filled({2, 3}, 0)}, "takes 2 inputs");
  expectError({filled({2, 3}, 0), filled({2, 4}, 0)},
              "input 1 must be Float(2, 3) (the spec the model was compiled "
              "for), got Float(2, 4)");
  expectError({filled({2, 3}, 0), rt::Tensor::zeros({2, 3}, rt::DType::Float64)},
              "input 1 must be Float(2, 3)");
  expectError({rt::Value(int64_t(3)), filled({2, 3}, 0)},
              "input 0 must be a tensor, got an int");
  expectError({rt::Value::none(), filled({2, 3}, 0)},
              "input 0 must be Float(2, 3), got None");
}

TEST(ModelTest, InPlaceWritesReachTheCaller) {
  TemporaryPath path("so");
  auto model = compileAndLoad(R"(graph(%x : Float(3), %y : Float(3)):
  %one : int = prim::Constant[value=1]()
  %x.1 : Tensor = aten::add_(%x, %y, %one)
  %z : Tensor = aten::mul(%x.1, %y)
  return (%z)
)",
                              "Float(3), Float(3)", path);
  ASSERT_TRUE(model);
  rt::Tensor x = filled({3}, 1), y = filled({3}, 10);
  auto outputs = model->run({x, y});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_EQ(elements(x), (std::vector<float>{11, 13, 15}));
  EXPECT_EQ(elements(y), (std::vector<float>{10, 11, 12}));
  EXPECT_EQ(elements((*outputs)[0].toTensor()),
            (std::vector<float>{110, 143, 180}));

  // A non-contiguous input (every other element) is written through.
  rt::Tensor base = filled({6}, 0);
  auto strided = base.asStrided({3}, {2}, 0);
  ASSERT_TRUE(strided.ok()) << strided.status().message();
  outputs = model->run({*strided, filled({3}, 100)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_EQ(elements(base), (std::vector<float>{100, 1, 103, 3, 106, 5}));
}

TEST(ModelTest, ScalarsInAndOut) {
  TemporaryPath path("so");
  auto model = compileAndLoad(R"(graph(%n : int, %s : float, %x : Float(2)):
  %m : int = aten::mul(%n, %n)
  %y : Tensor = aten::mul(%x, %s)
  return (%m, %y)
)",
                              "int, float, Float(2)", path);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->spec(), "int, float, Float(2)");
  EXPECT_EQ(model->inputs()[0].kind, rt::ModelInput::Kind::Int);
  // A 0-d int64 array stands for the int; an int for the float.
  auto outputs = model->run({rt::Tensor::scalar(7, rt::DType::Int64),
                             rt::Value(int64_t(3)), filled({2}, 1)});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 2u);
  EXPECT_EQ((*outputs)[0].toInt(), 49);
  EXPECT_EQ(elements((*outputs)[1].toTensor()), (std::vector<float>{3, 6}));
}

/// A graph reading the weight `fc.weight`, and a weights file holding it.
struct WeightedGraph {
  const char *text = R"(graph(%x : Float(3)):
  %fc.weight : Float(3) = prim::Constant[value=<Tensor>]()
  %y : Tensor = aten::mul(%x, %fc.weight)
  return (%y)
)";
  TemporaryPath weights{"safetensors"};
  WeightedGraph() {
    rt::Status written =
        rt::writeSafetensors(weights.path, {{"fc.weight", filled({3}, 2)}});
    EXPECT_TRUE(written.isOk()) << written.message();
  }
  ExecutorOptions options() const {
    ExecutorOptions options;
    options.weightsPath = weights.path;
    return options;
  }
};

TEST(ModelTest, WeightsEmbeddedOrBoundFromTheirFile) {
  WeightedGraph graph;
  for (bool embed : {true, false}) {
    TemporaryPath path("so");
    auto model = compileAndLoad(graph.text, "Float(3)", path, graph.options(),
                                embed);
    ASSERT_TRUE(model);
    auto outputs = model->run({filled({3}, 1)});
    ASSERT_TRUE(outputs.ok()) << outputs.status().message();
    EXPECT_EQ(elements((*outputs)[0].toTensor()),
              (std::vector<float>{2, 6, 12}))
        << (embed ? "embedded" : "from the file");
  }
}

TEST(ModelTest, TwoModelsOfOneFileKeepTheirOwnWeights) {
  // Weights are bound in the model's library, and the dynamic loader gives
  // one library per file: a second Model of the same file must get a copy
  // of its own, or it rebinds the first one's weights (and the first reads
  // the second's memory once that is freed).
  WeightedGraph graph;
  TemporaryPath path("so");
  auto first = compileAndLoad(graph.text, "Float(3)", path, graph.options(),
                              /*embedWeights=*/false);
  ASSERT_TRUE(first);
  auto second = rt::Model::load(
      path.path, std::map<std::string, rt::Tensor>{{"fc.weight", filled({3}, 10)}});
  ASSERT_TRUE(second.ok()) << second.status().message();
  auto fromFirst = first->run({filled({3}, 1)});
  auto fromSecond = (*second)->run({filled({3}, 1)});
  ASSERT_TRUE(fromFirst.ok()) << fromFirst.status().message();
  ASSERT_TRUE(fromSecond.ok()) << fromSecond.status().message();
  EXPECT_EQ(elements((*fromFirst)[0].toTensor()), (std::vector<float>{2, 6, 12}));
  EXPECT_EQ(elements((*fromSecond)[0].toTensor()),
            (std::vector<float>{10, 22, 36}));
  // Weights given in memory must fit what the model was compiled for.
  auto wrong = rt::Model::load(
      path.path, std::map<std::string, rt::Tensor>{{"fc.weight", filled({4}, 1)}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("fc.weight"), std::string::npos)
      << wrong.status().message();
}

TEST(ModelTest, AModelWhoseWeightsFileIsGoneSaysSo) {
  TemporaryPath path("so");
  {
    WeightedGraph graph;
    GraphFile file(graph.text);
    auto executor = load(file, graph.options());
    ASSERT_TRUE(executor);
    ModelCompileOptions options = optionsFor("Float(3)", path.path);
    options.embedWeights = false;
    ASSERT_TRUE(executor->compileModel(options).isOk());
  } // the weights file is removed here
  auto loaded = rt::Model::load(path.path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("the weights of"),
            std::string::npos)
      << loaded.status().message();
}

TEST(ModelTest, WhatCannotBeCompiledWholeIsRefused) {
  TemporaryPath path("so");
  GraphFile file(R"(graph(%x : Float(3)):
  %s : str = prim::Constant[value="x is"]()
   = prim::Print(%s, %x)
  return (%x)
)");
  auto executor = load(file);
  ASSERT_TRUE(executor);
  rt::Status compiled = executor->compileModel(optionsFor("Float(3)", path.path));
  ASSERT_FALSE(compiled.isOk());
  EXPECT_NE(compiled.message().find("prim::Print runs only in tsir's "
                                    "interpreter"),
            std::string::npos)
      << compiled.message();

  compiled = executor->compileModel(optionsFor("Float(3), int", path.path));
  ASSERT_FALSE(compiled.isOk());
  EXPECT_NE(compiled.message().find("the spec gives 2 inputs, the graph "
                                    "takes 1"),
            std::string::npos)
      << compiled.message();
}

TEST(ModelTest, ALibraryThatIsNoModelIsAnError) {
  auto loaded = rt::Model::load("/nonexistent/model.so");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("cannot load the model"),
            std::string::npos);
  // libm is a shared library, but not a tsir model.
  loaded = rt::Model::load("libm.so.6");
  ASSERT_FALSE(loaded.ok());
}

TEST(ModelTest, ATruncatedOrDamagedModelIsRefusedBeforeLoading) {
  // The dynamic loader maps a truncated library's segments past the end of
  // the file, and the process dies of SIGBUS: refused with a reason.
  TemporaryPath path("so");
  ASSERT_TRUE(compileAndLoad(kAddGraph, "Float(2, 3), Float(2, 3)", path));
  uint64_t size = 0;
  ASSERT_FALSE(llvm::sys::fs::file_size(path.path, size));
  ASSERT_EQ(::truncate(path.path.c_str(), size / 2), 0);
  auto truncated = rt::Model::load(path.path);
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("truncated or damaged"),
            std::string::npos)
      << truncated.status().message();

  TemporaryPath text("so");
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(text.path, ec);
    out << "garbage\n";
  }
  auto garbage = rt::Model::load(text.path);
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.status().message().find("not a shared library"),
            std::string::npos)
      << garbage.status().message();
}

} // namespace
