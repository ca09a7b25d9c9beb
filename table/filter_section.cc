#include "table/filter_section.h"

#include <cassert>
#include <cstring>

#include "rocksdb/convenience.h"
#include "rocksdb/table.h"
#include "table/block_based/filter_policy_internal.h"
#include "table/robinhood_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// The compatibility name every built-in policy reports (the reader of one
// reads them all). Asked of a policy rather than spelled out: RocksDB
// declares the constant in a header whose shape changed in 8.x.
const std::string& BuiltinName() {
  static const std::string name =
      std::unique_ptr<const FilterPolicy>(NewBloomFilterPolicy(10))
          ->CompatibilityName();
  return name;
}

FilterBitsBuilder* NewBitsBuilder(const FilterPolicy& policy) {
  BlockBasedTableOptions defaults;
  // optimize_filters_for_memory (on by default from 9.2) sizes filters by
  // what malloc_usable_size says of the block cache's allocation: nothing
  // we allocate, and it would make a file's bytes depend on the host's
  // release and allocator. Off, the same keys give the same filter on
  // every host.
  defaults.optimize_filters_for_memory = false;
  return policy.GetBuilderWithContext(FilterBuildingContext(defaults));
}
}  // namespace

Status ResolveFilterPolicy(const std::string& value, FilterSpec* spec) {
  *spec = FilterSpec();
  if (value.empty() || value == kNoFilterPolicy) return Status::OK();
  auto refuse = [&](const std::string& why) {
    return Status::InvalidArgument("RobinHoodTable option filter_policy=" +
                                   value + ": " + why);
  };
  static const std::string kHashPrefix = "hashbloom:";
  if (value.compare(0, kHashPrefix.size(), kHashPrefix) == 0) {
    const std::string digits = value.substr(kHashPrefix.size());
    uint64_t bits = 0;
    bool ok = !digits.empty() && digits.size() <= 3;
    for (char c : digits) {
      ok = ok && c >= '0' && c <= '9';
      bits = bits * 10 + static_cast<uint64_t>(c - '0');
    }
    if (!ok || bits < kMinHashFilterBits || bits > kMaxHashFilterBits) {
      return refuse("bits a key must be an integer from " +
                    std::to_string(kMinHashFilterBits) + " to " +
                    std::to_string(kMaxHashFilterBits));
    }
    spec->hash_bits = static_cast<uint32_t>(bits);
    return Status::OK();
  }
  ConfigOptions config;
  std::shared_ptr<const FilterPolicy> p;
  Status s = FilterPolicy::CreateFromString(config, value, &p);
  if (!s.ok()) return refuse(s.ToString());
  if (p == nullptr) return refuse("names no filter policy");
  if (BuiltinName() != p->CompatibilityName()) {
    return refuse("only hashbloom:<bits> and RocksDB's built-in filters "
                  "(bloomfilter:<bits>, ribbonfilter:<bits>) are supported");
  }
  // A policy that builds nothing (bits per key below 0.5, or the read-only
  // "rocksdb.BuiltinBloomFilter") would write files without a filter while
  // the options say they have one.
  std::unique_ptr<FilterBitsBuilder> probe(NewBitsBuilder(*p));
  if (probe == nullptr) return refuse("builds no filter");
  spec->policy = std::move(p);
  return Status::OK();
}

FilterSectionBuilder::FilterSectionBuilder(FilterSpec spec)
    : policy_(std::move(spec.policy)) {
  if (spec.hash_bits != 0) {
    hashes_.reset(new HashFilterBuilder(spec.hash_bits));
    compatibility_name_ = kHashFilterName;
    policy_name_ = kHashFilterName;
  } else {
    assert(policy_ != nullptr);
    bits_.reset(NewBitsBuilder(*policy_));
    compatibility_name_ = policy_->CompatibilityName();
    policy_name_ = policy_->Name();
  }
}

FilterSectionBuilder::~FilterSectionBuilder() = default;

