// rh_inspect: a command-line inspector for RobinHoodTable SST files, in the
// spirit of RocksDB's sst_dump and Sparkey's CLI.
//
//   rh_inspect info   FILE              what the file is: sizes, counts,
//                                       options recorded, all properties
//   rh_inspect stats  FILE              hash index quality: load factor,
//                                       displacement histogram, probe lengths,
//                                       bytes per entry by part
//   rh_inspect get    FILE KEY          the newest entry and every version
//   rh_inspect scan   FILE [FROM [TO]]  entries in order, FROM <= key < TO
//   rh_inspect verify FILE              every checksum, a full scan, and
//                                       every key looked up in the index
//
// Options (anywhere on the line; "--" ends them):
//   --json       machine-readable output (see ByteString below for bytes)
//   --hex        KEY, FROM and TO are hex; keys and values print as hex
//   --limit N    scan: at most N entries
//   --samples N  stats: random misses probed (default 100000, 0: none)
//
// Exit status: 0 OK; 1 get: the key is not in the file; 2 the file is
// missing, not a RobinHoodTable file, or damaged (a message naming the file
// on stderr); 64 usage error (EX_USAGE), with the usage text.
//
// The file is opened with the project's RobinHoodTableReader, which checks
// the footer, the meta block and every section's checksum on open; log
// blocks are checked as they are read. Nothing here writes to the file.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "table/robinhood_format.h"
#include "table/robinhood_table_reader.h"
#include "table/sst_file_writer_collectors.h"
#include "util/coding.h"

using namespace ROCKSDB_NAMESPACE;
using namespace ROCKSDB_NAMESPACE::robinhood;

namespace {

// Like grep and sst_dump: 1 is a negative answer, not an error.
constexpr int kExitOk = 0;
constexpr int kExitNotFound = 1;
constexpr int kExitBadFile = 2;
constexpr int kExitUsage = 64;  // sysexits.h EX_USAGE

const char kUsage[] =
    "usage: rh_inspect COMMAND FILE [ARGS] [--json] [--hex] [--limit N]\n"
    "  info   FILE              format, counts, sizes, options, properties\n"
    "  stats  FILE              load factor, displacement histogram, probe\n"
    "                           lengths, bytes per entry   [--samples N]\n"
    "  get    FILE KEY          newest entry and all versions of KEY\n"
    "  scan   FILE [FROM [TO]]  entries with FROM <= user key < TO [--limit N]\n"
    "  verify FILE              all checksums, a full scan, the hash index\n"
    "  --json  JSON output; --hex  KEY/FROM/TO in hex, bytes printed in hex\n"
    "exit status: 0 ok, 1 key not found (get), 2 not a RobinHoodTable file\n"
    "             or damaged, 64 usage error\n";

std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return buf;
}

// ---------------------------------------------------------------------------
// Bytes as text.

std::string Hex(const Slice& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() * 2);
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

bool ParseHex(std::string in, std::string* out) {
  if (in.size() >= 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X')) {
    in = in.substr(2);
  }
  if (in.size() % 2 != 0) return false;
  out->clear();
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < in.size(); i += 2) {
    const int hi = digit(in[i]), lo = digit(in[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

// Printable ASCII as is, a backslash doubled, every other byte as \xNN: one
// line, no tabs, so text output is safe to cut on tabs and newlines.
std::string Escaped(const Slice& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      out += Format("\\x%02x", c);
    }
  }
  return out;
}

bool IsValidUtf8(const Slice& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const unsigned c = *p;
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
      ++p;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      n = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (static_cast<size_t>(end - p) <= n) return false;
    for (size_t i = 1; i <= n; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    static const uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    p += n + 1;
  }
  return true;
}

// Text a person would read as such: valid UTF-8 without control characters
// other than tab and newlines. Anything else (a fixed64 property, a binary
// key) is shown as hex in JSON, where a string of \u0000s would mislead.
bool IsText(const Slice& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      return false;
    }
  }
  return IsValidUtf8(s);
}

// ---------------------------------------------------------------------------
// A small streaming JSON writer with two-space indentation.
//
// ByteString: keys, values and property values are bytes. One is written as
// a JSON string when it is text (IsText), and otherwise, or always with
// --hex, as an object {"hex": "<lowercase hex>"}.
class Json {
 public:
  explicit Json(bool hex_bytes) : hex_bytes_(hex_bytes) {}
  ~Json() { Flush(); }

  Json& BeginObject() { return Open('{'); }
  Json& EndObject() { return Close('}'); }
  Json& BeginArray() { return Open('['); }
  Json& EndArray() { return Close(']'); }
  Json& Key(const char* k) {
    Separate();
    Quote(k);
    buf_ += ": ";
    after_key_ = true;
    return *this;
  }
  Json& Key(const std::string& k) {
    if (!IsValidUtf8(k)) return Key(("hex:" + Hex(k)).c_str());
    return Key(k.c_str());
  }
  // Text the program made (names, messages): a string.
  Json& Str(const std::string& s) {
    if (!IsValidUtf8(s)) return Bytes(s);
    BeginValue();
    Quote(s);
    return Done();
  }
  Json& Bytes(const Slice& s) {
    BeginValue();
    if (hex_bytes_ || !IsText(s)) {
      buf_ += "{\"hex\": \"" + Hex(s) + "\"}";
    } else {
      Quote(s);
    }
    return Done();
  }
  Json& Num(uint64_t v) {
    BeginValue();
    buf_ += std::to_string(v);
    return Done();
  }
  Json& Int(int64_t v) {
    BeginValue();
    buf_ += std::to_string(v);
    return Done();
  }
  Json& Real(double v) {
    BeginValue();
    buf_ += std::isfinite(v) ? Format("%.6g", v) : std::string("null");
    return Done();
  }
  Json& Bool(bool v) {
    BeginValue();
    buf_ += v ? "true" : "false";
    return Done();
  }
  Json& Null() {
    BeginValue();
    buf_ += "null";
    return Done();
  }

  void Flush() {
    if (!buf_.empty()) fwrite(buf_.data(), 1, buf_.size(), stdout);
    buf_.clear();
    fflush(stdout);
  }

 private:
  void Newline() {
    buf_ += '\n';
    buf_.append(2 * has_items_.size(), ' ');
  }
  // Before a key, or a value in an array.
  void Separate() {
    if (has_items_.empty()) return;
    if (has_items_.back()) buf_ += ',';
    has_items_.back() = true;
    Newline();
  }
  void BeginValue() {
    if (after_key_) {
      after_key_ = false;
    } else {
      Separate();
    }
  }
  Json& Done() {
    if (has_items_.empty()) buf_ += '\n';
    if (buf_.size() > (1 << 20)) Flush();
    return *this;
  }
  Json& Open(char c) {
    BeginValue();
    buf_ += c;
    has_items_.push_back(false);
    return *this;
  }
  Json& Close(char c) {
    const bool had = has_items_.back();
    has_items_.pop_back();
    if (had) Newline();
    buf_ += c;
    return Done();
  }
  void Quote(const Slice& s) {
    buf_ += '"';
    for (size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      switch (c) {
        case '"': buf_ += "\\\""; break;
        case '\\': buf_ += "\\\\"; break;
        case '\n': buf_ += "\\n"; break;
        case '\r': buf_ += "\\r"; break;
        case '\t': buf_ += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7f) {
            buf_ += Format("\\u%04x", c);
          } else {
            buf_.push_back(static_cast<char>(c));
          }
      }
    }
    buf_ += '"';
  }

  const bool hex_bytes_;
  std::string buf_;
  std::vector<bool> has_items_;  // per open container: written an item yet
  bool after_key_ = false;
};

