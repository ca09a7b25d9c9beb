#include "table/inline_table.h"

#include <algorithm>
#include <cstring>

#include "table/robinhood_format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void InlineShape::EncodeSlot(uint32_t dist, const Slice& key,
                             const Slice& value, char* slot) const {
  memset(slot, 0, slot_width());
  slot[0] = static_cast<char>(dist);
  if (var_key) slot[1] = static_cast<char>(key.size());
  memcpy(slot + key_at(), key.data(), key.size());
  if (var_value) slot[value_at() - 1] = static_cast<char>(value.size());
  memcpy(slot + value_at(), value.data(), value.size());
}

uint32_t OrderWidthFor(uint64_t slots) {
  uint32_t w = 1;
  while (w < 5 && (slots - 1) >> (8 * w) != 0) ++w;
  return w;
}

Status InlineTable::Damaged(const std::string& detail, uint64_t slot) const {
  return CorruptionAt(file_->file_name(), "inline slots", detail,
                      slots_offset_ + std::min(slot, geo_.slots) * width_);
}

Status InlineTable::Init(const SectionReader* file, const TableMeta& meta,
                         std::string&& directory_buf, const Slice& directory,
                         const Comparator* ucmp) {
  file_ = file;
  ucmp_ = ucmp;
  directory_offset_ = meta.block_table.offset;
  auto bad = [&](const std::string& what) {
    return CorruptionAt(file->file_name(), "inline directory", what,
                        meta.block_table.offset);
  };
  if (directory.size() < kInlineDirectoryHeader) return bad("too short");
  const char* p = directory.data();
  shape_.key_width = DecodeFixed32(p);
  shape_.value_width = DecodeFixed32(p + 4);
  const uint32_t bits = DecodeFixed32(p + 8);
  page_slots_ = DecodeFixed32(p + 12);
  order_width_ = DecodeFixed32(p + 16);
  shape_.var_key = bits & 1;
  shape_.var_value = bits & 2;
  key_ordered_ = bits & 4;
  if (shape_.key_width > kInlineMaxKeyWidth ||
      shape_.value_width > kInlineMaxValueWidth || (bits >> 3) != 0) {
    return bad("bad slot shape");
  }
  if (key_ordered_ != meta.key_ordered()) {
    return bad("key order disagrees with the meta block");
  }
  width_ = shape_.slot_width();
  geo_.capacity = meta.index_capacity;
  geo_.slots = meta.index_slots;
  geo_.max_displacement = meta.max_displacement;
  geo_.keys = meta.num_keys;
  num_keys_ = meta.num_keys;
  slots_offset_ = meta.index.offset;
  // The meta block checked slots >= capacity >= 1 and the displacement
  // against the overflow; sizes are checked against the section here,
  // division first so that nothing wraps.
  if (meta.index.size / width_ != geo_.slots ||
      meta.index.size % width_ != 0) {
    return bad("slots disagree with the section size");
  }
  if (geo_.max_displacement > kInlineMaxDisplacement) {
    return bad("displacement beyond the slot's range");
  }
  if (page_slots_ != shape_.page_slots()) return bad("bad page size");
  pages_ = (geo_.slots + page_slots_ - 1) / page_slots_;
  if (num_keys_ > geo_.slots) return bad("more keys than slots");
  Slice after_header(directory.data() + kInlineDirectoryHeader,
                     directory.size() - kInlineDirectoryHeader);
  if (key_ordered_) {
    // Seek trusts the slots to be in the order of this comparator's keys.
    if (strcmp(ucmp->Name(), BytewiseComparator()->Name()) != 0) {
      return Status::NotSupported(file->file_name() +
                                  ": key-ordered slots need the bytewise "
                                  "comparator, not " +
                                  ucmp->Name());
    }
    std::string why;
    if (!model_.DecodeFrom(&after_header, geo_.capacity, shape_.key_width,
                           &why)) {
      return bad(why);
    }
    if (order_width_ != 0) return bad("order array with key-ordered slots");
  }
  const uint64_t model_bytes =
      after_header.data() - directory.data() - kInlineDirectoryHeader;
  const uint64_t rest = after_header.size();
  if (rest / 4 < pages_) return bad("size disagrees with the pages");
  const uint64_t order_bytes = rest - pages_ * 4;
  if (order_width_ == 0) {
    if (geo_.slots > kInlineMaxSortedSlots) {
      return bad("too many slots for a file without an order array");
    }
    if (order_bytes != 0) return bad("size disagrees with the pages");
  } else if (order_width_ != OrderWidthFor(geo_.slots)) {
    return bad("order width");
  } else if (order_bytes / order_width_ != num_keys_ ||
             order_bytes % order_width_ != 0) {
    return bad("size disagrees with the pages and keys");
  }
  // The contents may lie in `directory_buf` (no mmap): keep that buffer,
  // whose heap block a move does not relocate.
  const bool in_buf =
      directory.data() >= directory_buf.data() &&
      directory.data() < directory_buf.data() + directory_buf.size();
  const size_t at = in_buf ? directory.data() - directory_buf.data() : 0;
  directory_buf_ = std::move(directory_buf);
  const char* base = in_buf ? directory_buf_.data() + at : directory.data();
  if (!in_buf && !file->mmap()) {
    // A file system that handed back its own memory: keep a copy.
    directory_buf_.assign(directory.data(), directory.size());
    base = directory_buf_.data();
  }
  crcs_ = base + kInlineDirectoryHeader + model_bytes;
  order_ = crcs_ + pages_ * 4;
  verified_.reset(new std::atomic<uint64_t>[pages_ / 64 + 1]());
  return Status::OK();
}

