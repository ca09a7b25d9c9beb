#include "table/robinhood_uncompress.h"

#include <cstdint>
#include <limits>
#include <memory>

#include "table/compat.h"
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
#endif
#ifdef ZSTD
#include <zstd.h>
#endif

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {

Status Bad(const char* what) { return Status::Corruption(what); }

// Strips the varint32 length that format version 2 puts before every
// stream but snappy's, and checks it against the block table's size
// before anything is allocated from it.
Status StripLength(Slice* input, size_t expected_size) {
  uint32_t declared = 0;
  if (!GetVarint32(input, &declared)) return Bad("bad length prefix");
  if (declared != expected_size) {
    return Bad("length prefix disagrees with the block table");
  }
  return Status::OK();
}

// Makes `*buf` at least `size` bytes long, clearing only what it adds.
void GrowTo(std::string* buf, size_t size) {
  if (buf->size() < size) buf->resize(size);
}

#ifdef ZSTD
// One decompression context per thread: creating one costs more than
// decompressing a small block.
ZSTD_DCtx* ThreadZstdDecompressContext() {
  struct Free {
    void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
  };
  thread_local std::unique_ptr<ZSTD_DCtx, Free> ctx(ZSTD_createDCtx());
  return ctx.get();
}
#endif

}  // namespace

bool CanUncompress(CompressionType type) {
  if (type == compat::kZstdNotFinal) type = kZSTD;
  switch (type) {
#ifdef SNAPPY
    case kSnappyCompression:
      return true;
#endif
#ifdef ZLIB
    case kZlibCompression:
      return true;
#endif
#ifdef BZIP2
    case kBZip2Compression:
      return true;
#endif
#ifdef LZ4
    case kLZ4Compression:
    case kLZ4HCCompression:
      return true;
#endif
#ifdef ZSTD
    case kZSTD:
      return true;
#endif
    default:
      return false;
  }
}

Status Uncompress(CompressionType type, const Slice& compressed,
                  size_t expected_size, std::string* buf, Slice* out) {
  if (!CanUncompress(type)) return Bad("unsupported compression type");
  if (type == compat::kZstdNotFinal) type = kZSTD;
  // Every codec API below counts in 32-bit ints.
  constexpr size_t kMax = std::numeric_limits<int>::max();
  if (compressed.size() > kMax || expected_size > kMax) {
    return Bad("block too large");
  }
  Slice in = compressed;
  if (type != kSnappyCompression) {
    Status s = StripLength(&in, expected_size);
    if (!s.ok()) return s;
  }
  GrowTo(buf, expected_size);
  char* dst = &(*buf)[0];
  *out = Slice(dst, expected_size);
  switch (type) {
#ifdef SNAPPY
    case kSnappyCompression: {
      size_t declared = 0;
      if (!snappy::GetUncompressedLength(in.data(), in.size(), &declared) ||
          declared != expected_size) {
        return Bad("snappy length disagrees with the block table");
      }
      if (!snappy::RawUncompress(in.data(), in.size(), dst)) {
        return Bad("bad snappy stream");
      }
      return Status::OK();
    }
#endif
#ifdef ZLIB
    case kZlibCompression: {
      z_stream z{};
      if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return Bad("zlib init");
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      z.avail_in = static_cast<uInt>(in.size());
      z.next_out = reinterpret_cast<Bytef*>(dst);
      z.avail_out = static_cast<uInt>(expected_size);
      const int rc = inflate(&z, Z_FINISH);
      const bool ok = rc == Z_STREAM_END && z.avail_out == 0;
      inflateEnd(&z);
      return ok ? Status::OK() : Bad("bad zlib stream");
    }
#endif
#ifdef BZIP2
    case kBZip2Compression: {
      unsigned int produced = static_cast<unsigned int>(expected_size);
      const int rc = BZ2_bzBuffToBuffDecompress(
          dst, &produced, const_cast<char*>(in.data()),
          static_cast<unsigned int>(in.size()), /*small=*/0, /*verbosity=*/0);
      return rc == BZ_OK && produced == expected_size
                 ? Status::OK()
                 : Bad("bad bzip2 stream");
    }
#endif
#ifdef LZ4
    case kLZ4Compression:
    case kLZ4HCCompression: {
      const int produced =
          LZ4_decompress_safe(in.data(), dst, static_cast<int>(in.size()),
                              static_cast<int>(expected_size));
      return produced >= 0 && static_cast<size_t>(produced) == expected_size
                 ? Status::OK()
                 : Bad("bad lz4 stream");
    }
#endif
#ifdef ZSTD
    case kZSTD: {
      ZSTD_DCtx* ctx = ThreadZstdDecompressContext();
      if (ctx == nullptr) return Status::MemoryLimit("zstd context");
      const size_t produced = ZSTD_decompressDCtx(ctx, dst, expected_size,
                                                  in.data(), in.size());
      return !ZSTD_isError(produced) && produced == expected_size
                 ? Status::OK()
                 : Bad("bad zstd stream");
    }
#endif
    default:
      return Bad("unsupported compression type");
  }
}

Status UncompressPrefix(CompressionType type, const Slice& compressed,
                        size_t expected_size, size_t prefix,
                        std::string* buf, Slice* out) {
#ifdef LZ4
  if ((type == kLZ4Compression || type == kLZ4HCCompression) &&
      prefix < expected_size &&
      compressed.size() <= std::numeric_limits<int>::max() &&
      expected_size <= std::numeric_limits<int>::max()) {
    Slice in = compressed;
    Status s = StripLength(&in, expected_size);
    if (!s.ok()) return s;
    GrowTo(buf, expected_size);
    const int produced = LZ4_decompress_safe_partial(
        in.data(), &(*buf)[0], static_cast<int>(in.size()),
        static_cast<int>(prefix), static_cast<int>(expected_size));
    if (produced < 0 || static_cast<size_t>(produced) < prefix) {
      return Bad("bad lz4 stream");
    }
    *out = Slice(buf->data(), static_cast<size_t>(produced));
    return Status::OK();
  }
#endif
  (void)prefix;
  return Uncompress(type, compressed, expected_size, buf, out);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
