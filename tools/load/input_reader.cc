#include "tools/load/input_reader.h"

#include <sys/stat.h>

#include <cinttypes>
#include <cstring>

#include "tools/load/byte_stream.h"
#include "tools/load/db_input.h"
#include "util/coding.h"

namespace rh_load {

bool ParseInputFormat(const std::string& name, InputFormat* format) {
  if (name == "tsv") *format = InputFormat::kTsv;
  else if (name == "csv") *format = InputFormat::kCsv;
  else if (name == "binary") *format = InputFormat::kBinary;
  else if (name == "db") *format = InputFormat::kDb;
  else return false;
  return true;
}

const char* RecordNoun(InputFormat format) {
  return format == InputFormat::kTsv ? "line" : "record";
}

namespace {

// A text entry may spell each byte as four (\xHH).
constexpr size_t kMaxLineBytes = 4 * kMaxEntryBytes + 2;

// The base of the file formats: the stream, the count of entries, and the
// message that names where an entry went wrong.
class StreamReader : public InputReader {
 public:
  StreamReader(const char* noun) : noun_(noun) {}
  Status Open(const std::string& path) { return stream_.Open(path); }
  uint64_t BytesRead() const override { return stream_.offset(); }

 protected:
  Status Bad(const std::string& what) const {
    char where[96];
    snprintf(where, sizeof(where), ": %s %" PRIu64 ", byte %" PRIu64 ": ",
             noun_, number_, start_);
    return Status::InvalidArgument(stream_.name() + where + what);
  }
  // Starts the next entry at the stream's position.
  void Begin() {
    number_++;
    start_ = stream_.offset();
  }
  // Makes Window() at least `n` bytes; false when the input ends first.
  Status Want(size_t n, bool* enough) {
    bool eof = false;
    while (stream_.Window().size() < n && !eof) {
      Status s = stream_.Fill(kMaxEntryBytes + 8, &eof);
      if (!s.ok()) return s;
    }
    *enough = stream_.Window().size() >= n;
    return Status::OK();
  }
  // Reads more; *more is false when the input has ended.
  Status More(size_t limit, bool* more) {
    const size_t before = stream_.Window().size();
    bool eof = false;
    Status s = stream_.Fill(limit, &eof);
    *more = stream_.Window().size() > before;
    return s;
  }

