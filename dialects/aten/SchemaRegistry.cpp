//===- SchemaRegistry.cpp - TorchScript operator schemas ------------------===//
//
// The schema-string parser and the registry of every aten::/prim:: schema,
// whose raw strings come from the generated AtenSchemas.gen.inc table.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/SchemaRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <mutex>

using namespace tsir::aten;
using llvm::StringRef;
using Kind = SchemaType::Kind;

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

/// Recursive descent over torch's schema grammar (function_schema_parser /
/// SchemaTypeParser). Every method returns false after recording the first
/// error.
class Parser {
public:
  Parser(StringRef text, std::string &error) : s(text), error(error) {}

  bool parseSchema(Schema &schema);

private:
  StringRef s;
  size_t i = 0;
  std::string &error;

  bool fail(const llvm::Twine &what) {
    error = (what + " at column " + llvm::Twine(i) + " in '" + s + "'").str();
    return false;
  }
  void skipSpace() {
    while (i < s.size() && s[i] == ' ')
      ++i;
  }
  bool atChar(char c) const { return i < s.size() && s[i] == c; }
  bool peek(StringRef tok) {
    skipSpace();
    return s.substr(i).starts_with(tok);
  }
  bool accept(StringRef tok) {
    if (!peek(tok))
      return false;
    i += tok.size();
    return true;
  }
  bool expect(StringRef tok) {
    return accept(tok) || fail("expected '" + tok + "'");
  }
  bool parseIdent(StringRef &out);
  bool parseType(SchemaType &type);
  bool parseAlias(std::string &alias);
  bool parseDefault(std::string &value);
  bool parseArgument(SchemaArg &arg);
  bool parseReturn(SchemaArg &ret);
};

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }

bool Parser::parseIdent(StringRef &out) {
  skipSpace();
  if (i >= s.size() || !isIdentStart(s[i]))
    return fail("expected an identifier");
  size_t start = i;
  while (i < s.size() && isIdentChar(s[i]))
    ++i;
  out = s.slice(start, i);
  return true;
}

/// The text between `(` (already consumed) and `)`; annotations don't nest.
bool Parser::parseAlias(std::string &alias) {
  size_t end = s.find(')', i);
  if (end == StringRef::npos)
    return fail("unterminated alias annotation");
  alias = s.slice(i, end).trim().str();
  i = end + 1;
  return true;
}

/// The default as written, up to the `,` or `)` ending it at depth 0.
bool Parser::parseDefault(std::string &value) {
  skipSpace();
  size_t start = i;
  int depth = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c; ++i)
        if (s[i] == '\\')
          ++i;
      if (i >= s.size())
        return fail("unterminated string default");
    } else if (c == '[' || c == '(') {
      ++depth;
    } else if (c == ']' || c == ')') {
      if (depth == 0)
        break;
      --depth;
    } else if (c == ',' && depth == 0) {
      break;
    }
  }
  StringRef text = s.slice(start, i).trim();
  if (text.empty())
    return fail("empty default value");
  value = text.str();
  return true;
}

/// The kind of a base type name torch knows; nullopt for any other name,
/// which is a type variable.
std::optional<Kind> baseKind(StringRef name) {
  return llvm::StringSwitch<std::optional<Kind>>(name)
      .Case("Tensor", Kind::Tensor)
      .Case("int", Kind::Int)
      .Case("SymInt", Kind::Int)
      .Case("float", Kind::Float)
      .Case("bool", Kind::Bool)
      .Case("complex", Kind::Complex)
      .Case("str", Kind::Str)
      .Case("Dimname", Kind::Str)
      .Case("NoneType", Kind::None)
      .Case("None", Kind::None)
      .Case("Device", Kind::Device)
      .Case("Scalar", Kind::Number)
      .Case("Layout", Kind::Layout)
      .Case("ScalarType", Kind::ScalarType)
      .Case("MemoryFormat", Kind::MemoryFormat)
      .Case("Generator", Kind::Generator)
      .Case("Storage", Kind::Storage)
      .Case("Stream", Kind::Stream)
      .Case("Any", Kind::Any)
      .Case("AnyClassType", Kind::AnyClass)
      .Case("AnyEnumType", Kind::AnyEnum)
      .Case("QScheme", Kind::QScheme)
      .Case("Capsule", Kind::Capsule)
      .Case("ConstQuantizerPtr", Kind::Other)
      .Default(std::nullopt);
}

