// How rh_inspect reports a failure: one line on stderr naming the file, and
// with --json a document on stdout saying why, so the output still parses.
#pragma once

#include <string>

#include "rocksdb/status.h"
#include "tools/inspect/command.h"

namespace rh_inspect {

// A Status about `path` as a message: a Status whose text names the file
// already loses that copy of the name, as the file is named once, first.
std::string Describe(const std::string& path,
                     const ROCKSDB_NAMESPACE::Status& s);

// Writes "rh_inspect: FILE: MESSAGE" on stderr.
void ReportError(const Args& a, const std::string& message);

// A command that failed before printing anything: the stderr line, and
// with --json {"file", "ok": false, "error"}. Returns `code`.
int ReportFailure(const Args& a, const std::string& message, int code);

}  // namespace rh_inspect
