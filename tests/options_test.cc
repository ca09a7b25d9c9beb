// Configuration tests: RobinHoodTable from options strings, its registered
// options, printing, refusal of bad values (naming the option), the OPTIONS
// file round trip, and ToString/CreateFromString round trips. Public RocksDB
// API and our public header only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"
#include "tools/common/db_open.h"

namespace ROCKSDB_NAMESPACE {
using robinhood::DBResult;
namespace {

constexpr const char* kOurProperty = RobinHoodTablePropertyNames::kFormatVersion;

ConfigOptions StrictConfig() {
  ConfigOptions config;
  config.ignore_unknown_options = false;
  config.ignore_unsupported_options = false;
  config.invoke_prepare_options = true;
  return config;
}

std::string TempPath(const std::string& name) {
  return test_util::TempPath("options_test", name);
}

// Removes a DB on every path out of a test (declared first, runs last).
struct DBRemover {
  std::string path;
  ~DBRemover() { DestroyDB(path, Options()).PermitUncheckedError(); }
};

// Opens a DB at `path` (which writes and checks an OPTIONS file), puts
// `n` keys, flushes and closes it.
void FillAndClose(const Options& options, const std::string& path, int n) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, path, DBResult(&db)));
  for (int i = 0; i < n; i++) {
    ASSERT_OK(db->Put(WriteOptions(), "key" + std::to_string(i),
                      "value" + std::to_string(i)));
  }
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(db->Close());
}

const RobinHoodTableOptions* OptionsOf(const TableFactory* f) {
  return f == nullptr ? nullptr : f->GetOptions<RobinHoodTableOptions>();
}

void ExpectSameOptions(const RobinHoodTableOptions& want,
                       const RobinHoodTableOptions& got) {
  EXPECT_DOUBLE_EQ(got.load_factor, want.load_factor);
  EXPECT_EQ(got.sparse_index_interval, want.sparse_index_interval);
  EXPECT_EQ(got.log_block_size, want.log_block_size);
  EXPECT_EQ(got.hash_seed, want.hash_seed);
  EXPECT_EQ(got.inline_slot_limit, want.inline_slot_limit);
  EXPECT_DOUBLE_EQ(got.inline_load_factor, want.inline_load_factor);
  EXPECT_EQ(got.inline_order_array, want.inline_order_array);
  EXPECT_EQ(got.inline_key_order, want.inline_key_order);
  EXPECT_EQ(got.inline_hash_order_limit, want.inline_hash_order_limit);
  EXPECT_EQ(got.filter_policy, want.filter_policy);
}

RobinHoodTableOptions Custom() {
  RobinHoodTableOptions o;
  o.load_factor = 0.7;
  o.sparse_index_interval = 8;
  o.log_block_size = 8192;
  o.hash_seed = 42;
  o.inline_slot_limit = 40;
  o.inline_load_factor = 0.75;
  o.inline_order_array = false;
  o.inline_key_order = false;
  o.inline_hash_order_limit = 1 << 20;
  o.filter_policy = "bloomfilter:10";
  return o;
}

const char kCustomString[] =
    "table_factory={id=RobinHoodTable;load_factor=0.7;sparse_index_interval=8;"
    "log_block_size=8192;hash_seed=42;inline_slot_limit=40;"
    "inline_load_factor=0.75;inline_order_array=false;"
    "inline_key_order=false;inline_hash_order_limit=1M;"
    "filter_policy=bloomfilter:10}";

class RobinHoodOptionsTest : public testing::Test {
 protected:
  void SetUp() override {
    RegisterRobinHoodTableDefault();
    RegisterRobinHoodTableDefault();  // safe more than once
  }
};

TEST_F(RobinHoodOptionsTest, FromOptionsString) {
  ColumnFamilyOptions base, out;
  ASSERT_OK(GetColumnFamilyOptionsFromString(StrictConfig(), base,
                                             kCustomString, &out));
  ASSERT_NE(out.table_factory, nullptr);
  EXPECT_STREQ(out.table_factory->Name(), "RobinHoodTable");
  EXPECT_STREQ(out.table_factory->Name(), kRobinHoodTableName);
  EXPECT_EQ(out.table_factory->GetId(), "RobinHoodTable");
  EXPECT_TRUE(out.table_factory->IsInstanceOf("RobinHoodTable"));
  const RobinHoodTableOptions* o = OptionsOf(out.table_factory.get());
  ASSERT_NE(o, nullptr) << "factory has no options registered under "
                        << RobinHoodTableOptions::kName();
  ExpectSameOptions(Custom(), *o);
  EXPECT_TRUE(out.table_factory->IsDeleteRangeSupported());
}

