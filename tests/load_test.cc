// rh_load's library: the run record coding, the sort buffer, run files, the
// merge and its duplicate policies, each input format's parser and its
// refusals, and whole loads checked against a std::map: sorted and
// unsorted input, runs spilled and merged, one and several threads, files
// that do not overlap, ingestion into the bottom level at sequence 0.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"
#include "tools/load/input_reader.h"
#include "tools/load/loader.h"
#include "tools/load/merger.h"
#include "tools/load/run_file.h"
#include "tools/load/sort_buffer.h"
#include "util/coding.h"

namespace rh_load {
namespace {

using namespace ROCKSDB_NAMESPACE;
using Pairs = std::vector<std::pair<std::string, std::string>>;

std::string Temp(const std::string& name) {
  return test_util::TempPath("load", name);
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

using test_util::RemoveTree;

// Every entry an input reader gives, or its error.
Status ReadAll(InputFormat format, const std::string& bytes, Pairs* out) {
  const std::string path = Temp("input");
  WriteFile(path, bytes);
  std::unique_ptr<InputReader> r;
  Status s = OpenInput(format, path, "default", &r);
  for (bool has = true; s.ok();) {
    Slice k, v;
    s = r->Next(&k, &v, &has);
    if (!s.ok() || !has) break;
    out->emplace_back(k.ToString(), v.ToString());
  }
  unlink(path.c_str());
  return s;
}

// --- The coding and the sort buffer ---

TEST(RunRecordTest, RoundTripsAndKnowsWhenCut) {
  RunRecord r;
  const std::string value(300, 'v');
  r.key = "key";
  r.value = value;
  r.ordinal = 1234567890123ull;
  std::string bytes;
  AppendRecord(&bytes, r);
  size_t need = 0;
  ASSERT_TRUE(WholeRecord(bytes, &need));
  EXPECT_EQ(bytes.size(), need);
  for (size_t cut = 0; cut < bytes.size(); cut++) {
    EXPECT_FALSE(WholeRecord(Slice(bytes.data(), cut), &need)) << cut;
    Slice in(bytes.data(), cut);
    RunRecord d;
    EXPECT_TRUE(DecodeRecord(&in, &d).IsCorruption()) << cut;
  }
  Slice in(bytes);
  RunRecord d;
  ASSERT_OK(DecodeRecord(&in, &d));
  EXPECT_EQ("key", d.key.ToString());
  EXPECT_EQ(r.value.ToString(), d.value.ToString());
  EXPECT_EQ(r.ordinal, d.ordinal);
  EXPECT_TRUE(in.empty());
}

// Keys that tie on their first 8 bytes, or are prefixes of one another,
// take the sort's second comparison; duplicates stay in input order.
Pairs TrickyKeys(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Pairs out;
  for (size_t i = 0; i < n; i++) {
    std::string k;
    switch (rng() % 4) {
      case 0: k = "sharedprefix" + std::to_string(rng() % (n / 2 + 1)); break;
      case 1: k = std::string(rng() % 12, '\0'); break;
      case 2: k = std::string(8, '\xff') + char(rng() % 4); break;
      default: PutFixed64(&k, rng() % (n + 1)); break;
    }
    out.emplace_back(k, "v" + std::to_string(i));
  }
  return out;
}

TEST(SortBufferTest, SortsByKeyThenInputOrder) {
  const Pairs in = TrickyKeys(20000, 1);
  SortBuffer buf(size_t(64) << 20);
  for (size_t i = 0; i < in.size(); i++) ASSERT_TRUE(buf.Add(in[i].first, in[i].second, i));
  buf.Sort();
  ASSERT_EQ(in.size(), buf.size());
  std::vector<size_t> order(in.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return in[a].first < in[b].first; });
  for (size_t i = 0; i < order.size(); i++) {
    const RunRecord r = buf.At(i);
    ASSERT_EQ(order[i], r.ordinal) << i;
    ASSERT_EQ(in[order[i]].first, r.key.ToString());
    ASSERT_EQ(in[order[i]].second, r.value.ToString());
  }
  EXPECT_EQ(0u, buf.LowerBound(""));
  EXPECT_EQ(buf.size(), buf.LowerBound(std::string(20, '\xff')));
}

TEST(SortBufferTest, StaysWithinItsBudget) {
  const size_t budget = size_t(1) << 20;
  SortBuffer buf(budget);
  size_t added = 0;
  while (buf.Add("key" + std::to_string(added), std::string(20, 'v'), added)) added++;
  EXPECT_GT(added, 10000u);
  buf.Sort();
  EXPECT_LE(buf.MemoryUsage(), budget);
  // Cleared, it keeps its chunks, and refills within the budget whatever
  // the entries' sizes now.
  const size_t kept = buf.MemoryUsage();
  buf.Clear();
  EXPECT_GT(buf.MemoryUsage(), kept / 2);
  for (size_t size : {size_t(3000), size_t(1), size_t(70000)}) {
    buf.Clear();
    size_t n = 0;
    while (buf.Add("k" + std::to_string(n), std::string(size, 'v'), n)) n++;
    EXPECT_GT(n, 10u) << size;
    buf.Sort();
    EXPECT_LE(buf.MemoryUsage(), budget) << size;
    for (size_t i = 0; i < n; i += 7) ASSERT_EQ(size, buf.At(i).value.size());
  }
  // An empty buffer takes an entry larger than its budget.
  buf.Release();
  EXPECT_EQ(0u, buf.MemoryUsage());
  EXPECT_TRUE(buf.Add("k", std::string(budget * 2, 'v'), 0));
  EXPECT_FALSE(buf.Add("k2", "v", 1));
}

// --- Runs and the merge ---

TEST(RunFileTest, SeeksAndReadsWithRefills) {
  const Pairs in = TrickyKeys(30000, 2);
  SortBuffer buf(size_t(64) << 20);
  for (size_t i = 0; i < in.size(); i++) ASSERT_TRUE(buf.Add(in[i].first, in[i].second, i));
  buf.Sort();
  const std::string path = Temp("run");
  RunWriter w;
  ASSERT_OK(w.Open(path));
  for (size_t i = 0; i < buf.size(); i++) ASSERT_OK(w.Add(buf.At(i)));
  RunInfo run;
  ASSERT_OK(w.Finish(&run));
  EXPECT_EQ(in.size(), run.records);
  EXPECT_GE(run.index.size(), 7u);
  // Seek to every mark's key (equal keys may precede a mark) and to
  // keys between and beyond.
  std::vector<std::string> targets = {"", std::string(30, '\xff')};
  for (const auto& m : run.index) targets.push_back(m.key);
  for (size_t i = 0; i < in.size(); i += 997) targets.push_back(in[i].first + '\0');
  auto source = NewRunSource(&run, 4096);  // refills every few records
  for (const auto& t : targets) {
    ASSERT_OK(source->Seek(t));
    const size_t want = buf.LowerBound(t);
    for (size_t i = want; i < std::min(buf.size(), want + 5000); i++) {
      ASSERT_TRUE(source->Valid());
      ASSERT_EQ(buf.At(i).ordinal, source->record().ordinal);
      ASSERT_OK(source->Next());
    }
    if (want + 5000 >= buf.size()) {
      EXPECT_FALSE(source->Valid());
    }
  }
  unlink(path.c_str());
}

TEST(MergerTest, ResolvesDuplicatesByPolicyWithinARange) {
  // Three buffers: the input split in three, as three runs would hold it.
  const Pairs in = TrickyKeys(9000, 3);
  std::vector<std::unique_ptr<SortBuffer>> bufs;
  for (int b = 0; b < 3; b++) {
    bufs.push_back(std::make_unique<SortBuffer>(size_t(16) << 20));
    for (size_t i = size_t(b) * 3000; i < size_t(b + 1) * 3000; i++) {
      ASSERT_TRUE(bufs.back()->Add(in[i].first, in[i].second, i));
    }
    bufs.back()->Sort();
  }
  for (OnDuplicate policy : {OnDuplicate::kLast, OnDuplicate::kFirst}) {
    std::map<std::string, std::string> model;
    for (const auto& p : in) {
      if (policy == OnDuplicate::kLast || !model.count(p.first)) model[p.first] = p.second;
    }
    const std::string lo = "sharedprefix2", hi = std::string(8, '\xff');
    std::vector<std::unique_ptr<SortedSource>> src;
    for (const auto& b : bufs) src.push_back(NewMemorySource(b.get()));
    Merger m(std::move(src), policy, &hi, [](uint64_t o) { return std::to_string(o); });
    ASSERT_OK(m.Seek(lo));
    auto it = model.lower_bound(lo);
    for (bool has = true;;) {
      ASSERT_OK(m.Next(&has));
      if (!has) break;
      ASSERT_NE(model.end(), it);
      ASSERT_EQ(it->first, m.key().ToString());
      ASSERT_EQ(it->second, m.value().ToString());
      ++it;
    }
    EXPECT_TRUE(it == model.end() || it->first >= hi);
  }
  std::vector<std::unique_ptr<SortedSource>> src;
  for (const auto& b : bufs) src.push_back(NewMemorySource(b.get()));
  Merger m(std::move(src), OnDuplicate::kError, nullptr,
           [](uint64_t o) { return "entry " + std::to_string(o); });
  ASSERT_OK(m.Seek(""));
  Status s;
  for (bool has = true; s.ok() && has;) s = m.Next(&has);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("duplicate key")) << s.ToString();
}

// --- The input formats ---

TEST(InputFormatTest, TsvEscapesAndLineEnds) {
  Pairs out;
  ASSERT_OK(ReadAll(InputFormat::kTsv,
                    "a\t1\n"
                    "\tempty key\r\n"
                    "tab\\there\tnl\\nhere\\\\\n"
                    "bytes\\x00\\xfF\\0\tv\\r\n"
                    "last\tno newline",
                    &out));
  const Pairs want = {{"a", "1"},
                      {"", "empty key"},
                      {"tab\there", "nl\nhere\\"},
                      {std::string("bytes\0\xff\0", 8), "v\r"},
                      {"last", "no newline"}};
  EXPECT_EQ(want, out);
}

TEST(InputFormatTest, TsvRefusalsNameFileLineAndOffset) {
  struct Case {
    const char* bytes;
    const char* where;
    const char* what;
  } cases[] = {
      {"a\t1\nno tab here\n", "line 2, byte 4", "no TAB"},
      {"a\t1\n\n", "line 2, byte 4", "empty line"},
      {"a\t1\tb\n", "line 1, byte 0", "a second TAB"},
      {"ok\t1\nk\\q\tv\n", "line 2, byte 5", "unknown escape in the key"},
      {"k\tv\\x4\n", "line 1, byte 0", "two hex digits"},
      {"k\tv\\", "line 1, byte 0", "unknown escape in the value"},
  };
  for (const auto& c : cases) {
    Pairs out;
    const Status s = ReadAll(InputFormat::kTsv, c.bytes, &out);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.bytes;
    EXPECT_NE(std::string::npos, s.ToString().find(c.where)) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.what)) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("_input: ")) << s.ToString();
  }
}