Status FilterSectionBuilder::AddKey(const Slice& user_key, uint64_t hash) {
#ifndef NDEBUG
  assert(keys_ == 0 || Slice(last_key_) != user_key);
  last_key_.assign(user_key.data(), user_key.size());
#endif
  ++keys_;
  if (hashes_ != nullptr) return hashes_->Add(hash);
  bits_->AddKey(user_key);
  return Status::OK();
}

size_t FilterSectionBuilder::MemoryUsage() const {
  return hashes_ != nullptr ? hashes_->MemoryUsage() : keys_ * 8;
}

Status FilterSectionBuilder::Spill(SpillDir* dir, size_t budget) {
  return hashes_ != nullptr ? hashes_->Spill(dir, budget) : Status::OK();
}

Status FilterSectionBuilder::Finish(
    uint64_t offset, const std::function<Status(const Slice&)>& sink,
    uint64_t* filter_bytes) {
  const uint32_t pad = static_cast<uint32_t>(
      (kFilterAlignment - offset % kFilterAlignment) % kFilterAlignment);
  Status s = sink(std::string(pad, '\0'));
  if (!s.ok()) return s;
  if (hashes_ != nullptr) {
    *filter_bytes = hashes_->FilterBytes();
    if (*filter_bytes > UINT32_MAX) {
      return Status::NotSupported("RobinHoodTable: filter over 4 GiB");
    }
    s = hashes_->Finish(sink);
  } else {
    std::unique_ptr<const char[]> buf;
    const Slice filter = bits_->Finish(&buf, &s);
    if (!s.ok()) return s;
    *filter_bytes = filter.size();
    if (*filter_bytes > UINT32_MAX) {
      return Status::NotSupported("RobinHoodTable: filter over 4 GiB");
    }
    s = sink(filter);
  }
  if (!s.ok()) return s;
  std::string tail = compatibility_name_;
  PutFixed32(&tail, pad);
  PutFixed32(&tail, static_cast<uint32_t>(compatibility_name_.size()));
  return sink(tail);
}

FilterSection::FilterSection() = default;
FilterSection::~FilterSection() = default;

namespace {
// The name a section's last bytes give, or false if they give none.
bool NameOf(const Slice& contents, Slice* name) {
  const uint64_t size = contents.size();
  if (size < kFilterSectionTail) return false;
  const uint32_t name_len = DecodeFixed32(contents.data() + size - 4);
  if (name_len > kMaxFilterPolicyName ||
      uint64_t{name_len} + kFilterSectionTail > size) {
    return false;
  }
  *name = Slice(contents.data() + size - kFilterSectionTail - name_len,
                name_len);
  return true;
}
}  // namespace

Status FilterSection::Open(const SectionReader& file, const SectionHandle& h) {
  if (h.size == 0) {
    // No filter; the trailer of its empty contents is still checked.
    std::string buf;
    Slice contents;
    return file.ReadSection(h, "filter", &buf, &contents);
  }
  if (h.size > file.file_size()) {
    return CorruptionAt(file.file_name(), "filter", "larger than the file",
                        h.offset);
  }
  const size_t n = h.size + kTrailerSize;
  Slice raw;
  std::unique_ptr<char[]> owned;
  size_t owned_size = 0;
  Status s;
  if (file.mmap()) {
    s = file.ReadRange(h.offset, n, nullptr, &raw);
  } else {
    // Read straight into the memory probes read, placed so that the
    // filter, aligned in the file, is aligned there too. Read into a
    // buffer and copied, the buffers' bytes stayed in the heap: a DB of 47
    // files of 2.7 MB filters held 55 MB more than its readers.
    owned_size = n + 2 * kFilterAlignment;
    owned.reset(new char[owned_size]);
    const uintptr_t base = reinterpret_cast<uintptr_t>(owned.get());
    char* dst = owned.get() +
                (kFilterAlignment - base % kFilterAlignment) % kFilterAlignment +
                h.offset % kFilterAlignment;
    s = file.ReadRangeInto(h.offset, n, dst, &raw);
    if (s.ok() && raw.data() != dst) {
      memmove(dst, raw.data(), raw.size());
      raw = Slice(dst, raw.size());
    }
  }
  if (!s.ok()) return s;
  const Slice contents(raw.data(), h.size);
  Slice name;
  const bool lazy = file.mmap() && NameOf(contents, &name) &&
                    name == Slice(kHashFilterName);
  if (!lazy) {
    s = VerifyTrailer(contents, raw.data() + h.size, file.file_name(),
                      "filter", h.offset);
    if (!s.ok()) return s;
  }
  copy_ = std::move(owned);
  copy_size_ = owned_size;
  return Init(contents, h.offset, /*in_place=*/true, file.file_name(), !lazy);
}