// ---------------------------------------------------------------------------
// Command line.

struct Args {
  std::string command;
  std::string file;
  std::vector<std::string> rest;
  bool json = false;
  bool hex = false;
  uint64_t limit = std::numeric_limits<uint64_t>::max();
  uint64_t samples = 100000;
};

bool ParseCount(const std::string& s, uint64_t* out) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  *out = std::stoull(s);
  return true;
}

// Returns an error message, or "" if the arguments are good.
std::string ParseArgs(int argc, char** argv, Args* a) {
  std::vector<std::string> positional;
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (options_done || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      positional.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    const size_t eq = arg.find('=');
    const bool has_value = eq != std::string::npos;
    if (has_value) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    auto take_value = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    if (arg == "--") {
      options_done = true;
    } else if (name == "--json" && !has_value) {
      a->json = true;
    } else if (name == "--hex" && !has_value) {
      a->hex = true;
    } else if (name == "--limit") {
      if (!take_value() || !ParseCount(value, &a->limit)) {
        return "--limit needs a count";
      }
    } else if (name == "--samples") {
      if (!take_value() || !ParseCount(value, &a->samples)) {
        return "--samples needs a count";
      }
    } else if (name == "--help") {
      return "help";
    } else {
      return "unknown option " + arg;
    }
  }
  if (positional.empty()) return "no command";
  a->command = positional[0];
  size_t min_args = 1, max_args = 1;
  if (a->command == "get") {
    min_args = max_args = 2;
  } else if (a->command == "scan") {
    max_args = 3;
  } else if (a->command != "info" && a->command != "stats" &&
             a->command != "verify") {
    return "unknown command " + a->command;
  }
  const size_t n = positional.size() - 1;
  if (n < min_args || n > max_args) {
    return "wrong number of arguments for " + a->command;
  }
  a->file = positional[1];
  a->rest.assign(positional.begin() + 2, positional.end());
  if (a->hex) {
    for (auto& k : a->rest) {
      std::string bytes;
      if (!ParseHex(k, &bytes)) return "not a hex string: " + k;
      k = bytes;
    }
  }
  return "";
}

// ---------------------------------------------------------------------------
// Opening a file.

struct Known {
  uint64_t magic;
  const char* what;
};
const Known kKnownMagics[] = {
    {0x88e241b785f4cff7ull, "a BlockBasedTable SST file"},
    {0xdb4775248b80fb57ull, "a legacy BlockBasedTable SST file"},
    {0x8242229663bf9564ull, "a PlainTable SST file"},
    {0x4f3418eb7a8f13b8ull, "a legacy PlainTable SST file"},
    {0x926789d0c5f17873ull, "a CuckooTable SST file"},
};

struct Table {
  std::string path;
  uint64_t file_size = 0;
  Options options;
  std::unique_ptr<ImmutableOptions> ioptions;
  std::unique_ptr<InternalKeyComparator> icmp;
  std::unique_ptr<TableReader> owner;
  RobinHoodTableReader* reader = nullptr;
  const TableView* view = nullptr;  // the reader's parts
  std::shared_ptr<const TableProperties> props;

  const TableMeta& meta() const { return view->meta(); }
};

// A message about `path`: a Status whose text names the file already loses
// that copy of the name, so the file is named once, first.
std::string Describe(const std::string& path, const Status& s) {
  std::string text = s.ToString();
  const std::string named = path + ": ";
  const size_t at = text.find(named);
  if (at != std::string::npos) text.erase(at, named.size());
  return text;
}

// What the file is, from its kind and its last 8 bytes, before any parsing:
// "" if it may be ours (the reader then checks everything), else why not.
// Naming the format of a foreign SST file is the point of this check; the
// reader would only say "bad magic number".
std::string CheckFileKind(const std::string& path, uint64_t* file_size) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return std::string("cannot open: ") + strerror(errno);
  struct stat st;
  unsigned char tail[8];
  std::string err;
  if (fstat(fd, &st) != 0) {
    err = std::string("cannot stat: ") + strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    err = "not a regular file";
  } else if (st.st_size < 8) {
    err = Format("not a RobinHoodTable file: too short (%lld bytes)",
                 static_cast<long long>(st.st_size));
  } else if (pread(fd, tail, 8, st.st_size - 8) != 8) {
    err = std::string("cannot read: ") + strerror(errno);
  } else {
    *file_size = static_cast<uint64_t>(st.st_size);
    const uint64_t magic = DecodeFixed64(reinterpret_cast<char*>(tail));
    if (magic != kMagicNumber) {
      std::string what = "truncated, or not an SST file";
      for (const Known& k : kKnownMagics) {
        if (k.magic == magic) what = std::string("it is ") + k.what;
      }
      err = Format("not a RobinHoodTable file (magic number 0x%016" PRIx64
                   " at offset %" PRIu64 ", expected 0x%016" PRIx64 "): ",
                   magic, *file_size - 8, kMagicNumber) +
            what;
    }
  }
  close(fd);
  return err;
}

// Opens the file with the project's reader, which checks the footer, the
// meta block and every section's checksum, under the user comparator `ucmp`.
Status OpenWith(const Comparator* ucmp, Table* t) {
  t->owner.reset();
  t->reader = nullptr;
  t->view = nullptr;
  t->props.reset();
  std::unique_ptr<FSRandomAccessFile> raf;
  Status s = t->options.env->GetFileSystem()->NewRandomAccessFile(
      t->path, FileOptions(), &raf, nullptr);
  if (!s.ok()) return s;
  t->icmp.reset(new InternalKeyComparator(ucmp));
  std::unique_ptr<RandomAccessFileReader> file(
      new RandomAccessFileReader(std::move(raf), t->path));
  // kMaxSequenceNumber: no expected largest seqno, so an ingested file's
  // entries surface with the global seqno recorded in it (0 if none).
  s = RobinHoodTableReader::Open(*t->ioptions, *t->icmp, std::move(file),
                                 t->file_size, kMaxSequenceNumber, &t->owner);
  if (!s.ok()) return s;
  t->reader = static_cast<RobinHoodTableReader*>(t->owner.get());
  t->view = &t->reader->view();
  t->props = t->reader->GetTableProperties();
  return s;
}