TEST(InputFormatTest, CsvQuotingAsRfc4180) {
  Pairs out;
  ASSERT_OK(ReadAll(InputFormat::kCsv,
                    "a,1\r\n"
                    "\"with,comma\",\"say \"\"hi\"\"\"\n"
                    "\"multi\nline\",\xff\xfe\n"
                    ",\n"
                    "\"\",\"\"\n"
                    "last,\"no newline\"",
                    &out));
  const Pairs want = {{"a", "1"},           {"with,comma", "say \"hi\""},
                      {"multi\nline", "\xff\xfe"}, {"", ""},
                      {"", ""},             {"last", "no newline"}};
  EXPECT_EQ(want, out);
}

TEST(InputFormatTest, CsvRefusals) {
  struct Case {
    const char* bytes;
    const char* where;
    const char* what;
  } cases[] = {
      {"a,1\nonly\n", "record 2, byte 4", "one field"},
      {"a,1,2\n", "record 1, byte 0", "more than two fields"},
      {"a,b\"c\n", "record 1, byte 0", "a quote inside an unquoted field"},
      {"a,1\n\"open,2\n", "record 2, byte 4", "not closed"},
      {"\"a\"x,1\n", "record 1, byte 0", "followed by a comma"},
  };
  for (const auto& c : cases) {
    Pairs out;
    const Status s = ReadAll(InputFormat::kCsv, c.bytes, &out);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.bytes;
    EXPECT_NE(std::string::npos, s.ToString().find(c.where)) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.what)) << s.ToString();
  }
}

