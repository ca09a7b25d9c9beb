// The project's one JSON writer: rh_inspect and db_bench_ext both write
// through it, so their JSON escapes strings and prints numbers alike.
//
// It streams: values are written as they are given, with nothing held but
// a buffer, so a scan of millions of entries costs no memory. It does not
// check that the calls form a document (a key outside an object, an
// unclosed container); the programs are its only callers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace rh_tools {

class JsonWriter {
 public:
  // kBlock puts each item on its own line, indented two spaces a level,
  // which suits a document read by people and diffed; kInline keeps a
  // container on one line ("{"a": 1, "b": 2}"), for a record among many.
  enum class Layout { kBlock, kInline };

  // Writes to `out`, which must outlive the writer.
  explicit JsonWriter(FILE* out) : out_(out) {}
  ~JsonWriter() { Flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& BeginObject(Layout layout = Layout::kBlock);
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray(Layout layout = Layout::kBlock);
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view key);

  // The bytes as a JSON string, escaped but not validated: a caller that
  // may hold bytes that are not UTF-8 decides what to write instead.
  JsonWriter& String(std::string_view s);
  JsonWriter& Uint(uint64_t v);
  JsonWriter& Int(int64_t v);
  // Six significant digits (%.6g); null if not finite, as JSON has no
  // NaN or infinity.
  JsonWriter& Real(double v);
  JsonWriter& Bool(bool v);
  JsonWriter& Null();

  // Writes out what is buffered. Returns false if the stream has failed.
  bool Flush();

 private:
  struct Open {
    bool inline_items;
    bool has_items;
  };
  JsonWriter& OpenContainer(char c, Layout layout);
  JsonWriter& Close(char c);
  void Newline();
  void Separate();
  void BeginValue();
  JsonWriter& Done();
  void Quote(std::string_view s);

  FILE* const out_;
  std::string buf_;
  std::vector<Open> open_;
  bool after_key_ = false;
};

}  // namespace rh_tools
