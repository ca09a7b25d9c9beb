// get: a key's newest entry as a point lookup finds it through the hash
// index, every version of it in the log, and the range deletions covering
// it. The two paths must agree, or the file is damaged.
#include <cinttypes>
#include <string>
#include <vector>

#include "tools/inspect/command.h"
#include "tools/inspect/entry.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/printer.h"
#include "tools/inspect/table_file.h"
#include "tools/inspect/text_format.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;
using namespace ROCKSDB_NAMESPACE::robinhood;

int Get(const Args& a, const TableFile& t) {
  const std::string& key = a.rest[0];
  const uint64_t hash = KeyHash(key, t.meta().hash_seed);
  const uint64_t home = t.Home(key, hash);

  Newest newest;
  Status s = t.FindNewest(key, &newest);
  if (!s.ok()) return ReportFailure(a, Describe(a.file, s), kExitBadFile);

  std::vector<Entry> versions;
  std::unique_ptr<InternalIterator> it = t.NewIterator();
  InternalKey target(key, kMaxSequenceNumber, kValueTypeForSeek);
  for (it->Seek(target.Encode()); it->Valid(); it->Next()) {
    Entry e;
    s = ReadEntry(*it, &e);
    if (!s.ok() || e.user_key != key) break;
    versions.push_back(std::move(e));
  }
  if (s.ok()) s = it->status();
  if (!s.ok()) return ReportFailure(a, Describe(a.file, s), kExitBadFile);
  const bool found = newest.found;
  if (found != !versions.empty() ||
      (found &&
       (newest.seq != versions[0].seq || newest.type != versions[0].type))) {
    return ReportFailure(a,
                         "Corruption: the hash index and the log disagree "
                         "about this key",
                         kExitBadFile);
  }
  std::vector<RangeDel> covering;
  const Comparator* ucmp = t.user_comparator();
  for (RangeDel& r : t.RangeDels()) {
    if (ucmp->Compare(r.start, key) <= 0 && ucmp->Compare(key, r.end) < 0) {
      covering.push_back(std::move(r));
    }
  }

  auto text = [&](const std::string& bytes) { return BytesText(a, bytes); };
  Printer out(a);
  out.Field("file", Str(a.file));
  out.Field("ok", Bool(true));
  out.Field("key", Bytes(key), Row("key"));
  out.Field(
      "hash", Str(Format("0x%016" PRIx64, hash)),
      Row("hash", Format("0x%016" PRIx64 ", home slot %" PRIu64, hash, home)));
  out.Field("home_slot", Uint(home));
  out.Field("found", Bool(found));
  if (found) {
    const Entry& e = versions[0];
    const bool shows_value = !IsDeletion(e.type) || !e.value.empty();
    DescribeEntry(
        out, "newest", e, false,
        Row("newest", "seq " + std::to_string(e.seq) + " " +
                          TypeString(e.type) +
                          (shows_value ? " " + text(e.value) : std::string())));
  } else {
    out.Field("newest", Null(), Row("newest", "not found"));
  }
  out.BeginArray(
      "versions",
      found ? Row("versions", std::to_string(versions.size())) : TextForm());
  for (const Entry& v : versions) {
    DescribeEntry(out, nullptr, v, false,
                  Line("  " + std::to_string(v.seq) + "\t" +
                       TypeString(v.type) + "\t" + text(v.value)));
  }
  out.End();
  out.BeginArray("covering_range_deletions");
  for (const RangeDel& r : covering) {
    DescribeRangeDel(out, r,
                     Row("covered by", "range deletion [" + text(r.start) +
                                           ", " + text(r.end) + ") at seq " +
                                           std::to_string(r.seq)));
  }
  out.End();
  out.Finish();
  if (!found) {
    ReportError(a, "key not found");
    return kExitNotFound;
  }
  return kExitOk;
}

}  // namespace rh_inspect