std::string BinaryRecord(const std::string& k, const std::string& v) {
  std::string out;
  PutFixed32(&out, uint32_t(k.size()));
  PutFixed32(&out, uint32_t(v.size()));
  return out + k + v;
}

TEST(InputFormatTest, BinaryRecordsAndTheirRefusals) {
  Pairs out;
  const std::string good = BinaryRecord("k1", "v1") + BinaryRecord("", "") +
                           BinaryRecord(std::string(1, '\0'), std::string(70000, 'x'));
  ASSERT_OK(ReadAll(InputFormat::kBinary, good, &out));
  ASSERT_EQ(3u, out.size());
  EXPECT_EQ(std::string(70000, 'x'), out[2].second);

  out.clear();
  Status s = ReadAll(InputFormat::kBinary, good + std::string("\x01\x00", 2), &out);
  EXPECT_NE(std::string::npos, s.ToString().find("record 4, byte 70029: record cut short"))
      << s.ToString();
  s = ReadAll(InputFormat::kBinary, BinaryRecord("k", "v").substr(0, 9), &out);
  EXPECT_NE(std::string::npos, s.ToString().find("record 1, byte 0: record cut short"))
      << s.ToString();
  std::string huge;
  PutFixed32(&huge, 1);
  PutFixed32(&huge, 0xffffffffu);
  s = ReadAll(InputFormat::kBinary, huge + "k", &out);
  EXPECT_NE(std::string::npos, s.ToString().find("larger than the limit")) << s.ToString();
}

