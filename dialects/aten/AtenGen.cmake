#===- AtenGen.cmake - Generate the aten ops from schemas.txt --------------===#
#
# Runs gen_aten_ops.py at build time to turn schemas.txt + typed_ops.txt into
# the aten dialect's ODS ops (AtenOps.gen.td) and the table of every schema
# (AtenSchemas.gen.inc), both in this directory's binary dir. Include it from
# dialects/aten/CMakeLists.txt, then run mlir_tablegen on TSIR_ATEN_OPS_TD:
#
#   include(AtenGen.cmake)
#   set(LLVM_TARGET_DEFINITIONS ${TSIR_ATEN_OPS_TD})
#   mlir_tablegen(AtenOps.h.inc -gen-op-decls
#                 EXTRA_INCLUDES ${PROJECT_SOURCE_DIR}/dialects/prim)
#
# (AtenBase.td is found through CMAKE_CURRENT_SOURCE_DIR, which tablegen()
# always searches; PrimTypes.td needs the EXTRA_INCLUDES.) Whatever compiles
# SchemaRegistry.cpp must depend on tsir-aten-gen and see this binary dir on
# its include path.
#
#===-----------------------------------------------------------------------===#

if(NOT TSIR_PYTHON)
  set(TSIR_PYTHON /usr/bin/python3)
endif()

set(TSIR_ATEN_OPS_TD ${CMAKE_CURRENT_BINARY_DIR}/AtenOps.gen.td)
set(TSIR_ATEN_SCHEMAS_INC ${CMAKE_CURRENT_BINARY_DIR}/AtenSchemas.gen.inc)

# The script rewrites an output only when its contents change, so editing a
# comment in typed_ops.txt does not recompile the dialect (Ninja restats
# custom command outputs).
add_custom_command(
  OUTPUT ${TSIR_ATEN_OPS_TD} ${TSIR_ATEN_SCHEMAS_INC}
  COMMAND ${TSIR_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/gen_aten_ops.py
          ${CMAKE_CURRENT_SOURCE_DIR}/schemas.txt
          ${CMAKE_CURRENT_SOURCE_DIR}/typed_ops.txt
          ${TSIR_ATEN_OPS_TD}
          ${TSIR_ATEN_SCHEMAS_INC}
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gen_aten_ops.py
          ${CMAKE_CURRENT_SOURCE_DIR}/schemas.txt
          ${CMAKE_CURRENT_SOURCE_DIR}/typed_ops.txt
  COMMENT "Generating aten ops and schema table from schemas.txt"
  VERBATIM)

add_custom_target(tsir-aten-gen
  DEPENDS ${TSIR_ATEN_OPS_TD} ${TSIR_ATEN_SCHEMAS_INC})
