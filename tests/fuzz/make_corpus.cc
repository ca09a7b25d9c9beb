// Writes the fuzzers' seed corpus: small real RobinHoodTable files (a few KB
// each, log_block_size 256 so each has several log blocks) covering what
// the reader must parse:
//   table-<codec>[-norangedel]  a builder's file, as flush and compaction
//                               write them: several versions of a key,
//                               merges, deletions, single deletions, puts
//                               at sequence 0, and (unless -norangedel)
//                               range deletions; one per codec the host
//                               library supports
//   sst-<codec>                 SstFileWriter files (puts at sequence 0,
//                               merges, deletions, a range deletion)
//   long-entries                keys of 127 bytes and more, values over 127
//   interval1, dense            sparse_index_interval 1, load_factor 0.98
//   bloom, inline-ribbon        with a filter (Bloom over a log, Ribbon
//                               over inline slots)
//   inline                      inline slots in hash order
//   inline-varying              keys and values of several lengths;
//                               decimal keys, so slots in key order
//                               through a digit map (version 9), as
//                               inline-ribbon's
//   inline-keyorder             inline slots in key order (keys spread
//                               evenly: a key order model), which leave
//                               out the keys' shared prefix (version 11,
//                               as the other key-ordered seeds' do)
//   inline-keyorder-noprefix    the same keys without their prefix: none
//                               shared, slots as in version 4 (version 5)
//   inline-longmap              compound keys (a region digit, a fixed
//                               word, an id): key order through a digit
//                               map of 14 bytes (version 10)
//   paged, paged-bloom          puts too long for a slot: pages and a page
//                               index (version 6), with a range deletion
//   paged-8k                    seven puts of about 1 KiB: one page of
//                               8 KiB (version 7; past the fuzzers'
//                               -max_len, so replayed whole only)
//   paged-log                   300 KB of pages, then a log from a
//                               deletion on (version 8; past -max_len:
//                               the edits fuzzer's base, edits.h)
//   paged-log-compressed        pages of random values (the codec does
//                               not pay), then a log of compressible
//                               entries in compressed blocks (version 8;
//                               an edits base too)
//   empty, rangedel-only        no point entries
//   reverse                     ReverseBytewiseComparator
//   ingested                    a file a DB ingested with write_global_seqno
//                               (its global seqno rewritten in place)
//
//   rh_fuzz_make_corpus DIR     (DIR must exist)
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "file/writable_file_writer.h"
#include "options/cf_options.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/compat.h"
#include "table/table_builder.h"
#include "tests/fuzz/rechecksum.h"
#include "tests/join_merge_operator.h"
#include "util/compression.h"
#include "tools/common/db_open.h"

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {

RobinHoodTableOptions SmallBlocks() {
  RobinHoodTableOptions rh;
  rh.log_block_size = 256;  // the minimum: several blocks in a few KB
  rh.sparse_index_interval = 4;
  return rh;
}

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "k%04d", i);
  return buf;
}

// Compressible, so that compressed seeds have compressed blocks (a block is
// stored compressed only when that saves an eighth).
std::string Value(int i, size_t n) {
  std::string v;
  while (v.size() < n) v += "v" + std::to_string(i) + "-";
  v.resize(n);
  return v;
}

std::string IKey(const std::string& user_key, SequenceNumber seq,
                 ValueType type) {
  std::string k;
  AppendInternalKey(&k, ParsedInternalKey(user_key, seq, type));
  return k;
}

struct Entry {
  std::string key;  // internal
  std::string value;
};