Status FilterSection::Init(const Slice& contents, uint64_t offset,
                           bool in_place, const std::string& file,
                           bool checked) {
  if (contents.empty()) return Status::OK();  // no filter
  auto bad = [&](const char* what) {
    return CorruptionAt(file, "filter", what, offset);
  };
  const uint64_t size = contents.size();
  if (size < kFilterSectionTail) return bad("too short");
  const uint32_t pad = DecodeFixed32(contents.data() + size - 8);
  const uint32_t name_len = DecodeFixed32(contents.data() + size - 4);
  if (pad >= kFilterAlignment || name_len > kMaxFilterPolicyName ||
      pad + uint64_t{name_len} + kFilterSectionTail > size) {
    return bad("bad lengths");
  }
  if ((offset + pad) % kFilterAlignment != 0) return bad("misaligned");
  for (uint32_t i = 0; i < pad; ++i) {
    if (contents[i] != 0) return bad("padding not zeros");
  }
  const uint64_t filter_size = size - pad - name_len - kFilterSectionTail;
  // RocksDB's filter readers take 32-bit lengths.
  if (filter_size > UINT32_MAX) return bad("filter over 4 GiB");
  name_.assign(contents.data() + pad + filter_size, name_len);
  file_ = file;
  filter_offset_ = offset + pad;
  // Only a hash filter checks itself (Open checks every other whole).
  assert(checked || name_ == kHashFilterName);
  const char* at = contents.data() + pad;
  if (!in_place) {
    // An aligned copy, as in the mapping: one cache line a probe.
    copy_size_ = filter_size + kFilterAlignment;
    copy_.reset(new char[copy_size_]);
    const uintptr_t base = reinterpret_cast<uintptr_t>(copy_.get());
    char* aligned = copy_.get() + (kFilterAlignment - base % kFilterAlignment) %
                                      kFilterAlignment;
    memcpy(aligned, at, filter_size);
    at = aligned;
  }
  filter_ = Slice(at, filter_size);
  if (name_ == kHashFilterName) {
    const char* why = nullptr;
    if (!hash_filter_.Init(filter_, checked, &why)) return bad(why);
    hashed_ = true;
    seen_resident_.Reset(filter_size / kPageBytes + 1);
  } else if (name_ == BuiltinName()) {
    reader_.reset(BuiltinFilterPolicy::GetBuiltinFilterBitsReader(filter_));
  }
  return Status::OK();
}

Status FilterSection::Damaged(uint64_t hash) const {
  return CorruptionAt(file_, "filter",
                      "checksum mismatch in page " +
                          std::to_string(PageOf(hash)),
                      filter_offset_ + hash_filter_.PageOffsetOf(hash));
}

bool FilterSection::BuiltinMayMatch(const Slice& user_key) const {
  assert(reader_ != nullptr);
  return reader_->MayMatch(user_key);
}

void FilterSection::BuiltinKeysMayMatch(int n, Slice** keys,
                                        bool* may_match) const {
  assert(reader_ != nullptr);
  reader_->MayMatch(n, keys, may_match);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