// Opens `path`; returns "" or what is wrong with it (not naming the file).
//
// The reader needs the comparator the file was written with (it checks the
// order of the sparse index on open), whose name is in the properties, which
// only the reader reads safely: RocksDB's parser asserts on damaged bytes in
// this (non-NDEBUG) library, so the reader checks their checksum first. So
// open with each comparator rh_inspect knows, bytewise first (nearly every
// file), and keep the open whose properties name the comparator it used. A
// wrong comparator can only fail as "keys out of order".
std::string Open(const std::string& path, Table* t) {
  t->path = path;
  std::string err = CheckFileKind(path, &t->file_size);
  if (!err.empty()) return err;
  t->options.env = Env::Default();
  t->ioptions.reset(new ImmutableOptions(t->options));

  Status first_error;
  for (const Comparator* ucmp :
       {BytewiseComparator(), ReverseBytewiseComparator()}) {
    Status s = OpenWith(ucmp, t);
    if (!s.ok()) {
      if (first_error.ok()) first_error = s;
      if (s.ToString().find("keys out of order") == std::string::npos) break;
      continue;
    }
    const std::string& name = t->props->comparator_name;
    if (name.empty() || name == ucmp->Name()) return "";
    if (name != BytewiseComparator()->Name() &&
        name != ReverseBytewiseComparator()->Name()) {
      return "written with the comparator " + name +
             ", which rh_inspect does not know";
    }
  }
  t->owner.reset();
  return Describe(path, first_error.ok()
                            ? Status::Corruption(
                                  "the comparator named in the properties "
                                  "does not order the sparse index")
                            : first_error);
}

// Prints the failure: a line on stderr, and with --json an object on stdout
// so the output still parses.
int Failure(const Args& a, const std::string& message, int code) {
  fprintf(stderr, "rh_inspect: %s: %s\n", a.file.c_str(), message.c_str());
  if (a.json) {
    Json j(a.hex);
    j.BeginObject();
    j.Key("file").Str(a.file);
    j.Key("ok").Bool(false);
    j.Key("error").Str(message);
    j.EndObject();
  }
  return code;
}

// ---------------------------------------------------------------------------
// Shared pieces.

const char* TypeName(ValueType t) {
  switch (t) {
    case kTypeValue: return "PUT";
    case kTypeDeletion: return "DELETE";
    case kTypeSingleDeletion: return "SINGLE_DELETE";
    case kTypeMerge: return "MERGE";
    case kTypeRangeDeletion: return "RANGE_DELETE";
    case kTypeBlobIndex: return "BLOB_INDEX";
    case kTypeDeletionWithTimestamp: return "DELETE_WITH_TIMESTAMP";
    case kTypeWideColumnEntity: return "WIDE_COLUMN_ENTITY";
    default: return nullptr;
  }
}
std::string TypeString(ValueType t) {
  const char* name = TypeName(t);
  return name ? name : Format("TYPE_0x%02x", static_cast<unsigned>(t));
}
bool IsDeletion(ValueType t) {
  return t == kTypeDeletion || t == kTypeSingleDeletion ||
         t == kTypeDeletionWithTimestamp;
}

struct Entry {
  std::string user_key;
  SequenceNumber seq;
  ValueType type;
  std::string value;
};

std::string Text(const Args& a, const Slice& s) {
  return a.hex ? Hex(s) : Escaped(s);
}

void EntryJson(Json& j, const Entry& e, bool with_key) {
  j.BeginObject();
  if (with_key) j.Key("key").Bytes(e.user_key);
  j.Key("seq").Num(e.seq);
  j.Key("type").Str(TypeString(e.type));
  j.Key("value").Bytes(e.value);
  j.EndObject();
}

std::unique_ptr<InternalIterator> NewIter(const Table& t) {
  ReadOptions ro;
  ro.verify_checksums = true;
  return std::unique_ptr<InternalIterator>(t.reader->NewIterator(
      ro, nullptr, nullptr, false, TableReaderCaller::kSSTDumpTool));
}

Status ParseCurrent(const InternalIterator& it, Entry* e) {
  ParsedInternalKey parsed;
  Status s = ParseInternalKey(it.key(), &parsed, false);
  if (!s.ok()) return Status::Corruption("bad internal key in the log");
  e->user_key.assign(parsed.user_key.data(), parsed.user_key.size());
  e->seq = parsed.sequence;
  e->type = parsed.type;
  const Slice v = it.value();
  e->value.assign(v.data(), v.size());
  return Status::OK();
}

struct RangeDel {
  std::string start, end;
  SequenceNumber seq;
};
// The range tombstones as the reader serves them (fragmented).
std::vector<RangeDel> RangeDels(const Table& t) {
  std::vector<RangeDel> out;
  std::unique_ptr<FragmentedRangeTombstoneIterator> it(
      t.reader->NewRangeTombstoneIterator(ReadOptions()));
  if (!it) return out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.push_back({it->start_key().ToString(), it->end_key().ToString(),
                   it->seq()});
  }
  return out;
}

// The global sequence number of an ingested file, if it has one.
bool GlobalSeqno(const TableProperties& p, uint64_t* seqno) {
  const auto& user = p.user_collected_properties;
  auto v = user.find(ExternalSstFilePropertyNames::kVersion);
  auto g = user.find(ExternalSstFilePropertyNames::kGlobalSeqno);
  if (v == user.end() || v->second.size() < 4 ||
      DecodeFixed32(v->second.data()) < 2 || g == user.end() ||
      g->second.size() < 8) {
    return false;
  }
  *seqno = DecodeFixed64(g->second.data());
  return true;
}

// The sections of the file, trailers included, in file order.
struct Section {
  const char* name;
  uint64_t offset;
  uint64_t bytes;
};
std::vector<Section> Sections(const Table& t) {
  const TableMeta& m = t.meta();
  auto with_trailer = [](const SectionHandle& h) {
    return h.size + kTrailerSize;
  };
  const uint64_t meta_offset = m.metaindex.end_with_trailer();
  return {
      {"log", 0, m.log_file_bytes},
      {"hash_index", m.index.offset, with_trailer(m.index)},
      {"block_table", m.block_table.offset, with_trailer(m.block_table)},
      {"sparse_index", m.sparse_index.offset, with_trailer(m.sparse_index)},
      {"range_deletions", m.range_dels.offset, with_trailer(m.range_dels)},
      {"properties", m.properties.offset, with_trailer(m.properties)},
      {"metaindex", m.metaindex.offset, with_trailer(m.metaindex)},
      {"meta", meta_offset, TableMeta::kEncodedLength + kTrailerSize},
      {"footer", t.file_size - kFooterSize, kFooterSize},
  };
}