TEST_F(RobinHoodOptionsTest, ShortFormsGiveDefaults) {
  for (const char* s : {"table_factory=RobinHoodTable",
                        "table_factory={id=RobinHoodTable}",
                        "table_factory={id=RobinHoodTable;}"}) {
    SCOPED_TRACE(s);
    ColumnFamilyOptions base, out;
    ASSERT_OK(GetColumnFamilyOptionsFromString(StrictConfig(), base, s, &out));
    ASSERT_NE(out.table_factory, nullptr);
    EXPECT_STREQ(out.table_factory->Name(), "RobinHoodTable");
    const RobinHoodTableOptions* o = OptionsOf(out.table_factory.get());
    ASSERT_NE(o, nullptr);
    ExpectSameOptions(RobinHoodTableOptions(), *o);
  }
}

TEST_F(RobinHoodOptionsTest, DirectConstructionAndConfigure) {
  std::shared_ptr<TableFactory> f(NewRobinHoodTableFactory(Custom()));
  EXPECT_STREQ(f->Name(), "RobinHoodTable");
  EXPECT_TRUE(f->IsDeleteRangeSupported());
  ASSERT_NE(OptionsOf(f.get()), nullptr);
  ExpectSameOptions(Custom(), *OptionsOf(f.get()));

  std::shared_ptr<TableFactory> d(NewRobinHoodTableFactory());
  ExpectSameOptions(RobinHoodTableOptions(), *OptionsOf(d.get()));
  ASSERT_OK(d->ConfigureFromString(StrictConfig(),
                                   "load_factor=0.6;log_block_size=1024"));
  EXPECT_DOUBLE_EQ(OptionsOf(d.get())->load_factor, 0.6);
  EXPECT_EQ(OptionsOf(d.get())->log_block_size, 1024u);
  EXPECT_EQ(OptionsOf(d.get())->sparse_index_interval,
            RobinHoodTableOptions().sparse_index_interval);

  std::string value;
  ASSERT_OK(f->GetOption(StrictConfig(), "sparse_index_interval", &value));
  EXPECT_EQ(value, "8");
  ASSERT_OK(f->GetOption(StrictConfig(), "hash_seed", &value));
  EXPECT_EQ(value, "42");
  ASSERT_OK(f->GetOption(StrictConfig(), "log_block_size", &value));
  EXPECT_EQ(value, "8192");
  ASSERT_OK(f->GetOption(StrictConfig(), "load_factor", &value));
  EXPECT_DOUBLE_EQ(std::stod(value), 0.7);
}

TEST_F(RobinHoodOptionsTest, PrintableOptionsNameEveryOptionAndValue) {
  std::shared_ptr<TableFactory> f(NewRobinHoodTableFactory(Custom()));
  const std::string printed = f->GetPrintableOptions();
  // Each option's name, and on the same line its value.
  const std::vector<std::pair<std::string, std::vector<std::string>>> want = {
      {"load_factor", {"0.7"}},
      {"sparse_index_interval", {"8"}},
      {"log_block_size", {"8192"}},
      {"hash_seed", {"42", "0x2a", "0x000000000000002a"}},
      {"inline_slot_limit", {"40"}},
      {"inline_load_factor", {"0.75"}},
      {"inline_order_array", {"0", "false"}},
      {"inline_key_order", {"0", "false"}},
      {"inline_hash_order_limit", {"1048576"}},
      {"filter_policy", {"bloomfilter:10"}},
  };
  for (const auto& w : want) {
    size_t at = printed.find(w.first);
    ASSERT_NE(at, std::string::npos)
        << "GetPrintableOptions() does not mention " << w.first << ":\n"
        << printed;
    size_t eol = printed.find('\n', at);
    std::string line = printed.substr(at, eol == std::string::npos
                                              ? std::string::npos
                                              : eol - at);
    bool found = false;
    for (const auto& v : w.second) {
      found = found || line.find(v, w.first.size()) != std::string::npos;
    }
    EXPECT_TRUE(found) << "line for " << w.first << " lacks its value "
                       << w.second[0] << ": " << line;
  }
  // Defaults print too.
  std::shared_ptr<TableFactory> d(NewRobinHoodTableFactory());
  const std::string dp = d->GetPrintableOptions();
  EXPECT_NE(dp.find("0.85"), std::string::npos) << dp;
  EXPECT_NE(dp.find("4096"), std::string::npos) << dp;
}

