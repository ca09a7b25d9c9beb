// Unit tests of the builder's side of the paged layout (paged_entries.h)
// and the memory it holds its pages in (build_chunk.h): the pages and the
// section checksum it hands on, over small chunks and huge ones, in
// memory and spilled, and the entries it gives back.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/env.h"
#include "table/build_chunk.h"
#include "table/entry_page.h"
#include "table/hash_index.h"
#include "table/paged_entries.h"
#include "table/spill_buffer.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

TEST(BuildChunkTest, SmallFromTheHeap) {
  BuildChunk c(64 << 10);
  ASSERT_NE(c.data(), nullptr);
  EXPECT_EQ(c.capacity(), size_t{64} << 10);
  EXPECT_EQ(c.size(), 0u);
  char* p = c.Extend(100);
  EXPECT_EQ(p, c.data());
  memset(p, 'x', 100);
  EXPECT_EQ(c.Extend(10), c.data() + 100);
  EXPECT_EQ(c.size(), 110u);
  EXPECT_EQ(c.room(), (size_t{64} << 10) - 110);
}

TEST(BuildChunkTest, HugeAlignedWritableAndMoved) {
  BuildChunk c(2 * BuildChunk::kHugeBytes);
#ifdef __linux__
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c.data()) % BuildChunk::kHugeBytes,
            0u);
#endif
  char* p = c.Extend(c.capacity());
  memset(p, 7, c.capacity());
  EXPECT_EQ(c.room(), 0u);
  const char* was = c.data();
  BuildChunk d(std::move(c));
  EXPECT_EQ(d.data(), was);
  EXPECT_EQ(d.size(), 2 * BuildChunk::kHugeBytes);
  EXPECT_EQ(c.data(), nullptr);
  EXPECT_EQ(c.capacity(), 0u);
  BuildChunk e(4096);
  e = std::move(d);
  EXPECT_EQ(e.data(), was);
  EXPECT_EQ(static_cast<unsigned char>(e.data()[e.size() - 1]), 7u);
}

struct Written {
  std::string bytes;
  uint32_t crc = 0;
  std::string index;
};

std::string KeyOf(uint64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%012llu", static_cast<unsigned long long>(i));
  return buf;
}

std::string ValueOf(uint64_t i, size_t size) {
  std::string v(size, static_cast<char>('a' + i % 26));
  if (size >= 8) memcpy(&v[0], &i, 8);
  return v;
}

// What `buf` writes: its pages, their CRC and the page index.
Written WriteAll(PagedEntryBuffer* buf) {
  Written w;
  Status s = buf->Write(
      [&](const Slice& piece) {
        w.bytes.append(piece.data(), piece.size());
        return Status::OK();
      },
      &w.crc, &w.index);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return w;
}

// Adds `n` entries of `value_size`-byte values; spills first if `dir`.
Written Build(uint64_t n, size_t value_size, SpillDir* dir,
              PagedEntryBuffer* buf) {
  if (dir != nullptr) {
    EXPECT_TRUE(buf->Spill(dir).ok());
  }
  for (uint64_t i = 0; i < n; ++i) buf->Add(KeyOf(i), ValueOf(i, value_size));
  return WriteAll(buf);
}

// Every page checks, the entries are the ones added, in order, and the
// checksum handed on is the CRC32C of every byte.
void CheckPages(const Written& w, uint32_t page_bytes, uint64_t n,
                size_t value_size) {
  ASSERT_GT(page_bytes, 0u);
  ASSERT_EQ(w.bytes.size() % page_bytes, 0u);
  EXPECT_EQ(w.crc, crc32c::Value(w.bytes.data(), w.bytes.size()));
  uint64_t next = 0;
  for (size_t at = 0; at < w.bytes.size(); at += page_bytes) {
    ASSERT_TRUE(EntryPage::CrcMatches(w.bytes.data() + at, page_bytes)) << at;
    EntryPage page;
    ASSERT_TRUE(page.Parse(w.bytes.data() + at, page_bytes));
    for (uint32_t i = 0; i < page.size(); ++i, ++next) {
      Slice k, v;
      ASSERT_TRUE(page.Entry(i, &k, &v));
      ASSERT_EQ(k.ToString(), KeyOf(next));
      ASSERT_EQ(v.ToString(), ValueOf(next, value_size));
    }
  }
  EXPECT_EQ(next, n);
}

