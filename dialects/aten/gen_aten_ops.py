#!/usr/bin/python3
"""gen_aten_ops.py - generate the aten dialect's ODS ops and schema table.

Run at build time (stdlib only, no torch):

    gen_aten_ops.py SCHEMAS_TXT TYPED_OPS_TXT OUT_TD OUT_INC

- SCHEMAS_TXT: every aten::/prim:: FunctionSchema, one per line, as dumped by
  extract_schemas.py;
- TYPED_OPS_TXT: the `name.overload` list of aten overloads that become typed
  ODS ops;
- OUT_TD: AtenOps.gen.td, one `Aten_Op` per typed overload;
- OUT_INC: AtenSchemas.gen.inc, one TSIR_SCHEMA(...) row per schema (all of
  them, typed or not) for the importer's overload resolution.

Output is only rewritten when its contents change, so an unchanged schema
list does not make CMake rebuild everything downstream.
"""

import re
import sys

# ---------------------------------------------------------------------------
# Schema parsing
#
# A small recursive-descent parser for the FunctionSchema syntax torch prints
# (the same grammar as torch's SchemaTypeParser / function_schema_parser).
# It keeps only what the generator needs: types with their alias
# annotations, argument names, keyword-only markers and varargs. The C++
# SchemaRegistry has its own parser with the same grammar.
# ---------------------------------------------------------------------------

# Base type names torch knows; any other bare identifier is a type variable
# (`t`, `t1`, `tVal`), and a dotted `__torch__.` name is a class type.
BASE_TYPES = {
    "Tensor", "int", "SymInt", "float", "bool", "complex", "str", "Scalar",
    "ScalarType", "Layout", "MemoryFormat", "Device", "Generator", "Storage",
    "Stream", "NoneType", "None", "Any", "AnyClassType", "AnyEnumType",
    "QScheme", "Capsule", "Dimname", "ConstQuantizerPtr",
}

# Type constructors written `Name(T, ...)`; for every other identifier a
# following `(` is an alias annotation.
TYPE_CONSTRUCTORS = {"Dict", "Future", "RRef", "Union", "Await"}


class SchemaType:
    """One schema type: kind is a base name, 'typevar', 'class', 'list',
    'optional', 'tuple' or a constructor name; alias is the raw text of the
    alias annotation written right after it (`a!`, `a -> *`, `*`) or None."""

    def __init__(self, kind, name="", elements=(), fixed_size=-1):
        self.kind = kind
        self.name = name
        self.elements = list(elements)
        self.fixed_size = fixed_size
        self.alias = None

    def annotations(self):
        """Every alias annotation in this type, outermost first."""
        out = [self.alias] if self.alias is not None else []
        for e in self.elements:
            out.extend(e.annotations())
        return out

    def is_written(self):
        return any("!" in a for a in self.annotations())

    def is_aliased(self):
        return bool(self.annotations())

    def is_mutable(self):
        """Whether values of this type can be mutated in place (torch's
        AliasDb notion): such operands get a MemRead effect so that passes
        do not move them across writes."""
        if self.kind in ("Tensor", "list", "Dict", "Any", "typevar", "class",
                         "AnyClassType", "Future", "RRef", "Await",
                         "Storage"):
            return True
        # Optionals, tuples and unions are as mutable as what they hold.
        return any(e.is_mutable() for e in self.elements)


class Arg:
    def __init__(self, name, type_, kwarg_only, default):
        self.name = name
        self.type = type_
        self.kwarg_only = kwarg_only
        self.default = default  # raw text, or None


class Schema:
    def __init__(self, text):
        self.text = text
        self.qualified_name = ""
        self.overload = ""
        self.arguments = []
        self.returns = []
        self.is_vararg = False
        self.is_varret = False

    @property
    def key(self):
        """`add.Tensor` / `mm`: how typed_ops.txt names an overload."""
        base = self.qualified_name.split("::", 1)[1]
        return f"{base}.{self.overload}" if self.overload else base


