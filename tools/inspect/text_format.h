// Bytes and numbers as the inspector's text and JSON show them.
#pragma once

#include <string>

#include "rocksdb/slice.h"

namespace rh_inspect {

using ROCKSDB_NAMESPACE::Slice;

std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Lowercase, two digits a byte.
std::string Hex(const Slice& s);
// Accepts an optional 0x; false if `in` is not whole bytes of hex digits.
bool ParseHex(std::string in, std::string* out);

// Printable ASCII as is, a backslash doubled, every other byte as \xNN: one
// line, no tabs, so text output is safe to cut on tabs and newlines.
std::string Escaped(const Slice& s);

bool IsValidUtf8(const Slice& s);
// Text a person would read as such: valid UTF-8 without control characters
// other than tab and newlines. Anything else (a fixed64 property, a binary
// key) is shown as hex in JSON, where a string of \u0000s would mislead.
bool IsText(const Slice& s);

}  // namespace rh_inspect
