// rh_sample: writes small RobinHoodTable SST files with known contents, for
// tests/inspect_test.sh and for trying rh_inspect by hand.
//
//   rh_sample DIR
//
// writes into DIR (which must exist):
//
//   sample.sst      SstFileWriter, log_block_size 512, no compression:
//                   keys key000000 .. key000999 (1000 entries, in order):
//                     i % 100 == 0   a deletion
//                     i % 100 == 50  a merge of "m<i>"
//                     otherwise      a put of "value-<i>"
//                   the binary key 00 ff 01 'b' 'i' 'n' -> bytes 00 01 02 fe ff
//                   the key "zz-\xc3\xa9t\xc3\xa9" (UTF-8 "zz-été") -> "summer"
//                   one range deletion [key000900, key000950)
//                   = 1002 point entries, 1002 distinct keys
//   compressed.sst  the same data with the first codec the RocksDB library
//                   supports among LZ4, Snappy, ZSTD, Zlib (not written if
//                   it supports none; the program says which it used)
//   versions.sst    a flush of a DB that held a snapshot after each write, so
//                   several versions of a key survive:
//                     apple: put "red" (seq 1), put "green" (2), merge "ripe"
//                            (3), delete (4), put "golden" (5)
//                     banana: put "yellow" (6), cherry: put "dark red" (7)
//                   = 7 entries, 3 distinct keys
//   ingested.sst    versions.sst's DB after 7 writes ingests a copy of a
//                   two-key SstFileWriter file (ant -> "6 legs", bee ->
//                   "buzz") with write_global_seqno, so the copy written
//                   here carries global seqno 8 in its properties
//   reverse.sst     SstFileWriter with ReverseBytewiseComparator: puts
//                   r099, r098, ..., r000 (the comparator's order), each
//                   -> "value-<key>": 100 entries in several log blocks
//   reverse_sorted.sst  the same entries, written with
//                   inline_order_array=false: readers sort them by the
//                   file's comparator; and a Bloom filter
//   keyorder.sst    SstFileWriter puts of 200 keys "ko" + 4 bytes spread
//                   evenly (key i: big-endian i * 21474836 + 7), each ->
//                   "v<i>": an inline file with its slots in key order
//   big_log.sst     SstFileWriter puts of 300,000 keys big0000000 ..
//                   big0299999, each -> "value-<i>", in the log layout
//                   (inline_slot_limit=0, page_layout=false): enough
//                   entries for verify to cut the scan into key ranges
//   big_inline.sst  the same entries in the inline layout
//   paged_log.sst   SstFileWriter, log_block_size 512: puts of 3,000 keys
//                   pg00000 .. pg02999, each -> 200 bytes "v<i>" padded
//                   with '.', but pg02000 -> 70,000 bytes of 'x', and the
//                   keys from pg02001 on whose i % 10 == 3 deleted, not
//                   put: pages of the first 2,000, a log of the rest
//   blockbased.sst  one put (key "a") in RocksDB's default BlockBasedTable
//                   format: an SST file that is not a RobinHoodTable file
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/join_merge_operator.h"
#include "util/compression.h"
#include "tools/common/db_open.h"

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {

int Fail(const std::string& what, const Status& s) {
  fprintf(stderr, "rh_sample: %s: %s\n", what.c_str(), s.ToString().c_str());
  return 1;
}

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

Options TableOptions(CompressionType compression, bool order_array = true) {
  RobinHoodTableOptions rh;
  rh.inline_order_array = order_array;
  if (!order_array) rh.filter_policy = "bloomfilter:10";
  rh.log_block_size = 512;
  rh.load_factor = 0.85;
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory(rh));
  options.compression = compression;
  // Only needed so the DB accepts merges.
  options.merge_operator =
      std::make_shared<test_util::JoinMergeOperator>(',', "RhSampleJoin");
  return options;
}

Status WriteSample(const std::string& path, CompressionType compression) {
  const EnvOptions env_options;
  const Options options = TableOptions(compression);
  SstFileWriter writer(env_options, options);
  Status s = writer.Open(path);
  // Bytewise order: the binary key (00 ...) first, then key..., then zz-...
  const std::string binary_key("\x00\xff\x01" "bin", 6);
  const std::string binary_value("\x00\x01\x02\xfe\xff", 5);
  if (s.ok()) s = writer.Put(binary_key, binary_value);
  for (int i = 0; s.ok() && i < 1000; ++i) {
    if (i % 100 == 0) {
      s = writer.Delete(Key(i));
    } else if (i % 100 == 50) {
      s = writer.Merge(Key(i), "m" + std::to_string(i));
    } else {
      s = writer.Put(Key(i), "value-" + std::to_string(i));
    }
  }
  if (s.ok()) s = writer.Put("zz-\xc3\xa9t\xc3\xa9", "summer");
  if (s.ok()) s = writer.DeleteRange(Key(900), Key(950));
  if (s.ok()) s = writer.Finish();
  return s;
}

