#include "tools/inspect/errors.h"

#include <cstdio>

#include "table/robinhood_format.h"
#include "tools/inspect/printer.h"

namespace rh_inspect {

std::string Describe(const std::string& path,
                     const ROCKSDB_NAMESPACE::Status& s) {
  // The reader's corruption errors come with their fields: print them
  // without the file, which the line names first.
  const auto* fields = ROCKSDB_NAMESPACE::robinhood::CorruptionFields(s);
  if (fields != nullptr && fields->file == path) {
    return "Corruption: " + fields->WithoutFile();
  }
  return s.ToString();
}

void ReportError(const Args& a, const std::string& message) {
  fprintf(stderr, "rh_inspect: %s: %s\n", a.file.c_str(), message.c_str());
}

int ReportFailure(const Args& a, const std::string& message, int code) {
  ReportError(a, message);
  Printer out(a);
  out.Field("file", Str(a.file));
  out.Field("ok", Bool(false));
  out.Field("error", Str(message));
  return code;
}

}  // namespace rh_inspect