bool Parser::parseType(SchemaType &type) {
  skipSpace();
  if (atChar('(')) {
    ++i;
    type.kind = Kind::Tuple;
    while (!accept(")")) {
      if (!type.elements.empty() && !expect(","))
        return false;
      if (!parseType(type.elements.emplace_back()))
        return false;
    }
  } else {
    StringRef name;
    if (!parseIdent(name))
      return false;
    // Class types are dotted: __torch__.torch.classes.rnn.CellParamsBase.
    size_t start = i - name.size();
    while (atChar('.')) {
      ++i;
      StringRef part;
      if (!parseIdent(part))
        return false;
    }
    name = s.slice(start, i);

    std::optional<Kind> ctor;
    if (atChar('('))
      ctor = llvm::StringSwitch<std::optional<Kind>>(name)
                 .Case("Dict", Kind::Dict)
                 .Case("Future", Kind::Future)
                 .Case("RRef", Kind::RRef)
                 .Case("Union", Kind::Union)
                 .Case("Await", Kind::Await)
                 .Default(std::nullopt);
    if (ctor) {
      ++i;
      type.kind = *ctor;
      while (!accept(")")) {
        if (!type.elements.empty() && !expect(","))
          return false;
        if (!parseType(type.elements.emplace_back()))
          return false;
      }
    } else if (name.starts_with("__torch__.")) {
      type.kind = Kind::Class;
      type.name = name.str();
    } else {
      std::optional<Kind> kind = baseKind(name);
      type.kind = kind.value_or(Kind::TypeVar);
      // Keep the spelling where several map to one kind, so that str()
      // gives back what the schema says.
      if (!kind || name == "SymInt" || name == "Dimname" || name == "None" ||
          type.kind == Kind::Other)
        type.name = name.str();
    }
  }
  // An annotation right after the base: `Tensor(a!)`, `t(*)`.
  if (atChar('(')) {
    ++i;
    if (!parseAlias(type.alias))
      return false;
  }
  // Postfix `[]`, `[N]` (a list may carry its own annotation, `t[](a!)`),
  // and `?`.
  while (true) {
    if (atChar('[')) {
      ++i;
      int size = -1;
      if (!atChar(']')) {
        size = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
          size = size * 10 + (s[i++] - '0');
      }
      if (!atChar(']'))
        return fail("expected ']'");
      ++i;
      SchemaType list;
      list.kind = Kind::List;
      list.fixedListSize = size;
      list.elements.push_back(std::move(type));
      type = std::move(list);
      if (atChar('(')) {
        ++i;
        if (!parseAlias(type.alias))
          return false;
      }
    } else if (atChar('?')) {
      ++i;
      SchemaType opt;
      opt.kind = Kind::Optional;
      opt.elements.push_back(std::move(type));
      type = std::move(opt);
    } else {
      return true;
    }
  }
}

/// Fills the alias-derived fields of an argument or return from its type.
void deriveAliasInfo(SchemaArg &arg) {
  // isWrite: any `!` at any level. aliasSet: the outermost annotation,
  // searching the value itself before what it contains.
  const SchemaType *outer = nullptr;
  llvm::SmallVector<const SchemaType *, 4> work{&arg.type};
  while (!work.empty()) {
    const SchemaType *t = work.front();
    work.erase(work.begin());
    if (!t->alias.empty()) {
      if (!outer)
        outer = t;
      if (StringRef(t->alias).contains('!'))
        arg.isWrite = true;
    }
    for (const SchemaType &e : t->elements)
      work.push_back(&e);
  }
  if (!outer)
    return;
  auto [before, after] = StringRef(outer->alias).split("->");
  arg.aliasSet = before.trim().rtrim('!').trim().str();
  arg.aliasAfterSet = after.trim().str();
}

bool Parser::parseArgument(SchemaArg &arg) {
  if (!parseType(arg.type))
    return false;
  StringRef name;
  if (!parseIdent(name))
    return false;
  arg.name = name.str();
  if (accept("=")) {
    arg.hasDefault = true;
    if (!parseDefault(arg.defaultValue))
      return false;
  }
  deriveAliasInfo(arg);
  return true;
}

bool Parser::parseReturn(SchemaArg &ret) {
  if (!parseType(ret.type))
    return false;
  skipSpace();
  if (i < s.size() && isIdentStart(s[i])) {
    StringRef name;
    parseIdent(name);
    ret.name = name.str();
  }
  deriveAliasInfo(ret);
  return true;
}

