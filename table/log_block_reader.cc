#include "table/log_block_reader.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <memory>

#include "table/robinhood_format.h"
#include "table/robinhood_uncompress.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// Bytes a lookup reads first for an entry, if the block has them: at least
// this, and a quarter more than the file's mean entry, so that one read (or
// one partial decode) serves most entries whatever their size. A longer
// entry costs a second read of exactly its rest.
constexpr size_t kEntryReadBytes = 512;
constexpr uint64_t kMaxEntryReadBytes = 64 << 10;

size_t EntryReadBytes(uint64_t entry_bytes) {
  const uint64_t mean = std::min(entry_bytes, kMaxEntryReadBytes);
  return static_cast<size_t>(
      std::max<uint64_t>(kEntryReadBytes, mean + mean / 4));
}
}  // namespace

LogBlockReader::LogBlockReader(const SectionReader* file,
                               const BlockTable* blocks, Cache* cache,
                               uint64_t cache_id, uint64_t entry_bytes)
    : file_(file),
      blocks_(blocks),
      cache_(cache),
      cache_id_(cache_id),
      cache_base_(blocks->file_start()),
      entry_read_bytes_(EntryReadBytes(entry_bytes)),
      verified_(blocks->num_blocks()) {}

Status LogBlockReader::Damaged(size_t b, const std::string& detail,
                               uint64_t in_block) const {
  // Inside a compressed block only the block's own offset means anything.
  const BlockLocation loc = blocks_->Get(b);
  return CorruptionAt(file_->file_name(), "log block", detail,
                      loc.file_offset + (loc.compressed() ? 0 : in_block));
}

Status LogBlockReader::ReadBlock(size_t b, bool verify, std::string* buf,
                                 Slice* contents, size_t prefix,
                                 const ReadUse& use) const {
  const BlockLocation loc = blocks_->Get(b);
  Slice raw;
  Status s = file_->ReadRange(loc.file_offset, loc.contents_bytes + kTrailerSize,
                              buf, &raw, use);
  if (!s.ok()) return s;
  return DecodeBlock(b, raw, verify, buf, contents, prefix);
}

Status LogBlockReader::DecodeBlock(size_t b, const Slice& raw, bool verify,
                                   std::string* buf, Slice* contents,
                                   size_t prefix) const {
  const BlockLocation loc = blocks_->Get(b);
  *contents = Slice(raw.data(), loc.contents_bytes);
  const char* trailer = raw.data() + loc.contents_bytes;
  const bool verified = file_->mmap() && verified_.Test(b);
  // A compressed block is read at its trailer (the type) and then from
  // its start (the codec): ask for the start now, so the two cache misses
  // overlap instead of following each other.
  if (loc.compressed()) __builtin_prefetch(raw.data());
  // A verified raw block in the mapping needs nothing more: its type byte
  // was checked with its checksum, and not reading the trailer again saves
  // a lookup a cache line (often a page) outside its entry.
  if (verified && !loc.compressed()) return Status::OK();
  if (!verified && (verify || loc.compressed())) {
    Status s = VerifyTrailer(*contents, trailer, file_->file_name(),
                             "log block", loc.file_offset);
    if (!s.ok()) return s;
    verified_.Set(b);
  }
  const auto type = static_cast<CompressionType>(trailer[0]);
  if (!loc.compressed()) {
    // The type byte is trusted only once its checksum is.
    if (verify && type != kNoCompression) {
      return Damaged(b, "compression type disagrees with its size");
    }
    return Status::OK();
  }
  if (type == kNoCompression) {
    return Damaged(b, "compression type disagrees with its size");
  }
  // Decompress into `*buf`, reusing its memory, unless `*contents` lies in
  // it (a positioned read): then beside it, and swap.
  const bool in_buf = contents->data() >= buf->data() &&
                      contents->data() < buf->data() + buf->size();
  Status s;
  Slice decoded;
  if (in_buf) {
    std::string out;
    s = UncompressPrefix(type, *contents, loc.logical_bytes, prefix, &out,
                         &decoded);
    buf->swap(out);  // a short string's bytes move: point at them anew
    decoded = Slice(buf->data(), decoded.size());
  } else {
    s = UncompressPrefix(type, *contents, loc.logical_bytes, prefix, buf,
                         &decoded);
  }
  if (!s.ok()) {
    return Damaged(b, "does not decompress: " + s.ToString());
  }
  *contents = decoded;
  return Status::OK();
}

Status LogBlockReader::VerifyBlock(size_t b, const ReadUse& use,
                                   std::string* buf) const {
  const BlockLocation loc = blocks_->Get(b);
  Slice raw;
  Status s = file_->ReadRange(loc.file_offset, loc.contents_bytes + kTrailerSize,
                              buf, &raw, use);
  if (!s.ok()) return s;
  return VerifyTrailer(Slice(raw.data(), loc.contents_bytes),
                       raw.data() + loc.contents_bytes, file_->file_name(),
                       "log block", loc.file_offset);
}

