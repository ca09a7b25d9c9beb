// Decompresses a log block for the reader, with each codec library's own
// bounds-checked call instead of RocksDB's UncompressData.
//
// Why not RocksDB's: its wrappers (util/compression.h) assert that the
// output has exactly the size the block declares. A block whose bytes are
// damaged, or crafted with a valid checksum, then aborts a host built
// with assertions (Debian's is) instead of failing. Here every codec call
// gets an output buffer of the size the block table records and must fill
// it exactly; anything else is an error the caller reports as corruption.
//
// Input framing is RocksDB's compress_format_version 2, which the builder
// writes with robinhood_compress.h:
//   snappy:                 the snappy stream (it carries its own length)
//   zlib, bzip2, lz4(hc), zstd:
//                           varint32 uncompressed_length, then the stream
// zlib streams are raw deflate (negative window bits); the reader inflates
// with the largest window, which accepts every smaller one.
#pragma once

#include <cstddef>
#include <string>

#include "rocksdb/compression_type.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// True if this build can decompress `type` (the codecs the host library
// links, as CMake detects them).
bool CanUncompress(CompressionType type);

// Decompresses `input` of codec `type` into the start of `*buf`, making
// `*out` those bytes, which must come out exactly `expected_size` long. On
// failure returns Corruption whose message says what went wrong; the
// caller adds the file and offset. `*buf` is storage: grown to at least
// `expected_size` (so never by more), never shrunk, so a caller that
// reuses it pays neither an allocation nor the clearing of new bytes.
Status Uncompress(CompressionType type, const Slice& input,
                  size_t expected_size, std::string* buf, Slice* out);

// As Uncompress, but may stop once `*out` holds the first `prefix` bytes
// (LZ4, whose blocks decode from their start): `*out` is then at least
// min(prefix, expected_size) bytes long, and all of them are the block's.
// Other codecs decompress the whole. A point lookup needs the block only
// up to its entry.
Status UncompressPrefix(CompressionType type, const Slice& input,
                        size_t expected_size, size_t prefix,
                        std::string* buf, Slice* out);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