bool Parser::parseSchema(Schema &schema) {
  StringRef ns, name;
  if (!parseIdent(ns) || !expect("::") || !parseIdent(name))
    return false;
  schema.qualifiedName = (ns + "::" + name).str();
  // The overload follows the name with no space.
  if (atChar('.')) {
    ++i;
    StringRef overload;
    if (!parseIdent(overload))
      return false;
    schema.overload = overload.str();
  }

  if (!expect("("))
    return false;
  bool kwargOnly = false, first = true;
  while (!accept(")")) {
    if (!first && !expect(","))
      return false;
    first = false;
    if (accept("...")) {
      schema.isVararg = true;
    } else if (accept("*")) {
      kwargOnly = true;
    } else {
      SchemaArg &arg = schema.arguments.emplace_back();
      arg.kwargOnly = kwargOnly;
      if (!parseArgument(arg))
        return false;
    }
  }

  if (!expect("->"))
    return false;
  if (accept("...")) {
    schema.isVarret = true;
  } else if (peek("(")) {
    // `-> (A, B a)` lists returns; a return may itself be a tuple type, as
    // in `-> ((str, t)[])`.
    ++i;
    while (!accept(")")) {
      if (!schema.returns.empty() && !expect(","))
        return false;
      if (!parseReturn(schema.returns.emplace_back()))
        return false;
    }
  } else if (!parseReturn(schema.returns.emplace_back())) {
    return false;
  }
  skipSpace();
  if (i != s.size())
    return fail("unexpected trailing text");
  schema.text = s.str();
  return true;
}

} // namespace