bool LogBlockReader::LookupCached(size_t b, CachedBlock* pin,
                                  Slice* contents) const {
  return pin->Lookup(cache_, cache_id_, cache_base_ + b,
                     blocks_->Get(b).logical_bytes, contents);
}

void LogBlockReader::InsertCached(size_t b, const Slice& block,
                                  CachedBlock* pin, Slice* contents) const {
  assert(block.size() == blocks_->Get(b).logical_bytes);
  pin->Insert(cache_, cache_id_, cache_base_ + b, block, contents);
}

Status LogBlockReader::CachedContents(size_t b, bool verify, std::string* buf,
                                      CachedBlock* pin,
                                      Slice* contents) const {
  return pin->Fetch(cache_, cache_id_, cache_base_ + b,
                    blocks_->Get(b).logical_bytes,
                    !file_->mmap(), [&](Slice* read) {
                      return ReadBlock(b, verify, buf, read, SIZE_MAX,
                                       pin->use());
                    },
                    contents);
}

Status LogBlockReader::ReadBlockCached(size_t b, bool verify,
                                       std::string* buf, CachedBlock* pin,
                                       Slice* contents) const {
  if (Caches(b)) return CachedContents(b, verify, buf, pin, contents);
  if (pin->use().no_io && !file_->mmap()) return CachedBlock::NeedsRead();
  return ReadBlock(b, verify, buf, contents, SIZE_MAX, pin->use());
}

Status LogBlockReader::ReadEntry(uint64_t address, bool verify,
                                 std::string* buf, EntryRef* out,
                                 CachedBlock* pin) const {
  if (address >= blocks_->logical_bytes()) {  // callers check; be safe
    return CorruptionAt(file_->file_name(), "log",
                        "address " + std::to_string(address) + " past the log",
                        0);
  }
  const size_t b = blocks_->Find(address);
  const BlockLocation loc = blocks_->Get(b);
  const uint64_t in_block = address - loc.logical_offset;
  Slice view;
  out->block_contents = Slice();
  const ReadUse& use = pin != nullptr ? pin->use() : kNoReadUse;
  // Bytes read from the file are verified on every read that asks for it
  // (they may differ from the last read: a flaky device), so only an
  // unverified lookup in a raw block reads its entry alone.
  if (pin != nullptr && Caches(b)) {
    Slice contents;
    Status s = CachedContents(b, verify, buf, pin, &contents);
    if (!s.ok()) return s;
    view = Slice(contents.data() + in_block, contents.size() - in_block);
    out->block_contents = contents;
  } else if (pin != nullptr && pin->use().no_io && !file_->mmap()) {
    return CachedBlock::NeedsRead();
  } else if (file_->mmap() || loc.compressed() || verify) {
    // A compressed block decoded up to the entry, if its codec allows.
    const size_t prefix = static_cast<size_t>(in_block) + entry_read_bytes_;
    Slice contents;
    Status s = ReadBlock(b, verify, buf, &contents, prefix, use);
    if (!s.ok()) return s;
    view = Slice(contents.data() + in_block, contents.size() - in_block);
    uint64_t length = 0;
    if (contents.size() < loc.logical_bytes &&
        DecodeLogEntry(view.data(), view.data() + view.size(),
                       &out->entry) == nullptr) {
      // A long entry: decoded again up to its end, which its header tells
      // (the prefix holds any header), or failing that the whole block.
      const bool known =
          LogEntryLength(view.data(), view.data() + view.size(), &length) &&
          length <= loc.logical_bytes - in_block;
      s = ReadBlock(b, verify, buf, &contents,
                    known ? static_cast<size_t>(in_block + length) : SIZE_MAX,
                    use);
      if (!s.ok()) return s;
      view = Slice(contents.data() + in_block, contents.size() - in_block);
    }
    out->block_contents = contents;
  } else {
    // A raw block: read the entry alone, and the rest of the entry only if
    // it turns out longer than the first read.
    const uint64_t rest = loc.logical_bytes - in_block;
    Status s = file_->ReadRange(
        loc.file_offset + in_block,
        static_cast<size_t>(std::min<uint64_t>(rest, entry_read_bytes_)), buf,
        &view, use);
    if (!s.ok()) return s;
    uint64_t length = 0;
    if (DecodeLogEntry(view.data(), view.data() + view.size(), &out->entry) ==
            nullptr &&
        rest > view.size()) {
      const bool known =
          LogEntryLength(view.data(), view.data() + view.size(), &length) &&
          length <= rest;
      s = file_->ReadRange(loc.file_offset + in_block,
                           static_cast<size_t>(known ? length : rest), buf,
                           &view, use);
      if (!s.ok()) return s;
    }
  }
  const char* end =
      DecodeLogEntry(view.data(), view.data() + view.size(), &out->entry);
  if (end == nullptr) return Damaged(b, "entry does not decode", in_block);
  out->block = b;
  out->next_address = address + static_cast<uint64_t>(end - view.data());
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
