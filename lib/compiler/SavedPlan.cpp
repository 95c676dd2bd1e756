//===- SavedPlan.cpp - A CPU plan's machine code as bytes -----------------===//
//
// See SavedPlan.h. After the magic line, a hash of the rest (a flipped
// bit inside an object would otherwise reach the linker), then the fields.
// Every number is a little-endian int64 (the objects are for this host, so
// the byte order is never foreign); every string and object is its length,
// then its bytes.
//
//===----------------------------------------------------------------------===//

#include "SavedPlan.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

using namespace tsir;

static constexpr llvm::StringLiteral kMagic = "tsir saved plan 1\n";

namespace {

class Writer {
public:
  void number(int64_t value) {
    char bytes[8];
    llvm::support::endian::write64le(bytes, uint64_t(value));
    out.append(bytes, 8);
  }
  void bytes(llvm::StringRef value) {
    number(int64_t(value.size()));
    out.append(value.data(), value.size());
  }
  void slots(const std::vector<tsir_abi_slot> &slots) {
    number(int64_t(slots.size()));
    for (const tsir_abi_slot &slot : slots) {
      number(slot.kind);
      number(slot.dtype);
      number(slot.rank);
      number(slot.source);
    }
  }
  std::string out;
};

/// Reads what Writer wrote; the first read past the end (or a count larger
/// than the bytes left could hold) makes `failed` true and every later
/// read return zeros.
class Reader {
public:
  explicit Reader(llvm::StringRef in) : in(in) {}

  int64_t number() {
    if (failed || in.size() < 8) {
      failed = true;
      return 0;
    }
    int64_t value = int64_t(llvm::support::endian::read64le(in.data()));
    in = in.drop_front(8);
    return value;
  }
  /// A count of items of at least `itemBytes` each.
  size_t count(size_t itemBytes) {
    int64_t value = number();
    if (value < 0 || uint64_t(value) > in.size() / itemBytes) {
      failed = true;
      return 0;
    }
    return size_t(value);
  }
  llvm::StringRef bytes() {
    size_t size = count(1);
    llvm::StringRef value = in.take_front(size);
    in = in.drop_front(size);
    return value;
  }
  std::vector<tsir_abi_slot> slots() {
    std::vector<tsir_abi_slot> slots(count(4 * 8));
    for (tsir_abi_slot &slot : slots) {
      slot.kind = number();
      slot.dtype = number();
      slot.rank = number();
      slot.source = number();
    }
    return slots;
  }

  llvm::StringRef in;
  bool failed = false;
};

} // namespace

std::string tsir::writeSavedPlan(const SavedPlan &plan) {
  Writer w;
  const CallSignature &signature = plan.signature;
  w.number(signature.device);
  w.slots(signature.arguments);
  w.slots(signature.results);
  w.number(int64_t(signature.weightNames.size()));
  for (const std::string &name : signature.weightNames)
    w.bytes(name);
  w.number(int64_t(signature.writeback.size()));
  for (int64_t index : signature.writeback)
    w.number(index);
  w.bytes(plan.dataLayout);
  w.number(plan.threaded);
  w.number(int64_t(plan.objects.size()));
  for (const llvm::SmallVector<char, 0> &object : plan.objects)
    w.bytes(llvm::StringRef(object.data(), object.size()));
  Writer framed;
  framed.out = kMagic.str();
  framed.number(int64_t(llvm::xxh3_64bits(w.out)));
  return framed.out + w.out;
}

rt::StatusOr<SavedPlan> tsir::readSavedPlan(llvm::StringRef bytes) {
  if (!bytes.consume_front(kMagic))
    return rt::Status::error("not a saved plan of this tsir");
  Reader r(bytes);
  uint64_t hash = uint64_t(r.number());
  if (r.failed || hash != llvm::xxh3_64bits(r.in))
    return rt::Status::error("a saved plan cut short or corrupt");
  SavedPlan plan;
  CallSignature &signature = plan.signature;
  signature.device = r.number();
  signature.arguments = r.slots();
  signature.results = r.slots();
  signature.weightNames.resize(r.count(8));
  for (std::string &name : signature.weightNames)
    name = r.bytes().str();
  signature.writeback.resize(r.count(8));
  for (int64_t &index : signature.writeback)
    index = r.number();
  plan.dataLayout = r.bytes().str();
  plan.threaded = r.number() != 0;
  plan.objects.resize(r.count(8));
  for (llvm::SmallVector<char, 0> &object : plan.objects) {
    llvm::StringRef text = r.bytes();
    object.assign(text.begin(), text.end());
  }
  if (r.failed || !r.in.empty())
    return rt::Status::error("a saved plan cut short or corrupt");
  if (plan.objects.empty())
    return rt::Status::error("a saved plan without code");
  return plan;
}