// A bad value must be refused and the message must name the option. Either
// the options string is refused, or (if it parses) DB::Open is.
// `host_name` is another name the message may carry instead, where RocksDB
// itself words the message (see UnknownOptionNameIsRefused).
void ExpectRefused(const std::string& table_opts, const std::string& option,
                   const std::string& host_name = "") {
  SCOPED_TRACE(table_opts);
  ColumnFamilyOptions base, out;
  Status s = GetColumnFamilyOptionsFromString(
      StrictConfig(), base, "table_factory={id=RobinHoodTable;" + table_opts + "}",
      &out);
  if (!s.ok()) {
    bool named = s.ToString().find(option) != std::string::npos ||
                 (!host_name.empty() &&
                  s.ToString().find(host_name) != std::string::npos);
    EXPECT_TRUE(named) << "refused, but the message does not name " << option
                       << ": " << s.ToString();
    return;
  }
  ASSERT_NE(out.table_factory, nullptr);
  Options options(DBOptions(), out);
  options.create_if_missing = true;
  const std::string path = TempPath("refused");
  ASSERT_OK(DestroyDB(path, Options()));
  std::unique_ptr<DB> db;
  s = DB::Open(options, path, DBResult(&db));
  if (db != nullptr) {
    db.reset();
    ADD_FAILURE() << "options string and DB::Open both accepted " << table_opts;
  } else {
    EXPECT_NE(s.ToString().find(option), std::string::npos)
        << "DB::Open refused, but the message does not name " << option << ": "
        << s.ToString();
  }
  DestroyDB(path, Options());
}

TEST_F(RobinHoodOptionsTest, BadValuesAreRefusedNamingTheOption) {
  ExpectRefused("load_factor=1.5", "load_factor");
  ExpectRefused("load_factor=0.99", "load_factor");
  ExpectRefused("load_factor=0.01", "load_factor");
  ExpectRefused("load_factor=0", "load_factor");
  ExpectRefused("load_factor=-0.5", "load_factor");
  ExpectRefused("load_factor=nan", "load_factor");
  ExpectRefused("load_factor=abc", "load_factor");
  ExpectRefused("sparse_index_interval=0", "sparse_index_interval");
  ExpectRefused("sparse_index_interval=65537", "sparse_index_interval");
  ExpectRefused("sparse_index_interval=x", "sparse_index_interval");
  ExpectRefused("log_block_size=10", "log_block_size");
  ExpectRefused("log_block_size=255", "log_block_size");
  ExpectRefused("log_block_size=67108865", "log_block_size");
  ExpectRefused("hash_seed=notanumber", "hash_seed");
  ExpectRefused("inline_slot_limit=1", "inline_slot_limit");
  ExpectRefused("inline_slot_limit=514", "inline_slot_limit");
  ExpectRefused("inline_slot_limit=-1", "inline_slot_limit");
  ExpectRefused("inline_load_factor=0.96", "inline_load_factor");
  ExpectRefused("inline_load_factor=0", "inline_load_factor");
  ExpectRefused("inline_load_factor=nan", "inline_load_factor");
  ExpectRefused("inline_order_array=maybe", "inline_order_array");
  ExpectRefused("inline_key_order=2", "inline_key_order");
  ExpectRefused("inline_hash_order_limit=big", "inline_hash_order_limit");
  // Names no policy; not a built-in one; builds no filter (under 0.5 bits
  // a key, and the read-only policy old OPTIONS files name).
  ExpectRefused("filter_policy=nosuchfilter:10", "filter_policy");
  ExpectRefused("filter_policy=bloomfilter:abc", "filter_policy");
  ExpectRefused("filter_policy=bloomfilter:0.1", "filter_policy");
  ExpectRefused("filter_policy=rocksdb.BuiltinBloomFilter", "filter_policy");
  // A bad value next to good ones.
  ExpectRefused("load_factor=0.7;log_block_size=100;hash_seed=1",
                "log_block_size");
}