// What flush and compaction hand a builder: internal-key order, several
// versions of some keys, every value type the log stores.
std::vector<Entry> BuilderEntries() {
  std::vector<Entry> out;
  SequenceNumber seq = 5000;
  for (int i = 0; i < 30; ++i) {
    const std::string uk = Key(i);
    switch (i % 6) {
      case 0:  // bottommost put: the compact encoding
        out.push_back({IKey(uk, 0, kTypeValue), Value(i, 12)});
        break;
      case 1:  // newest first: put over merge over put
        out.push_back({IKey(uk, seq--, kTypeValue), Value(i, 20)});
        out.push_back({IKey(uk, seq--, kTypeMerge), "m" + std::to_string(i)});
        out.push_back({IKey(uk, seq--, kTypeValue), Value(i, 8)});
        break;
      case 2:
        out.push_back({IKey(uk, seq--, kTypeDeletion), ""});
        out.push_back({IKey(uk, seq--, kTypeValue), Value(i, 30)});
        break;
      case 3:
        out.push_back({IKey(uk, seq--, kTypeMerge), "a"});
        out.push_back({IKey(uk, seq--, kTypeMerge), "b"});
        break;
      case 4:
        out.push_back({IKey(uk, seq--, kTypeSingleDeletion), ""});
        break;
      default:
        out.push_back({IKey(uk, seq--, kTypeValue), Value(i, 40)});
        break;
    }
  }
  return out;
}

Status WriteWithBuilder(const std::string& path,
                        const RobinHoodTableOptions& rh,
                        CompressionType compression,
                        const std::vector<Entry>& entries,
                        const std::vector<Entry>& range_dels) {
  Options options;
  options.compression = compression;
  const ImmutableOptions ioptions(options);
  const MutableCFOptions moptions(options);
  const InternalKeyComparator icmp(BytewiseComparator());
  std::unique_ptr<TableFactory> factory(NewRobinHoodTableFactory(rh));
  std::unique_ptr<FSWritableFile> f;
  Status s = ioptions.fs->NewWritableFile(path, FileOptions(), &f, nullptr);
  if (!s.ok()) return s;
  WritableFileWriter writer(std::move(f), path, FileOptions());
  robinhood::compat::OwnedBuilderOptions owned(ioptions, moptions, icmp,
                                               compression);
  std::unique_ptr<TableBuilder> builder(
      factory->NewTableBuilder(owned.tbo, &writer));
  for (const Entry& e : entries) builder->Add(e.key, e.value);
  for (const Entry& e : range_dels) builder->Add(e.key, e.value);
  s = builder->Finish();
  if (s.ok()) s = robinhood::compat::Close(&writer);
  return s;
}

Options SstOptions(const RobinHoodTableOptions& rh, CompressionType c) {
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory(rh));
  options.compression = c;
  options.merge_operator =
      std::make_shared<test_util::JoinMergeOperator>('\0', "RhFuzzCorpusJoin");
  return options;
}

Status WriteWithSstFileWriter(const std::string& path, CompressionType c) {
  SstFileWriter writer(EnvOptions(), SstOptions(SmallBlocks(), c));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 40; ++i) {
    if (i % 7 == 3) {
      s = writer.Delete(Key(i));
    } else if (i % 7 == 5) {
      s = writer.Merge(Key(i), "m" + std::to_string(i));
    } else {
      s = writer.Put(Key(i), Value(i, 10 + i % 13));
    }
  }
  if (s.ok()) s = writer.DeleteRange(Key(10), Key(14));
  if (s.ok()) s = writer.Finish();
  return s;
}

