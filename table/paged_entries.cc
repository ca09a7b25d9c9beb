#include "table/paged_entries.h"
#include "table/crc32c_fast.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// Hands each entry of `sample` (varint32 key and value lengths, key,
// value; as PagedEntryBuffer::Add writes them) to `visit`, until it
// returns false. Returns whether every entry was visited.
template <typename Visit>
bool ForEachEncoded(const std::string& sample, const Visit& visit) {
  const char* p = sample.data();
  const char* end = p + sample.size();
  while (p < end) {
    uint32_t klen = 0, vlen = 0;
    p = GetVarint32Ptr(p, end, &klen);
    p = GetVarint32Ptr(p, end, &vlen);
    if (!visit(Slice(p, klen), Slice(p + klen, vlen))) return false;
    p += klen + vlen;
  }
  return true;
}
}  // namespace

uint32_t PagedEntryBuffer::ChoosePageBytes(const std::vector<uint32_t>& sizes,
                                           bool whole) {
  // The bytes each size would take, packing as EntryPageBuilder does.
  uint64_t bytes[kEntryPageSizes] = {};
  uint64_t best = UINT64_MAX;
  for (int s = 0; s < kEntryPageSizes; ++s) {
    const uint64_t page = uint64_t{kEntryPageMinBytes} << s;
    uint64_t pages = 0, used = 0, n = 0;
    for (uint32_t e : sizes) {
      if (n > 0 && !EntryPageFits(page, used, n, e)) {
        pages++;
        used = n = 0;
      }
      used += e;
      n++;
    }
    bytes[s] = pages * page;
    if (n > 0) {
      bytes[s] += whole ? page
                        : used + n * kEntryPageTailPerEntry + kEntryPageFixedTail;
    }
    best = std::min(best, bytes[s]);
  }
  for (int s = 0; s < kEntryPageSizes; ++s) {
    if (bytes[s] <= best + best / 16) return kEntryPageMinBytes << s;
  }
  return kEntryPageMinBytes;
}

void PagedEntryBuffer::PageSample(bool whole) {
  assert(sampling_);
  sampling_ = false;
  open_ = EntryPageBuilder(ChoosePageBytes(sample_sizes_, whole));
  std::string sample;
  sample.swap(sample_);
  std::vector<uint32_t>().swap(sample_sizes_);
  ForEachEncoded(sample, [this](const Slice& key, const Slice& value) {
    AddToPage(key, value, hash_(key, seed_));
    return true;
  });
}

void PagedEntryBuffer::ClosePage() {
  if (open_.empty()) return;
  index_.AddPage(prev_last_, page_first_);
  const size_t page_bytes = open_.page_bytes();
  if (spilled_ != nullptr || stream_ != nullptr) {
    page_.resize(page_bytes);
    AddPageCrc(open_.Finish(&page_[0]));
    Status s = stream_ != nullptr ? (*stream_)(page_) : spilled_->Append(page_);
    if (stream_ != nullptr) streamed_++;
    if (!s.ok() && status_.ok()) status_ = s;
    prev_last_ = last_key_;
    return;
  }
  if (chunks_.empty() || chunks_.back().room() < page_bytes) {
    // Small chunks divide a huge one (powers of two), so the small ones
    // end where a huge one would start; not before 8 MiB, so that the
    // last chunk's unused room stays within a quarter of the pages.
    const size_t bytes = chunk_bytes_ < 4 * BuildChunk::kHugeBytes
                             ? kPagesPerChunk * page_bytes
                             : BuildChunk::kHugeBytes;
    chunks_.emplace_back(bytes);
    chunk_bytes_ += bytes;
  }
  AddPageCrc(open_.Finish(chunks_.back().Extend(page_bytes)));
  prev_last_ = last_key_;
}

void PagedEntryBuffer::AddPageCrc(uint32_t page_crc) {
  // The pages' CRC from theirs, instead of a second pass over their bytes.
  crc_ = crc32c::Crc32cCombine(crc_, page_crc, open_.page_bytes());
}

void PagedEntryBuffer::AddToPage(const Slice& key, const Slice& value,
                                 uint64_t hash) {
  if (!open_.Fits(EntryPageEntryBytes(key, value))) ClosePage();
  if (open_.empty()) page_first_.assign(key.data(), key.size());
  open_.Add(key, value, EntryPageTag(hash));
  last_key_.assign(key.data(), key.size());
}

