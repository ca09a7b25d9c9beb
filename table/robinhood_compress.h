// Compresses a log block for the builder, with each codec library called
// directly, as robinhood_uncompress.h decompresses: RocksDB's compression
// API changed shape three times between 8.6 and 11.0 (a context taking
// options, then OLD_CompressData, then the Compressor classes), and our
// blocks need none of what it adds (dictionaries, sampling, parallelism).
//
// Output framing is RocksDB's compress_format_version 2, which
// robinhood_uncompress.h reads:
//   snappy:                 the snappy stream (it carries its own length)
//   zlib, bzip2, lz4(hc), zstd:
//                           varint32 uncompressed_length, then the stream
// zlib streams are raw deflate (negative window bits).
//
// Byte layout: docs/format.md, "Trailer (5 bytes, after every block and
// section)", its paragraphs on compression.
#pragma once

#include <string>

#include "rocksdb/advanced_options.h"
#include "rocksdb/compression_type.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// True if this build can compress with `type` (the codecs the host library
// links, as CMake detects them) and so also decompress it.
bool CanCompress(CompressionType type);

// Compresses `raw` with `type` at `opts.level` (the codec's default where
// RocksDB's is kDefaultCompressionLevel) into `*out`. False if the codec
// failed or is not in this build: the caller stores the block raw.
bool Compress(CompressionType type, const CompressionOptions& opts,
              const Slice& raw, std::string* out);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
