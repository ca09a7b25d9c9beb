#include "table/robinhood_compress.h"

#include <limits>
#include <memory>

#include "table/compat.h"
#include "table/robinhood_uncompress.h"
#include "util/coding.h"

#ifdef SNAPPY
#include <snappy.h>
#endif
#ifdef ZLIB
#include <zlib.h>
#endif
#ifdef BZIP2
#include <bzlib.h>
#endif
#ifdef LZ4
#include <lz4.h>
#include <lz4hc.h>
#endif
#ifdef ZSTD
#include <zstd.h>
#endif

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {

constexpr int kDefaultLevel = CompressionOptions::kDefaultCompressionLevel;

// Unused in builds whose host links only snappy.
[[maybe_unused]] int LevelOr(const CompressionOptions& opts, int codec_default) {
  return opts.level == kDefaultLevel ? codec_default : opts.level;
}

#ifdef ZSTD
// One compression context per thread: creating one costs more than
// compressing a small block.
ZSTD_CCtx* ThreadZstdCompressContext() {
  struct Free {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
  };
  thread_local std::unique_ptr<ZSTD_CCtx, Free> ctx(ZSTD_createCCtx());
  return ctx.get();
}
#endif

}  // namespace

bool CanCompress(CompressionType type) { return CanUncompress(type); }

bool Compress(CompressionType type, const CompressionOptions& opts,
              const Slice& raw, std::string* out) {
  out->clear();
  // Every codec API below counts in 32-bit ints (and the framing's length
  // is a varint32).
  if (!CanCompress(type) ||
      raw.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return false;
  }
  // Before 10.0 a column family could ask for kZSTDNotFinalCompression:
  // zstd data under its own type byte, which the writer keeps.
  if (type == compat::kZstdNotFinal) type = kZSTD;
  if (type != kSnappyCompression) {
    PutVarint32(out, static_cast<uint32_t>(raw.size()));
  }
  const size_t header = out->size();
  switch (type) {
#ifdef SNAPPY
    case kSnappyCompression: {
      out->resize(snappy::MaxCompressedLength(raw.size()));
      size_t n = 0;
      snappy::RawCompress(raw.data(), raw.size(), &(*out)[0], &n);
      out->resize(n);
      return true;
    }
#endif
#ifdef ZLIB
    case kZlibCompression: {
      z_stream z{};
      // Always raw deflate (negative bits), which is what readers inflate,
      // with the window size configured; RocksDB's default if out of range.
      int window = opts.window_bits < 0 ? -opts.window_bits : opts.window_bits;
      window = window >= 9 && window <= 15 ? -window : -14;
      if (deflateInit2(&z, LevelOr(opts, Z_DEFAULT_COMPRESSION), Z_DEFLATED,
                       window, 8, opts.strategy) != Z_OK) {
        return false;
      }
      const uLong bound = deflateBound(&z, static_cast<uLong>(raw.size()));
      out->resize(header + bound);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
      z.avail_in = static_cast<uInt>(raw.size());
      z.next_out = reinterpret_cast<Bytef*>(&(*out)[header]);
      z.avail_out = static_cast<uInt>(bound);
      const bool ok = deflate(&z, Z_FINISH) == Z_STREAM_END;
      const size_t n = z.total_out;
      deflateEnd(&z);
      out->resize(header + n);
      return ok;
    }
#endif
#ifdef BZIP2
    case kBZip2Compression: {
      // bzip2's documented bound: 1% more than the input, plus 600 bytes.
      unsigned int n = static_cast<unsigned int>(raw.size() + raw.size() / 100 + 600);
      out->resize(header + n);
      const int rc = BZ2_bzBuffToBuffCompress(
          &(*out)[header], &n, const_cast<char*>(raw.data()),
          static_cast<unsigned int>(raw.size()), /*blockSize100k=*/9,
          /*verbosity=*/0, /*workFactor=*/30);
      out->resize(header + n);
      return rc == BZ_OK;
    }
#endif
#ifdef LZ4
    case kLZ4Compression:
    case kLZ4HCCompression: {
      const int bound = LZ4_compressBound(static_cast<int>(raw.size()));
      out->resize(header + static_cast<size_t>(bound));
      const int n =
          type == kLZ4Compression
              ? LZ4_compress_fast(raw.data(), &(*out)[header],
                                  static_cast<int>(raw.size()), bound,
                                  /*acceleration=*/1)
              : LZ4_compress_HC(raw.data(), &(*out)[header],
                                static_cast<int>(raw.size()), bound,
                                LevelOr(opts, 0 /* LZ4HC's default */));
      if (n <= 0) return false;
      out->resize(header + static_cast<size_t>(n));
      return true;
    }
#endif
#ifdef ZSTD
    case kZSTD: {
      ZSTD_CCtx* ctx = ThreadZstdCompressContext();
      if (ctx == nullptr) return false;
      const size_t bound = ZSTD_compressBound(raw.size());
      out->resize(header + bound);
      const size_t n =
          ZSTD_compressCCtx(ctx, &(*out)[header], bound, raw.data(),
                            raw.size(), LevelOr(opts, ZSTD_CLEVEL_DEFAULT));
      if (ZSTD_isError(n)) return false;
      out->resize(header + n);
      return true;
    }
#endif
    default:
      return false;
  }
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
