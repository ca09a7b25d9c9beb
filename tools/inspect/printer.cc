#include "tools/inspect/printer.h"

#include <cstdio>

#include "tools/inspect/text_format.h"

namespace rh_inspect {

namespace {

// Rows outside any heading: labels padded to this.
constexpr int kTopLabelWidth = 24;

}  // namespace

Value Uint(uint64_t v) {
  Value x;
  x.kind = Value::Kind::kUint;
  x.unsigned_value = v;
  return x;
}

Value Int(int64_t v) {
  Value x;
  x.kind = Value::Kind::kInt;
  x.signed_value = v;
  return x;
}

Value Real(double v) {
  Value x;
  x.kind = Value::Kind::kReal;
  x.real = v;
  return x;
}

Value Bool(bool v) {
  Value x;
  x.kind = Value::Kind::kBool;
  x.boolean = v;
  return x;
}

Value Null() { return Value(); }

Value Str(std::string s) {
  Value x;
  x.kind = Value::Kind::kStr;
  x.bytes = std::move(s);
  return x;
}

Value Bytes(std::string s) {
  Value x;
  x.kind = Value::Kind::kBytes;
  x.bytes = std::move(s);
  return x;
}

TextForm Row(std::string label) {
  TextForm t;
  t.kind = TextForm::Kind::kRow;
  t.label = std::move(label);
  return t;
}

TextForm Row(std::string label, std::string text) {
  TextForm t = Row(std::move(label));
  t.text = std::move(text);
  return t;
}

TextForm Line(std::string line) {
  TextForm t;
  t.kind = TextForm::Kind::kLine;
  t.text = std::move(line);
  return t;
}

TextForm Heading(std::string title, int label_width) {
  TextForm t;
  t.kind = TextForm::Kind::kHeading;
  t.label = std::move(title);
  t.label_width = label_width;
  return t;
}

std::string BytesText(const Args& a, const std::string& bytes) {
  return a.hex ? Hex(bytes) : Escaped(bytes);
}

Printer::Printer(const Args& a)
    : args_(a), form_(a.json ? Form::kJson : Form::kText) {
  groups_.push_back({false, false, 0, kTopLabelWidth});
  if (form_ == Form::kJson) {
    json_.reset(new rh_tools::JsonWriter(args_.out));
    json_->BeginObject();
  }
}

Printer::~Printer() { Finish(); }

void Printer::Finish() {
  if (!json_) return;
  json_->EndObject();
  json_->Flush();
  json_.reset();
}

void Printer::Field(std::string_view key, const Value& v, const TextForm& t) {
  if (muted_) return;
  if (json_) {
    WriteKey(key);
    WriteValue(v);
  } else {
    PrintText(t, &v);
  }
}

void Printer::Item(const Value& v, const TextForm& t) {
  if (muted_) return;
  if (json_) {
    WriteValue(v);
  } else {
    PrintText(t, &v);
  }
}

void Printer::BeginObject(const char* key, const TextForm& t) {
  Begin(key, false, t);
}

void Printer::BeginArray(const char* key, const TextForm& t) {
  Begin(key, true, t);
}

void Printer::Begin(const char* key, bool array, const TextForm& t) {
  Group g = groups_.back();
  g.array = array;
  g.muted = muted_;
  if (t.kind == TextForm::Kind::kHeading) {
    g.indent = 2;
    g.width = t.label_width;
  }
  if (!muted_) {
    if (json_) {
      if (key != nullptr) WriteKey(key);
      array ? json_->BeginArray() : json_->BeginObject();
    } else {
      PrintText(t, nullptr);
    }
  }
  groups_.push_back(g);
}

void Printer::End() {
  const Group g = groups_.back();
  groups_.pop_back();
  if (g.muted || !json_) return;
  g.array ? json_->EndArray() : json_->EndObject();
}

void Printer::TextOnly(const TextForm& t) {
  if (!muted_ && !json_) PrintText(t, nullptr);
}

void Printer::PrintText(const TextForm& t, const Value* v) {
  const Group& g = groups_.back();
  switch (t.kind) {
    case TextForm::Kind::kNone: break;
    case TextForm::Kind::kRow: {
      const std::string text =
          t.text ? *t.text : (v != nullptr ? ValueText(*v) : std::string());
      fprintf(args_.out, "%*s%-*s %s\n", g.indent, "", g.width,
              t.label.c_str(), text.c_str());
      break;
    }
    case TextForm::Kind::kLine:
      fprintf(args_.out, "%s\n", t.text->c_str());
      break;
    case TextForm::Kind::kHeading:
      fprintf(args_.out, "\n%s\n", t.label.c_str());
      break;
  }
}

std::string Printer::ValueText(const Value& v) const {
  switch (v.kind) {
    case Value::Kind::kUint: return std::to_string(v.unsigned_value);
    case Value::Kind::kInt: return std::to_string(v.signed_value);
    case Value::Kind::kReal: return Format("%.6g", v.real);
    case Value::Kind::kBool: return v.boolean ? "true" : "false";
    case Value::Kind::kNull: return "";
    case Value::Kind::kStr: return Escaped(v.bytes);
    case Value::Kind::kBytes: return BytesText(args_, v.bytes);
  }
  return "";
}

// JSON keys must be strings: one from the file that is not UTF-8 (a
// property name) is written as "hex:<hex>".
void Printer::WriteKey(std::string_view key) {
  if (IsValidUtf8(Slice(key.data(), key.size()))) {
    json_->Key(key);
  } else {
    json_->Key("hex:" + Hex(Slice(key.data(), key.size())));
  }
}

void Printer::WriteValue(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kUint: json_->Uint(v.unsigned_value); return;
    case Value::Kind::kInt: json_->Int(v.signed_value); return;
    case Value::Kind::kReal: json_->Real(v.real); return;
    case Value::Kind::kBool: json_->Bool(v.boolean); return;
    case Value::Kind::kNull: json_->Null(); return;
    case Value::Kind::kStr:
      if (IsValidUtf8(v.bytes)) {
        json_->String(v.bytes);
        return;
      }
      break;  // as bytes
    case Value::Kind::kBytes: break;
  }
  if (args_.hex || !IsText(v.bytes)) {
    json_->BeginObject(rh_tools::JsonWriter::Layout::kInline);
    json_->Key("hex").String(Hex(v.bytes));
    json_->EndObject();
  } else {
    json_->String(v.bytes);
  }
}

}  // namespace rh_inspect
