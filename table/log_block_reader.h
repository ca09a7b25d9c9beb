// Reads the log: its blocks (contents, 5-byte trailer; block_table.h says
// where each lies) and the entries in them (log_entry.h).
//
//   [block 0 contents][type|crc] [block 1 contents][type|crc] ...
//
// Verification state lives here. With mmap, a block whose checksum has
// been verified is remembered (a bit per block): the mapping is memory, as
// RocksDB's block cache is, so later lookups read only their entry. Without
// mmap, bytes come from the file on every read and are verified on every
// read that asks: a lookup then reads the whole block. The table's readers
// always ask (kVerifyReads, robinhood_format.h), so no reader takes the
// unverified branches here or in inline_table.h. A compressed block is
// verified before every decompression of bytes read from the file, whatever
// the caller asked: a codec only ever sees the bytes the builder wrote. A
// raw block read without verification is read on the block table's sizes
// alone, by every path, so all paths answer alike.
//
// With a block cache (RobinHoodTableOptions::block_cache), lookups and
// user scans keep the blocks they read there, verified and decompressed,
// as BlockBasedTable keeps its data blocks: compressed blocks, and without
// mmap raw ones too (with mmap a raw block is read in place). A read that
// finds its block cached reads and decompresses nothing. A cached block is
// its bytes alone (the block table has its size: cached_block.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/block_table.h"
#include "table/cached_block.h"
#include "table/compat.h"
#include "table/log_entry.h"
#include "table/section_reader.h"
#include "table/verified_bits.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// An entry read from the log, with its block and where the next starts.
struct EntryRef {
  LogEntry entry;
  size_t block = 0;
  uint64_t next_address = 0;
  // The block's decoded contents from its start, as far as the read that
  // found the entry had them (empty if it read the entry alone).
  Slice block_contents;
};

class LogBlockReader {
 public:
  // All must outlive this reader. `blocks` is initialised. `cache` may be
  // null: no block cache; its blocks go under `cache_id` there
  // (TableView::block_cache_id), numbered from the log's start in the
  // file (so that a log tail's never meet its pages' numbers, from 0).
  // `entry_bytes`: the file's mean entry
  // length (0: unknown), which sizes a lookup's first read of an entry.
  LogBlockReader(const SectionReader* file, const BlockTable* blocks,
                 Cache* cache = nullptr, uint64_t cache_id = 0,
                 uint64_t entry_bytes = 0);

  // Makes `*contents` the (uncompressed) contents of block `b`: in place
  // with mmap and no compression, else in `*buf`. Verifies the checksum if
  // `verify` (once per block with mmap, on every read from the file else).
  // A compressed block may come out shorter, but at least `prefix` bytes
  // long (UncompressPrefix), if a caller needs no more. Reads from the
  // file as `use` says.
  Status ReadBlock(size_t b, bool verify, std::string* buf, Slice* contents,
                   size_t prefix = SIZE_MAX,
                   const ReadUse& use = kNoReadUse) const;
  // The second half of ReadBlock, for callers that read the stored bytes
  // (`raw`: contents and trailer) themselves, e.g. from a readahead buffer.
  Status DecodeBlock(size_t b, const Slice& raw, bool verify,
                     std::string* buf, Slice* contents,
                     size_t prefix = SIZE_MAX) const;
  // ReadBlock, whole, through the block cache where Caches(b), as `*pin`'s
  // use says (CachedBlock::Fetch): then `*pin` holds it. NeedsRead if the
  // use forbids the read the block takes.
  Status ReadBlockCached(size_t b, bool verify, std::string* buf,
                         CachedBlock* pin, Slice* contents) const;
  // Whether block `b` is best read through the cache: there is one, and
  // the block is compressed or read without mmap (a mapped raw block is
  // read in place).
  bool Caches(size_t b) const {
    return cache_ != nullptr &&
           (blocks_->Get(b).compressed() || !file_->mmap());
  }
  // REQUIRES: Caches(b). Makes `*contents` block `b` from the cache and
  // pins it in `*pin`; false if the cache lacks it.
  bool LookupCached(size_t b, CachedBlock* pin, Slice* contents) const;
  // REQUIRES: Caches(b). Puts `block`, block `b` decoded (and verified),
  // in the cache, pinned in `*pin`, and makes `*contents` the cached copy
  // (or `block` itself if the cache refuses it).
  void InsertCached(size_t b, const Slice& block, CachedBlock* pin,
                    Slice* contents) const;
  // Checks block `b`'s checksum, reading it whole; decompresses nothing.
  Status VerifyBlock(size_t b, const ReadUse& use, std::string* buf) const;

  // Reads the entry at `address` (an index slot's): without mmap, usually
  // one positioned read of the entry alone. REQUIRES: address < the log's
  // logical size (checked, as it comes from the file). Given `pin`, an
  // entry in a block that Caches comes through the block cache as the
  // pin's use says (NeedsRead if it forbids the read), and `*pin` keeps it
  // there while `*out` is in use; reads from the file are made as the pin's
  // use says.
  Status ReadEntry(uint64_t address, bool verify, std::string* buf,
                   EntryRef* out, CachedBlock* pin = nullptr) const;

  // Corruption naming the file, the log block and the offset of the damage
  // (`in_block` bytes into block `b`'s stored contents).
  Status Damaged(size_t b, const std::string& detail, uint64_t in_block = 0) const;

  size_t MemoryUsage() const { return verified_.MemoryUsage(); }

 private:
  // Makes `*contents` the whole decompressed block `b` (compressed, with
  // a cache), from the cache, or read, decompressed and put there.
  Status CachedContents(size_t b, bool verify, std::string* buf,
                        CachedBlock* pin, Slice* contents) const;

  const SectionReader* const file_;
  const BlockTable* const blocks_;
  Cache* const cache_;
  // This reader's blocks' keys in the cache: the id, then the block.
  const uint64_t cache_id_;
  const uint64_t cache_base_;  // block 0's number in the cache
  // Bytes from an entry's start that a lookup reads (or decodes) first:
  // most of the file's entries fit.
  const size_t entry_read_bytes_;
  // A bit per block: its checksum held when last read.
  VerifiedBits verified_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