// block_cache, as BlockBasedTable's: a capacity in options strings, any
// Cache from code; printed, never written to OPTIONS files.
TEST_F(RobinHoodOptionsTest, BlockCacheFromStringAndCode) {
  ColumnFamilyOptions base, out;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      StrictConfig(), base, "table_factory={id=RobinHoodTable;block_cache=1M}",
      &out));
  const RobinHoodTableOptions* o = OptionsOf(out.table_factory.get());
  ASSERT_NE(o, nullptr);
  ASSERT_NE(o->block_cache, nullptr);
  EXPECT_EQ(o->block_cache->GetCapacity(), size_t{1} << 20);
  const std::string printed = out.table_factory->GetPrintableOptions();
  EXPECT_NE(printed.find("block_cache: 1048576 bytes"), std::string::npos)
      << printed;
  std::string serialized;
  ASSERT_OK(out.table_factory->GetOptionString(StrictConfig(), &serialized));
  EXPECT_EQ(serialized.find("block_cache"), std::string::npos) << serialized;

  RobinHoodTableOptions from_code;
  from_code.block_cache = NewLRUCache(4 << 20);
  std::shared_ptr<TableFactory> f(NewRobinHoodTableFactory(from_code));
  EXPECT_EQ(OptionsOf(f.get())->block_cache, from_code.block_cache);
  std::shared_ptr<TableFactory> none(NewRobinHoodTableFactory());
  EXPECT_EQ(OptionsOf(none.get())->block_cache, nullptr);
  EXPECT_NE(none->GetPrintableOptions().find("block_cache: none"),
            std::string::npos);
  ExpectRefused("block_cache=lots", "block_cache");
}

TEST_F(RobinHoodOptionsTest, UnknownOptionNameIsRefused) {
  // Configuring the factory itself names the unknown option.
  for (const char* s : {"no_such_option=1", "load_factor=0.7;laod_factor=0.7"}) {
    SCOPED_TRACE(s);
    std::shared_ptr<TableFactory> f(NewRobinHoodTableFactory());
    Status st = f->ConfigureFromString(StrictConfig(), s);
    ASSERT_FALSE(st.ok());
    const std::string bad = std::string(s).find("laod") != std::string::npos
                                ? "laod_factor"
                                : "no_such_option";
    EXPECT_NE(st.ToString().find(bad), std::string::npos) << st.ToString();
    std::shared_ptr<TableFactory> g;
    st = TableFactory::CreateFromString(
        StrictConfig(), std::string("id=RobinHoodTable;") + s, &g);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.ToString().find(bad), std::string::npos) << st.ToString();
  }
  // Nested in column family options, RocksDB 7.8.3 rewords a nested NotFound
  // as "Could not find option: : table_factory" (BlockBasedTable's unknown
  // options read the same), so accept either name there.
  ExpectRefused("no_such_option=1", "no_such_option", "table_factory");
}

TEST_F(RobinHoodOptionsTest, BoundaryValuesAreAccepted) {
  for (const char* s :
       {"load_factor=0.05", "load_factor=0.98", "sparse_index_interval=1",
        "sparse_index_interval=65536", "log_block_size=256",
        "log_block_size=67108864", "hash_seed=0", "inline_slot_limit=0",
        "inline_slot_limit=2", "inline_slot_limit=513",
        "inline_load_factor=0.05", "inline_load_factor=0.95",
        "inline_order_array=true", "inline_order_array=false",
        "inline_key_order=true", "inline_key_order=false",
        "inline_hash_order_limit=0", "inline_hash_order_limit=1",
        "inline_hash_order_limit=4G",
        "filter_policy=", "filter_policy=bloomfilter:1",
        "filter_policy=ribbonfilter:20", "filter_policy=bloomfilter:100",
        "hash_seed=18446744073709551615"}) {
    SCOPED_TRACE(s);
    ColumnFamilyOptions base, out;
    ASSERT_OK(GetColumnFamilyOptionsFromString(
        StrictConfig(), base,
        std::string("table_factory={id=RobinHoodTable;") + s + "}", &out));
    ASSERT_NE(OptionsOf(out.table_factory.get()), nullptr);
  }
  ColumnFamilyOptions base, out;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      StrictConfig(), base,
      "table_factory={id=RobinHoodTable;hash_seed=18446744073709551615}",
      &out));
  EXPECT_EQ(OptionsOf(out.table_factory.get())->hash_seed,
            std::numeric_limits<uint64_t>::max());
}

