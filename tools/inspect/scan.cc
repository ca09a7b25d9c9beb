// scan: entries in order, FROM <= user key < TO (both optional), at most
// --limit of them, then the range deletions overlapping [FROM, TO). Output
// streams: an error midway still ends a listing (and a JSON document that
// says so).
#include <cstdio>
#include <string>
#include <vector>

#include "tools/inspect/command.h"
#include "tools/inspect/entry.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/printer.h"
#include "tools/inspect/table_file.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;

int Scan(const Args& a, const TableFile& t) {
  const bool has_from = !a.rest.empty();
  const bool has_to = a.rest.size() > 1;
  const std::string from = has_from ? a.rest[0] : std::string();
  const std::string to = has_to ? a.rest[1] : std::string();
  const Comparator* ucmp = t.user_comparator();
  auto text = [&](const std::string& bytes) { return BytesText(a, bytes); };

  Printer out(a);
  out.Field("file", Str(a.file));
  out.Field("from", has_from ? Bytes(from) : Null());
  out.Field("to", has_to ? Bytes(to) : Null());
  out.BeginArray("entries");
  std::unique_ptr<InternalIterator> it = t.NewIterator();
  if (has_from) {
    InternalKey target(from, kMaxSequenceNumber, kValueTypeForSeek);
    it->Seek(target.Encode());
  } else {
    it->SeekToFirst();
  }
  uint64_t count = 0;
  bool truncated = false;
  Status s;
  for (; it->Valid(); it->Next()) {
    Entry e;
    s = ReadEntry(*it, &e);
    if (!s.ok()) break;
    if (has_to && ucmp->Compare(e.user_key, to) >= 0) break;
    if (count == a.limit) {
      truncated = true;
      break;
    }
    ++count;
    DescribeEntry(out, nullptr, e, true,
                  Line(text(e.user_key) + "\t" + std::to_string(e.seq) + "\t" +
                       TypeString(e.type) + "\t" + text(e.value)));
  }
  if (s.ok()) s = it->status();
  out.End();
  out.Field("count", Uint(count));
  out.Field("truncated", Bool(truncated));

  // After the point entries, as a range deletion is not one.
  std::vector<RangeDel> dels;
  if (s.ok()) {
    for (RangeDel& r : t.RangeDels()) {
      if ((has_from && ucmp->Compare(r.end, from) <= 0) ||
          (has_to && ucmp->Compare(r.start, to) >= 0)) {
        continue;
      }
      dels.push_back(std::move(r));
    }
  }
  out.BeginArray("range_deletions");
  for (const RangeDel& r : dels) {
    DescribeRangeDel(out, r,
                     Line(text(r.start) + "\t" + std::to_string(r.seq) + "\t" +
                          TypeString(kTypeRangeDeletion) + "\t" + text(r.end)));
  }
  out.End();
  out.Field("ok", Bool(s.ok()));
  if (!s.ok()) out.Field("error", Str(Describe(a.file, s)));
  out.Finish();
  // The listing before the error that cut it short, on a shared terminal.
  fflush(a.out);
  if (!s.ok()) {
    ReportError(a, Describe(a.file, s));
    return kExitBadFile;
  }
  return kExitOk;
}

}  // namespace rh_inspect
