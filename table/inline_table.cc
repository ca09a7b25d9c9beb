#include "table/inline_table.h"
#include "table/crc32c_fast.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "table/inline_directory.h"
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

SlotPages SlotPages::Of(const InlineShape& shape, uint32_t format_version) {
  SlotPages p;
  p.width = shape.slot_width();
  p.crc_in_page = format_version >= kFormatVersionAlignedPages;
  if (p.crc_in_page) {
    // W is at most 1 + 1 + 255 + 1 + 255 = 513: 7 slots a page at least.
    p.page_slots = (kInlinePageBytes - 4) / p.width;
    p.stride = kInlinePageBytes;
  } else {
    p.page_slots = std::max<uint32_t>(1, kInlinePageBytes / p.width);
    p.stride = p.page_slots * p.width;
  }
  // Exact for every 32-bit slot number (Lemire, Kaser and Kurz, "Faster
  // remainder by direct computation", 2019).
  if (p.page_slots > 1) p.page_magic = UINT64_MAX / p.page_slots + 1;
  return p;
}

uint64_t SlotPages::SectionBytes(uint64_t slots) const {
  const uint64_t rem = slots % page_slots;
  const unsigned __int128 bytes =
      static_cast<unsigned __int128>(slots / page_slots) * stride +
      (rem == 0 ? 0 : rem * width + (crc_in_page ? 4 : 0));
  return bytes >> 64 ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

namespace {
// Without mmap, makes `*contents` (read into `*buf`) lie in `*buf`: a file
// system may hand back its own memory, and what is decoded from them
// points into them for as long as the table is open.
void KeepInBuffer(const SectionReader& file, std::string* buf,
                  Slice* contents) {
  if (file.mmap() || contents->data() == buf->data()) return;
  buf->assign(contents->data(), contents->size());
  *contents = Slice(*buf);
}
}  // namespace

Status InlineTable::Damaged(const std::string& detail, uint64_t slot) const {
  return CorruptionAt(file_->file_name(), "inline slots", detail,
                      slots_offset_ + (slot < geo_.slots
                                           ? paging_.SlotOffset(slot)
                                           : paging_.SectionBytes(geo_.slots)));
}

Status InlineTable::Init(const SectionReader* file, const TableMeta& meta,
                         const Comparator* ucmp) {
  file_ = file;
  ucmp_ = ucmp;
  directory_ = meta.block_table;
  // Files whose pages check themselves open with the directory's head
  // alone; older ones with the whole directory, checked by its trailer.
  const bool head_only = meta.format_version >= kFormatVersionAlignedPages;
  Slice contents;
  Status s =
      head_only
          ? file->ReadRange(directory_.offset,
                            std::min<uint64_t>(directory_.size,
                                               kInlineDirectoryMaxHead),
                            &directory_buf_, &contents)
          : file->ReadSection(directory_, "inline directory", &directory_buf_,
                              &contents);
  if (!s.ok()) return s;
  KeepInBuffer(*file, &directory_buf_, &contents);
  InlineDirectory dir;
  s = dir.DecodeFrom(contents, meta, file->file_name());
  if (!s.ok()) return s;
  if (dir.key_ordered &&
      strcmp(ucmp->Name(), BytewiseComparator()->Name()) != 0) {
    // Seek trusts the slots to be in the order of this comparator's keys.
    return Status::NotSupported(file->file_name() +
                                ": key-ordered slots need the bytewise "
                                "comparator, not " +
                                ucmp->Name());
  }
  shape_ = dir.shape;
  key_ordered_ = dir.key_ordered;
  paging_ = dir.paging();
  order_width_ = dir.order_width;
  model_ = std::move(dir.model);
  crcs_ = dir.crcs_in_pages() ? nullptr : dir.page_crcs.data();
  order_at_ = dir.head_bytes;
  // Only a whole directory read with its trailer checked (before version
  // 5) gives the order array at open: a head read may hold some or all of
  // it, unchecked, and LoadOrder reads it checked instead.
  if (!head_only && !dir.order.empty()) {
    order_.store(dir.order.data(), std::memory_order_release);
  }
  width_ = paging_.width;
  geo_.capacity = meta.index_capacity;
  geo_.slots = meta.index_slots;
  geo_.max_displacement = meta.max_displacement;
  geo_.keys = meta.num_keys;
  pages_ = paging_.Pages(geo_.slots);
  num_keys_ = meta.num_keys;
  slots_offset_ = meta.index.offset;
  verified_.Reset(pages_);
  return Status::OK();
}

uint64_t InlineTable::OrderEntry(const char* order, uint64_t position) const {
  assert(order_width_ != 0 && position < num_keys_);
  const char* p = order + position * order_width_;
  uint64_t v = 0;
  for (uint32_t i = 0; i < order_width_; ++i) {
    v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  }
  return v;
}

Status InlineTable::LoadOrder(const char** order) const {
  std::lock_guard<std::mutex> lock(sort_mu_);
  const char* loaded = order_.load(std::memory_order_acquire);
  if (loaded == nullptr) {
    // The whole directory, checked by its trailer, once.
    Slice contents;
    Status s = file_->ReadSection(directory_, "inline directory", &order_buf_,
                                  &contents);
    if (!s.ok()) return s;
    KeepInBuffer(*file_, &order_buf_, &contents);
    // DecodeFrom checked that the order array fills the section after
    // the head: num_keys_ entries of order_width_ bytes.
    loaded = contents.data() + order_at_;
    order_.store(loaded, std::memory_order_release);
  }
  *order = loaded;
  return Status::OK();
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
  const char* order = order_.load(std::memory_order_acquire);
  if (order == nullptr) {
    Status s = LoadOrder(&order);
    if (!s.ok()) return s;
  }
  const uint64_t v = OrderEntry(order, position);
  if (v >= geo_.slots) {
    return CorruptionAt(file_->file_name(), "inline directory",
                        "order array names slot " + std::to_string(v) +
                            " of " + std::to_string(geo_.slots),
                        directory_.offset);
  }
  *slot = v;
  return Status::OK();
}

Status InlineTable::VerifyPage(uint64_t page, const char* bytes) const {
  const uint64_t first = page * paging_.page_slots;
  uint64_t covered = paging_.SlotsIn(page, geo_.slots) * width_;
  uint32_t want;
  if (paging_.crc_in_page) {
    covered = paging_.PageBytes(page, geo_.slots) - 4;
    want = crc32c::Unmask(DecodeFixed32(bytes + covered));
  } else {
    want = crc32c::Unmask(DecodeFixed32(crcs_ + page * 4));
  }
  if (Crc32c(bytes, covered) != want) {
    return Damaged("checksum mismatch in page " + std::to_string(page), first);
  }
  return Status::OK();
}

Status InlineTable::ReadRun(uint64_t first, uint64_t count, bool verify,
                            std::string* buf, Slice* run, CachedBlock* pin,
                            const ReadUse& use) const {
  if (count == 0 || first >= geo_.slots || count > geo_.slots - first) {
    return Damaged("slot run out of range", first);
  }
  const uint64_t ps = paging_.page_slots;
  const uint64_t first_page = first / ps;
  const uint64_t last_page = (first + count - 1) / ps;
  // Slots of pages with gaps between them (CRCs, padding) are gathered.
  const bool gather = paging_.crc_in_page && first_page != last_page;
  assert(buf != nullptr || count == 1);
  // The bytes of pages [first_page, last_page] from the first page's
  // start, as far as they are needed.
  Slice pages;
  const uint64_t pages_at = paging_.PageOffset(first_page);
  const ReadUse& io = pin != nullptr ? pin->use() : use;
  if (file_->mmap()) {
    const char* slots = file_->mapping().data() + slots_offset_;
    if (verify) {
      for (uint64_t pg = first_page; pg <= last_page; ++pg) {
        if (verified_.Test(pg)) continue;
        Status s = VerifyPage(pg, slots + paging_.PageOffset(pg));
        if (!s.ok()) return s;
        verified_.Set(pg);
      }
    }
    pages = Slice(slots + pages_at,
                  paging_.SlotOffset(first + count - 1) + width_ - pages_at);
  } else if (pin != nullptr && cache_ != nullptr && verify &&
             first_page == last_page) {
    const uint64_t page_bytes = paging_.PageBytes(first_page, geo_.slots);
    Status s = pin->Fetch(cache_, cache_id_, first_page, page_bytes,
                          /*from_file=*/true, [&](Slice* read) {
                            Status r = file_->ReadRange(
                                slots_offset_ + pages_at, page_bytes, buf,
                                read, io);
                            return r.ok() ? VerifyPage(first_page, read->data())
                                          : r;
                          },
                          &pages);
    if (!s.ok()) return s;
  } else if (io.no_io) {
    return CachedBlock::NeedsRead();
  } else if (!verify && !gather) {
    return file_->ReadRange(slots_offset_ + paging_.SlotOffset(first),
                            count * width_, buf, run, io);
  } else {
    // Whole pages, each checked: what a verified read costs without mmap.
    const uint64_t end =
        verify ? paging_.PageOffset(last_page) +
                     paging_.PageBytes(last_page, geo_.slots)
               : paging_.SlotOffset(first + count - 1) + width_;
    Status s = file_->ReadRange(slots_offset_ + pages_at, end - pages_at, buf,
                                &pages, io);
    if (!s.ok()) return s;
    for (uint64_t pg = first_page; verify && pg <= last_page; ++pg) {
      s = VerifyPage(pg, pages.data() + paging_.PageOffset(pg) - pages_at);
      if (!s.ok()) return s;
    }
  }
  if (!gather) {
    *run = Slice(pages.data() + paging_.SlotOffset(first) - pages_at,
                 count * width_);
    return Status::OK();
  }
  std::string slots;
  slots.reserve(count * width_);
  for (uint64_t i = first; i < first + count;) {
    const uint64_t n = std::min(first + count, (i / ps + 1) * ps) - i;
    slots.append(pages.data() + paging_.SlotOffset(i) - pages_at, n * width_);
    i += n;
  }
  buf->swap(slots);
  *run = Slice(*buf);
  return Status::OK();
}

Status InlineTable::ReadPages(uint64_t first, uint64_t count, bool verify,
                              std::string* buf, Slice* run,
                              const ReadUse& use) const {
  if (count == 0 || first >= pages_ || count > pages_ - first) {
    return Damaged("page run out of range", first * paging_.page_slots);
  }
  const uint64_t last = first + count - 1;
  const uint64_t at = paging_.PageOffset(first);
  const uint64_t end =
      paging_.PageOffset(last) + paging_.PageBytes(last, geo_.slots);
  Status s = file_->ReadRange(slots_offset_ + at, end - at, buf, run, use);
  for (uint64_t pg = first; s.ok() && verify && pg <= last; ++pg) {
    s = VerifyPage(pg, run->data() + paging_.PageOffset(pg) - at);
  }
  return s;
}

bool InlineTable::LookupPage(uint64_t page, CachedBlock* pin,
                             Slice* contents) const {
  return cache_ != nullptr && page < pages_ &&
         pin->Lookup(cache_, cache_id_, page,
                     paging_.PageBytes(page, geo_.slots), contents);
}

void InlineTable::KeepPages(uint64_t first, uint64_t count,
                            const Slice& run) const {
  if (cache_ == nullptr) return;
  const uint64_t at = paging_.PageOffset(first);
  for (uint64_t pg = first; pg < first + count; ++pg) {
    CachedBlock::Keep(cache_, cache_id_, pg,
                      Slice(run.data() + paging_.PageOffset(pg) - at,
                            paging_.PageBytes(pg, geo_.slots)));
  }
}

Status InlineTable::DecodeSlot(const char* p, uint64_t slot, Slice* key,
                               Slice* value) const {
  if (p[0] == 0) return Damaged("an entry's slot is empty", slot);
  *key = shape_.KeyOf(p);
  if (key->size() > shape_.key_width || !ValueOf(p, value)) {
    return Damaged("length beyond the slot", slot);
  }
  return Status::OK();
}

bool InlineTable::HomeInFile(const Slice& user_key, uint64_t hash,
                             uint64_t known_home, uint64_t* offset,
                             size_t* n) const {
  Slice stored;
  if (!Stored(user_key, &stored)) return false;
  const uint64_t home = known_home != 0 ? known_home - 1 : Home(hash);
  if (home >= geo_.slots) return false;
  *offset = slots_offset_ + paging_.SlotOffset(home);
  *n = width_;
  return true;
}

void InlineTable::PrefetchSlot(uint64_t slot) const {
  if (!file_->mmap() || slot >= geo_.slots) return;
  __builtin_prefetch(file_->mapping().data() + slots_offset_ +
                     paging_.SlotOffset(slot));
}

void InlineTable::PrefetchPosition(uint64_t position) const {
  if (!file_->mmap() || order_width_ == 0 || position >= num_keys_) return;
  const char* order = order_.load(std::memory_order_acquire);
  if (order == nullptr) return;
  const uint64_t slot = OrderEntry(order, position);
  if (slot >= geo_.slots) return;
  __builtin_prefetch(file_->mapping().data() + slots_offset_ +
                     paging_.SlotOffset(slot));
}

Status InlineTable::FindInSlots(const Slice& stored, uint64_t hash,
                                bool verify, std::string* buf, Slice* value,
                                bool* found, uint64_t known_home,
                                CachedBlock* pin) const {
  const uint64_t home = known_home != 0 ? known_home - 1 : Home(hash);
  const char* hit = nullptr;
  uint64_t hit_slot = home;
  // Many hits of a mapped file lie in their home slot (a key-ordered
  // file of numbered keys: all), on a page already checked: taken from
  // the mapping as it lies, without the walk (some 50 instructions).
  Slice at_home;
  if (home < geo_.slots && MappedRun(home, 1, verify, &at_home) &&
      static_cast<uint8_t>(at_home[0]) == 1 &&
      HoldsKey(at_home.data(), stored)) {
    hit = at_home.data();
  }
  auto holds_key = [&](const char* p, uint64_t slot) {
    if (!HoldsKey(p, stored)) return false;
    hit = p;
    hit_slot = slot;
    return true;
  };
  // Every return is `s`, so it is made where the caller takes it: a
  // Status moved on every hit is some 25 instructions.
  Status s = hit != nullptr
                 ? Status::OK()
                 : Probe(home, verify, buf, holds_key, nullptr, pin);
  if (s.ok() && hit != nullptr) {
    // The slot holds the key, so it is used and its key length in range
    // (what DecodeSlot checks besides): only the value's length is left.
    if (ValueOf(hit, value)) {
      *found = true;
    } else {
      s = Damaged("length beyond the slot", hit_slot);
    }
  }
  return s;
}

Status InlineTable::SortSlots() const {
  std::lock_guard<std::mutex> lock(sort_mu_);
  if (sorted_.load(std::memory_order_acquire) != nullptr) return Status::OK();
  // Damage found once is found again, each time by reading every slot: a
  // seek starts afresh (layout_iterator.h), so say it again from memory.
  if (sort_damage_ != nullptr) {
    return CorruptionAt(sort_damage_->file, sort_damage_->part.c_str(),
                        sort_damage_->detail, sort_damage_->offset);
  }
  Status s = SortSlotsLocked();
  const CorruptionRecord* damage = CorruptionFields(s);
  if (damage != nullptr) sort_damage_.reset(new CorruptionRecord(*damage));
  return s;
}

Status InlineTable::SortSlotsLocked() const {
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

Status InlineTable::VerifyAll(const ReadUse& use, std::string* buf) const {
  for (uint64_t pg = 0; pg < pages_; ++pg) {
    Slice bytes;
    Status s = file_->ReadRange(slots_offset_ + paging_.PageOffset(pg),
                                paging_.PageBytes(pg, geo_.slots), buf,
                                &bytes, use);
    if (!s.ok()) return s;
    s = VerifyPage(pg, bytes.data());
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
