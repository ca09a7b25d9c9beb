// The one place rh_inspect touches RobinHoodTableReader: a file opened with
// the project's reader (so the inspector checks what the reader checks),
// and what the commands read through it. A change to the reader's interface
// is an edit here only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "options/cf_options.h"
#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"
#include "table/block_table.h"
#include "table/hash_index.h"
#include "table/inline_table.h"
#include "table/entry_page.h"
#include "table/log_layout.h"
#include "table/paged_layout.h"
#include "table/internal_iterator.h"
#include "table/robinhood_format.h"
#include "table/table_meta.h"
#include "table/table_reader.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
class RobinHoodTableReader;
class FilterSection;
class InlineTable;
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE

namespace rh_inspect {

using ROCKSDB_NAMESPACE::Comparator;
using ROCKSDB_NAMESPACE::InternalIterator;
using ROCKSDB_NAMESPACE::InternalKeyComparator;
using ROCKSDB_NAMESPACE::SequenceNumber;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;
using ROCKSDB_NAMESPACE::TableProperties;
using ROCKSDB_NAMESPACE::ValueType;
using ROCKSDB_NAMESPACE::robinhood::BlockTable;
using ROCKSDB_NAMESPACE::robinhood::HashIndex;
using ROCKSDB_NAMESPACE::robinhood::TableMeta;

// A part of the file, trailer included.
struct Section {
  const char* name;
  uint64_t offset;
  uint64_t bytes;
};

struct RangeDel {
  std::string start, end;
  SequenceNumber seq;
};

// A key's newest entry as a point lookup finds it through the hash index.
struct Newest {
  bool found = false;
  SequenceNumber seq = 0;  // as it surfaces: an ingested file's global seqno
  ValueType type = ROCKSDB_NAMESPACE::kTypeValue;
};

class TableFile {
 public:
  TableFile();
  ~TableFile();
  TableFile(const TableFile&) = delete;
  TableFile& operator=(const TableFile&) = delete;

  // Opens `path`; returns "" or what is wrong with it (not naming the
  // file). Not a Status: "not a RobinHoodTable file" is no status code's
  // message, and is printed as it is.
  std::string Open(const std::string& path);

  const std::string& path() const { return path_; }
  uint64_t file_size() const { return file_size_; }
  const TableMeta& meta() const;
  const TableProperties& properties() const { return *props_; }
  // The log's (a log tail's, in a paged file with one); none without.
  const BlockTable& blocks() const;
  const HashIndex& hash_index() const;
  // The slots of an inline file (null for a file with a log).
  const ROCKSDB_NAMESPACE::robinhood::InlineTable* inline_table() const;
  // The paged layout of a paged file (its pages' part, with a log tail);
  // null otherwise.
  const ROCKSDB_NAMESPACE::robinhood::PagedLayout* paged() const;
  // The log layout of a log file, or a paged file's log tail; null
  // otherwise.
  const ROCKSDB_NAMESPACE::robinhood::LogLayout* log() const;
  // Whether a lookup of `key` reads the log (a log file's, or a log
  // tail's for a key past the pages).
  bool InLog(const ROCKSDB_NAMESPACE::Slice& key) const;
  // The filter (not usable() if the file has none).
  const ROCKSDB_NAMESPACE::robinhood::FilterSection& filter() const;
  // The home slot of `key`, whose hash is `hash`, in whichever layout.
  uint64_t Home(const ROCKSDB_NAMESPACE::Slice& key, uint64_t hash) const;
  // Reads the samples (open leaves them to their first use).
  ROCKSDB_NAMESPACE::Status SparseIndexRecords(size_t* records) const;
  const InternalKeyComparator& icmp() const { return *icmp_; }
  const Comparator* user_comparator() const { return icmp_->user_comparator(); }

  // The sections in file order, log first and footer last: they tile the
  // file.
  std::vector<Section> Sections() const;
  // Every entry in internal-key order, each block's checksum verified.
  std::unique_ptr<InternalIterator> NewIterator() const;
  // Up to `parts` - 1 user keys, increasing, that cut the entries into
  // parts of about equal bytes (ApproximateOffsetOf, bisected over the
  // 8 bytes past the first and last keys' common prefix); none for a
  // small file or a comparator other than bytewise.
  std::vector<std::string> SplitKeys(size_t parts) const;
  // The range tombstones as the reader serves them (fragmented).
  std::vector<RangeDel> RangeDels() const;
  Status FindNewest(const Slice& user_key, Newest* newest) const;
  // The user key of the entry at log `address`, for a hash index slot
  // whose displacement is saturated (its home is the key's hash's).
  Status UserKeyAt(uint64_t address, std::string* key) const;
  Status VerifyChecksums() const;

 private:
  Status OpenWith(const Comparator* ucmp);

  std::string path_;
  uint64_t file_size_ = 0;
  ROCKSDB_NAMESPACE::Options options_;
  std::unique_ptr<ROCKSDB_NAMESPACE::ImmutableOptions> ioptions_;
  std::unique_ptr<InternalKeyComparator> icmp_;
  std::unique_ptr<ROCKSDB_NAMESPACE::TableReader> owner_;
  ROCKSDB_NAMESPACE::robinhood::RobinHoodTableReader* reader_ = nullptr;
  std::shared_ptr<const TableProperties> props_;
};

}  // namespace rh_inspect