uint64_t InlineTable::OrderEntry(uint64_t position) const {
  const char* p = order_ + position * order_width_;
  uint64_t v = 0;
  for (uint32_t i = 0; i < order_width_; ++i) {
    v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  }
  return v;
}

Status InlineTable::SlotAt(uint64_t position, uint64_t* slot) const {
  if (position >= num_keys_) return Damaged("order position out of range", 0);
  if (order_width_ == 0) {
    const uint32_t* sorted = sorted_.load(std::memory_order_acquire);
    if (sorted == nullptr) {
      Status s = SortSlots();
      if (!s.ok()) return s;
      sorted = sorted_.load(std::memory_order_acquire);
    }
    *slot = sorted[position];  // SortSlots checked it
    return Status::OK();
  }
  const uint64_t v = OrderEntry(position);
  if (v >= geo_.slots) {
    return CorruptionAt(file_->file_name(), "inline directory",
                        "order array names slot " + std::to_string(v) +
                            " of " + std::to_string(geo_.slots),
                        directory_offset_);
  }
  *slot = v;
  return Status::OK();
}

Status InlineTable::VerifyPage(uint64_t page, const char* bytes) const {
  const uint64_t first = page * page_slots_;
  const uint64_t n = std::min<uint64_t>(page_slots_, geo_.slots - first);
  const uint32_t want = crc32c::Unmask(DecodeFixed32(crcs_ + page * 4));
  if (crc32c::Value(bytes, n * width_) != want) {
    return Damaged("checksum mismatch in page " + std::to_string(page), first);
  }
  return Status::OK();
}

Status InlineTable::ReadRun(uint64_t first, uint64_t count, bool verify,
                            std::string* buf, Slice* run) const {
  if (count == 0 || first >= geo_.slots || count > geo_.slots - first) {
    return Damaged("slot run out of range", first);
  }
  const uint64_t first_page = first / page_slots_;
  const uint64_t last_page = (first + count - 1) / page_slots_;
  if (file_->mmap()) {
    const char* slots = file_->mapping().data() + slots_offset_;
    if (verify) {
      for (uint64_t pg = first_page; pg <= last_page; ++pg) {
        if (IsVerified(pg)) continue;
        Status s = VerifyPage(pg, slots + pg * page_slots_ * width_);
        if (!s.ok()) return s;
        MarkVerified(pg);
      }
    }
    *run = Slice(slots + first * width_, count * width_);
    return Status::OK();
  }
  if (!verify) {
    return file_->ReadRange(slots_offset_ + first * width_, count * width_, buf,
                            run);
  }
  // Whole pages, each checked: what a verified read costs without mmap.
  const uint64_t start = first_page * page_slots_;
  const uint64_t end =
      std::min<uint64_t>((last_page + 1) * page_slots_, geo_.slots);
  Slice pages;
  Status s = file_->ReadRange(slots_offset_ + start * width_,
                              (end - start) * width_, buf, &pages);
  if (!s.ok()) return s;
  for (uint64_t pg = first_page; pg <= last_page; ++pg) {
    s = VerifyPage(pg, pages.data() + (pg - first_page) * page_slots_ * width_);
    if (!s.ok()) return s;
  }
  *run = Slice(pages.data() + (first - start) * width_, count * width_);
  return Status::OK();
}

Status InlineTable::DecodeSlot(const char* p, uint64_t slot, Slice* key,
                               Slice* value) const {
  if (p[0] == 0) return Damaged("an entry's slot is empty", slot);
  *key = shape_.KeyOf(p);
  const uint32_t vlen = shape_.var_value
                            ? static_cast<uint8_t>(p[shape_.value_at() - 1])
                            : shape_.value_width;
  if (key->size() > shape_.key_width || vlen > shape_.value_width) {
    return Damaged("length beyond the slot", slot);
  }
  *value = Slice(p + shape_.value_at(), vlen);
  return Status::OK();
}

void InlineTable::PrefetchHome(const Slice& user_key, uint64_t hash) const {
  // Without mmap a lookup reads the run into a buffer; a key wider than
  // the slots is answered without reading them (Find).
  if (!file_->mmap() || user_key.size() > shape_.key_width) return;
  const uint64_t home = Home(user_key, hash);
  if (home >= geo_.slots) return;
  const char* p = file_->mapping().data() + slots_offset_ + home * width_;
  __builtin_prefetch(p);
  __builtin_prefetch(p + 64);
}