// Every property in the file: RocksDB's named ones, then the user-collected
// ones (ours among them), by name.
struct Prop {
  std::string name;
  bool numeric;
  uint64_t num;
  std::string bytes;
  bool user;  // user-collected (names may repeat RocksDB's: not merged)
};
std::vector<Prop> AllProperties(const TableProperties& p) {
  using N = TablePropertiesNames;
  std::vector<Prop> out;
  auto num = [&](const std::string& name, uint64_t v) {
    out.push_back({name, true, v, "", false});
  };
  auto str = [&](const std::string& name, const std::string& v) {
    out.push_back({name, false, 0, v, false});
  };
  num(N::kOriginalFileNumber, p.orig_file_number);
  num(N::kDataSize, p.data_size);
  num(N::kIndexSize, p.index_size);
  num(N::kIndexPartitions, p.index_partitions);
  num(N::kTopLevelIndexSize, p.top_level_index_size);
  num(N::kIndexKeyIsUserKey, p.index_key_is_user_key);
  num(N::kIndexValueIsDeltaEncoded, p.index_value_is_delta_encoded);
  num(N::kFilterSize, p.filter_size);
  num(N::kRawKeySize, p.raw_key_size);
  num(N::kRawValueSize, p.raw_value_size);
  num(N::kNumDataBlocks, p.num_data_blocks);
  num(N::kNumEntries, p.num_entries);
  num(N::kNumFilterEntries, p.num_filter_entries);
  num(N::kDeletedKeys, p.num_deletions);
  num(N::kMergeOperands, p.num_merge_operands);
  num(N::kNumRangeDeletions, p.num_range_deletions);
  num(N::kFormatVersion, p.format_version);
  num(N::kFixedKeyLen, p.fixed_key_len);
  num(N::kColumnFamilyId, p.column_family_id);
  num(N::kCreationTime, p.creation_time);
  num(N::kOldestKeyTime, p.oldest_key_time);
  num(N::kFileCreationTime, p.file_creation_time);
  num(N::kSlowCompressionEstimatedDataSize,
      p.slow_compression_estimated_data_size);
  num(N::kFastCompressionEstimatedDataSize,
      p.fast_compression_estimated_data_size);
  str(N::kDbId, p.db_id);
  str(N::kDbSessionId, p.db_session_id);
  str(N::kDbHostId, p.db_host_id);
  str(N::kColumnFamilyName, p.column_family_name);
  str(N::kFilterPolicy, p.filter_policy_name);
  str(N::kComparator, p.comparator_name);
  str(N::kMergeOperator, p.merge_operator_name);
  str(N::kPrefixExtractorName, p.prefix_extractor_name);
  str(N::kPropertyCollectors, p.property_collectors_names);
  str(N::kCompression, p.compression_name);
  str(N::kCompressionOptions, p.compression_options);
  str(N::kSequenceNumberTimeMapping, p.seqno_to_time_mapping);
  for (const auto& kv : p.user_collected_properties) {
    out.push_back({kv.first, false, 0, kv.second, true});
  }
  return out;
}

// The binary user-collected properties RocksDB's collectors write
// (SstFileWriter's version and global seqno, the internal-key collector's
// varint counts), decoded: returns the encoding's name, or nullptr if `p` is
// not one of them (or does not decode).
const char* DecodeBinaryProp(const Prop& p, uint64_t* v) {
  if (!p.user) return nullptr;
  if (p.name == TablePropertiesNames::kDeletedKeys ||
      p.name == TablePropertiesNames::kMergeOperands) {
    Slice in(p.bytes);
    return GetVarint64(&in, v) && in.empty() ? "varint64" : nullptr;
  }
  if (p.name == ExternalSstFilePropertyNames::kVersion && p.bytes.size() == 4) {
    *v = DecodeFixed32(p.bytes.data());
    return "fixed32";
  }
  if (p.name == ExternalSstFilePropertyNames::kGlobalSeqno &&
      p.bytes.size() == 8) {
    *v = DecodeFixed64(p.bytes.data());
    return "fixed64";
  }
  return nullptr;
}

std::string PropText(const Args& a, const Prop& p) {
  if (p.numeric) return std::to_string(p.num);
  uint64_t v = 0;
  if (const char* encoding = DecodeBinaryProp(p, &v)) {
    return std::to_string(v) + " (" + encoding + ")";
  }
  return Text(a, p.bytes);
}

void PropJson(Json& j, const Prop& p) {
  uint64_t v = p.num;
  if (p.numeric || DecodeBinaryProp(p, &v) != nullptr) {
    j.Num(v);
  } else {
    j.Bytes(p.bytes);
  }
}

void Row(const char* name, const std::string& value) {
  printf("%-24s %s\n", name, value.c_str());
}

std::string U(uint64_t v) { return std::to_string(v); }

// ---------------------------------------------------------------------------
// info

// What info shows beyond the meta block and the properties as stored.
struct InfoFacts {
  uint64_t compressed_blocks = 0;
  std::string factory;  // as the file records it, "" if it does not
  bool has_global_seqno = false;
  uint64_t global_seqno = 0;
  double load_factor = 0;  // distinct keys / home slots
  uint32_t tag_bits = 0;
  std::vector<Section> sections;
};

InfoFacts GatherInfo(const Table& t) {
  InfoFacts f;
  const BlockTable& blocks = t.view->blocks();
  for (size_t b = 0; b < blocks.num_blocks(); ++b) {
    f.compressed_blocks += blocks.Get(b).compressed();
  }
  const auto& user = t.props->user_collected_properties;
  auto factory = user.find(RobinHoodTablePropertyNames::kFactory);
  if (factory != user.end()) f.factory = factory->second;
  f.has_global_seqno = GlobalSeqno(*t.props, &f.global_seqno);
  f.load_factor = static_cast<double>(t.meta().num_keys) /
                  static_cast<double>(t.meta().index_capacity);
  f.tag_bits = t.view->hash_index().geometry().tag_bits();
  f.sections = Sections(t);
  return f;
}

void InfoJson(const Args& a, const Table& t, const InfoFacts& f) {
  const TableMeta& m = t.meta();
  const TableProperties& p = *t.props;
  const BlockTable& blocks = t.view->blocks();
  Json j(a.hex);
  j.BeginObject();
  j.Key("file").Str(a.file);
  j.Key("ok").Bool(true);
  j.Key("table_factory").Str(f.factory.empty() ? kRobinHoodTableName : f.factory);
  j.Key("format_version").Num(m.format_version);
  j.Key("comparator").Str(p.comparator_name);
  j.Key("file_size").Num(t.file_size);
  j.Key("entries").Num(m.num_entries);
  j.Key("distinct_keys").Num(m.num_keys);
  j.Key("deletions").Num(p.num_deletions);
  j.Key("merge_operands").Num(p.num_merge_operands);
  j.Key("range_deletions").Num(p.num_range_deletions);
  j.Key("global_seqno");
  f.has_global_seqno ? j.Num(f.global_seqno) : j.Null();
  j.Key("data_size").Num(p.data_size);
  j.Key("index_size").Num(p.index_size);
  j.Key("log").BeginObject();
  j.Key("file_bytes").Num(m.log_file_bytes);
  j.Key("logical_bytes").Num(m.log_logical_bytes);
  j.Key("blocks").Num(blocks.num_blocks());
  j.Key("compressed_blocks").Num(f.compressed_blocks);
  j.EndObject();
  j.Key("compression").Str(p.compression_name);
  j.Key("hash_index").BeginObject();
  j.Key("bytes").Num(m.index.size);
  j.Key("capacity").Num(m.index_capacity);
  j.Key("slots").Num(m.index_slots);
  j.Key("overflow_slots").Num(m.index_slots - m.index_capacity);
  j.Key("address_bits").Num(m.address_bits);
  j.Key("tag_bits").Num(f.tag_bits);
  j.Key("max_displacement").Num(m.max_displacement);
  j.Key("load_factor").Real(f.load_factor);
  j.EndObject();
  j.Key("sparse_index").BeginObject();
  j.Key("records").Num(t.view->sparse_index().size());
  j.Key("bytes").Num(m.sparse_index.size);
  j.EndObject();
  j.Key("sections").BeginArray();
  for (const Section& s : f.sections) {
    j.BeginObject();
    j.Key("name").Str(s.name);
    j.Key("offset").Num(s.offset);
    j.Key("bytes").Num(s.bytes);
    j.EndObject();
  }
  j.EndArray();
  j.Key("options").BeginObject();
  j.Key("hash_seed").Str(Format("0x%016" PRIx64, m.hash_seed));
  j.Key("log_block_size").Num(m.log_block_size);
  j.Key("sparse_index_interval").Num(m.sparse_interval);
  j.Key("load_factor").Real(f.load_factor);
  j.EndObject();
  const std::vector<Prop> props = AllProperties(p);
  for (bool user : {false, true}) {
    j.Key(user ? "user_collected_properties" : "properties").BeginObject();
    for (const Prop& prop : props) {
      if (prop.user != user) continue;
      j.Key(prop.name);
      PropJson(j, prop);
    }
    j.EndObject();
  }
  j.EndObject();
}

