// DB-level tests of compactions run by RocksDB's compaction service: the DB
// hands each compaction to a service, whose worker (in production another
// process or machine) opens the DB's files with DB::OpenAndCompact and
// writes the output with a table factory it made from the DB's by name and
// option string; the DB then installs the output. Over mmap on/off and the
// harness's three table configurations (tests/db_harness.h), against its
// std::map model.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>

#include "rocksdb/convenience.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "tests/db_harness.h"

// The service's interface: StartV2 and WaitForCompleteV2 by job info up to
// 9.0, Schedule and Wait by a job id the service names from 9.1 on.
#if ROCKSDB_MAJOR > 9 || (ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR >= 1)
#define RH_COMPACTION_SERVICE_SCHEDULE 1
#else
#define RH_COMPACTION_SERVICE_SCHEDULE 0
#endif

namespace ROCKSDB_NAMESPACE {
namespace dbtest {
namespace {

// Runs each job at once, in this process, as a worker elsewhere would:
// nothing of the DB's own objects but what CompactionServiceOptionsOverride
// must carry (the merge operator); the table factory rebuilt from its name
// and option string, as a worker must build it.
class InProcessCompactionService : public CompactionService {
 public:
  InProcessCompactionService(std::string db, Options options)
      : db_(std::move(db)), options_(std::move(options)) {
    // A worker finds the factory by name once registered (a program linked
    // with the static library registers it; the shared one registers
    // itself when loaded).
    RegisterRobinHoodTableDefault();
  }

  const char* Name() const override { return "RobinHoodTestCompactionService"; }

#if RH_COMPACTION_SERVICE_SCHEDULE
  CompactionServiceScheduleResponse Schedule(
      const CompactionServiceJobInfo& info, const std::string& input) override {
    const std::string id = std::to_string(info.job_id);
    Keep(id, input);
    return CompactionServiceScheduleResponse(id,
                                             CompactionServiceJobStatus::kSuccess);
  }
  CompactionServiceJobStatus Wait(const std::string& id,
                                  std::string* result) override {
    return Run(id, result);
  }
#else
  CompactionServiceJobStatus StartV2(const CompactionServiceJobInfo& info,
                                     const std::string& input) override {
    Keep(std::to_string(info.job_id), input);
    return CompactionServiceJobStatus::kSuccess;
  }
  CompactionServiceJobStatus WaitForCompleteV2(
      const CompactionServiceJobInfo& info, std::string* result) override {
    return Run(std::to_string(info.job_id), result);
  }
#endif

  int jobs() {
    std::lock_guard<std::mutex> lock(mu_);
    return jobs_;
  }
  // The first error of a job (its compaction then fails).
  Status error() {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }

 private:
  void Keep(const std::string& id, const std::string& input) {
    std::lock_guard<std::mutex> lock(mu_);
    inputs_[id] = input;
  }

  CompactionServiceJobStatus Run(const std::string& id, std::string* result) {
    std::string input;
    {
      std::lock_guard<std::mutex> lock(mu_);
      input = inputs_[id];
      inputs_.erase(id);
    }
    CompactionServiceOptionsOverride o;
    o.env = options_.env;
    o.comparator = options_.comparator;
    o.merge_operator = options_.merge_operator;
    ConfigOptions config;
    config.ignore_unknown_options = false;
    config.ignore_unsupported_options = false;
    std::string table_options;
    Status s = TableFactory::CreateFromString(
        config, options_.table_factory->Name(), &o.table_factory);
    if (s.ok()) {
      s = options_.table_factory->GetOptionString(config, &table_options);
    }
    if (s.ok()) s = o.table_factory->ConfigureFromString(config, table_options);
    if (s.ok()) {
      s = DB::OpenAndCompact(db_, db_ + "/remote_" + id, input, result, o);
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (!s.ok()) {
      if (error_.ok()) error_ = s;
      return CompactionServiceJobStatus::kFailure;
    }
    jobs_++;
    return CompactionServiceJobStatus::kSuccess;
  }

  const std::string db_;
  const Options options_;
  std::mutex mu_;
  std::map<std::string, std::string> inputs_;
  int jobs_ = 0;
  Status error_;
};

// The filters the DB's files name: what of a file's properties its table
// options alone decide (the three configurations' filters differ).
std::set<std::string> FilterNames(DB* db) {
  TablePropertiesCollection props;
  EXPECT_OK(db->GetPropertiesOfAllTables(&props));
  std::set<std::string> names;
  for (const auto& p : props) names.insert(p.second->filter_policy_name);
  return names;
}

TEST_P(RobinHoodDBTest, CompactionsThroughTheCompactionService) {
  Close();
  auto service =
      std::make_shared<InProcessCompactionService>(dbname_, options_);
  options_.compaction_service = service;
  ASSERT_OK(Open());
  // Short entries (which a bottommost compaction makes inline slots) and
  // long ones (pages or a log), puts, merges, deletes and a range
  // deletion over four files.
  for (int f = 0; f < 4; f++) {
    for (int i = f; i < 4000; i += 4) {
      Put(Key(i), i % 3 == 0 ? Value(i, f) + std::string(300, 'p') : Value(i, f));
    }
    for (int i = f; i < 4000; i += 37) Merge(Key(i), "m" + std::to_string(f));
    for (int i = f + 1; i < 4000; i += 53) Delete(Key(i));
    if (f == 2) DeleteRange(Key(1000), Key(1100));
    Flush();
  }
  ASSERT_EQ(NumFiles(), 4);
  const std::set<std::string> flushed = FilterNames(db_.get());
  ASSERT_EQ(flushed.size(), 1u);
  const Snapshot* before = TakeSnapshot();
  const Model at_snapshot = model_;
  for (int i = 0; i < 4000; i += 29) Put(Key(i), Value(i, 9));
  Flush();
  Compact();
  ASSERT_OK(service->error());
  EXPECT_GE(service->jobs(), 1) << "no compaction went through the service";
  ExpectOurTables();
  // Made with the DB's table options, not a default factory's.
  EXPECT_EQ(FilterNames(db_.get()), flushed)
      << "the DB's own files name filter " << *flushed.begin();
  VERIFY("after compactions by the service");
  VERIFY(at_snapshot, before, "at a snapshot from before them");
  Release(before);
  Compact();
  ASSERT_OK(service->error());
  VERIFY("after a bottommost compaction by the service");
  Reopen();
  VERIFY("reopened");
}

}  // namespace

INSTANTIATE_DB_TESTS();

}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