TEST(PagedEntryBufferTest, SmallFileOneChunk) {
  PagedEntryBuffer buf(KeyHash, 1);
  const Written w = Build(50, 100, nullptr, &buf);
  CheckPages(w, buf.page_bytes(), 50, 100);
  EXPECT_EQ(w.bytes.size(), uint64_t{buf.pages()} * buf.page_bytes());
}

TEST(PagedEntryBufferTest, PastAHugeChunkInMemory) {
  // About 13 MiB of pages: 8 MiB of small chunks, then huge ones, the
  // last partly filled, within a quarter of the pages' bytes.
  const uint64_t n = 110000;
  PagedEntryBuffer buf(KeyHash, 1);
  for (uint64_t i = 0; i < n; ++i) buf.Add(KeyOf(i), ValueOf(i, 100));
  const uint64_t pages_bytes = buf.pages() * uint64_t{buf.page_bytes()};
  EXPECT_GT(pages_bytes, 12u << 20);
  EXPECT_GE(buf.MemoryUsage(), pages_bytes);
  EXPECT_LE(buf.MemoryUsage(), pages_bytes + pages_bytes / 4);
  // Entries come back in order before the pages are written.
  uint64_t seen = 0;
  ASSERT_TRUE(buf.ForEach([&](const Slice& k, const Slice& v) {
                   EXPECT_EQ(k.ToString(), KeyOf(seen));
                   EXPECT_EQ(v.ToString(), ValueOf(seen, 100));
                   ++seen;
                   return true;
                 })
                  .ok());
  EXPECT_EQ(seen, n);
  const Written w = WriteAll(&buf);
  EXPECT_EQ(w.bytes.size(), pages_bytes);
  CheckPages(w, buf.page_bytes(), n, 100);
}

TEST(PagedEntryBufferTest, LargerPagesPastAHugeChunk) {
  // 1,500-byte values, two to a 4 KiB page, take larger pages.
  const uint64_t n = 10000;
  PagedEntryBuffer buf(KeyHash, 1);
  const Written w = Build(n, 1500, nullptr, &buf);
  EXPECT_GT(buf.page_bytes(), kEntryPageMinBytes);
  EXPECT_GT(w.bytes.size(), 5 * BuildChunk::kHugeBytes);
  CheckPages(w, buf.page_bytes(), n, 1500);
}

TEST(PagedEntryBufferTest, SpilledAlike) {
  const std::string dir = testing::TempDir();
  SpillDir spill(Env::Default()->GetFileSystem().get(), dir, "paged_test");
  const uint64_t n = 30000;
  PagedEntryBuffer in_memory(KeyHash, 1), spilled(KeyHash, 1);
  const Written a = Build(n, 100, nullptr, &in_memory);
  const Written b = Build(n, 100, &spill, &spilled);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.crc, b.crc);
  EXPECT_EQ(a.index, b.index);
  CheckPages(b, spilled.page_bytes(), n, 100);
}

TEST(PagedEntryBufferTest, SpilledAfterHugeChunksAlike) {
  // A bounded builder spills once it holds half its limit: by then huge
  // chunks hold pages, which go to the file before the pages to come.
  const std::string dir = testing::TempDir();
  SpillDir spill(Env::Default()->GetFileSystem().get(), dir, "paged_late");
  const uint64_t n = 150000;
  PagedEntryBuffer in_memory(KeyHash, 1), late(KeyHash, 1);
  const Written a = Build(n, 100, nullptr, &in_memory);
  for (uint64_t i = 0; i < n; ++i) {
    if (i == n / 2) {
      ASSERT_GT(late.MemoryUsage(), 8u << 20);
      ASSERT_TRUE(late.Spill(&spill).ok());
      ASSERT_LT(late.MemoryUsage(), 4u << 20);
    }
    late.Add(KeyOf(i), ValueOf(i, 100));
  }
  const Written b = WriteAll(&late);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.crc, b.crc);
  EXPECT_EQ(a.index, b.index);
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
