// Every options string and OPTIONS file the documentation prints, taken
// from the Markdown as it is (so the pages and this test cannot drift
// apart), parsed as a user would, with ignore_unsupported_options=false:
// each must load RobinHoodTable, with the default hash_seed (a snippet
// users copy must not change their files' seed). And the trap the guide's
// Troubleshooting describes: a misspelt id is an error with that setting,
// and silently BlockBasedTable without it.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

const char* const kPages[] = {"README.md", "docs/guide.md",
                              "docs/compatibility.md", "docs/reliability.md",
                              "docs/format.md", "docs/benchmarks.md",
                              "db_bench_ext/README.md"};

ConfigOptions Strict() {
  ConfigOptions config;
  config.ignore_unknown_options = false;
  config.ignore_unsupported_options = false;
  return config;
}

std::string Page(const std::string& name) {
  std::string text;
  EXPECT_OK(ReadFileToString(Env::Default(),
                             std::string(RH_SOURCE_DIR) + "/" + name, &text));
  return text;
}

// The fenced code blocks of `text` whose info string is `lang` (any, if
// empty).
std::vector<std::string> Blocks(const std::string& text,
                                const std::string& lang) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = text.find("```", at)) != std::string::npos) {
    const size_t info_end = text.find('\n', at);
    if (info_end == std::string::npos) break;
    const std::string info = text.substr(at + 3, info_end - at - 3);
    const size_t end = text.find("\n```", info_end);
    if (end == std::string::npos) break;
    if (lang.empty() || info == lang) {
      out.push_back(text.substr(info_end + 1, end - info_end));
    }
    at = end + 4;
  }
  return out;
}

void ExpectRobinHood(const std::shared_ptr<TableFactory>& f,
                     const std::string& where) {
  ASSERT_NE(f, nullptr) << where;
  EXPECT_STREQ(f->Name(), kRobinHoodTableName) << where;
  const auto* o = f->GetOptions<RobinHoodTableOptions>();
  ASSERT_NE(o, nullptr) << where;
  EXPECT_EQ(o->hash_seed, RobinHoodTableOptions().hash_seed) << where;
}

TEST(DocOptionsTest, EveryOptionsStringLoads) {
  RegisterRobinHoodTableDefault();
  const std::regex option_string(R"(table_factory=\{[^}"]*\})");
  int found = 0;
  for (const char* page : kPages) {
    for (const std::string& block : Blocks(Page(page), "")) {
      for (std::sregex_iterator m(block.begin(), block.end(), option_string),
           end;
           m != end; ++m) {
        const std::string s = m->str();
        SCOPED_TRACE(std::string(page) + ": " + s);
        ColumnFamilyOptions cf;
        ASSERT_OK(GetColumnFamilyOptionsFromString(
            Strict(), ColumnFamilyOptions(), s, &cf));
        ExpectRobinHood(cf.table_factory, s);
        ++found;
      }
    }
  }
  // The README's and the guide's, at least.
  EXPECT_GE(found, 3);
}

// The RobinHoodTable options the pages name in their prose (`name=value`,
// as a user would paste them into table_factory={id=RobinHoodTable;...}),
// and the option strings they give rh_load (--options=...) and the Python
// package (options="..."). Placeholders (<...>, N, STRING) are skipped.
TEST(DocOptionsTest, EveryOptionInProseLoads) {
  RegisterRobinHoodTableDefault();
  const std::regex prose(
      "`((load_factor|sparse_index_interval|log_block_size|hash_seed|"
      "inline_slot_limit|inline_load_factor|inline_order_array|"
      "inline_key_order|inline_hash_order_limit|page_layout|filter_policy|block_cache)=[^`]*)`");
  const std::regex tools(R"re(--options=([^\s`'"]+)|options="([^"]+)")re");
  const std::regex placeholder("<|(^|=)[A-Z]+(;|$)");
  int found = 0;
  for (const char* page : kPages) {
    const std::string text = Page(page);
    for (const std::regex* re : {&prose, &tools}) {
      for (std::sregex_iterator m(text.begin(), text.end(), *re), end;
           m != end; ++m) {
        const std::string s = (*m)[1].matched ? (*m)[1].str() : (*m)[2].str();
        if (std::regex_search(s, placeholder)) continue;
        SCOPED_TRACE(std::string(page) + ": " + s);
        ColumnFamilyOptions cf;
        ASSERT_OK(GetColumnFamilyOptionsFromString(
            Strict(), ColumnFamilyOptions(),
            "table_factory={id=RobinHoodTable;" + s + "}", &cf));
        ASSERT_NE(cf.table_factory, nullptr);
        EXPECT_STREQ(cf.table_factory->Name(), kRobinHoodTableName);
        ++found;
      }
    }
  }
  // The guide's and the README's, at least.
  EXPECT_GE(found, 10);
}

TEST(DocOptionsTest, EveryOptionsFileLoads) {
  RegisterRobinHoodTableDefault();
  const std::string path = test_util::TempPath("doc_options", "OPTIONS");
  int found = 0;
  for (const char* page : kPages) {
    for (const std::string& block : Blocks(Page(page), "ini")) {
      SCOPED_TRACE(std::string(page) + ":\n" + block);
      ASSERT_OK(WriteStringToFile(Env::Default(), block, path, false));
      DBOptions db;
      std::vector<ColumnFamilyDescriptor> cfs;
      ASSERT_OK(LoadOptionsFromFile(Strict(), path, &db, &cfs));
      ASSERT_FALSE(cfs.empty());
      for (const ColumnFamilyDescriptor& cf : cfs) {
        ExpectRobinHood(cf.options.table_factory, cf.name);
      }
      ++found;
    }
  }
  Env::Default()->DeleteFile(path);
  EXPECT_GE(found, 1);  // the guide's
}

// The trap: with the strict setting a misspelt id is refused in the words
// the Troubleshooting table quotes; with RocksDB's default it is taken for
// no table factory at all: the column family keeps BlockBasedTable (7.8)
// or is left with none (9.x, which crashes later when a DB opens).
TEST(DocOptionsTest, MisspeltIdIsAnErrorOnlyWhenStrict) {
  RegisterRobinHoodTableDefault();
  const std::string misspelt = "table_factory={id=RobinhoodTable}";
  ColumnFamilyOptions cf;
  Status s = GetColumnFamilyOptionsFromString(Strict(), ColumnFamilyOptions(),
                                              misspelt, &cf);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("Could not load TableFactory"),
            std::string::npos)
      << s.ToString();
  EXPECT_NE(Page("docs/guide.md").find("Could not load TableFactory"),
            std::string::npos);

  ConfigOptions lax;
  ColumnFamilyOptions silently;
  ASSERT_OK(GetColumnFamilyOptionsFromString(lax, ColumnFamilyOptions(),
                                             misspelt, &silently));
  if (silently.table_factory != nullptr) {
    EXPECT_STREQ(silently.table_factory->Name(), "BlockBasedTable");
  }
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