// --- Whole loads ---

struct LoadCase {
  InputFormat format;
  uint64_t memory_limit;
  int threads;
  uint64_t target_file_size;
  OnDuplicate policy;
  bool sorted;
};

std::string Encode(InputFormat format, const Pairs& pairs) {
  std::string out;
  for (const auto& p : pairs) {
    if (format == InputFormat::kBinary) {
      out += BinaryRecord(p.first, p.second);
    } else if (format == InputFormat::kTsv) {
      // Keys and values here are printable without TAB, LF or backslash.
      out += p.first + "\t" + p.second + "\n";
    } else {
      out += "\"" + p.first + "\"," + p.second + "\r\n";
    }
  }
  return out;
}

// Entries of printable keys (so every format can carry them), some given
// twice, shuffled unless `sorted`.
Pairs LoadInput(size_t n, bool sorted, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Pairs out;
  for (size_t i = 0; i < n; i++) {
    const uint64_t k = rng() % (n * 4);
    char key[32];
    snprintf(key, sizeof(key), "user%012llu", (unsigned long long)k);
    out.emplace_back(key, "value-" + std::to_string(i) + std::string(rng() % 24, 'x'));
  }
  if (sorted) {
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  return out;
}

std::map<std::string, std::string> Model(const Pairs& in, OnDuplicate policy) {
  std::map<std::string, std::string> m;
  for (const auto& p : in) {
    if (policy == OnDuplicate::kLast || !m.count(p.first)) m[p.first] = p.second;
  }
  return m;
}

// The files' entries, in file order, checked to be non-overlapping.
Pairs ReadFiles(const std::vector<std::string>& files) {
  Pairs out;
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory());
  for (const auto& f : files) {
    SstFileReader reader(options);
    EXPECT_OK(reader.Open(f));
    EXPECT_OK(reader.VerifyChecksum());
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    const size_t before = out.size();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      EXPECT_TRUE(out.empty() || out.back().first < it->key().ToString())
          << "files overlap or are out of order at " << f;
      out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    EXPECT_OK(it->status());
    EXPECT_GT(out.size(), before) << f << " is empty";
  }
  return out;
}