class SchemaParseError(Exception):
    pass


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Parser:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def error(self, what):
        raise SchemaParseError(
            f"{what} at column {self.i}: "
            f"{self.s[:self.i]}<HERE>{self.s[self.i:]}")

    def skip_ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def peek(self, tok):
        self.skip_ws()
        return self.s.startswith(tok, self.i)

    def accept(self, tok):
        if self.peek(tok):
            self.i += len(tok)
            return True
        return False

    def expect(self, tok):
        if not self.accept(tok):
            self.error(f"expected {tok!r}")

    def ident(self):
        self.skip_ws()
        m = _IDENT.match(self.s, self.i)
        if not m:
            self.error("expected an identifier")
        self.i = m.end()
        return m.group()

    def schema(self):
        sch = Schema(self.s)
        ns = self.ident()
        self.expect("::")
        sch.qualified_name = f"{ns}::{self.ident()}"
        # No space allowed: `.` right after the name starts the overload.
        if self.s.startswith(".", self.i):
            self.i += 1
            sch.overload = self.ident()
        self.expect("(")
        kwarg_only = False
        while not self.accept(")"):
            if sch.arguments or kwarg_only or sch.is_vararg:
                self.expect(",")
            if self.accept("..."):
                sch.is_vararg = True
            elif self.accept("*"):
                kwarg_only = True
            else:
                t = self.type()
                name = self.ident()
                default = self.default() if self.accept("=") else None
                sch.arguments.append(Arg(name, t, kwarg_only, default))
        self.expect("->")
        if self.accept("..."):
            sch.is_varret = True
        elif self.peek("("):
            # `-> (A a, B)` is a list of returns; `-> ((str, t)[])` is one
            # return whose type starts with a tuple, so returns are types.
            self.i += 1
            while not self.accept(")"):
                if sch.returns:
                    self.expect(",")
                sch.returns.append(self.ret())
        else:
            sch.returns.append(self.ret())
        self.skip_ws()
        if self.i != len(self.s):
            self.error("trailing text")
        return sch

    def ret(self):
        t = self.type()
        self.skip_ws()
        m = _IDENT.match(self.s, self.i)
        name = ""
        if m:
            self.i = m.end()
            name = m.group()
        return Arg(name, t, False, None)

    def default(self):
        """Raw text of a default value, up to the `,` or `)` that ends it."""
        self.skip_ws()
        start, depth = self.i, 0
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == '"' or c == "'":
                self.i += 1
                while self.i < len(self.s) and self.s[self.i] != c:
                    self.i += 2 if self.s[self.i] == "\\" else 1
            elif c in "[(":
                depth += 1
            elif c in "])":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            self.i += 1
        text = self.s[start:self.i].strip()
        if not text:
            self.error("empty default")
        return text

    def alias_annotation(self):
        # Called with the `(` consumed; annotations do not nest.
        end = self.s.find(")", self.i)
        if end < 0:
            self.error("unterminated alias annotation")
        text = self.s[self.i:end].strip()
        self.i = end + 1
        return text

    def type(self):
        self.skip_ws()
        if self.accept("("):
            elems = []
            while not self.accept(")"):
                if elems:
                    self.expect(",")
                elems.append(self.type())
            t = SchemaType("tuple", elements=elems)
        else:
            name = self.ident()
            while self.s.startswith(".", self.i):  # __torch__.a.b.C
                self.i += 1
                name += "." + self.ident()
            if name in TYPE_CONSTRUCTORS and self.s.startswith("(", self.i):
                self.i += 1
                elems = []
                while not self.accept(")"):
                    if elems:
                        self.expect(",")
                    elems.append(self.type())
                t = SchemaType(name, elements=elems)
            elif name in BASE_TYPES:
                t = SchemaType(name)
            elif name.startswith("__torch__."):
                t = SchemaType("class", name=name)
            else:
                t = SchemaType("typevar", name=name)
            if self.s.startswith("(", self.i):
                self.i += 1
                t.alias = self.alias_annotation()
        # Postfix: `[]`, `[2]`, `?`; a list may carry its own annotation,
        # as in `t[](a!)`.
        while True:
            if self.s.startswith("[", self.i):
                self.i += 1
                size = self.s[self.i:self.s.index("]", self.i)]
                self.i += len(size) + 1
                t = SchemaType("list", elements=[t],
                               fixed_size=int(size) if size else -1)
                if self.s.startswith("(", self.i):
                    self.i += 1
                    t.alias = self.alias_annotation()
            elif self.s.startswith("?", self.i):
                self.i += 1
                t = SchemaType("optional", elements=[t])
            else:
                return t