// Puts only, short enough for slots: the inline layout, in hash order.
// `varying`: keys and values of several lengths (length bytes in the
// slots), in key order through a digit map; a range deletion too.
Status WriteInline(const std::string& path, bool varying,
                   const char* filter = "") {
  RobinHoodTableOptions rh = SmallBlocks();
  rh.filter_policy = filter;
  // The decimal keys would take key order (a digit map) but for this.
  rh.inline_key_order = varying;
  SstFileWriter writer(EnvOptions(), SstOptions(rh, kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 60; ++i) {
    const std::string key = varying ? Key(i) + std::string(i % 5, 'v') : Key(i);
    s = writer.Put(key, Value(i, varying ? i % 19 : 6));
  }
  if (s.ok() && varying) s = writer.DeleteRange(Key(10), Key(14));
  if (s.ok()) s = writer.Finish();
  return s;
}

// Puts of keys spread evenly over their range: inline slots in key order.
Status WriteKeyOrder(const std::string& path, const std::string& head) {
  SstFileWriter writer(EnvOptions(),
                       SstOptions(SmallBlocks(), kNoCompression));
  Status s = writer.Open(path);
  for (uint32_t i = 0; s.ok() && i < 60; ++i) {
    const uint32_t x = i * 71582788u + (i * 7919u) % 1000u;
    std::string key = head;
    for (int b = 3; b >= 0; --b) key.push_back(static_cast<char>(x >> (8 * b)));
    s = writer.Put(key, Value(static_cast<int>(i), i % 7));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

// Puts of compound keys whose first 8 bytes past "r" vary little: inline
// slots in key order through a long digit map.
Status WriteLongMap(const std::string& path) {
  SstFileWriter writer(EnvOptions(),
                       SstOptions(SmallBlocks(), kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 60; ++i) {
    char key[32];
    snprintf(key, sizeof(key), "r%d/item/%08d", 1 + i / 20, (i % 20) * 4999);
    s = writer.Put(key, Value(i, i % 5));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

// Puts too long for a slot, over several pages: the paged layout.
Status WritePaged(const std::string& path, const char* filter = "") {
  RobinHoodTableOptions rh = SmallBlocks();
  rh.filter_policy = filter;
  SstFileWriter writer(EnvOptions(), SstOptions(rh, kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 60; ++i) {
    s = writer.Put(Key(i) + std::string(i % 7, 'p'), Value(i, 70 + i * 3));
  }
  if (s.ok()) s = writer.DeleteRange(Key(10), Key(14));
  if (s.ok()) s = writer.Finish();
  return s;
}

// Seven entries of about 1 KiB fill one 8 KiB page; 4 KiB pages would
// take three (paged_entries.h).
Status WritePagedLargePages(const std::string& path) {
  SstFileWriter writer(EnvOptions(), SstOptions(SmallBlocks(), kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 7; ++i) {
    s = writer.Put(Key(i), Value(i, 1030 + i * 5));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

// Past the 256 KiB that choose the page size, the pages stream out; a
// deletion then starts a log behind them (paged_log_layout.h).
Status WritePagedLog(const std::string& path) {
  SstFileWriter writer(EnvOptions(), SstOptions(SmallBlocks(), kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 2500; ++i) {
    if (i >= 2400 && i % 9 == 0) {
      s = writer.Delete(Key(i));
    } else if (i >= 2400 && i % 9 == 4) {
      s = writer.Merge(Key(i), Value(i, 5));
    } else {
      s = writer.Put(Key(i), Value(i, 100 + i % 40));
    }
  }
  if (s.ok()) s = writer.DeleteRange(Key(10), Key(14));
  if (s.ok()) s = writer.Finish();
  return s;
}

// Random values rule the codec out for the pages; the log behind them
// compresses its blocks.
Status WritePagedLogCompressed(const std::string& path) {
  CompressionType codec = kNoCompression;
  for (CompressionType c : {kZSTD, kLZ4Compression, kSnappyCompression,
                            kZlibCompression}) {
    if (CompressionTypeSupported(c)) {
      codec = c;
      break;
    }
  }
  if (codec == kNoCompression) return Status::NotSupported("no codec");
  RobinHoodTableOptions rh = SmallBlocks();
  rh.log_block_size = 1024;
  SstFileWriter writer(EnvOptions(), SstOptions(rh, codec));
  Status s = writer.Open(path);
  uint64_t x = 88172645463325252ull;
  for (int i = 0; s.ok() && i < 2400; ++i) {
    std::string v(120 + i % 50, '\0');
    for (char& c : v) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      c = static_cast<char>(x);
    }
    s = writer.Put(Key(i), v);
  }
  for (int i = 2400; s.ok() && i < 2700; ++i) {
    s = i % 13 == 0 ? writer.Delete(Key(i)) : writer.Put(Key(i), Value(i, 90));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

// In the log: the compact put's second length byte.
Status WriteLongEntries(const std::string& path) {
  RobinHoodTableOptions rh = SmallBlocks();
  rh.page_layout = false;
  SstFileWriter writer(EnvOptions(), SstOptions(rh, kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 4; ++i) {
    // Keys of 127 bytes and more take the compact put's second length.
    const std::string key = Key(i) + std::string(125 + i, 'x');
    s = writer.Put(key, Value(i, 130 + 40 * i));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

Status WriteReverse(const std::string& path) {
  Options options = SstOptions(SmallBlocks(), kNoCompression);
  options.comparator = ReverseBytewiseComparator();
  SstFileWriter writer(EnvOptions(), options);
  Status s = writer.Open(path);
  for (int i = 29; s.ok() && i >= 0; --i) s = writer.Put(Key(i), Value(i, 9));
  if (s.ok()) s = writer.Finish();
  return s;
}

// Ingestion with write_global_seqno rewrites the property in the file after
// its checksum was taken: the reader has a path for exactly that.
Status WriteIngested(const std::string& dir, const std::string& path) {
  Options options = SstOptions(SmallBlocks(), kNoCompression);
  options.create_if_missing = true;
  const std::string db_path = dir + "/ingest-db";
  DestroyDB(db_path, options);
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, db_path, DBResult(&db));
  if (!s.ok()) return s;
  for (int i = 0; s.ok() && i < 5; ++i) {
    s = db->Put(WriteOptions(), Key(i), "x");  // so the global seqno is > 0
  }
  const std::string input = dir + "/ingest-input.sst";
  if (s.ok()) s = WriteWithSstFileWriter(input, kNoCompression);
  IngestExternalFileOptions ifo;
  ifo.move_files = false;
  ifo.write_global_seqno = true;
  if (s.ok()) s = db->IngestExternalFile({input}, ifo);
  Env::Default()->DeleteFile(input);
  std::vector<LiveFileMetaData> files;
  if (s.ok()) db->GetLiveFilesMetaData(&files);
  std::string ingested;
  for (const auto& f : files) {
    if (f.smallest_seqno == f.largest_seqno && f.smallest_seqno > 0) {
      ingested = f.db_path + "/" + f.name;
    }
  }
  if (s.ok() && ingested.empty()) s = Status::NotFound("no ingested file");
  std::string data;
  if (s.ok()) s = ReadFileToString(Env::Default(), ingested, &data);
  if (s.ok()) s = WriteStringToFile(Env::Default(), data, path, true);
  db.reset();
  DestroyDB(db_path, options);
  return s;
}

// `rechecksummed`: the crafted mode's Rechecksum must leave an intact file
// as it is (it would otherwise hand the fuzzer files it broke itself). Not
// for an ingested file, whose rewritten global seqno the reader accepts
// under a stale checksum.
int Check(const std::string& path, const Status& s, bool rechecksummed = true) {
  if (!s.ok()) {
    fprintf(stderr, "rh_fuzz_make_corpus: %s: %s\n", path.c_str(),
            s.ToString().c_str());
    return 1;
  }
  std::string data;
  if (rechecksummed && ReadFileToString(Env::Default(), path, &data).ok()) {
    std::string copy = data;
    rh_fuzz::Rechecksum(&copy);
    if (copy != data) {
      fprintf(stderr, "rh_fuzz_make_corpus: %s: Rechecksum changed an intact file\n",
              path.c_str());
      return 1;
    }
  }
  uint64_t size = 0;
  Env::Default()->GetFileSize(path, &size);
  printf("%s %llu bytes\n", path.c_str(),
         static_cast<unsigned long long>(size));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: rh_fuzz_make_corpus DIR\n");
    return 64;
  }
  const std::string dir = argv[1];
  int failed = 0;
  const std::vector<Entry> entries = BuilderEntries();
  const std::vector<Entry> range_dels = {
      {IKey(Key(3), 9000, kTypeRangeDeletion), Key(8)},
      {IKey(Key(6), 9001, kTypeRangeDeletion), Key(20)}};

  const std::pair<CompressionType, const char*> codecs[] = {
      {kNoCompression, "none"}, {kSnappyCompression, "snappy"},
      {kZlibCompression, "zlib"}, {kBZip2Compression, "bzip2"},
      {kLZ4Compression, "lz4"}, {kLZ4HCCompression, "lz4hc"},
      {kZSTD, "zstd"}};
  for (const auto& c : codecs) {
    if (!CompressionTypeSupported(c.first)) {
      printf("codec %s: not supported by this RocksDB, no seeds\n", c.second);
      continue;
    }
    const std::string name = dir + "/table-" + c.second;
    failed += Check(name, WriteWithBuilder(name, SmallBlocks(), c.first,
                                           entries, range_dels));
    failed += Check(name + "-norangedel",
                    WriteWithBuilder(name + "-norangedel", SmallBlocks(),
                                     c.first, entries, {}));
    const std::string sst = dir + "/sst-" + c.second;
    failed += Check(sst, WriteWithSstFileWriter(sst, c.first));
  }

  RobinHoodTableOptions interval1 = SmallBlocks();
  interval1.sparse_index_interval = 1;
  interval1.hash_seed = 0;
  failed += Check(dir + "/interval1",
                  WriteWithBuilder(dir + "/interval1", interval1,
                                   kNoCompression, entries, range_dels));
  RobinHoodTableOptions dense = SmallBlocks();
  dense.load_factor = 0.98;
  failed += Check(dir + "/dense", WriteWithBuilder(dir + "/dense", dense,
                                                   kNoCompression, entries, {}));
  RobinHoodTableOptions bloom = SmallBlocks();
  bloom.filter_policy = "bloomfilter:10";
  failed += Check(dir + "/bloom", WriteWithBuilder(dir + "/bloom", bloom,
                                                   kNoCompression, entries,
                                                   range_dels));
  failed += Check(dir + "/inline-ribbon",
                  WriteInline(dir + "/inline-ribbon", true, "ribbonfilter:10"));
  failed += Check(dir + "/empty", WriteWithBuilder(dir + "/empty", SmallBlocks(),
                                                   kNoCompression, {}, {}));
  failed += Check(dir + "/rangedel-only",
                  WriteWithBuilder(dir + "/rangedel-only", SmallBlocks(),
                                   kNoCompression, {}, range_dels));
  failed += Check(dir + "/long-entries", WriteLongEntries(dir + "/long-entries"));
  failed += Check(dir + "/inline", WriteInline(dir + "/inline", false));
  failed += Check(dir + "/inline-varying",
                  WriteInline(dir + "/inline-varying", true));
  failed += Check(dir + "/inline-keyorder",
                  WriteKeyOrder(dir + "/inline-keyorder", "ko"));
  failed += Check(dir + "/inline-keyorder-noprefix",
                  WriteKeyOrder(dir + "/inline-keyorder-noprefix", ""));
  failed += Check(dir + "/inline-longmap",
                  WriteLongMap(dir + "/inline-longmap"));
  failed += Check(dir + "/paged", WritePaged(dir + "/paged"));
  failed += Check(dir + "/paged-bloom",
                  WritePaged(dir + "/paged-bloom", "bloomfilter:10"));
  failed += Check(dir + "/paged-8k", WritePagedLargePages(dir + "/paged-8k"));
  failed += Check(dir + "/paged-log", WritePagedLog(dir + "/paged-log"));
  failed += Check(dir + "/paged-log-compressed",
                  WritePagedLogCompressed(dir + "/paged-log-compressed"));
  failed += Check(dir + "/reverse", WriteReverse(dir + "/reverse"));
  failed += Check(dir + "/ingested", WriteIngested(dir, dir + "/ingested"), false);
  return failed == 0 ? 0 : 1;
}
