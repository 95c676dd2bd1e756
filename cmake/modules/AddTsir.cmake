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

# A compiler library: add_mlir_library's arguments, installed as tsir's.
function(add_tsir_library name)
  add_mlir_library(${name} ${ARGN} DISABLE_INSTALL)
  # Consumers of the installed tree find tsir's headers, and the generated
  # .inc files installed beside them, under <prefix>/include.
  target_include_directories(${name} INTERFACE $<INSTALL_INTERFACE:include>)
  tsir_install_library(${name})
endfunction()

# A dialect library: as above, also recorded among MLIR's dialect libraries
# the way add_mlir_dialect_library records upstream's.
function(add_tsir_dialect_library name)
  set_property(GLOBAL APPEND PROPERTY MLIR_DIALECT_LIBS ${name})
  add_tsir_library(${name} ${ARGN})
endfunction()

# A command-line tool, installed into <prefix>/bin. LLVM's rpath setup
# gives installed tools $ORIGIN/../lib, where libTsirRuntime.so goes; they
# also need the directory of the libMLIR.so they were linked against.
function(tsir_install_tool name)
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} COMPONENT tsir-tools RUNTIME DESTINATION bin)
endfunction()
