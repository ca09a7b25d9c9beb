#include "table/inline_layout.h"

#include "table/inline_table_iterator.h"
#include "table/scratch_buffer.h"
#include "table/table_view.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status InlineLayout::Open(const TableView* view, const TableMeta& meta) {
  view_ = view;
  // The slots stay in the file (pages are checked as lookups reach them);
  // the directory's head comes into memory, checked.
  Status s = table_.Init(&view->file(), meta, view->icmp().user_comparator());
  if (!s.ok()) return s;
  table_.KeepPagesIn(view->block_cache(), view->block_cache_id());
  // Sample addresses are positions in the key order.
  SetSamples(view, meta.num_keys);
  return Status::OK();
}

uint64_t InlineLayout::HashOf(const Slice& user_key) const {
  return table_.key_ordered() ? table_.key_order().Home(user_key)
                              : view_->Hash(user_key);
}

Status InlineLayout::Get(const ParsedInternalKey& target, uint64_t hash,
                         Hint hint, const ReadUse& use,
                         GetContext* get_context) const {
  // Read in place with mmap; into the buffer, or the cache, without.
  ScratchBuffer buf(!view_->mmap());
  CachedBlock pin(use);
  bool found = false;
  Slice value;
  // One named result for every path (SaveCompactedPut's reason).
  Status s = table_.Find(target.user_key, hash, kVerifyReads, buf.get(),
                         &value, &found, hint, &pin);
  if (s.ok() && found) SaveCompactedPut(*view_, target, value, get_context, &s);
  return s;
}

InternalIterator* InlineLayout::NewIterator(Arena* arena, bool compaction,
                                            const ReadUse& use,
                                            const ScanAhead& ahead) const {
  return NewIteratorIn<InlineTableIterator>(arena, view_, this, compaction,
                                            ahead, use);
}

uint64_t InlineLayout::OffsetOf(const Slice& key) const {
  const SparseIndex* samples = nullptr;
  // Unreadable samples give no estimate; reads of them say why.
  if (!Samples(&samples).ok() || samples->size() == 0) return 0;
  // A key's share of the slots is its position in key order.
  const SectionHandle& slots = view_->meta().index;
  if (view_->icmp().Compare(key, samples->key(samples->size() - 1)) > 0) {
    return slots.end_with_trailer();  // the data size, as for a log
  }
  const uint64_t position = samples->SeekAddress(key);
  return slots.offset +
         static_cast<uint64_t>(static_cast<unsigned __int128>(position) *
                               slots.size / view_->meta().num_keys);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
