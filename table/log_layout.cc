#include "table/log_layout.h"

#include "table/robinhood_format.h"
#include "table/robinhood_table_iterator.h"
#include "table/scratch_buffer.h"
#include "table/table_view.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status LogLayout::Open(const TableView* view, const TableMeta& part) {
  view_ = view;
  meta_ = part;
  const TableMeta& meta = meta_;
  const SectionReader& file = view->file();
  const std::string& fname = view->file_name();
  // Hash index: in place with mmap, else in memory.
  Slice slots;
  Status s = file.ReadSection(meta.index, kIndexPart, &index_buf_, &slots);
  if (!s.ok()) return s;
  IndexGeometry geo;
  geo.capacity = meta.index_capacity;
  geo.slots = meta.index_slots;
  geo.address_bits = meta.address_bits;
  geo.max_displacement = meta.max_displacement;
  geo.keys = meta.num_keys;
  index_.Init(slots.data(), geo);

  std::string buf;
  Slice contents;
  s = file.ReadSection(meta.block_table, kDirectoryPart, &buf, &contents);
  if (s.ok()) {
    s = blocks_.Init(contents, meta.log_offset, meta.log_file_bytes,
                     meta.log_logical_bytes, meta.log_block_size, fname,
                     meta.block_table.offset);
  }
  if (!s.ok()) return s;
  // The mean entry sizes a lookup's first read; any value is safe.
  const uint64_t entry_bytes =
      meta.num_entries == 0 ? 0 : meta.log_logical_bytes / meta.num_entries;
  log_.reset(new LogBlockReader(&file, &blocks_, view->block_cache(),
                                view->block_cache_id(), entry_bytes));
  SetSamples(view, meta.log_logical_bytes);
  return Status::OK();
}

uint64_t LogLayout::HashOf(const Slice& user_key) const {
  return view_->Hash(user_key);
}

void LogLayout::PrefetchAfterHome(const Slice& /*user_key*/, uint64_t hash,
                                  Hint /*hint*/) const {
  // With mmap the first candidate entry is addressable: bring it in too.
  if (!view_->mmap()) return;
  const uint64_t address = FirstCandidate(hash);
  if (address < meta_.log_logical_bytes) {
    __builtin_prefetch(view_->file().mapping().data() + FileOffsetOf(address));
  }
}

uint64_t LogLayout::FirstCandidate(uint64_t hash) const {
  uint64_t first = meta_.log_logical_bytes;
  index_.Probe(hash, [&](uint64_t address) {
    first = address;
    return true;
  });
  return first;
}

bool LogLayout::HomeInFile(const Slice& /*user_key*/, uint64_t hash,
                           Hint /*hint*/, uint64_t* offset,
                           size_t* n) const {
  const uint64_t first = FirstCandidate(hash);
  // No candidate, or a damaged slot (which the lookup reports).
  if (first >= meta_.log_logical_bytes) return false;
  const BlockLocation loc = blocks_.Get(blocks_.Find(first));
  *offset = loc.file_offset;
  *n = static_cast<size_t>(loc.contents_bytes + kTrailerSize);
  return true;
}

Status LogLayout::FindNewest(const Slice& user_key, uint64_t hash, bool verify,
                             std::string* buf, EntryRef* newest, bool* found,
                             CachedBlock* pin) const {
  Status s;
  *found = false;
  index_.Probe(hash, [&](uint64_t address) {
    if (address >= meta_.log_logical_bytes) {
      s = CorruptionAt(view_->file_name(), kIndexPart,
                       "slot address " + std::to_string(address) +
                           " past the log",
                       meta_.index.offset);
      return true;
    }
    s = log_->ReadEntry(address, verify, buf, newest, pin);
    if (!s.ok()) return true;
    if (newest->entry.user_key != user_key) return false;  // tag collision
    *found = true;
    return true;
  });
  return s;
}

