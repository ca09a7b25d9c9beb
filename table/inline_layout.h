// The inline layout (format version 2 on, meta block flag kInlineLayout):
// a file of compacted puts small enough for a slot keeps them in the slots
// of its Robin Hood table (inline_table.h) and has no log. A point lookup
// reads one run of slots; iterators walk the key order
// (inline_table_iterator.h). docs/format.md draws the sections; the meta
// block's `index` handle holds the slots, its `block_table` handle the
// directory (inline_directory.h).
#pragma once

#include <string>

#include "table/inline_table.h"
#include "table/layout.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class InlineLayout : public Layout {
 public:
  static constexpr const char* kIndexPart = "inline slots";
  static constexpr const char* kDirectoryPart = "inline directory";

  Status Open(const TableView* view, const TableMeta& meta) override;
  // Slots in key order are found by the key's rank, not a hash: there
  // the hash is the key's home.
  uint64_t HashOf(const Slice& user_key) const override;
  bool HashIsKeyHash() const override { return !table_.key_ordered(); }
  // The hint is the key's home plus one.
  Hint PrefetchHome(const Slice& user_key, uint64_t hash) const override {
    return table_.PrefetchHome(user_key, hash);
  }
  bool HomeInFile(const Slice& user_key, uint64_t hash, Hint hint,
                  uint64_t* offset, size_t* n) const override {
    return table_.HomeInFile(user_key, hash, hint, offset, n);
  }
  Status Get(const ParsedInternalKey& target, uint64_t hash, Hint hint,
             const ReadUse& use, GetContext* get_context) const override;
  InternalIterator* NewIterator(Arena* arena, bool compaction,
                                const ReadUse& use,
                                const ScanAhead& ahead) const override;
  bool ScansThroughCache() const override { return table_.caches_pages(); }
  uint64_t OffsetOf(const Slice& internal_key) const override;
  Status VerifyEntries(const ReadUse& use,
                       std::string* buf) const override {
    return table_.VerifyAll(use, buf);
  }
  size_t MemoryUsage() const override {
    return sizeof(*this) + table_.MemoryUsage() + SamplesMemoryUsage();
  }
  const InlineLayout* AsInline() const override { return this; }

  const InlineTable& table() const { return table_; }

 private:
  const TableView* view_ = nullptr;
  InlineTable table_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