// Options built in code, bypassing the string parser: RocksDB 7.8.3's
// DB::Open does not call TableFactory::ValidateOptions, so the refusal may
// come at DB::Open or when the first file is written; it must come, naming
// the option, and must not crash or hang. Run in a child process (a
// threadsafe death test) so a crash or hang is reported as a failure of this
// case alone.
void OpenAndFlushWithOrExit(const RobinHoodTableOptions& bad,
                            const std::string& option) {
  alarm(30);
  Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewRobinHoodTableFactory(bad));
  const std::string path = TempPath("bad_code_" + option);
  DestroyDB(path, Options());
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, path, DBResult(&db));
  if (db == nullptr) {
    bool named = s.ToString().find(option) != std::string::npos;
    fprintf(stderr, "DB::Open refused: %s\n", s.ToString().c_str());
    DestroyDB(path, Options());
    std::exit(named ? 0 : 2);
  }
  s = Status::OK();
  for (int i = 0; i < 100 && s.ok(); i++) {
    s = db->Put(WriteOptions(), "key" + std::to_string(i), "value");
  }
  if (s.ok()) s = db->Flush(FlushOptions());
  std::string v;
  Status g = db->Get(ReadOptions(), "key7", &v);
  fprintf(stderr, "write/flush status: %s; Get(key7): %s\n",
          s.ToString().c_str(), g.ToString().c_str());
  bool named = s.ToString().find(option) != std::string::npos;
  db->Close();
  db.reset();
  DestroyDB(path, Options());
  std::exit(!s.ok() && named ? 0 : 3);
}

TEST_F(RobinHoodOptionsTest, BadValuesFromCodeAreRefusedNamingTheOption) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  RobinHoodTableOptions o;
  o = RobinHoodTableOptions();
  o.load_factor = 1.5;
  EXPECT_EXIT(OpenAndFlushWithOrExit(o, "load_factor"),
              testing::ExitedWithCode(0), "")
      << "load_factor=1.5 from code";
  o = RobinHoodTableOptions();
  o.load_factor = std::nan("");
  EXPECT_EXIT(OpenAndFlushWithOrExit(o, "load_factor"),
              testing::ExitedWithCode(0), "")
      << "load_factor=NaN from code";
  o = RobinHoodTableOptions();
  o.sparse_index_interval = 0;
  EXPECT_EXIT(OpenAndFlushWithOrExit(o, "sparse_index_interval"),
              testing::ExitedWithCode(0), "")
      << "sparse_index_interval=0 from code";
  o = RobinHoodTableOptions();
  o.log_block_size = 10;
  EXPECT_EXIT(OpenAndFlushWithOrExit(o, "log_block_size"),
              testing::ExitedWithCode(0), "")
      << "log_block_size=10 from code";
}

