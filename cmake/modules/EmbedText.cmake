# EmbedText.cmake - writes a text file as a C++ raw string literal.
#
# cmake -DINPUT=file.txt -DOUTPUT=file.inc -P EmbedText.cmake
# The .inc holds `R"tsir_text(...)tsir_text"`, for `const char *x =
# #include "file.inc";` so that data the build reads (tsir-differentiate's
# derivative formulas) stays a plain file in the source tree.
file(READ "${INPUT}" content)
file(WRITE "${OUTPUT}" "R\"tsir_text(${content})tsir_text\"\n")
