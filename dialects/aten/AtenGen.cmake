#===- AtenGen.cmake - Generate the aten ops from schemas.txt --------------===#
#
# Runs gen_aten_ops.py at build time to turn schemas.txt + typed_ops.txt into
# the aten dialect's ODS ops (AtenOps.gen.td) and the table of every schema
# (AtenSchemas.gen.inc), both in the including directory's binary dir
# (build/include/tsir/Dialect/Aten). include/tsir/Dialect/Aten/CMakeLists.txt
# includes it, then runs mlir_tablegen on TSIR_ATEN_OPS_TD with dialects/aten
# (AtenBase.td) and dialects/prim (PrimTypes.td) as EXTRA_INCLUDES.
# Whatever compiles SchemaRegistry.cpp must depend on tsir-aten-gen; it
# includes "tsir/Dialect/Aten/AtenSchemas.gen.inc".
#
#===-----------------------------------------------------------------------===#

if(NOT TSIR_PYTHON)
  set(TSIR_PYTHON /usr/bin/python3)
endif()

# The generator and its inputs sit beside this file.
set(TSIR_ATEN_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
set(TSIR_ATEN_OPS_TD ${CMAKE_CURRENT_BINARY_DIR}/AtenOps.gen.td)
set(TSIR_ATEN_SCHEMAS_INC ${CMAKE_CURRENT_BINARY_DIR}/AtenSchemas.gen.inc)

# The script rewrites an output only when its contents change, so editing a
# comment in typed_ops.txt does not recompile the dialect (Ninja restats
# custom command outputs).
add_custom_command(
  OUTPUT ${TSIR_ATEN_OPS_TD} ${TSIR_ATEN_SCHEMAS_INC}
  COMMAND ${TSIR_PYTHON} ${TSIR_ATEN_SOURCE_DIR}/gen_aten_ops.py
          ${TSIR_ATEN_SOURCE_DIR}/schemas.txt
          ${TSIR_ATEN_SOURCE_DIR}/typed_ops.txt
          ${TSIR_ATEN_OPS_TD}
          ${TSIR_ATEN_SCHEMAS_INC}
  DEPENDS ${TSIR_ATEN_SOURCE_DIR}/gen_aten_ops.py
          ${TSIR_ATEN_SOURCE_DIR}/schemas.txt
          ${TSIR_ATEN_SOURCE_DIR}/typed_ops.txt
  COMMENT "Generating aten ops and schema table from schemas.txt"
  VERBATIM)

add_custom_target(tsir-aten-gen
  DEPENDS ${TSIR_ATEN_OPS_TD} ${TSIR_ATEN_SCHEMAS_INC})