  ByteStream stream_;
  const char* noun_;
  uint64_t number_ = 0;  // of the current entry, from 1
  uint64_t start_ = 0;   // its first byte's offset
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class TsvReader : public StreamReader {
 public:
  TsvReader() : StreamReader("line") {}

  Status Next(Slice* key, Slice* value, bool* has) override {
    Slice w = stream_.Window();
    const char* nl = static_cast<const char*>(memchr(w.data(), '\n', w.size()));
    while (nl == nullptr) {
      if (w.size() >= kMaxLineBytes) {
        Begin();
        return Bad("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
      }
      bool more = false;
      Status s = More(kMaxLineBytes, &more);
      if (!s.ok()) return s;
      const size_t scanned = w.size();
      w = stream_.Window();
      if (!more) break;  // a last line without LF, or the end
      nl = static_cast<const char*>(
          memchr(w.data() + scanned, '\n', w.size() - scanned));
    }
    if (nl == nullptr && w.empty()) {
      *has = false;
      return Status::OK();
    }
    Begin();
    const size_t line_bytes = nl ? size_t(nl - w.data()) : w.size();
    Slice line(w.data(), line_bytes);
    if (!line.empty() && line[line.size() - 1] == '\r') line.remove_suffix(1);
    const char* tab = static_cast<const char*>(memchr(line.data(), '\t', line.size()));
    if (tab == nullptr) {
      return Bad(line.empty() ? "empty line (an empty key is a line that starts with TAB)"
                              : "no TAB between key and value");
    }
    const size_t k = size_t(tab - line.data());
    Slice rest(tab + 1, line.size() - k - 1);
    if (memchr(rest.data(), '\t', rest.size()) != nullptr) {
      return Bad("a second TAB (write a TAB inside a value as \\t)");
    }
    Status s = Unescape(Slice(line.data(), k), &key_, key, "key");
    if (s.ok()) s = Unescape(rest, &value_, value, "value");
    if (!s.ok()) return s;
    stream_.Consume(line_bytes + (nl ? 1 : 0));
    *has = true;
    return Status::OK();
  }

 private:
  Status Unescape(const Slice& in, std::string* scratch, Slice* out,
                  const char* field) {
    if (memchr(in.data(), '\\', in.size()) == nullptr) {
      *out = in;
      return Status::OK();
    }
    scratch->clear();
    for (size_t i = 0; i < in.size(); i++) {
      if (in[i] != '\\') {
        scratch->push_back(in[i]);
        continue;
      }
      const char e = i + 1 < in.size() ? in[i + 1] : '\0';
      i++;
      switch (e) {
        case '\\': scratch->push_back('\\'); break;
        case 't': scratch->push_back('\t'); break;
        case 'n': scratch->push_back('\n'); break;
        case 'r': scratch->push_back('\r'); break;
        case '0': scratch->push_back('\0'); break;
        case 'x': {
          const int hi = i + 1 < in.size() ? HexDigit(in[i + 1]) : -1;
          const int lo = i + 2 < in.size() ? HexDigit(in[i + 2]) : -1;
          if (hi < 0 || lo < 0) {
            return Bad(std::string("\\x in the ") + field + " needs two hex digits");
          }
          scratch->push_back(char(hi * 16 + lo));
          i += 2;
          break;
        }
        default:
          return Bad(std::string("unknown escape in the ") + field +
                     " (a backslash is written \\\\)");
      }
    }
    *out = *scratch;
    return Status::OK();
  }

  std::string key_, value_;
};

class CsvReader : public StreamReader {
 public:
  CsvReader() : StreamReader("record") {}

  Status Next(Slice* key, Slice* value, bool* has) override {
    for (;;) {
      const Slice w = stream_.Window();
      if (w.empty()) {
        bool more = false;
        Status s = More(kMaxLineBytes, &more);
        if (!s.ok()) return s;
        if (!more) {
          *has = false;
          return Status::OK();
        }
        continue;
      }
      size_t used = 0;
      bool complete = false;
      number_++;
      start_ = stream_.offset();
      Status s = Parse(w, &used, &complete);
      if (!s.ok()) return s;
      if (complete) {
        *key = fields_[0];
        *value = fields_[1];
        stream_.Consume(used);
        *has = true;
        return Status::OK();
      }
      number_--;
      if (w.size() >= kMaxLineBytes) {
        Begin();
        return Bad("record longer than " + std::to_string(kMaxLineBytes) + " bytes");
      }
      bool more = false;
      s = More(kMaxLineBytes, &more);
      if (!s.ok()) return s;
      if (!more) {
        // The input ends inside the record: parse it as if a line break
        // followed, which completes it unless a quote is open.
        number_++;
        s = Parse(stream_.Window(), &used, &complete, /*at_end=*/true);
        if (!s.ok()) return s;
        *key = fields_[0];
        *value = fields_[1];
        stream_.Consume(used);
        *has = true;
        return Status::OK();
      }
    }
  }

 private:
  // Parses the record at the start of `w`. *complete is false when `w`
  // ends before the record does (and !at_end).
  Status Parse(const Slice& w, size_t* used, bool* complete, bool at_end = false) {
    size_t i = 0;
    int n = 0;
    *complete = false;
    for (;;) {
      if (n == 2) return Bad("more than two fields (quote a value that holds a comma)");
      Slice* field = &fields_[n];
      std::string* scratch = &scratch_[n];
      n++;
      if (i < w.size() && w[i] == '"') {
        size_t j = ++i;
        bool doubled = false;
        for (;;) {
          const char* q = static_cast<const char*>(memchr(w.data() + j, '"', w.size() - j));
          if (q == nullptr) {
            if (at_end) return Bad("a quoted field is not closed");
            return Status::OK();  // incomplete
          }
          j = size_t(q - w.data());
          if (j + 1 < w.size() && w[j + 1] == '"') {
            doubled = true;
            j += 2;
            continue;
          }
          if (j + 1 == w.size() && !at_end) return Status::OK();
          break;
        }
        const Slice raw(w.data() + i, j - i);
        if (doubled) {
          scratch->clear();
          for (size_t k = 0; k < raw.size(); k++) {
            scratch->push_back(raw[k]);
            if (raw[k] == '"') k++;
          }
          *field = *scratch;
        } else {
          *field = raw;
        }
        i = j + 1;
      } else {
        size_t j = i;
        while (j < w.size() && w[j] != ',' && w[j] != '\n') {
          if (w[j] == '"') {
            return Bad("a quote inside an unquoted field (quote the field, "
                       "doubling the quote)");
          }
          j++;
        }
        if (j == w.size() && !at_end) return Status::OK();
        size_t end = j;
        if (end > i && w[end - 1] == '\r' && (j == w.size() || w[j] == '\n')) end--;
        *field = Slice(w.data() + i, end - i);
        i = j;
      }
      // After a field: a comma, a line break or the end.
      if (i < w.size() && w[i] == ',') {
        i++;
        continue;
      }
      if (i + 1 < w.size() && w[i] == '\r' && w[i + 1] == '\n') i++;
      else if (i < w.size() && w[i] == '\r' && !at_end && i + 1 == w.size()) {
        return Status::OK();  // incomplete: the LF may follow
      }
      if (i < w.size() && w[i] != '\n') {
        return Bad("a quoted field must be followed by a comma or a line break");
      }
      if (i == w.size() && !at_end) return Status::OK();
      if (n != 2) return Bad("one field (a record is key,value)");
      *used = i < w.size() ? i + 1 : i;
      *complete = true;
      return Status::OK();
    }
  }

  Slice fields_[2];
  std::string scratch_[2];
};

class BinaryReader : public StreamReader {
 public:
  BinaryReader() : StreamReader("record") {}

  Status Next(Slice* key, Slice* value, bool* has) override {
    bool enough = false;
    Status s = Want(8, &enough);
    if (!s.ok()) return s;
    if (!enough && stream_.Window().empty()) {
      *has = false;
      return Status::OK();
    }
    Begin();
    if (!enough) return Bad("record cut short: its 8-byte header is incomplete");
    const char* p = stream_.Window().data();
    const uint32_t klen = ROCKSDB_NAMESPACE::DecodeFixed32(p);
    const uint32_t vlen = ROCKSDB_NAMESPACE::DecodeFixed32(p + 4);
    const uint64_t size = uint64_t(klen) + vlen;
    if (size > kMaxEntryBytes) {
      return Bad("entry of " + std::to_string(size) + " bytes (key " +
                 std::to_string(klen) + ", value " + std::to_string(vlen) +
                 "): larger than the limit of " + std::to_string(kMaxEntryBytes));
    }
    s = Want(8 + size, &enough);
    if (!s.ok()) return s;
    if (!enough) {
      return Bad("record cut short: " + std::to_string(8 + size) +
                 " bytes announced, " + std::to_string(stream_.Window().size()) +
                 " left");
    }
    p = stream_.Window().data();
    *key = Slice(p + 8, klen);
    *value = Slice(p + 8 + klen, vlen);
    stream_.Consume(8 + size);
    *has = true;
    return Status::OK();
  }
};

}  // namespace

Status OpenInput(InputFormat format, const std::string& path,
                 const std::string& column_family,
                 std::unique_ptr<InputReader>* reader) {
  if (format == InputFormat::kDb) return OpenDbInput(path, column_family, reader);
  std::unique_ptr<StreamReader> r;
  switch (format) {
    case InputFormat::kTsv: r.reset(new TsvReader()); break;
    case InputFormat::kCsv: r.reset(new CsvReader()); break;
    default: r.reset(new BinaryReader()); break;
  }
  Status s = r->Open(path);
  if (s.ok()) *reader = std::move(r);
  return s;
}

uint64_t InputSize(InputFormat format, const std::string& path) {
  if (format == InputFormat::kDb) return DbInputSize(path);
  struct stat st;
  if (path == "-" || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return uint64_t(st.st_size);
}

}  // namespace rh_load