TEST_F(RobinHoodOptionsTest, ToStringRoundTripsThroughCreateFromString) {
  std::shared_ptr<TableFactory> f(NewRobinHoodTableFactory(Custom()));
  ConfigOptions config = StrictConfig();
  EXPECT_EQ(f->GetId(), "RobinHoodTable");

  const std::string str = f->ToString(config);
  EXPECT_NE(str.find("RobinHoodTable"), std::string::npos) << str;
  EXPECT_NE(str.find("load_factor"), std::string::npos) << str;
  std::shared_ptr<TableFactory> copy;
  SCOPED_TRACE("ToString: " + str);
  ASSERT_OK(TableFactory::CreateFromString(config, str, &copy));
  ASSERT_NE(copy, nullptr);
  EXPECT_STREQ(copy->Name(), "RobinHoodTable");
  ASSERT_NE(OptionsOf(copy.get()), nullptr);
  ExpectSameOptions(Custom(), *OptionsOf(copy.get()));
  std::string mismatch;
  EXPECT_TRUE(f->AreEquivalent(config, copy.get(), &mismatch)) << mismatch;

  // The option string alone (no id) configures a fresh factory the same.
  std::string opts;
  ASSERT_OK(f->GetOptionString(config, &opts));
  std::shared_ptr<TableFactory> fresh(NewRobinHoodTableFactory());
  SCOPED_TRACE("GetOptionString: " + opts);
  ASSERT_OK(fresh->ConfigureFromString(config, opts));
  ExpectSameOptions(Custom(), *OptionsOf(fresh.get()));
  EXPECT_TRUE(f->AreEquivalent(config, fresh.get(), &mismatch)) << mismatch;

  // As a nested option of column family options. RocksDB 7.8.3 serializes
  // table_factory there by name only (kStringNameOnly; the OPTIONS file
  // carries the table options in their own section, tested below), so the
  // round trip gives our factory with default options.
  ColumnFamilyOptions cf;
  cf.table_factory = f;
  std::string cf_str;
  ASSERT_OK(GetStringFromColumnFamilyOptions(config, cf, &cf_str));
  EXPECT_NE(cf_str.find("table_factory=RobinHoodTable"), std::string::npos)
      << cf_str;
  ColumnFamilyOptions back;
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                             cf_str, &back));
  ASSERT_NE(back.table_factory, nullptr);
  EXPECT_STREQ(back.table_factory->Name(), "RobinHoodTable");
  ASSERT_NE(OptionsOf(back.table_factory.get()), nullptr);
  // And with the nested form written out explicitly, the options come back.
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(), "table_factory=" + str, &back));
  ASSERT_NE(OptionsOf(back.table_factory.get()), nullptr);
  ExpectSameOptions(Custom(), *OptionsOf(back.table_factory.get()));

  // Different options are not equivalent.
  RobinHoodTableOptions other = Custom();
  other.hash_seed = 43;
  std::shared_ptr<TableFactory> g(NewRobinHoodTableFactory(other));
  EXPECT_FALSE(f->AreEquivalent(config, g.get(), &mismatch));
  EXPECT_EQ(mismatch, "hash_seed");
}

// No filter, under a default filter: "" in the struct, "none" when
// written out, and back to "" when read, through option strings and the
// OPTIONS file a DB writes and checks at open (9.x's check lost an empty
// value and found the default in its place).
TEST_F(RobinHoodOptionsTest, NoFilterRoundTrips) {
  EXPECT_EQ(RobinHoodTableOptions().filter_policy, "hashbloom:10");
  RobinHoodTableOptions o;
  o.filter_policy = "";
  std::shared_ptr<TableFactory> f(NewRobinHoodTableFactory(o));
  ConfigOptions config = StrictConfig();
  std::string opts;
  ASSERT_OK(f->GetOptionString(config, &opts));
  EXPECT_NE(opts.find("filter_policy=none"), std::string::npos) << opts;
  std::shared_ptr<TableFactory> fresh(NewRobinHoodTableFactory());
  ASSERT_OK(fresh->ConfigureFromString(config, opts));
  EXPECT_EQ(OptionsOf(fresh.get())->filter_policy, "");
  std::string mismatch;
  EXPECT_TRUE(f->AreEquivalent(config, fresh.get(), &mismatch)) << mismatch;
  ASSERT_OK(fresh->ConfigureFromString(config, "filter_policy=hashbloom:10"));
  EXPECT_FALSE(f->AreEquivalent(config, fresh.get(), &mismatch));
  ASSERT_OK(fresh->ConfigureFromString(config, "filter_policy=none"));
  EXPECT_EQ(OptionsOf(fresh.get())->filter_policy, "");

  const std::string path = TempPath("no_filter");
  Options options;
  options.create_if_missing = true;
  options.table_factory = f;
  ASSERT_OK(DestroyDB(path, options));
  DBRemover remover{path};
  FillAndClose(options, path, 1);
  DBOptions db_opts;
  std::vector<ColumnFamilyDescriptor> cf_descs;
  config.input_strings_escaped = true;
  config.env = Env::Default();
  ASSERT_OK(LoadLatestOptions(config, path, &db_opts, &cf_descs));
  ASSERT_EQ(cf_descs.size(), 1u);
  ASSERT_NE(OptionsOf(cf_descs[0].options.table_factory.get()), nullptr);
  EXPECT_EQ(OptionsOf(cf_descs[0].options.table_factory.get())->filter_policy,
            "");
}