void InfoText(const Args& a, const Table& t, const InfoFacts& f) {
  const TableMeta& m = t.meta();
  const TableProperties& p = *t.props;
  const BlockTable& blocks = t.view->blocks();
  Row("file", Escaped(a.file));
  Row("table factory", f.factory.empty() ? "(not recorded)" : Escaped(f.factory));
  Row("format version", U(m.format_version));
  Row("comparator", Escaped(p.comparator_name));
  Row("file size", U(t.file_size) + " bytes");
  Row("entries", U(m.num_entries) + " (" + U(p.num_deletions) +
                     " deletions, " + U(p.num_merge_operands) +
                     " merge operands)");
  Row("distinct keys", U(m.num_keys));
  Row("range deletions", U(p.num_range_deletions));
  Row("global seqno", f.has_global_seqno ? U(f.global_seqno) : "none");
  Row("data size", U(p.data_size) + " bytes (the log)");
  Row("index size", U(p.index_size) +
                        " bytes (hash index, block table, sparse index)");
  Row("log", Format("%" PRIu64 " bytes in %zu blocks, %" PRIu64
                    " bytes uncompressed",
                    m.log_file_bytes, blocks.num_blocks(),
                    m.log_logical_bytes));
  Row("compression", Escaped(p.compression_name) +
                         Format(" (%" PRIu64 " of %zu blocks compressed)",
                                f.compressed_blocks, blocks.num_blocks()));
  Row("hash index",
      Format("%" PRIu64 " bytes: %" PRIu64 " home slots + %" PRIu64
             " overflow, %u address bits, %u tag bits",
             m.index.size, m.index_capacity, m.index_slots - m.index_capacity,
             m.address_bits, f.tag_bits));
  Row("max displacement", U(m.max_displacement));
  Row("sparse index", Format("%zu records, %" PRIu64 " bytes",
                             t.view->sparse_index().size(),
                             m.sparse_index.size));
  printf("\noptions recorded in the file\n");
  Row("  hash_seed", Format("0x%016" PRIx64, m.hash_seed));
  Row("  log_block_size", U(m.log_block_size));
  Row("  sparse_index_interval", U(m.sparse_interval));
  Row("  load_factor", Format("%.4f (distinct keys / home slots; the "
                              "configured target is at least this)",
                              f.load_factor));
  printf("\nsections (bytes include the 5-byte trailer)\n");
  for (const Section& s : f.sections) {
    printf("  %-22s %12" PRIu64 " bytes at offset %" PRIu64 "\n", s.name,
           s.bytes, s.offset);
  }
  const std::vector<Prop> props = AllProperties(p);
  for (bool user : {false, true}) {
    printf(user ? "\nuser-collected properties\n" : "\ntable properties\n");
    for (const Prop& prop : props) {
      if (prop.user != user) continue;
      printf("  %-46s %s\n", Escaped(prop.name).c_str(),
             PropText(a, prop).c_str());
    }
  }
}

int Info(const Args& a, const Table& t) {
  const InfoFacts facts = GatherInfo(t);
  if (a.json) {
    InfoJson(a, t, facts);
  } else {
    InfoText(a, t, facts);
  }
  return kExitOk;
}

// ---------------------------------------------------------------------------
// stats

// The user key of the entry at `address` (for a saturated displacement).
Status KeyAt(const Table& t, uint64_t address, std::string* key) {
  const BlockTable& blocks = t.view->blocks();
  if (address >= t.meta().log_logical_bytes) {
    return Status::Corruption("hash index: address " + U(address) +
                              " past the log");
  }
  const size_t b = blocks.Find(address);
  std::string buf;
  Slice contents;
  Status s = t.view->log().ReadBlock(b, true, &buf, &contents);
  if (!s.ok()) return s;
  const uint64_t off = address - blocks.Get(b).logical_offset;
  LogEntry e;
  if (off >= contents.size() ||
      DecodeLogEntry(contents.data() + off, contents.data() + contents.size(),
                     &e) == nullptr) {
    return Status::Corruption("hash index: no entry at address " +
                              U(address));
  }
  key->assign(e.user_key.data(), e.user_key.size());
  return Status::OK();
}

struct IndexStats {
  uint64_t used = 0;
  uint64_t overflow_used = 0;
  std::vector<uint64_t> histogram;  // keys by displacement
  uint64_t total_displacement = 0;
  uint64_t clusters = 0;  // runs of used slots
  uint64_t max_cluster = 0;
  uint64_t samples = 0;
  double miss_mean = 0;
  uint64_t miss_max = 0;
  double miss_log_reads = 0;  // tag matches per miss: reads of the log

  uint64_t max_displacement() const {
    return histogram.empty() ? 0 : histogram.size() - 1;
  }
  // The probe length (slots read by a hit = displacement + 1) below which
  // fraction `q` of the keys lie.
  uint64_t ProbePercentile(double q) const {
    const double want = q * static_cast<double>(used);
    uint64_t seen = 0;
    for (size_t d = 0; d < histogram.size(); ++d) {
      seen += histogram[d];
      if (static_cast<double>(seen) >= want) return d + 1;
    }
    return histogram.size();
  }
};