void PagedEntryBuffer::Add(const Slice& key, const Slice& value,
                           uint64_t hash) {
  assert(Fits(key, value));
  const uint32_t bytes = EntryPageEntryBytes(key, value);
  entry_bytes_ += bytes;
  count_++;
  if (!sampling_) {
    AddToPage(key, value, hash);
    return;
  }
  PutVarint32(&sample_, static_cast<uint32_t>(key.size()));
  PutVarint32(&sample_, static_cast<uint32_t>(value.size()));
  sample_.append(key.data(), key.size());
  sample_.append(value.data(), value.size());
  sample_sizes_.push_back(bytes);
  if (sample_.size() >= kPageSizeSample) PageSample(false);
}

Status PagedEntryBuffer::PassHeld(const Sink& sink) {
  Status s = status_;
  if (spilled_ != nullptr && s.ok()) s = spilled_->ForEachPiece(sink);
  spilled_.reset();
  for (BuildChunk& chunk : chunks_) {
    if (s.ok()) s = sink(Slice(chunk.data(), chunk.size()));
    chunk = BuildChunk();
  }
  chunks_.clear();
  chunk_bytes_ = 0;
  return s;
}

Status PagedEntryBuffer::StreamTo(const Sink& sink) {
  assert(!sampling_ && stream_ == nullptr);
  Status s = PassHeld(sink);
  streamed_ = index_.pages();
  stream_.reset(new Sink(sink));
  if (!s.ok() && status_.ok()) status_ = s;
  return status_;
}

Status PagedEntryBuffer::Spill(SpillDir* dir) {
  if (spilled_ != nullptr || stream_ != nullptr) return status_;
  spilled_.reset(new SpillFile(dir));
  for (BuildChunk& chunk : chunks_) {
    Status s = spilled_->Append(Slice(chunk.data(), chunk.size()));
    if (!s.ok() && status_.ok()) status_ = s;
    chunk = BuildChunk();
  }
  chunks_.clear();
  chunk_bytes_ = 0;
  return status_;
}

Status PagedEntryBuffer::ForEach(const Visit& visit) {
  assert(stream_ == nullptr);
  if (!status_.ok()) return status_;
  if (sampling_) {
    ForEachEncoded(sample_, visit);
    return Status::OK();
  }
  // The open page is encoded only when it closes: finish a copy.
  EntryPageBuilder open = open_;
  std::string last;
  if (!open.empty()) open.Finish(&last);
  const uint32_t page_bytes = open_.page_bytes();
  auto visit_pages = [&](const Slice& pages) {
    for (size_t at = 0; at < pages.size(); at += page_bytes) {
      EntryPage page;
      if (!page.Parse(pages.data() + at, page_bytes)) return false;
      for (uint32_t i = 0; i < page.size(); ++i) {
        Slice k, v;
        if (!page.Entry(i, &k, &v) || !visit(k, v)) return false;
      }
    }
    return true;
  };
  if (spilled_ != nullptr) {
    bool more = true;
    Status s = spilled_->ForEachRecord(
        [page_bytes](const Slice& in) -> size_t {
          return in.size() >= page_bytes ? page_bytes : 0;
        },
        [&](const Slice& page) {
          more = visit_pages(page);
          return more ? Status::OK() : Status::Aborted();
        });
    if (!more) return Status::OK();
    if (!s.ok()) return s;
  } else {
    for (const BuildChunk& chunk : chunks_) {
      if (!visit_pages(Slice(chunk.data(), chunk.size()))) return Status::OK();
    }
  }
  visit_pages(last);
  return Status::OK();
}

void PagedEntryBuffer::Close() {
  assert(count_ > 0);
  if (sampling_) PageSample(true);
  ClosePage();
}

Status PagedEntryBuffer::Write(const Sink& sink, uint32_t* crc,
                               std::string* index) {
  Close();
  *crc = crc_;
  Status s = PassHeld(sink);
  *index = index_.Finish(last_key_);
  return s;
}

size_t PagedEntryBuffer::MemoryUsage() const {
  size_t bytes = index_.MemoryUsage() + 3 * size_t{open_.page_bytes()} +
                 sample_.capacity() +
                 sample_sizes_.capacity() * sizeof(uint32_t);
  bytes += chunk_bytes_;
  if (spilled_ != nullptr) bytes += SpillFile::kBufferBytes + page_.capacity();
  return bytes;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