def parse_schema(text):
    return _Parser(text).schema()


def read_lines(path):
    """Non-blank, non-comment lines with their line numbers."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#"):
                yield n, line


# ---------------------------------------------------------------------------
# Op traits and memory effects
# ---------------------------------------------------------------------------

# Ops that draw from a random generator: their generator state is hidden
# memory that each call reads and advances, so two calls must neither be
# merged nor reordered.
NONDETERMINISTIC = re.compile(
    r"^(rand|randn|randint|randperm|rand_like|randn_like|randint_like|"
    r"bernoulli|normal|multinomial|poisson|rrelu|rrelu_with_noise|"
    r"dropout|feature_dropout|alpha_dropout|feature_alpha_dropout|"
    r"native_dropout|fused_dropout|_fused_dropout|uniform|exponential|"
    r"geometric|cauchy|log_normal|random|seed|manual_seed|"
    r"_standard_gamma|_sample_dirichlet|binomial)_?$")

# Operands an op writes although its schema has no `!` for them: in
# training mode these ops update the running statistics in place. Without
# the write effect a dead training-mode batch_norm could be deleted.
UNDECLARED_WRITES = {
    "batch_norm": {"running_mean", "running_var"},
    "instance_norm": {"running_mean", "running_var"},
}

# The op families typed_ops.txt may name after an op, and the ODS trait
# (AtenBase.td, C++ in AtenTraits.h) each becomes.
FAMILIES = {
    "fusible": "Aten_TensorExprFusible",
    "unary": "Aten_ElementwiseUnary",
    "binary": "Aten_ElementwiseBinary",
    "ternary": "Aten_ElementwiseTernary",
    "int_to_float": "Aten_PromoteIntToFloat",
    "always_bool": "Aten_PromoteAlwaysBool",
    "complex_to_real": "Aten_PromoteComplexToReal",
    "to_double": "Aten_PromoteToDouble",
    "reduction": "Aten_Reduction",
    "along_dim": "Aten_AlongDim",
    "integer_to_long": "Aten_PromoteIntegerToLong",
    "to_long": "Aten_PromoteToLong",
    "scalar_operator": "Aten_ScalarOperator",
    "tensor_query": "Aten_TensorQuery",
    "storage_view": "Aten_StorageView",
}

def returns_view_of_self(sch):
    """Whether `sch` is `(Tensor(a) self, ...) -> Tensor(a)`: one result
    that aliases the first argument."""
    if not sch.arguments or len(sch.returns) != 1:
        return False
    first, result = sch.arguments[0].type, sch.returns[0].type
    return (first.alias is not None and "!" not in first.alias
            and result.alias == first.alias)


# An op follows at most one shape rule and at most one promotion kind, and
# a promotion kind refines a shape rule, so it needs one: torch's
# elementwise kinds for elementwise ops, the accumulation kinds of aten's
# reductions (sum's Long, any's Bool, std's real, argmax's Long indices,
# logsumexp's float) for the others.
ELEMENTWISE_KINDS = {"int_to_float", "always_bool", "complex_to_real",
                     "to_double"}
SHAPE_RULES = {
    "unary": ELEMENTWISE_KINDS,
    "binary": ELEMENTWISE_KINDS,
    "ternary": ELEMENTWISE_KINDS,
    "reduction": {"integer_to_long", "always_bool", "complex_to_real",
                  "int_to_float", "to_long"},
    "along_dim": {"integer_to_long"},
}
PROMOTION_KINDS = set().union(*SHAPE_RULES.values())

# Ops whose effect is observable outside the program (warnings, printing).
SIDE_EFFECTING = {"warn", "print", "RaiseException", "Print"}

# Scalar ops that touch no memory but can raise (ZeroDivisionError, a zero
# range step, a string that is no number). They are still free to CSE and
# to drop when unused, but must not be speculated (hoisted out of a loop
# that may not run), so they get NoMemoryEffect instead of Pure. Entries are
# a whole name or one `name.overload`.
MAY_RAISE = {"div", "floordiv", "remainder", "fmod", "pow", "divmod",
             "__getitem__", "__range_length", "Int.str", "Float.str",
             "Bool.str", "Complex.str"}

# Operand/result names that collide with what ODS generates on every op
# (accessors are `get<Name>`, builder parameters are the plain names) or
# with C++ keywords. Such a name gets a trailing underscore. mlir-tblgen
# itself only rejects `operands` and `attributes`; the rest would fail (or
# silently shadow an Op method) when the generated C++ is compiled.
RESERVED_NAMES = {
    # C++ keywords that appear in, or could plausibly appear in, schemas.
    "default", "template", "operator", "new", "delete", "class", "struct",
    "union", "enum", "int", "float", "double", "bool", "char", "long",
    "short", "signed", "unsigned", "void", "const", "volatile", "static",
    "return", "if", "else", "for", "while", "do", "switch", "case", "break",
    "continue", "goto", "try", "catch", "throw", "this", "true", "false",
    "namespace", "using", "typename", "virtual", "friend", "public",
    "private", "protected", "inline", "register", "auto", "extern", "and",
    "or", "not", "xor", "bitand", "bitor", "compl", "and_eq", "or_eq",
    "xor_eq", "not_eq", "asm", "export", "mutable", "explicit", "sizeof",
    "typeid", "nullptr", "decltype", "constexpr", "alignas", "alignof",
    "noexcept", "static_assert", "thread_local", "concept", "requires",
    # Methods every Op (or its traits) already has as get<Name>().
    "operands", "operand", "results", "attributes", "attr", "attrs",
    "context", "loc", "location", "name", "operation", "type", "types",
    "properties", "result_types", "regions", "region", "successors",
    "odsBuilder", "odsState", "builder", "state", "info", "parent",
    "block", "dialect", "effects",
}


def ods_type(t):
    """The ODS constraint for a schema type. Only exact scalar/tensor types
    are constrained; everything else (optionals, lists, numbers, type
    variables) is AnyType because TorchScript's subtyping is checked by the
    importer's overload resolution."""
    if t.kind == "Tensor":
        return "Aten_Tensor"
    if t.kind in ("int", "SymInt", "ScalarType", "Layout", "MemoryFormat"):
        return "Aten_Int"
    if t.kind == "float":
        return "Aten_Float"
    if t.kind == "bool":
        return "Aten_Bool"
    return "AnyType"