std::optional<Schema> tsir::aten::parseSchema(StringRef text,
                                              std::string &error) {
  Schema schema;
  if (!Parser(text, error).parseSchema(schema))
    return std::nullopt;
  return schema;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static const char *canonicalSpelling(Kind kind) {
  switch (kind) {
  case Kind::Tensor:
    return "Tensor";
  case Kind::Int:
    return "int";
  case Kind::Float:
    return "float";
  case Kind::Bool:
    return "bool";
  case Kind::Complex:
    return "complex";
  case Kind::Str:
    return "str";
  case Kind::None:
    return "NoneType";
  case Kind::Device:
    return "Device";
  case Kind::Number:
    return "Scalar";
  case Kind::Layout:
    return "Layout";
  case Kind::ScalarType:
    return "ScalarType";
  case Kind::MemoryFormat:
    return "MemoryFormat";
  case Kind::Generator:
    return "Generator";
  case Kind::Storage:
    return "Storage";
  case Kind::Stream:
    return "Stream";
  case Kind::Any:
    return "Any";
  case Kind::AnyClass:
    return "AnyClassType";
  case Kind::AnyEnum:
    return "AnyEnumType";
  case Kind::QScheme:
    return "QScheme";
  case Kind::Capsule:
    return "Capsule";
  case Kind::Dict:
    return "Dict";
  case Kind::Union:
    return "Union";
  case Kind::Future:
    return "Future";
  case Kind::RRef:
    return "RRef";
  case Kind::Await:
    return "Await";
  case Kind::TypeVar:
  case Kind::Class:
  case Kind::Other:
  case Kind::List:
  case Kind::Tuple:
  case Kind::Optional:
    return "";
  }
  llvm_unreachable("unknown schema type kind");
}

std::string SchemaType::str() const {
  std::string out;
  auto joined = [&](const char *open) {
    out += open;
    for (size_t k = 0; k < elements.size(); ++k) {
      if (k)
        out += ", ";
      out += elements[k].str();
    }
    out += ')';
  };
  switch (kind) {
  case Kind::List:
    out = elements[0].str() + "[";
    if (fixedListSize >= 0)
      out += std::to_string(fixedListSize);
    out += ']';
    break;
  case Kind::Optional:
    return elements[0].str() + "?";
  case Kind::Tuple:
    joined("(");
    break;
  case Kind::Dict:
  case Kind::Union:
  case Kind::Future:
  case Kind::RRef:
  case Kind::Await:
    out = canonicalSpelling(kind);
    joined("(");
    break;
  default:
    out = name.empty() ? canonicalSpelling(kind) : name;
    break;
  }
  if (!alias.empty())
    out += "(" + alias + ")";
  return out;
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

namespace {

struct Row {
  const char *qualifiedName, *overload, *typedOpName, *text;
};

const Row kRows[] = {
#define TSIR_SCHEMA(QUALIFIED, OVERLOAD, TYPED, TEXT)                          \
  {QUALIFIED, OVERLOAD, TYPED, TEXT},
#include "tsir/Dialect/Aten/AtenSchemas.gen.inc"
};

/// One operator name: its rows in registry order, parsed on first lookup so
/// that startup only indexes strings.
struct NameEntry {
  StringRef name;
  llvm::SmallVector<unsigned, 4> rows;
  std::once_flag parsed;
  std::vector<Schema> schemas;
  std::vector<const Schema *> pointers;
};

} // namespace

struct SchemaRegistry::Impl {
  std::vector<std::unique_ptr<NameEntry>> entries; // schemas.txt order
  llvm::StringMap<NameEntry *> byName;
  /// Typed op name -> its entry and its index among the entry's rows.
  llvm::StringMap<std::pair<NameEntry *, unsigned>> byTypedOp;

  static void ensureParsed(NameEntry &entry) {
    std::call_once(entry.parsed, [&entry] {
      entry.schemas.reserve(entry.rows.size());
      for (unsigned row : entry.rows) {
        std::string error;
        std::optional<Schema> schema = parseSchema(kRows[row].text, error);
        // schemas.txt is checked in and fully parsed by the tests, so a
        // failure here is a build defect, not bad user input.
        if (!schema)
          llvm::report_fatal_error(llvm::Twine("bad built-in schema: ") +
                                   error);
        schema->typedOpName = kRows[row].typedOpName;
        entry.schemas.push_back(std::move(*schema));
      }
      for (const Schema &schema : entry.schemas)
        entry.pointers.push_back(&schema);
    });
  }
};

SchemaRegistry::SchemaRegistry() : impl(std::make_unique<Impl>()) {
  for (unsigned row = 0; row < std::size(kRows); ++row) {
    StringRef name = kRows[row].qualifiedName;
    NameEntry *&entry = impl->byName[name];
    if (!entry) {
      impl->entries.push_back(std::make_unique<NameEntry>());
      entry = impl->entries.back().get();
      entry->name = name;
    }
    StringRef typed = kRows[row].typedOpName;
    if (!typed.empty())
      impl->byTypedOp[typed] = {entry, unsigned(entry->rows.size())};
    entry->rows.push_back(row);
  }
}

SchemaRegistry::~SchemaRegistry() = default;

const SchemaRegistry &SchemaRegistry::get() {
  static const SchemaRegistry registry;
  return registry;
}

llvm::ArrayRef<const Schema *>
SchemaRegistry::lookup(StringRef qualifiedName) const {
  auto it = impl->byName.find(qualifiedName);
  if (it == impl->byName.end())
    return {};
  Impl::ensureParsed(*it->second);
  return it->second->pointers;
}

const Schema *SchemaRegistry::lookupTypedOp(StringRef mlirOpName) const {
  auto it = impl->byTypedOp.find(mlirOpName);
  if (it == impl->byTypedOp.end())
    return nullptr;
  auto [entry, index] = it->second;
  Impl::ensureParsed(*entry);
  return entry->pointers[index];
}

std::vector<StringRef> SchemaRegistry::nearestNames(StringRef qualifiedName,
                                                    size_t count) const {
  // Edit distance on the part after `::`, within the same namespace; a
  // third of the name's length is as far as a typo plausibly goes.
  auto [ns, name] = qualifiedName.split("::");
  unsigned limit = std::max<unsigned>(1, name.size() / 3);
  std::vector<std::pair<unsigned, StringRef>> scored;
  for (const auto &entry : impl->entries) {
    auto [entryNs, entryName] = StringRef(entry->name).split("::");
    if (entryNs != ns)
      continue;
    unsigned distance = name.edit_distance(entryName, true, limit);
    if (distance <= limit)
      scored.push_back({distance, entry->name});
  }
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<StringRef> out;
  for (const auto &[distance, candidate] : scored) {
    if (out.size() == count)
      break;
    out.push_back(candidate);
  }
  return out;
}

std::vector<StringRef> SchemaRegistry::names() const {
  std::vector<StringRef> out;
  out.reserve(impl->entries.size());
  for (const auto &entry : impl->entries)
    out.push_back(entry->name);
  return out;
}