TEST_F(RobinHoodOptionsTest, RegistrarWorksOnAFreshLibrary) {
  auto library = std::make_shared<ObjectLibrary>("robinhood-test");
  EXPECT_EQ(RegisterRobinHoodTable(*library, ""), 1);
  ConfigOptions config = StrictConfig();
  config.registry = ObjectRegistry::NewInstance(nullptr);
  config.registry->AddLibrary(library);
  std::shared_ptr<TableFactory> f;
  ASSERT_OK(TableFactory::CreateFromString(
      config, "id=RobinHoodTable;load_factor=0.5", &f));
  ASSERT_NE(f, nullptr);
  EXPECT_STREQ(f->Name(), "RobinHoodTable");
  EXPECT_DOUBLE_EQ(OptionsOf(f.get())->load_factor, 0.5);
}

TEST_F(RobinHoodOptionsTest, OptionsFileRoundTrip) {
  const std::string path = TempPath("options_file");
  Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewRobinHoodTableFactory(Custom()));
  ASSERT_OK(DestroyDB(path, options));
  DBRemover remover{path};
  FillAndClose(options, path, 500);

  // The OPTIONS file names our factory and its options.
  std::string options_file;
  ASSERT_OK(GetLatestOptionsFileName(path, Env::Default(), &options_file));
  std::ifstream in(path + "/" + options_file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("[TableOptions/RobinHoodTable \"default\"]"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("table_factory=RobinHoodTable"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("log_block_size=8192"), std::string::npos)
      << text.str();

  DBOptions db_opts;
  std::vector<ColumnFamilyDescriptor> cf_descs;
  ConfigOptions config = StrictConfig();
  config.input_strings_escaped = true;
  config.env = Env::Default();
  ASSERT_OK(LoadLatestOptions(config, path, &db_opts, &cf_descs));
  ASSERT_EQ(cf_descs.size(), 1u);
  EXPECT_EQ(cf_descs[0].name, kDefaultColumnFamilyName);
  const auto& tf = cf_descs[0].options.table_factory;
  ASSERT_NE(tf, nullptr);
  EXPECT_STREQ(tf->Name(), "RobinHoodTable");
  ASSERT_NE(OptionsOf(tf.get()), nullptr);
  ExpectSameOptions(Custom(), *OptionsOf(tf.get()));

  // Reopen with the loaded options and read the data back.
  std::vector<ColumnFamilyHandle*> handles;
  std::unique_ptr<DB> opened;
  ASSERT_OK(DB::Open(db_opts, path, cf_descs, &handles, DBResult(&opened)));
  DB* raw = opened.release();
  // Handles go before the DB on every path (an early ASSERT return too).
  struct Closer {
    DB* db;
    std::vector<ColumnFamilyHandle*>* handles;
    ~Closer() {
      if (db == nullptr) return;
      for (auto* h : *handles) db->DestroyColumnFamilyHandle(h);
      handles->clear();
      db->Close();
      delete db;
    }
  } closer{raw, &handles};
  DB* db = raw;
  for (int i = 0; i < 500; i++) {
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), "key" + std::to_string(i), &v));
    EXPECT_EQ(v, "value" + std::to_string(i));
  }
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), "key500", &v).IsNotFound());
  TablePropertiesCollection props;
  ASSERT_OK(db->GetPropertiesOfAllTables(&props));
  EXPECT_EQ(props.size(), 1u);
  for (const auto& p : props) {
    EXPECT_EQ(p.second->user_collected_properties.count(kOurProperty), 1u)
        << p.first;
  }
  // Write more through the loaded factory, flush, read.
  ASSERT_OK(db->Put(WriteOptions(), "after", "reload"));
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(db->Get(ReadOptions(), "after", &v));
  EXPECT_EQ(v, "reload");
  for (auto* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
  handles.clear();
  ASSERT_OK(db->Close());
  delete db;
  closer.db = nullptr;
  ASSERT_OK(DestroyDB(path, options));
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