def operand_decl(arg, base):
    ty = ods_type(arg.type)
    if arg.type.is_written() or arg.name in UNDECLARED_WRITES.get(base, ()):
        return f'Arg<{ty}, "", [MemRead, MemWrite]>'
    if arg.type.is_mutable():
        return f'Arg<{ty}, "", [MemRead]>'
    return ty


def result_decl(ret):
    # Every mutable result is a new object, even a view (`Tensor(a)`) or a
    # list of views (`Tensor(a)[]`): a later in-place op may change one call's
    # result alone, so two identical calls must never be merged. Declaring
    # the result allocated keeps upstream CSE off them, while an unused one
    # is still dead. Alias-aware merging is the job of tsir's own CSE.
    ty = ods_type(ret.type)
    if ret.type.is_mutable():
        return f'Res<{ty}, "", [MemAlloc]>'
    return ty


def op_traits(sch, base):
    """Op-level traits. Per-operand/result effects come from Arg/Res; these
    add the hidden effects the schema cannot express."""
    if base in SIDE_EFFECTING:
        return ["MemoryEffects<[MemWrite]>"]
    if NONDETERMINISTIC.match(base):
        return ["MemoryEffects<[MemRead, MemWrite]>"]
    has_effects = any(a.type.is_mutable() for a in sch.arguments) or any(
        r.type.is_mutable() and not r.type.is_aliased() for r in sch.returns)
    if has_effects:
        return []
    if base in MAY_RAISE or sch.key in MAY_RAISE:
        return ["NoMemoryEffect"]
    return ["Pure"]


# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

def camel(word):
    """`max_pool2d` -> `MaxPool2d`, `add_` -> `Add_`, `__and__` ->
    `DunderAnd`, `_convolution` -> `PrivateConvolution`.

    Underscores carry meaning in aten names (in-place `_` suffix, private
    `_` prefix, Python dunders), so they are spelled out instead of dropped;
    the result never starts with `_` or holds `__`, which C++ reserves."""
    if len(word) > 4 and word.startswith("__") and word.endswith("__"):
        return "Dunder" + camel(word[2:-2])
    prefix = suffix = ""
    if word.startswith("_"):
        prefix, word = "Private", word.lstrip("_")
    if word.endswith("_"):
        suffix, word = "_", word.rstrip("_")
    parts = [p for p in word.split("_") if p]
    return prefix + "".join(p[0].upper() + p[1:] for p in parts) + suffix


def class_name(sch):
    base = sch.qualified_name.split("::", 1)[1]
    return camel(base) + camel(sch.overload) + "Op"


def value_name(name):
    return name + "_" if name in RESERVED_NAMES else name


def quoted(text):
    """A string literal for TableGen or C++: both take `\\` and `\\"`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------
# Emission
# ---------------------------------------------------------------------------

def dag(field, op, items):
    """`let arguments = (ins ...);`, one item per line."""
    if not items:
        return f"  let {field} = ({op});"
    body = ",\n      ".join(items)
    return f"  let {field} = ({op}\n      {body}\n  );"


def gen_op(sch, cls, families):
    base = sch.qualified_name.split("::", 1)[1]
    traits = op_traits(sch, base) + [FAMILIES[f] for f in families]
    mnemonic = sch.key
    traits = ", ".join(traits)
    lines = [f'def Aten_{cls} : Aten_Op<"{mnemonic}", [{traits}]> {{',
             f"  let summary = {quoted(sch.text)};"]

    used = set()
    ins = []
    for a in sch.arguments:
        n = value_name(a.name)
        if n in used:
            raise SystemExit(f"duplicate operand name {n!r} in {sch.text}")
        used.add(n)
        ins.append(f"{operand_decl(a, base)}:${n}")
    outs = []
    for i, r in enumerate(sch.returns):
        n = "result" if len(sch.returns) == 1 else f"result{i}"
        if n in used:
            n += "_"
        used.add(n)
        outs.append(f"{result_decl(r)}:${n}")

    lines.append(dag("arguments", "ins", ins))
    lines.append(dag("results", "outs", outs))
    lines.append("}")
    return "\n".join(lines)


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    if len(argv) != 5:
        sys.exit(f"usage: {argv[0]} SCHEMAS_TXT TYPED_OPS_TXT OUT_TD OUT_INC")
    schemas_path, typed_path, out_td, out_inc = argv[1:]

    schemas = []
    by_key = {}
    for n, line in read_lines(schemas_path):
        try:
            sch = parse_schema(line)
        except SchemaParseError as e:
            sys.exit(f"{schemas_path}:{n}: {e}")
        schemas.append(sch)
        # Only aten ops are typed; prim ops live in the prim dialect.
        if sch.qualified_name.startswith("aten::"):
            if sch.key in by_key:
                sys.exit(f"{schemas_path}:{n}: duplicate overload {sch.key}")
            by_key[sch.key] = sch

    typed = []
    families = {}
    errors = []
    seen = set()
    for n, line in read_lines(typed_path):
        where = f"{typed_path}:{n}"
        key, *tags = line.split()
        unknown = [t for t in tags if t not in FAMILIES]
        clash = next((group & set(tags)
                      for group in (set(SHAPE_RULES), PROMOTION_KINDS)
                      if len(group & set(tags)) > 1), None)
        shape = next((t for t in tags if t in SHAPE_RULES), None)
        kind = next((t for t in tags if t in PROMOTION_KINDS), None)
        sch = by_key.get(key)
        arguments = [a.name for a in sch.arguments] if sch else []
        if unknown:
            errors.append(f"{where}: unknown op family {unknown[0]!r} "
                          f"(known: {', '.join(sorted(FAMILIES))})")
        elif len(set(tags)) != len(tags):
            errors.append(f"{where}: a family named twice")
        elif clash:
            errors.append(f"{where}: at most one of "
                          f"{', '.join(sorted(clash))}")
        elif kind and not shape:
            errors.append(f"{where}: a promotion kind needs a shape rule "
                          f"({', '.join(SHAPE_RULES)})")
        elif kind and kind not in SHAPE_RULES[shape]:
            errors.append(f"{where}: {kind} does not refine {shape} "
                          f"(it takes {', '.join(sorted(SHAPE_RULES[shape]))})")
        elif sch is None:
            errors.append(f"{where}: no schema aten::{key} in {schemas_path}")
        elif shape == "along_dim" and "dim" not in arguments:
            errors.append(f"{where}: along_dim needs an argument named dim")
        elif (shape == "reduction" and "keepdim" in arguments
              and "dim" not in arguments):
            errors.append(f"{where}: a reduction with keepdim needs an "
                          f"argument named dim")
        elif "storage_view" in tags and not returns_view_of_self(sch):
            errors.append(f"{where}: storage_view needs a result that "
                          f"aliases self (Tensor(a) self -> Tensor(a))")
        elif key in seen:
            errors.append(f"{where}: {key} listed twice")
        elif sch.is_vararg or sch.is_varret:
            errors.append(f"{where}: {key} is varargs and cannot be typed")
        else:
            seen.add(key)
            typed.append(sch)
            families[key] = tags
    classes = {}
    for sch in typed:
        cls = class_name(sch)
        if cls in classes:
            errors.append(f"class name {cls} of {sch.key} clashes with "
                          f"{classes[cls].key}")
        classes[cls] = sch
    if errors:
        sys.exit("\n".join(errors))

    td = [
        "//===- AtenOps.gen.td - Typed aten ops, generated -------*- tablegen -*-===//",
        "//",
        "// One ODS op per overload listed in typed_ops.txt, generated by",
        "// gen_aten_ops.py from schemas.txt. Do not edit.",
        "//",
        "//===----------------------------------------------------------------------===//",
        "",
        "#ifndef TSIR_ATEN_OPS_GEN_TD",
        "#define TSIR_ATEN_OPS_GEN_TD",
        "",
        'include "AtenBase.td"',
        "",
    ]
    for cls, sch in classes.items():
        td.append(gen_op(sch, cls, families[sch.key]))
        td.append("")
    td.append("#endif // TSIR_ATEN_OPS_GEN_TD")
    write_if_changed(out_td, "\n".join(td) + "\n")

    inc = [
        "//===- AtenSchemas.gen.inc - Every aten/prim schema, generated -*- C++ -*-===//",
        "//",
        "// TSIR_SCHEMA(qualifiedName, overload, typedOpName, schemaText) for every",
        "// line of schemas.txt, in file order (so each name's overloads keep",
        "// registry order); typedOpName is \"\" for schemas without a typed op.",
        "// Generated by gen_aten_ops.py. Do not edit.",
        "//",
        "//===----------------------------------------------------------------------===//",
        "",
        "#ifndef TSIR_SCHEMA",
        "#error define TSIR_SCHEMA(qualifiedName, overload, typedOpName, text)",
        "#endif",
        "",
    ]
    typed_keys = {s.key for s in typed}
    for sch in schemas:
        is_typed = (sch.qualified_name.startswith("aten::")
                    and sch.key in typed_keys)
        op = "aten." + sch.key if is_typed else ""
        inc.append(f"TSIR_SCHEMA({quoted(sch.qualified_name)}, "
                   f"{quoted(sch.overload)}, {quoted(op)}, "
                   f"{quoted(sch.text)})")
    inc.append("")
    inc.append("#undef TSIR_SCHEMA")
    write_if_changed(out_inc, "\n".join(inc) + "\n")


if __name__ == "__main__":
    main(sys.argv)
