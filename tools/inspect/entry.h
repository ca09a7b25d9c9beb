// A log entry as the inspector shows it: read from an iterator, and
// described to a Printer (get and scan list entries and range deletions).
#pragma once

#include <string>

#include "db/dbformat.h"
#include "table/internal_iterator.h"
#include "tools/inspect/printer.h"
#include "tools/inspect/table_file.h"

namespace rh_inspect {

struct Entry {
  std::string user_key;
  SequenceNumber seq;
  ValueType type;
  std::string value;
};

// "PUT", "DELETE", ...; a type no name is known for as "TYPE_0xNN".
std::string TypeString(ValueType t);
bool IsDeletion(ValueType t);

// The entry `it` is at.
Status ReadEntry(const InternalIterator& it, Entry* e);

// An entry as a JSON object ({key,} seq, type, value) under `key` (nullptr:
// in an array), and `text` in text.
void DescribeEntry(Printer& out, const char* key, const Entry& e, bool with_key,
                   const TextForm& text);
// A range deletion as {start, end, seq} in an array, and `text` in text.
void DescribeRangeDel(Printer& out, const RangeDel& r, const TextForm& text);

}  // namespace rh_inspect
