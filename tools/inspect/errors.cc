#include "tools/inspect/errors.h"

#include <cstdio>

#include "tools/inspect/printer.h"

namespace rh_inspect {

std::string Describe(const std::string& path,
                     const ROCKSDB_NAMESPACE::Status& s) {
  std::string text = s.ToString();
  const std::string named = path + ": ";
  const size_t at = text.find(named);
  if (at != std::string::npos) text.erase(at, named.size());
  return text;
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
