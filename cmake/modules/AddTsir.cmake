#===- AddTsir.cmake - Declaring and installing tsir's libraries -----------===#
#
# add_mlir_library would put tsir's libraries into MLIR's own export set
# (MLIRTargets), which no tsir install writes out. These wrappers, modelled
# on CIRCT's add_circt_library, build with add_mlir_library but install into
# tsir's export set instead, so that `find_package(tsir)` sees them as
# tsir::<Name> (see cmake/modules/CMakeLists.txt).
#
#===-----------------------------------------------------------------------===#

include_guard(GLOBAL)

# Installs `name` into the tsirTargets export set and records it, so the
# package config and the umbrella target know every library.
function(tsir_install_library name)
  install(TARGETS ${name}
    EXPORT tsirTargets
    COMPONENT tsir-libraries
    LIBRARY DESTINATION lib
    ARCHIVE DESTINATION lib
    RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY TSIR_EXPORTED_LIBS ${name})
endfunction()

option(TSIR_PRECOMPILE_HEADERS
  "Compile the headers every compiler library includes once per library" ON)

# The headers nearly every source of a compiler library includes. The aten
# dialect's generated op declarations alone are 5 MB of C++; parsing them
# and MLIR's dialect headers took about 7 of the 9.5 seconds each such
# source needs, once per source and again in the sanitizer build. Compiled
# once per library, that parse is shared by every source of the library.
# Only headers with include guards and no macro-selected content belong
# here: a pass's `#define GEN_PASS_DEF_...` + Passes.h.inc stays in its
# source. TSIR_PRECOMPILE_HEADERS=OFF checks that each source still
# includes what it uses.
set(TSIR_PRECOMPILED_HEADERS
  <tsir/Dialect/Aten/AtenDialect.h>
  <tsir/Dialect/Prim/PrimDialect.h>
  <mlir/IR/Builders.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/Linalg/IR/Linalg.h>
  <mlir/Dialect/Math/IR/Math.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Dialect/Tensor/IR/Tensor.h>
  <mlir/Transforms/DialectConversion.h>
  <mlir/Transforms/GreedyPatternRewriteDriver.h>)

# A compiler library: add_mlir_library's arguments, installed as tsir's,
# its sources compiled against TSIR_PRECOMPILED_HEADERS.
function(add_tsir_library name)
  tsir_add_library(${name} ${ARGN})
  if(TSIR_PRECOMPILE_HEADERS)
    # add_mlir_library compiles the sources in obj.<name> and archives or
    # links them in <name>.
    target_precompile_headers(obj.${name} PRIVATE ${TSIR_PRECOMPILED_HEADERS})
  endif()
endfunction()

# add_mlir_library installed as tsir's, with no precompiled headers.
function(tsir_add_library name)
  add_mlir_library(${name} ${ARGN} DISABLE_INSTALL)
  # Consumers of the installed tree find tsir's headers, and the generated
  # .inc files installed beside them, under <prefix>/include.
  target_include_directories(${name} INTERFACE $<INSTALL_INTERFACE:include>)
  tsir_install_library(${name})
endfunction()

# A dialect library: recorded among MLIR's dialect libraries the way
# add_mlir_dialect_library records upstream's. It generates the headers a
# compiler library precompiles, so it does not precompile them itself.
function(add_tsir_dialect_library name)
  set_property(GLOBAL APPEND PROPERTY MLIR_DIALECT_LIBS ${name})
  tsir_add_library(${name} ${ARGN})
endfunction()

# A command-line tool, installed into <prefix>/bin. LLVM's rpath setup
# gives installed tools $ORIGIN/../lib, where libTsirRuntime.so goes; they
# also need the directory of the libMLIR.so they were linked against.
function(tsir_install_tool name)
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} COMPONENT tsir-tools RUNTIME DESTINATION bin)
endfunction()