Status ComputeIndexStats(const Table& t, uint64_t samples, IndexStats* st) {
  const HashIndex& index = t.view->hash_index();
  const IndexGeometry& geo = index.geometry();
  const TableMeta& m = t.meta();
  uint64_t run = 0;
  for (uint64_t i = 0; i < geo.slots; ++i) {
    const uint64_t w = index.Slot(i);
    if (w == 0) {
      run = 0;
      continue;
    }
    if (run++ == 0) ++st->clusters;
    st->max_cluster = std::max(st->max_cluster, run);
    ++st->used;
    if (i >= geo.capacity) ++st->overflow_used;
    // An address field of 0 in a used slot decodes as 2^64 - 1: past the log.
    const uint64_t address = index.AddressOf(w);
    if (address >= m.log_logical_bytes) {
      return Status::Corruption(
          Format("hash index: slot %" PRIu64 " holds an address past the log",
                 i));
    }
    uint64_t d = index.DisplacementOf(w);
    if (d == kSaturatedDisplacement) {  // 255 or more: find the home
      std::string key;
      Status s = KeyAt(t, address, &key);
      if (!s.ok()) return s;
      const uint64_t home = index.Home(KeyHash(key, m.hash_seed));
      if (home > i) {
        return Status::Corruption(
            Format("hash index: slot %" PRIu64 " before its home", i));
      }
      d = i - home;
    }
    if (d >= geo.slots) {
      return Status::Corruption(
          Format("hash index: slot %" PRIu64 " displaced past the index", i));
    }
    if (st->histogram.size() <= d) st->histogram.resize(d + 1, 0);
    ++st->histogram[d];
    st->total_displacement += d;
  }
  if (st->used != m.num_keys) {
    return Status::Corruption(Format("hash index: %" PRIu64
                                     " used slots for %" PRIu64 " keys",
                                     st->used, m.num_keys));
  }
  // Misses: probe random hashes (fixed seed, so runs agree). A hash of a
  // key in the file turns up with probability keys / 2^56: never, here.
  std::mt19937_64 rng(0x726820696e737063ULL);
  uint64_t total = 0, log_reads = 0;
  for (uint64_t n = 0; n < samples && m.num_keys > 0; ++n) {
    const uint64_t hash = rng() & ~uint64_t{0xff};
    const uint64_t read = index.Probe(hash, [&](uint64_t) {
      ++log_reads;
      return false;
    });
    total += read;
    st->miss_max = std::max(st->miss_max, read);
    ++st->samples;
  }
  if (st->samples > 0) {
    st->miss_mean = static_cast<double>(total) / st->samples;
    st->miss_log_reads = static_cast<double>(log_reads) / st->samples;
  }
  return Status::OK();
}

// Where the bytes of the file go, as parts that add up to the file size.
// The log is split into what its entries hold (user keys, values) and what
// the format adds to them (entry headers, block trailers), which a scan of
// the log tells exactly; compression, if any, is a negative part. The other
// parts are the sections as the meta block places them.
struct Part {
  const char* name;
  int64_t bytes;
};
Status SpaceParts(const Table& t, std::vector<Part>* parts) {
  const TableMeta& m = t.meta();
  uint64_t keys = 0, values = 0;
  std::unique_ptr<InternalIterator> it = NewIter(t);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys += ExtractUserKey(it->key()).size();
    values += it->value().size();
  }
  if (!it->status().ok()) return it->status();
  const uint64_t trailers = t.view->blocks().num_blocks() * kTrailerSize;
  auto i64 = [](uint64_t v) { return static_cast<int64_t>(v); };
  *parts = {
      {"keys", i64(keys)},
      {"values", i64(values)},
      {"entry_overhead", i64(m.log_logical_bytes - keys - values)},
      {"block_trailers", i64(trailers)},
      {"compression", i64(m.log_file_bytes) - i64(m.log_logical_bytes) -
                          i64(trailers)},
  };
  for (const Section& s : Sections(t)) {
    if (std::strcmp(s.name, "log") != 0) parts->push_back({s.name, i64(s.bytes)});
  }
  return Status::OK();
}

void StatsJson(const Args& a, const Table& t, const IndexStats& st,
               const std::vector<Part>& parts) {
  const TableMeta& m = t.meta();
  const double keys = static_cast<double>(m.num_keys);
  const double mean_disp =
      m.num_keys ? static_cast<double>(st.total_displacement) / keys : 0;
  const double entries = static_cast<double>(m.num_entries);
  Json j(a.hex);
  j.BeginObject();
  j.Key("file").Str(a.file);
  j.Key("ok").Bool(true);
  j.Key("entries").Num(m.num_entries);
  j.Key("distinct_keys").Num(m.num_keys);
  j.Key("load_factor").Real(keys / static_cast<double>(m.index_capacity));
  j.Key("index").BeginObject();
  j.Key("capacity").Num(m.index_capacity);
  j.Key("slots").Num(m.index_slots);
  j.Key("used_slots").Num(st.used);
  j.Key("empty_slots").Num(m.index_slots - st.used);
  j.Key("overflow_slots_used").Num(st.overflow_used);
  j.Key("clusters").Num(st.clusters);
  j.Key("mean_cluster_length")
      .Real(st.clusters ? static_cast<double>(st.used) / st.clusters : 0);
  j.Key("max_cluster_length").Num(st.max_cluster);
  j.EndObject();
  j.Key("displacement").BeginObject();
  j.Key("mean").Real(mean_disp);
  j.Key("max").Num(st.max_displacement());
  j.Key("histogram").BeginArray();
  for (size_t d = 0; d < st.histogram.size(); ++d) {
    j.BeginObject();
    j.Key("displacement").Num(d);
    j.Key("keys").Num(st.histogram[d]);
    j.EndObject();
  }
  j.EndArray();
  j.EndObject();
  j.Key("probe_length_hit").BeginObject();
  j.Key("mean").Real(m.num_keys ? mean_disp + 1 : 0);
  j.Key("max").Num(m.num_keys ? st.max_displacement() + 1 : 0);
  j.Key("p50").Num(st.ProbePercentile(0.5));
  j.Key("p90").Num(st.ProbePercentile(0.9));
  j.Key("p99").Num(st.ProbePercentile(0.99));
  j.EndObject();
  j.Key("probe_length_miss").BeginObject();
  j.Key("samples").Num(st.samples);
  j.Key("mean").Real(st.miss_mean);
  j.Key("max").Num(st.miss_max);
  j.Key("log_reads_per_miss").Real(st.miss_log_reads);
  j.EndObject();
  j.Key("bytes").BeginObject();
  for (const Part& p : parts) j.Key(p.name).Int(p.bytes);
  j.Key("file").Num(t.file_size);
  j.EndObject();
  j.Key("bytes_per_entry").BeginObject();
  for (const Part& p : parts) {
    j.Key(p.name).Real(entries ? static_cast<double>(p.bytes) / entries : 0);
  }
  j.Key("total").Real(entries ? static_cast<double>(t.file_size) / entries : 0);
  j.EndObject();
  j.EndObject();
}