class LoadTest : public testing::TestWithParam<LoadCase> {};

TEST_P(LoadTest, FilesHoldTheModelAndIngestIntoTheBottomLevel) {
  const LoadCase c = GetParam();
  const Pairs in = LoadInput(120000, c.sorted, 7);
  const std::string dir = Temp("case");
  RemoveTree(dir);
  ASSERT_EQ(0, mkdir(dir.c_str(), 0755));
  // Two input files, so ordinals and names cross a file boundary.
  LoadOptions o;
  const size_t half = in.size() / 2;
  o.inputs = {dir + "/in1", dir + "/in2"};
  WriteFile(o.inputs[0], Encode(c.format, Pairs(in.begin(), in.begin() + long(half))));
  WriteFile(o.inputs[1], Encode(c.format, Pairs(in.begin() + long(half), in.end())));
  o.format = c.format;
  o.output_dir = dir + "/out";
  o.tmp_dir = dir + "/tmp";
  o.memory_limit = c.memory_limit;
  o.threads = c.threads;
  o.target_file_size = c.target_file_size;
  o.on_duplicate = c.policy;
  o.db = dir + "/db";
  LoadSummary sum;
  ASSERT_OK(Load(o, &sum));
  const auto model = Model(in, c.policy);
  EXPECT_EQ(in.size(), sum.entries_read);
  EXPECT_EQ(model.size(), sum.entries);
  // 16 MiB holds about 8 MiB of entries: 120,000 in two buffers spill.
  if (c.memory_limit <= (uint64_t(16) << 20) && c.threads > 1) {
    EXPECT_GE(sum.runs, 2u);
  }
  if (c.target_file_size < (uint64_t(1) << 20)) {
    EXPECT_GE(sum.files.size(), 4u);
  }
  EXPECT_EQ(std::vector<std::string>{}, test_util::ListDir(dir + "/tmp")) << "runs left behind";
  // Ingested with move_files: the DB holds the files now.
  std::unique_ptr<DB> db;
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory());
  ASSERT_OK(test_util::OpenDB(options, o.db, &db));
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  size_t files = 0;
  for (const auto& level : meta.levels) {
    if (level.level != options.num_levels - 1) {
      EXPECT_TRUE(level.files.empty()) << "files in level " << level.level;
    }
    for (const auto& f : level.files) {
      EXPECT_EQ(0u, f.largest_seqno) << f.name;
      files++;
    }
  }
  EXPECT_EQ(sum.files.size(), files);
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  auto m = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
    ASSERT_NE(model.end(), m);
    ASSERT_EQ(m->first, it->key().ToString());
    ASSERT_EQ(m->second, it->value().ToString());
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(model.end(), m);
  size_t i = 0;
  for (const auto& p : model) {
    if (i++ % 97 != 0) continue;
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), p.first, &v));
    EXPECT_EQ(p.second, v);
  }
  it.reset();
  db.reset();
  RemoveTree(dir);
}

