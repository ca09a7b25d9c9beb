#include "table/paged_entries.h"
#include "table/crc32c_fast.h"

#include <cassert>

#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void PagedEntryBuffer::ClosePage() {
  if (open_.empty()) return;
  index_.AddPage(prev_last_, page_first_);
  if (chunks_.empty() ||
      chunks_.back().size() >= kPagesPerChunk * kEntryPageBytes) {
    chunks_.emplace_back();
    chunks_.back().reserve(kPagesPerChunk * kEntryPageBytes);
  }
  open_.Finish(&chunks_.back());
  prev_last_ = last_key_;
}

void PagedEntryBuffer::Add(const Slice& key, const Slice& value) {
  assert(Fits(key, value));
  if (!open_.Fits(EntryPageEntryBytes(key, value))) ClosePage();
  if (open_.empty()) page_first_.assign(key.data(), key.size());
  open_.Add(key, value, EntryPageTag(hash_(key, seed_)));
  entry_bytes_ += EntryPageEntryBytes(key, value);
  last_key_.assign(key.data(), key.size());
  count_++;
}

void PagedEntryBuffer::ForEach(const Visit& visit) const {
  // The open page is encoded only when it closes: finish a copy.
  EntryPageBuilder open = open_;
  std::string last;
  if (!open.empty()) open.Finish(&last);
  auto visit_pages = [&](const std::string& pages) {
    for (size_t at = 0; at < pages.size(); at += kEntryPageBytes) {
      EntryPage page;
      if (!page.Parse(pages.data() + at)) return false;
      for (uint32_t i = 0; i < page.size(); ++i) {
        Slice k, v;
        if (!page.Entry(i, &k, &v) || !visit(k, v)) return false;
      }
    }
    return true;
  };
  for (const std::string& chunk : chunks_) {
    if (!visit_pages(chunk)) return;
  }
  visit_pages(last);
}

Status PagedEntryBuffer::Write(const Sink& sink, uint32_t* crc,
                               std::string* index) {
  assert(count_ > 0);
  ClosePage();
  *crc = 0;
  Status s;
  for (std::string& chunk : chunks_) {
    if (s.ok()) {
      *crc = Crc32cExtend(*crc, chunk.data(), chunk.size());
      s = sink(chunk);
    }
    std::string().swap(chunk);
  }
  chunks_.clear();
  *index = index_.Finish(last_key_);
  return s;
}

size_t PagedEntryBuffer::MemoryUsage() const {
  size_t bytes = index_.MemoryUsage() + 3 * kEntryPageBytes;
  for (const std::string& chunk : chunks_) bytes += chunk.capacity();
  return bytes;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