void StatsText(const Args& a, const Table& t, const IndexStats& st,
               const std::vector<Part>& parts) {
  const TableMeta& m = t.meta();
  const double keys = static_cast<double>(m.num_keys);
  const double mean_disp =
      m.num_keys ? static_cast<double>(st.total_displacement) / keys : 0;
  Row("file", Escaped(a.file));
  Row("entries", U(m.num_entries));
  Row("distinct keys", U(m.num_keys));
  Row("load factor", Format("%.4f (%" PRIu64 " keys in %" PRIu64
                            " home slots)",
                            keys / static_cast<double>(m.index_capacity),
                            m.num_keys, m.index_capacity));
  Row("slots", Format("%" PRIu64 " (%" PRIu64 " used, %" PRIu64
                      " empty, %" PRIu64 " overflow of which %" PRIu64
                      " used)",
                      m.index_slots, st.used, m.index_slots - st.used,
                      m.index_slots - m.index_capacity, st.overflow_used));
  Row("clusters",
      Format("%" PRIu64 " runs of used slots, mean %.2f, max %" PRIu64,
             st.clusters,
             st.clusters ? static_cast<double>(st.used) / st.clusters : 0.0,
             st.max_cluster));
  Row("displacement",
      Format("mean %.3f, max %" PRIu64, mean_disp, st.max_displacement()));
  Row("probe length (hit)",
      m.num_keys ? Format("mean %.3f, max %" PRIu64 ", p50 %" PRIu64
                          ", p90 %" PRIu64 ", p99 %" PRIu64 " slots",
                          mean_disp + 1, st.max_displacement() + 1,
                          st.ProbePercentile(0.5), st.ProbePercentile(0.9),
                          st.ProbePercentile(0.99))
                 : std::string("no keys"));
  Row("probe length (miss)",
      st.samples ? Format("mean %.3f, max %" PRIu64
                          " slots, %.2g log reads per miss (%" PRIu64
                          " random hashes)",
                          st.miss_mean, st.miss_max, st.miss_log_reads,
                          st.samples)
                 : std::string("not sampled"));

  printf("\ndisplacement histogram (keys by slot - home)\n");
  const uint64_t top =
      st.histogram.empty()
          ? 1
          : *std::max_element(st.histogram.begin(), st.histogram.end());
  for (size_t d = 0; d < st.histogram.size(); ++d) {
    const uint64_t n = st.histogram[d];
    printf("  %6zu %12" PRIu64 " %6.2f%%  %s\n", d, n,
           100.0 * static_cast<double>(n) / keys,
           std::string(static_cast<size_t>(40.0 * n / top + 0.5), '#')
               .c_str());
  }

  printf("\nbytes per entry by part (parts add up to the file size)\n");
  const double entries = static_cast<double>(m.num_entries);
  auto part = [&](const char* name, int64_t bytes) {
    printf("  %-16s %10.2f  (%" PRId64 " bytes, %.1f%% of the file)\n", name,
           entries ? static_cast<double>(bytes) / entries : 0.0, bytes,
           100.0 * static_cast<double>(bytes) / t.file_size);
  };
  for (const Part& p : parts) part(p.name, p.bytes);
  part("total", static_cast<int64_t>(t.file_size));
}

int Stats(const Args& a, const Table& t) {
  IndexStats st;
  std::vector<Part> parts;
  Status s = ComputeIndexStats(t, a.samples, &st);
  if (s.ok()) s = SpaceParts(t, &parts);
  if (!s.ok()) return Failure(a, Describe(a.file, s), kExitBadFile);
  if (a.json) {
    StatsJson(a, t, st, parts);
  } else {
    StatsText(a, t, st, parts);
  }
  return kExitOk;
}

// ---------------------------------------------------------------------------
// get

int Get(const Args& a, const Table& t) {
  const std::string& key = a.rest[0];
  const TableMeta& m = t.meta();
  const uint64_t hash = KeyHash(key, m.hash_seed);
  const uint64_t home = t.view->hash_index().Home(hash);

  // The hash index path, as a point lookup takes it.
  std::string buf;
  EntryRef at;
  bool indexed = false;
  Status s = t.view->FindNewest(key, hash, true, &buf, &at, &indexed);
  const LogEntry& newest = at.entry;
  if (!s.ok()) return Failure(a, Describe(a.file, s), kExitBadFile);

  // Every version, from the ordered log.
  std::vector<Entry> versions;
  std::unique_ptr<InternalIterator> it = NewIter(t);
  InternalKey target(key, kMaxSequenceNumber, kValueTypeForSeek);
  for (it->Seek(target.Encode()); it->Valid(); it->Next()) {
    Entry e;
    s = ParseCurrent(*it, &e);
    if (!s.ok() || e.user_key != key) break;
    versions.push_back(std::move(e));
  }
  if (s.ok()) s = it->status();
  if (!s.ok()) return Failure(a, Describe(a.file, s), kExitBadFile);
  if (indexed != !versions.empty() ||
      (indexed && (t.view->Surfaced(newest.sequence) != versions[0].seq ||
                   newest.type != versions[0].type))) {
    return Failure(a,
                   "Corruption: the hash index and the log disagree about "
                   "this key",
                   kExitBadFile);
  }
  std::vector<RangeDel> covering;
  const Comparator* ucmp = t.icmp->user_comparator();
  for (RangeDel& r : RangeDels(t)) {
    if (ucmp->Compare(r.start, key) <= 0 && ucmp->Compare(key, r.end) < 0) {
      covering.push_back(std::move(r));
    }
  }

  if (a.json) {
    Json j(a.hex);
    j.BeginObject();
    j.Key("file").Str(a.file);
    j.Key("ok").Bool(true);
    j.Key("key").Bytes(key);
    j.Key("hash").Str(Format("0x%016" PRIx64, hash));
    j.Key("home_slot").Num(home);
    j.Key("found").Bool(indexed);
    j.Key("newest");
    if (indexed) {
      EntryJson(j, versions[0], false);
    } else {
      j.Null();
    }
    j.Key("versions").BeginArray();
    for (const Entry& e : versions) EntryJson(j, e, false);
    j.EndArray();
    j.Key("covering_range_deletions").BeginArray();
    for (const RangeDel& r : covering) {
      j.BeginObject();
      j.Key("start").Bytes(r.start);
      j.Key("end").Bytes(r.end);
      j.Key("seq").Num(r.seq);
      j.EndObject();
    }
    j.EndArray();
    j.EndObject();
  } else {
    Row("key", Text(a, key));
    Row("hash", Format("0x%016" PRIx64 ", home slot %" PRIu64, hash, home));
    if (indexed) {
      const Entry& e = versions[0];
      Row("newest", "seq " + U(e.seq) + " " + TypeString(e.type) +
                        (IsDeletion(e.type) && e.value.empty()
                             ? std::string()
                             : " " + Text(a, e.value)));
      Row("versions", U(versions.size()));
      for (const Entry& v : versions) {
        printf("  %s\t%s\t%s\n", U(v.seq).c_str(), TypeString(v.type).c_str(),
               Text(a, v.value).c_str());
      }
    } else {
      Row("newest", "not found");
    }
    for (const RangeDel& r : covering) {
      Row("covered by", "range deletion [" + Text(a, r.start) + ", " +
                            Text(a, r.end) + ") at seq " + U(r.seq));
    }
  }
  if (!indexed) {
    fprintf(stderr, "rh_inspect: %s: key not found\n", a.file.c_str());
    return kExitNotFound;
  }
  return kExitOk;
}

// ---------------------------------------------------------------------------
// scan