INSTANTIATE_TEST_CASE_P(
    Cases, LoadTest,
    testing::Values(
        // Everything in memory, one file.
        LoadCase{InputFormat::kTsv, uint64_t(1) << 30, 1, uint64_t(256) << 20,
                 OnDuplicate::kLast, false},
        // Runs spilled and merged, many small files, two threads.
        LoadCase{InputFormat::kBinary, uint64_t(16) << 20, 2, uint64_t(64) << 10,
                 OnDuplicate::kFirst, false},
        LoadCase{InputFormat::kCsv, uint64_t(16) << 20, 1, uint64_t(256) << 10,
                 OnDuplicate::kLast, false},
        LoadCase{InputFormat::kTsv, uint64_t(16) << 20, 3, uint64_t(128) << 10,
                 OnDuplicate::kLast, true}));

class LoadDirTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = Temp(testing::UnitTest::GetInstance()->current_test_info()->name());
    RemoveTree(dir_);
    ASSERT_EQ(0, mkdir(dir_.c_str(), 0755));
  }
  void TearDown() override { RemoveTree(dir_); }
  LoadOptions MakeOptions(const std::string& input_bytes, InputFormat format) {
    LoadOptions o;
    o.inputs = {dir_ + "/in"};
    WriteFile(o.inputs[0], input_bytes);
    o.format = format;
    o.output_dir = dir_ + "/out";
    return o;
  }
  std::string dir_;
};

TEST_F(LoadDirTest, BadInputLeavesNothingBehind) {
  // Enough good lines first that runs are spilled before the bad one.
  std::string bytes = Encode(InputFormat::kTsv, LoadInput(200000, false, 9));
  bytes += "no tab\n";
  LoadOptions o = MakeOptions(bytes, InputFormat::kTsv);
  o.memory_limit = uint64_t(16) << 20;
  o.tmp_dir = dir_ + "/tmp";
  LoadSummary sum;
  const Status s = Load(o, &sum);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find(dir_ + "/in: line 200001, byte "))
      << s.ToString();
  EXPECT_EQ(std::vector<std::string>{}, test_util::ListDir(o.output_dir));
  EXPECT_EQ(std::vector<std::string>{}, test_util::ListDir(o.tmp_dir));
}

TEST_F(LoadDirTest, DuplicateErrorNamesBothPlaces) {
  LoadOptions o = MakeOptions("a\t1\nb\t2\nc\t3\nb\t4\n", InputFormat::kTsv);
  o.on_duplicate = OnDuplicate::kError;
  LoadSummary sum;
  const Status s = Load(o, &sum);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos,
            s.ToString().find("at " + dir_ + "/in line 2 and at " + dir_ + "/in line 4"))
      << s.ToString();
  EXPECT_EQ(std::vector<std::string>{}, test_util::ListDir(o.output_dir));
}

TEST_F(LoadDirTest, RefusesBadOptionsByName) {
  LoadSummary sum;
  LoadOptions o = MakeOptions("a\t1\n", InputFormat::kTsv);
  o.table_options = "load_factor=1.5";
  Status s = Load(o, &sum);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("--options")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("load_factor")) << s.ToString();
  o = MakeOptions("a\t1\n", InputFormat::kTsv);
  o.compression = "lzma";
  s = Load(o, &sum);
  EXPECT_NE(std::string::npos, s.ToString().find("--compression")) << s.ToString();
  o = MakeOptions("a\t1\n", InputFormat::kTsv);
  o.memory_limit = 1000;
  s = Load(o, &sum);
  EXPECT_NE(std::string::npos, s.ToString().find("--memory_limit")) << s.ToString();
  // A directory that already holds output is refused, not overwritten.
  o = MakeOptions("a\t1\n", InputFormat::kTsv);
  ASSERT_OK(Load(o, &sum));
  s = Load(o, &sum);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("already holds part-000001.sst"))
      << s.ToString();
  EXPECT_EQ(std::vector<std::string>{"part-000001.sst"}, test_util::ListDir(o.output_dir));
}