void InlineTable::PrefetchSlot(uint64_t slot) const {
  if (!file_->mmap() || slot >= geo_.slots) return;
  __builtin_prefetch(file_->mapping().data() + slots_offset_ + slot * width_);
}

void InlineTable::PrefetchPosition(uint64_t position) const {
  if (!file_->mmap() || order_width_ == 0 || position >= num_keys_) return;
  const uint64_t slot = OrderEntry(position);
  if (slot >= geo_.slots) return;
  __builtin_prefetch(file_->mapping().data() + slots_offset_ + slot * width_);
}

Status InlineTable::Find(const Slice& user_key, uint64_t hash, bool verify,
                         std::string* buf, Slice* value, bool* found) const {
  *found = false;
  if (user_key.size() > shape_.key_width) return Status::OK();
  const uint64_t home = Home(user_key, hash);
  if (home >= geo_.slots) return Damaged("home past the slots", home);
  const uint64_t count = std::min<uint64_t>(geo_.max_displacement + uint64_t{1},
                                            geo_.slots - home);
  Slice run;
  Status s;
  if (!MappedRun(home, count, verify, &run)) {
    s = ReadRun(home, count, verify, buf, &run);
    if (!s.ok()) return s;
  }
  const char* p = run.data();
  const uint32_t kw = shape_.key_width;
  const uint32_t ka = shape_.key_at();
  for (uint64_t d = 0; d < count; ++d, p += width_) {
    const uint32_t dist = static_cast<uint8_t>(p[0]);
    // Empty, or an entry whose home is after ours: the key is not here.
    if (dist == 0 || dist - 1 < d) return Status::OK();
    if (dist - 1 != d) continue;  // its home is before ours
    if (shape_.var_key) {
      if (static_cast<uint8_t>(p[1]) != user_key.size() ||
          memcmp(p + ka, user_key.data(), user_key.size()) != 0) {
        continue;
      }
    } else if (user_key.size() != kw) {
      continue;
    } else if (kw == 8) {
      // The common 8-byte key in one compare, not a call to memcmp.
      uint64_t a, b;
      memcpy(&a, p + ka, 8);
      memcpy(&b, user_key.data(), 8);
      if (a != b) continue;
    } else if (memcmp(p + ka, user_key.data(), kw) != 0) {
      continue;
    }
    Slice k;
    s = DecodeSlot(p, home + d, &k, value);
    if (!s.ok()) return s;
    *found = true;
    return Status::OK();
  }
  return Status::OK();
}

Status InlineTable::SortSlots() const {
  std::lock_guard<std::mutex> lock(sort_mu_);
  if (sorted_.load(std::memory_order_acquire) != nullptr) return Status::OK();
  // Every page checked whatever the read options say: an order made from
  // damaged keys would be a wrong answer for every later iterator.
  std::string buf;
  Slice all;
  Status s = ReadRun(0, geo_.slots, /*verify=*/true, &buf, &all);
  if (!s.ok()) return s;
  std::unique_ptr<uint32_t[]> order(new uint32_t[num_keys_]);
  uint64_t n = 0;
  for (uint64_t slot = 0; slot < geo_.slots; ++slot) {
    const char* p = all.data() + slot * width_;
    if (p[0] == 0) continue;
    Slice k, v;
    s = DecodeSlot(p, slot, &k, &v);
    if (!s.ok()) return s;
    if (n == num_keys_) return Damaged("more entries than keys", slot);
    order[n++] = static_cast<uint32_t>(slot);
  }
  if (n != num_keys_) return Damaged("fewer entries than keys", geo_.slots);
  // Every used slot decoded above, so its key length is in range.
  auto key_of = [&](uint32_t slot) {
    return shape_.KeyOf(all.data() + uint64_t{slot} * width_);
  };
  std::sort(order.get(), order.get() + n, [&](uint32_t a, uint32_t b) {
    return ucmp_->Compare(key_of(a), key_of(b)) < 0;
  });
  for (uint64_t i = 1; i < n; ++i) {
    if (ucmp_->Compare(key_of(order[i - 1]), key_of(order[i])) == 0) {
      return Damaged("a key in two slots", order[i]);
    }
  }
  sorted_owner_ = std::move(order);
  sorted_.store(sorted_owner_.get(), std::memory_order_release);
  return Status::OK();
}

Status InlineTable::VerifyAll(std::string* buf) const {
  for (uint64_t pg = 0; pg < pages_; ++pg) {
    const uint64_t first = pg * page_slots_;
    const uint64_t n = std::min<uint64_t>(page_slots_, geo_.slots - first);
    Slice bytes;
    Status s = file_->ReadRange(slots_offset_ + first * width_, n * width_,
                                buf, &bytes);
    if (!s.ok()) return s;
    s = VerifyPage(pg, bytes.data());
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