Status LogLayout::Get(const ParsedInternalKey& target, uint64_t hash,
                      Hint /*hint*/, const ReadUse& use,
                      GetContext* get_context) const {
  ScratchBuffer buf;     // `at` may lie in it until we return
  CachedBlock pin(use);  // holds `at`'s block, if cached, until we return
  bool found = false;
  EntryRef at;
  Status s = FindNewest(target.user_key, hash, kVerifyReads, buf.get(), &at,
                        &found, &pin);
  if (!s.ok() || !found) return s;

  // Versions of a key are adjacent, newest first; they may run on into the
  // following blocks.
  LogEntry& entry = at.entry;
  size_t b = at.block;
  uint64_t next = at.next_address;
  std::string block_buf;
  // The found entry's block, if the read had it whole.
  const BlockLocation found_in = blocks_.Get(b);
  uint64_t block_start = found_in.logical_offset;
  Slice contents;
  if (at.block_contents.size() == found_in.logical_bytes) {
    contents = at.block_contents;
  }
  while (true) {
    const SequenceNumber seq = view_->Surfaced(entry.sequence);
    if (seq <= target.sequence) {
      Status read_status;
      if (!SaveEntry(*view_, get_context,
                     ParsedInternalKey(entry.user_key, seq, entry.type),
                     entry.value, &read_status)) {
        return read_status;
      }
    }
    BlockLocation loc = blocks_.Get(b);
    if (next == loc.logical_offset + loc.logical_bytes) {
      if (++b == blocks_.num_blocks()) return Status::OK();
      contents = Slice();
      loc = blocks_.Get(b);
    }
    if (contents.empty()) {
      // `entry` is spent: the pin may move on.
      s = log_->ReadBlockCached(b, kVerifyReads, &block_buf, &pin, &contents);
      if (!s.ok()) return s;
      block_start = loc.logical_offset;
    }
    const char* p = contents.data() + (next - block_start);
    const char* end =
        DecodeLogEntry(p, contents.data() + contents.size(), &entry);
    if (end == nullptr) {
      return log_->Damaged(b, "entry does not decode", next - block_start);
    }
    if (entry.user_key != target.user_key) return Status::OK();
    next += static_cast<uint64_t>(end - p);
  }
}

InternalIterator* LogLayout::NewIterator(Arena* arena, bool compaction,
                                         const ReadUse& use,
                                         const ScanAhead& ahead) const {
  // As BlockBasedTable's: compactions read around the cache.
  return NewIteratorIn<RobinHoodTableIterator>(arena, view_, this, ahead,
                                               !compaction, use);
}

bool LogLayout::ScansThroughCache() const {
  return view_->block_cache() != nullptr;
}

uint64_t LogLayout::FileOffsetOf(uint64_t address) const {
  const TableMeta& meta = meta_;
  if (address >= meta.log_logical_bytes) return meta.log_end();
  const BlockLocation loc = blocks_.Get(blocks_.Find(address));
  return loc.file_offset + (address - loc.logical_offset);
}

uint64_t LogLayout::OffsetOf(const Slice& key) const {
  const SparseIndex* samples = nullptr;
  // Unreadable samples give no estimate; reads of them say why.
  if (!Samples(&samples).ok() || samples->size() == 0) return 0;
  if (view_->icmp().Compare(key, samples->key(samples->size() - 1)) > 0) {
    // Past the last record: somewhere in the tail; count the tail as past.
    return meta_.log_end();
  }
  return FileOffsetOf(samples->SeekAddress(key));
}

Status LogLayout::VerifyEntries(const ReadUse& use, std::string* buf) const {
  for (size_t b = 0; b < blocks_.num_blocks(); ++b) {
    Status s = log_->VerifyBlock(b, use, buf);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

size_t LogLayout::MemoryUsage() const {
  return sizeof(*this) + index_buf_.capacity() + blocks_.MemoryUsage() +
         SamplesMemoryUsage() + (log_ ? log_->MemoryUsage() : 0);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
