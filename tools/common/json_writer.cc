#include "tools/common/json_writer.h"

#include <cmath>

namespace rh_tools {

namespace {

// Past this the buffer goes out, so a long scan streams.
constexpr size_t kFlushBytes = 1 << 20;

}  // namespace

JsonWriter& JsonWriter::BeginObject(Layout layout) {
  return OpenContainer('{', layout);
}

JsonWriter& JsonWriter::BeginArray(Layout layout) {
  return OpenContainer('[', layout);
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  Separate();
  Quote(key);
  buf_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  BeginValue();
  Quote(s);
  return Done();
}

JsonWriter& JsonWriter::Uint(uint64_t v) {
  BeginValue();
  buf_ += std::to_string(v);
  return Done();
}

JsonWriter& JsonWriter::Int(int64_t v) {
  BeginValue();
  buf_ += std::to_string(v);
  return Done();
}

JsonWriter& JsonWriter::Real(double v) {
  BeginValue();
  if (std::isfinite(v)) {
    char text[32];
    snprintf(text, sizeof(text), "%.6g", v);
    buf_ += text;
  } else {
    buf_ += "null";
  }
  return Done();
}

JsonWriter& JsonWriter::Bool(bool v) {
  BeginValue();
  buf_ += v ? "true" : "false";
  return Done();
}

JsonWriter& JsonWriter::Null() {
  BeginValue();
  buf_ += "null";
  return Done();
}

bool JsonWriter::Flush() {
  if (!buf_.empty()) fwrite(buf_.data(), 1, buf_.size(), out_);
  buf_.clear();
  fflush(out_);
  return ferror(out_) == 0;
}

void JsonWriter::Newline() {
  buf_ += '\n';
  buf_.append(2 * open_.size(), ' ');
}

void JsonWriter::Separate() {
  if (open_.empty()) return;
  Open& o = open_.back();
  if (o.has_items) buf_ += o.inline_items ? ", " : ",";
  o.has_items = true;
  if (!o.inline_items) Newline();
}

void JsonWriter::BeginValue() {
  if (after_key_) {
    after_key_ = false;
  } else {
    Separate();
  }
}

JsonWriter& JsonWriter::Done() {
  // A document ends its line, so output can be concatenated and read by
  // line-oriented tools.
  if (open_.empty()) buf_ += '\n';
  if (buf_.size() > kFlushBytes) Flush();
  return *this;
}

JsonWriter& JsonWriter::OpenContainer(char c, Layout layout) {
  BeginValue();
  buf_ += c;
  open_.push_back({layout == Layout::kInline, false});
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  const Open o = open_.back();
  open_.pop_back();
  if (o.has_items && !o.inline_items) Newline();
  buf_ += c;
  return Done();
}

void JsonWriter::Quote(std::string_view s) {
  buf_ += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': buf_ += "\\\""; break;
      case '\\': buf_ += "\\\\"; break;
      case '\n': buf_ += "\\n"; break;
      case '\r': buf_ += "\\r"; break;
      case '\t': buf_ += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char esc[8];
          snprintf(esc, sizeof(esc), "\\u%04x", c);
          buf_ += esc;
        } else {
          buf_.push_back(ch);
        }
    }
  }
  buf_ += '"';
}

}  // namespace rh_tools