// A file that outgrows its builder's share of --memory_limit is not cut:
// the builder spills to the temporary directory and stays within the
// share, and the DB the files go to keeps no bound in its options.
TEST_F(LoadDirTest, BuilderSpillsInsteadOfCuttingTheFile) {
  Pairs in;
  for (int i = 0; i < 1200000; i++) {
    char key[16];
    snprintf(key, sizeof(key), "k%09d", i);
    in.emplace_back(key, std::string(16, char('a' + i % 26)));
  }
  LoadOptions o = MakeOptions(Encode(InputFormat::kBinary, in), InputFormat::kBinary);
  o.memory_limit = uint64_t(64) << 20;  // a builder's share: 32 MiB
  o.threads = 1;
  o.target_file_size = uint64_t(1) << 30;
  o.tmp_dir = dir_ + "/tmp";
  o.db = dir_ + "/db";
  LoadSummary sum;
  ASSERT_OK(Load(o, &sum));
  ASSERT_EQ(1u, sum.files.size());
  EXPECT_FALSE(sum.files_cut_by_memory);
  EXPECT_EQ(std::vector<std::string>{}, test_util::ListDir(o.tmp_dir));
  std::unique_ptr<DB> db;
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory());
  ASSERT_OK(test_util::OpenDB(options, o.db, &db));
  TablePropertiesCollection props;
  ASSERT_OK(db->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(1u, props.size());
  const auto& user = props.begin()->second->user_collected_properties;
  // Unbounded, this file's builder holds its ~41 MB of inline entries.
  EXPECT_LE(std::stoull(user.at(RobinHoodTablePropertyNames::kBuilderPeakBytes)),
            uint64_t(32) << 20);
  EXPECT_EQ(in.size(), std::stoull(user.at(RobinHoodTablePropertyNames::kDistinctKeys)));
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), "k000777777", &v));
  EXPECT_EQ(std::string(16, char('a' + 777777 % 26)), v);
  db.reset();
  // The DB's own options never saw the builders' bound.
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> cfs;
  ConfigOptions config;
  ASSERT_OK(LoadLatestOptions(config, o.db, &db_options, &cfs));
  const auto* rh = cfs[0].options.table_factory->GetOptions<RobinHoodTableOptions>();
  ASSERT_NE(nullptr, rh);
  EXPECT_EQ(0u, rh->build_memory_limit);
  EXPECT_EQ("", rh->build_spill_dir);
}

// A DB in another table format rebuilt as RobinHoodTable files.
TEST_F(LoadDirTest, RebuildsAnExistingDb) {
  const std::string src = dir_ + "/src";
  std::map<std::string, std::string> model;
  {
    ROCKSDB_NAMESPACE::Options options;
    options.create_if_missing = true;
    std::unique_ptr<DB> db;
    ASSERT_OK(test_util::OpenDB(options, src, &db));
    for (const auto& p : LoadInput(30000, false, 11)) {
      ASSERT_OK(db->Put(WriteOptions(), p.first, p.second));
      model[p.first] = p.second;
    }
    ASSERT_OK(db->Delete(WriteOptions(), model.begin()->first));
    model.erase(model.begin());
    ASSERT_OK(db->Flush(FlushOptions()));
  }
  LoadOptions o;
  o.inputs = {src};
  o.format = InputFormat::kDb;
  o.output_dir = dir_ + "/out";
  o.target_file_size = uint64_t(256) << 10;
  LoadSummary sum;
  ASSERT_OK(Load(o, &sum));
  const Pairs got = ReadFiles(sum.files);
  EXPECT_EQ(Pairs(model.begin(), model.end()), got);
}

}  // namespace
}  // namespace rh_load