int Scan(const Args& a, const Table& t) {
  const bool has_from = !a.rest.empty();
  const bool has_to = a.rest.size() > 1;
  const std::string from = has_from ? a.rest[0] : std::string();
  const std::string to = has_to ? a.rest[1] : std::string();
  const Comparator* ucmp = t.icmp->user_comparator();

  std::unique_ptr<Json> j;
  if (a.json) {
    j.reset(new Json(a.hex));
    j->BeginObject();
    j->Key("file").Str(a.file);
    j->Key("from");
    has_from ? j->Bytes(from) : j->Null();
    j->Key("to");
    has_to ? j->Bytes(to) : j->Null();
    j->Key("entries").BeginArray();
  }
  std::unique_ptr<InternalIterator> it = NewIter(t);
  if (has_from) {
    InternalKey target(from, kMaxSequenceNumber, kValueTypeForSeek);
    it->Seek(target.Encode());
  } else {
    it->SeekToFirst();
  }
  uint64_t count = 0;
  bool truncated = false;
  Status s;
  for (; it->Valid(); it->Next()) {
    Entry e;
    s = ParseCurrent(*it, &e);
    if (!s.ok()) break;
    if (has_to && ucmp->Compare(e.user_key, to) >= 0) break;
    if (count == a.limit) {
      truncated = true;
      break;
    }
    ++count;
    if (j) {
      EntryJson(*j, e, true);
    } else {
      printf("%s\t%s\t%s\t%s\n", Text(a, e.user_key).c_str(),
             U(e.seq).c_str(), TypeString(e.type).c_str(),
             Text(a, e.value).c_str());
    }
  }
  if (s.ok()) s = it->status();
  // Range deletions overlapping [FROM, TO), after the point entries.
  std::vector<RangeDel> dels;
  if (s.ok()) {
    for (RangeDel& r : RangeDels(t)) {
      if ((has_from && ucmp->Compare(r.end, from) <= 0) ||
          (has_to && ucmp->Compare(r.start, to) >= 0)) {
        continue;
      }
      dels.push_back(std::move(r));
    }
  }
  if (j) {
    j->EndArray();
    j->Key("count").Num(count);
    j->Key("truncated").Bool(truncated);
    j->Key("range_deletions").BeginArray();
    for (const RangeDel& r : dels) {
      j->BeginObject();
      j->Key("start").Bytes(r.start);
      j->Key("end").Bytes(r.end);
      j->Key("seq").Num(r.seq);
      j->EndObject();
    }
    j->EndArray();
    j->Key("ok").Bool(s.ok());
    if (!s.ok()) j->Key("error").Str(Describe(a.file, s));
    j->EndObject();
    j.reset();
  } else {
    for (const RangeDel& r : dels) {
      printf("%s\t%s\t%s\t%s\n", Text(a, r.start).c_str(), U(r.seq).c_str(),
             TypeString(kTypeRangeDeletion).c_str(), Text(a, r.end).c_str());
    }
    fflush(stdout);
  }
  if (!s.ok()) {
    fprintf(stderr, "rh_inspect: %s: %s\n", a.file.c_str(),
            Describe(a.file, s).c_str());
    return kExitBadFile;
  }
  return kExitOk;
}

// ---------------------------------------------------------------------------
// verify

struct VerifyResult {
  uint64_t entries = 0;
  uint64_t keys = 0;
};

Status RunVerify(const Table& t, VerifyResult* r) {
  // 1. Every byte under a checksum.
  Status s = t.reader->VerifyChecksum(ReadOptions(),
                                      TableReaderCaller::kSSTDumpTool);
  if (!s.ok()) return s;
  // 2. The log in order, every entry decoding; 3. each distinct key found
  // through the hash index at its newest version.
  std::unique_ptr<InternalIterator> it = NewIter(t);
  const TableMeta& m = t.meta();
  std::string prev, lookup_buf;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const Slice ikey = it->key();
    Entry e;
    s = ParseCurrent(*it, &e);
    if (!s.ok()) return s;
    if (r->entries > 0 && t.icmp->Compare(prev, ikey) >= 0) {
      return Status::Corruption("log: entry " + U(r->entries) +
                                " out of order");
    }
    const bool new_key =
        r->entries == 0 ||
        t.icmp->user_comparator()->Compare(ExtractUserKey(prev),
                                           e.user_key) != 0;
    if (new_key) {
      ++r->keys;
      EntryRef at;
      bool ok = false;
      s = t.view->FindNewest(e.user_key, KeyHash(e.user_key, m.hash_seed),
                             true, &lookup_buf, &at, &ok);
      const LogEntry& found = at.entry;
      if (!s.ok()) return s;
      if (!ok || t.view->Surfaced(found.sequence) != e.seq ||
          found.type != e.type) {
        return Status::Corruption("hash index: key " + Escaped(e.user_key) +
                                  " not found at its newest entry");
      }
    }
    prev.assign(ikey.data(), ikey.size());
    ++r->entries;
  }
  s = it->status();
  if (!s.ok()) return s;
  if (r->entries != m.num_entries) {
    return Status::Corruption("log: " + U(r->entries) + " entries, meta says " +
                              U(m.num_entries));
  }
  if (r->keys != m.num_keys) {
    return Status::Corruption("log: " + U(r->keys) +
                              " distinct keys, meta says " + U(m.num_keys));
  }
  // 4. The index holds exactly those keys, each in reach of its home.
  IndexStats st;
  return ComputeIndexStats(t, 0, &st);
}

int Verify(const Args& a, const Table& t) {
  VerifyResult r;
  const Status s = RunVerify(t, &r);
  const size_t blocks = t.view->blocks().num_blocks();
  if (a.json) {
    Json j(a.hex);
    j.BeginObject();
    j.Key("file").Str(a.file);
    j.Key("ok").Bool(s.ok());
    j.Key("error");
    s.ok() ? j.Null() : j.Str(Describe(a.file, s));
    j.Key("entries").Num(r.entries);
    j.Key("distinct_keys").Num(r.keys);
    j.Key("blocks").Num(blocks);
    j.Key("checksums").BeginArray();
    if (s.ok()) {
      for (const Section& sec : Sections(t)) j.Str(sec.name);
    }
    j.EndArray();
    j.EndObject();
  } else if (s.ok()) {
    printf("OK: %s: %" PRIu64 " entries, %" PRIu64 " distinct keys\n",
           Escaped(a.file).c_str(), r.entries, r.keys);
    printf("checksums match: %zu log blocks, hash index, block table, sparse "
           "index, range deletions, properties, metaindex, meta block, "
           "footer\n",
           blocks);
    printf("the log is in order, and every key is found through the hash "
           "index at its newest entry\n");
  } else {
    printf("%s\n", Describe(a.file, s).c_str());
  }
  if (!s.ok()) {
    fprintf(stderr, "rh_inspect: %s: %s\n", a.file.c_str(),
            Describe(a.file, s).c_str());
    return kExitBadFile;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  const std::string err = ParseArgs(argc, argv, &a);
  if (err == "help") {
    fputs(kUsage, stdout);
    return kExitOk;
  }
  if (!err.empty()) {
    fprintf(stderr, "rh_inspect: %s\n%s", err.c_str(), kUsage);
    return kExitUsage;
  }
  Table t;
  const std::string problem = Open(a.file, &t);
  if (!problem.empty()) return Failure(a, problem, kExitBadFile);
  if (a.command == "info") return Info(a, t);
  if (a.command == "stats") return Stats(a, t);
  if (a.command == "get") return Get(a, t);
  if (a.command == "scan") return Scan(a, t);
  return Verify(a, t);
}
