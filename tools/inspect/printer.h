// Every command describes its output once, field by field, to a Printer:
// each call gives a field's JSON key and value and its text form, and the
// printer writes whichever of the two --json asks for. So a field cannot be
// added to one form and forgotten in the other without it showing at the
// call, and the two stay in step.
//
//   out.Field("file_size", Uint(size), Row("file size", "42 bytes"));
//     text:  "file size                42 bytes"
//     JSON:  "file_size": 42
//
// A command's JSON is one object, which the printer opens and closes.
// A field with no text form is JSON only; TextOnly() is text only. Groups
// (BeginObject/BeginArray ... End) are JSON objects and arrays; in text a
// group may print a row or line of its own, or a heading under which its
// rows are indented.
//
// Bytes from the file (keys, values, property values) are a JSON string
// when they are text (IsText), and otherwise, or always with --hex, an
// object {"hex": "<lowercase hex>"}; in text they are Escaped, or hex with
// --hex.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/common/json_writer.h"
#include "tools/inspect/command.h"

namespace rh_inspect {

struct Value {
  enum class Kind { kUint, kInt, kReal, kBool, kNull, kStr, kBytes };
  Kind kind = Kind::kNull;
  uint64_t unsigned_value = 0;
  int64_t signed_value = 0;
  double real = 0;
  bool boolean = false;
  std::string bytes;  // kStr, kBytes
};
Value Uint(uint64_t v);
Value Int(int64_t v);
Value Real(double v);
Value Bool(bool v);
Value Null();
// Text the program made (names, messages): a JSON string. Bytes that are
// not UTF-8 (a file name can be anything) are written as Bytes are.
Value Str(std::string s);
// Bytes from the file.
Value Bytes(std::string s);

struct TextForm {
  enum class Kind { kNone, kRow, kLine, kHeading };
  Kind kind = Kind::kNone;
  std::string label;                // a row's label, a heading's title
  std::optional<std::string> text;  // a row's text; absent: the value's own
  int label_width = 0;              // a heading's: for the rows under it
};
// "label  text", the label padded to the width of the rows around it;
// without `text`, the field's value as text.
TextForm Row(std::string label);
TextForm Row(std::string label, std::string text);
// A line as it is.
TextForm Line(std::string line);
// A blank line and `title`; the group's rows are indented by two and their
// labels padded to `label_width`.
TextForm Heading(std::string title, int label_width = 22);

// Bytes from the file as text shows them, for rows that combine several.
std::string BytesText(const Args& a, const std::string& bytes);

class Printer {
 public:
  enum class Form { kText, kJson };

  explicit Printer(const Args& a);
  ~Printer();

  void Field(std::string_view key, const Value& v, const TextForm& t = {});
  // A value in an array.
  void Item(const Value& v, const TextForm& t = {});
  // `key` nullptr: an object or array in an array.
  void BeginObject(const char* key, const TextForm& t = {});
  void BeginArray(const char* key, const TextForm& t = {});
  void End();
  void TextOnly(const TextForm& t);

  // Writes out the JSON (the text goes to stdout as it is described), so a
  // message on stderr after it comes after it.
  void Finish();

  // For the few parts the two forms place differently (text puts detail
  // tables last): while it lives, only `form` is written.
  class Only {
   public:
    Only(Printer& p, Form form) : p_(p), saved_(p.muted_) {
      p.muted_ = saved_ || p.form_ != form;
    }
    ~Only() { p_.muted_ = saved_; }

   private:
    Printer& p_;
    const bool saved_;
  };

 private:
  struct Group {
    bool array;
    bool muted;  // as it was begun, so End matches Begin
    int indent;  // of the text rows in it
    int width;   // of their labels
  };
  void Begin(const char* key, bool array, const TextForm& t);
  void PrintText(const TextForm& t, const Value* v);
  std::string ValueText(const Value& v) const;
  void WriteKey(std::string_view key);
  void WriteValue(const Value& v);

  const Args& args_;
  const Form form_;
  bool muted_ = false;
  std::unique_ptr<rh_tools::JsonWriter> json_;
  std::vector<Group> groups_;
};

}  // namespace rh_inspect