// Keys in the reverse bytewise order the file's comparator defines.
Status WriteReverse(const std::string& path, bool order_array) {
  const EnvOptions env_options;
  Options options = TableOptions(kNoCompression, order_array);
  options.comparator = ReverseBytewiseComparator();
  SstFileWriter writer(env_options, options);
  Status s = writer.Open(path);
  for (int i = 99; s.ok() && i >= 0; --i) {
    char key[8];
    snprintf(key, sizeof(key), "r%03d", i);
    s = writer.Put(key, std::string("value-") + key);
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

// Pages, then a log from the entry no page takes.
Status WritePagedLog(const std::string& path) {
  const EnvOptions env_options;
  SstFileWriter writer(env_options, TableOptions(kNoCompression));
  Status s = writer.Open(path);
  for (int i = 0; s.ok() && i < 3000; ++i) {
    char key[16];
    snprintf(key, sizeof(key), "pg%05d", i);
    if (i > 2000 && i % 10 == 3) {
      s = writer.Delete(key);
      continue;
    }
    std::string value = "v" + std::to_string(i);
    value.resize(200, '.');
    if (i == 2000) value.assign(70000, 'x');
    s = writer.Put(key, value);
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

// Keys spread evenly over their range: an inline file in key order.
Status WriteKeyOrder(const std::string& path) {
  const EnvOptions env_options;
  SstFileWriter writer(env_options, TableOptions(kNoCompression));
  Status s = writer.Open(path);
  for (uint32_t i = 0; s.ok() && i < 200; ++i) {
    const uint32_t x = i * 21474836u + 7;
    std::string key = "ko";
    for (int b = 3; b >= 0; --b) key.push_back(static_cast<char>(x >> (8 * b)));
    s = writer.Put(key, "v" + std::to_string(i));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

Status WriteBig(const std::string& path, bool log) {
  RobinHoodTableOptions rh;
  if (log) {
    rh.inline_slot_limit = 0;
    rh.page_layout = false;
  }
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory(rh));
  options.compression = kNoCompression;
  SstFileWriter writer(EnvOptions(), options);
  Status s = writer.Open(path);
  char key[16];
  for (int i = 0; s.ok() && i < 300000; ++i) {
    snprintf(key, sizeof(key), "big%07d", i);
    s = writer.Put(key, "value-" + std::to_string(i));
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

Status WriteVersions(const std::string& dir, const std::string& path) {
  Options options = TableOptions(kNoCompression);
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  const std::string db_path = dir + "/versions-db";
  DestroyDB(db_path, options);
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, db_path, DBResult(&db));
  if (!s.ok()) return s;
  std::vector<const Snapshot*> snapshots;
  const WriteOptions wo;
  auto step = [&](Status st) {
    if (st.ok()) snapshots.push_back(db->GetSnapshot());
    return st;
  };
  s = step(db->Put(wo, "apple", "red"));
  if (s.ok()) s = step(db->Put(wo, "apple", "green"));
  if (s.ok()) s = step(db->Merge(wo, "apple", "ripe"));
  if (s.ok()) s = step(db->Delete(wo, "apple"));
  if (s.ok()) s = db->Put(wo, "apple", "golden");
  if (s.ok()) s = db->Put(wo, "banana", "yellow");
  if (s.ok()) s = db->Put(wo, "cherry", "dark red");
  if (s.ok()) s = db->Flush(FlushOptions());
  std::vector<LiveFileMetaData> files;
  if (s.ok()) db->GetLiveFilesMetaData(&files);
  if (s.ok()) {
    // Ingestion rewrites the global seqno in the file in place.
    const std::string ingest = dir + "/ingest-input.sst";
    const EnvOptions env_options;
    SstFileWriter writer(env_options, options);
    s = writer.Open(ingest);
    if (s.ok()) s = writer.Put("ant", "6 legs");
    if (s.ok()) s = writer.Put("bee", "buzz");
    if (s.ok()) s = writer.Finish();
    IngestExternalFileOptions ifo;
    ifo.move_files = false;
    ifo.write_global_seqno = true;
    ifo.ingest_behind = false;
    if (s.ok()) s = db->IngestExternalFile({ingest}, ifo);
    Env::Default()->DeleteFile(ingest);
  }
  std::string ingested;
  if (s.ok()) {
    db->GetLiveFilesMetaData(&files);
    for (const auto& f : files) {
      if (f.smallest_seqno == 8 && f.largest_seqno == 8) {
        ingested = f.db_path + "/" + f.name;
      }
    }
    files.clear();
    if (ingested.empty()) s = Status::Corruption("no ingested file at seqno 8");
  }
  if (s.ok()) {
    std::string data;
    s = ReadFileToString(Env::Default(), ingested, &data);
    if (s.ok()) {
      s = WriteStringToFile(Env::Default(), data, dir + "/ingested.sst", true);
    }
  }
  if (s.ok()) {
    db->GetLiveFilesMetaData(&files);
    files.erase(std::remove_if(files.begin(), files.end(),
                               [&](const LiveFileMetaData& f) {
                                 return f.db_path + "/" + f.name == ingested;
                               }),
                files.end());
  }
  if (s.ok() && files.size() != 1) {
    s = Status::Corruption("expected one SST file after the flush, found " +
                           std::to_string(files.size()));
  }
  if (s.ok()) {
    std::string data;
    s = ReadFileToString(Env::Default(),
                         files[0].db_path + "/" + files[0].name, &data);
    if (s.ok()) s = WriteStringToFile(Env::Default(), data, path, true);
  }
  for (const Snapshot* snap : snapshots) db->ReleaseSnapshot(snap);
  db.reset();
  DestroyDB(db_path, options);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: rh_sample DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  Status s = WriteSample(dir + "/sample.sst", kNoCompression);
  if (!s.ok()) return Fail(dir + "/sample.sst", s);
  printf("wrote %s/sample.sst\n", dir.c_str());

  const std::vector<CompressionType> supported = GetSupportedCompressions();
  for (CompressionType c : {kLZ4Compression, kSnappyCompression,
                            kZSTD, kZlibCompression}) {
    bool ok = false;
    for (CompressionType t : supported) ok |= t == c;
    if (!ok) continue;
    s = WriteSample(dir + "/compressed.sst", c);
    if (!s.ok()) return Fail(dir + "/compressed.sst", s);
    printf("wrote %s/compressed.sst (%s)\n", dir.c_str(),
           CompressionTypeToString(c).c_str());
    break;
  }

  {
    const EnvOptions env_options;
    const Options block_based;  // RocksDB's default table format
    SstFileWriter writer(env_options, block_based);
    s = writer.Open(dir + "/blockbased.sst");
    if (s.ok()) s = writer.Put("a", "1");
    if (s.ok()) s = writer.Finish();
    if (!s.ok()) return Fail(dir + "/blockbased.sst", s);
    printf("wrote %s/blockbased.sst\n", dir.c_str());
  }

  s = WriteReverse(dir + "/reverse.sst", true);
  if (!s.ok()) return Fail(dir + "/reverse.sst", s);
  printf("wrote %s/reverse.sst\n", dir.c_str());
  s = WriteReverse(dir + "/reverse_sorted.sst", false);
  if (!s.ok()) return Fail(dir + "/reverse_sorted.sst", s);
  printf("wrote %s/reverse_sorted.sst\n", dir.c_str());
  s = WriteKeyOrder(dir + "/keyorder.sst");
  if (!s.ok()) return Fail(dir + "/keyorder.sst", s);
  printf("wrote %s/keyorder.sst\n", dir.c_str());
  s = WritePagedLog(dir + "/paged_log.sst");
  if (!s.ok()) return Fail(dir + "/paged_log.sst", s);
  printf("wrote %s/paged_log.sst\n", dir.c_str());
  for (bool log : {true, false}) {
    const std::string big = dir + (log ? "/big_log.sst" : "/big_inline.sst");
    s = WriteBig(big, log);
    if (!s.ok()) return Fail(big, s);
    printf("wrote %s\n", big.c_str());
  }

  s = WriteVersions(dir, dir + "/versions.sst");
  if (!s.ok()) return Fail(dir + "/versions.sst", s);
  printf("wrote %s/versions.sst and %s/ingested.sst\n", dir.c_str(),
         dir.c_str());
  return 0;
}
