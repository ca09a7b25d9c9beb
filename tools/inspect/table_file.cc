#include "tools/inspect/table_file.h"

#include <algorithm>

#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "rocksdb/comparator.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "table/inline_layout.h"
#include "table/key_order_model.h"
#include "table/log_entry.h"
#include "table/log_layout.h"
#include "table/page_index.h"
#include "table/paged_log_layout.h"
#include "table/robinhood_table_reader.h"
#include "table/sparse_index.h"
#include "table/table_view.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/file_kind.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;
using namespace ROCKSDB_NAMESPACE::robinhood;

TableFile::TableFile() = default;
TableFile::~TableFile() = default;

// Opens with the project's reader, which checks the footer, the meta block
// and every section's checksum, under the user comparator `ucmp`.
Status TableFile::OpenWith(const Comparator* ucmp) {
  owner_.reset();
  reader_ = nullptr;
  props_.reset();
  // Mapped: verify and scan touch every byte, and a read call per key
  // through the hash index costs more than the key's whole check (a
  // page of slots or a log block is checksummed once either way).
  std::unique_ptr<FSRandomAccessFile> raf;
  FileOptions fo;
  fo.use_mmap_reads = true;
  Status s = options_.env->GetFileSystem()->NewRandomAccessFile(
      path_, fo, &raf, nullptr);
  if (!s.ok()) return s;
  icmp_.reset(new InternalKeyComparator(ucmp));
  std::unique_ptr<RandomAccessFileReader> file(
      new RandomAccessFileReader(std::move(raf), path_));
  // kMaxSequenceNumber: no expected largest seqno, so an ingested file's
  // entries surface with the global seqno recorded in it (0 if none).
  s = RobinHoodTableReader::Open(*ioptions_, *icmp_, std::move(file),
                                 file_size_, kMaxSequenceNumber, &owner_);
  if (!s.ok()) return s;
  reader_ = static_cast<RobinHoodTableReader*>(owner_.get());
  props_ = reader_->GetTableProperties();
  return s;
}

// The reader needs the comparator the file was written with (it checks the
// order of the sparse index on open), whose name is in the properties, which
// only the reader reads safely: RocksDB's parser asserts on damaged bytes in
// this (non-NDEBUG) library, so the reader checks their checksum first. So
// open with each comparator rh_inspect knows, bytewise first (nearly every
// file), and keep the open whose properties name the comparator it used. A
// wrong comparator can only fail as the sparse index's keys out of order.
std::string TableFile::Open(const std::string& path) {
  path_ = path;
  std::string err = CheckFileKind(path, &file_size_);
  if (!err.empty()) return err;
  options_.env = Env::Default();
  options_.allow_mmap_reads = true;
  ioptions_.reset(new ImmutableOptions(options_));

  Status first_error;
  for (const Comparator* ucmp :
       {BytewiseComparator(), ReverseBytewiseComparator()}) {
    Status s = OpenWith(ucmp);
    if (!s.ok()) {
      if (first_error.ok()) first_error = s;
      const CorruptionRecord* fields = CorruptionFields(s);
      if (fields == nullptr || fields->part != "sparse index" ||
          fields->detail != kSparseKeysOutOfOrder) {
        break;
      }
      continue;
    }
    const std::string& name = props_->comparator_name;
    if (name.empty() || name == ucmp->Name()) return "";
    if (name != BytewiseComparator()->Name() &&
        name != ReverseBytewiseComparator()->Name()) {
      return "written with the comparator " + name +
             ", which rh_inspect does not know";
    }
  }
  owner_.reset();
  return Describe(
      path, first_error.ok()
                ? Status::Corruption("the comparator named in the properties "
                                     "does not order the sparse index")
                : first_error);
}

const TableMeta& TableFile::meta() const { return reader_->view().meta(); }
const LogLayout* TableFile::log() const {
  const Layout& layout = reader_->view().layout();
  return layout.AsPagedLog() != nullptr ? &layout.AsPagedLog()->log()
                                        : layout.AsLog();
}
const BlockTable& TableFile::blocks() const {
  static const BlockTable kNone;
  return log() != nullptr ? log()->blocks() : kNone;
}
const HashIndex& TableFile::hash_index() const {
  static const HashIndex kNone;
  return log() != nullptr ? log()->hash_index() : kNone;
}
const InlineTable* TableFile::inline_table() const {
  const InlineLayout* in = reader_->view().layout().AsInline();
  return in != nullptr ? &in->table() : nullptr;
}
const PagedLayout* TableFile::paged() const {
  const Layout& layout = reader_->view().layout();
  return layout.AsPagedLog() != nullptr ? &layout.AsPagedLog()->pages()
                                        : layout.AsPaged();
}
bool TableFile::InLog(const Slice& key) const {
  if (paged() == nullptr) return log() != nullptr;
  if (log() == nullptr) return false;
  // Past the pages' last key (an unreadable index: the pages, whose
  // lookup reports it).
  const PageIndex* index = nullptr;
  return paged()->Index(&index).ok() && index->PastLast(key);
}
const FilterSection& TableFile::filter() const {
  return reader_->view().filter();
}
uint64_t TableFile::Home(const Slice& key, uint64_t hash) const {
  if (paged() != nullptr && !InLog(key)) {
    // The page the index names (0 if it cannot be read, or for a key
    // outside the file: the lookup itself reports the error).
    const PageIndex* index = nullptr;
    uint64_t page = 0;
    if (paged()->Index(&index).ok()) index->Find(key, &page);
    return page;
  }
  const robinhood::InlineTable* in = inline_table();
  if (in == nullptr) return hash_index().Home(hash);
  return in->key_ordered() ? in->key_order().Home(key) : in->Home(hash);
}
Status TableFile::SparseIndexRecords(size_t* records) const {
  const robinhood::SparseIndex* samples = nullptr;
  Status s = reader_->view().Samples(&samples);
  *records = s.ok() ? samples->size() : 0;
  return s;
}

std::vector<Section> TableFile::Sections() const {
  const TableMeta& m = meta();
  auto with_trailer = [](const SectionHandle& h) {
    return h.size + kTrailerSize;
  };
  const uint64_t meta_offset = m.metaindex.end_with_trailer();
  const bool in = m.is_inline();
  const bool paged = m.is_paged();
  std::vector<Section> out = {
      {"log", m.log_offset, m.log_file_bytes},
      {paged ? "pages" : in ? "inline_slots" : "hash_index", m.index.offset,
       with_trailer(m.index)},
      {paged ? "page_index" : in ? "inline_directory" : "block_table",
       m.block_table.offset, with_trailer(m.block_table)},
      {"sparse_index", m.sparse_index.offset, with_trailer(m.sparse_index)},
      {"range_deletions", m.range_dels.offset, with_trailer(m.range_dels)},
      {"properties", m.properties.offset, with_trailer(m.properties)},
      {"metaindex", m.metaindex.offset, with_trailer(m.metaindex)},
      {"meta", meta_offset,
       TableMeta::EncodedLength(m.format_version) + kTrailerSize},
      {"footer", file_size_ - kFooterSize, kFooterSize},
  };
  if (HasFilterSection(m.format_version)) {
    out.insert(out.begin() + 5,
               Section{"filter", m.filter.offset, with_trailer(m.filter)});
  }
  if (m.has_log_tail()) {
    out.insert(out.begin() + 3,
               {Section{"hash_index", m.tail_index.offset,
                        with_trailer(m.tail_index)},
                Section{"block_table", m.tail_blocks.offset,
                        with_trailer(m.tail_blocks)}});
    // In file order: the log after the pages.
    std::stable_sort(out.begin(), out.end(),
                     [](const Section& a, const Section& b) {
                       return a.offset < b.offset;
                     });
  }
  return out;
}

std::unique_ptr<InternalIterator> TableFile::NewIterator() const {
  ReadOptions ro;
  ro.verify_checksums = true;
  return std::unique_ptr<InternalIterator>(reader_->NewIterator(
      ro, nullptr, nullptr, false, TableReaderCaller::kSSTDumpTool));
}

std::vector<std::string> TableFile::SplitKeys(size_t parts) const {
  std::vector<std::string> out;
  constexpr uint64_t kMinEntriesAPart = 1 << 16;
  if (parts < 2 || meta().num_entries < parts * kMinEntriesAPart ||
      user_comparator() != BytewiseComparator()) {
    return out;
  }
  std::unique_ptr<InternalIterator> it = NewIterator();
  it->SeekToFirst();
  if (!it->Valid()) return out;
  const std::string first = ExtractUserKey(it->key()).ToString();
  it->SeekToLast();
  if (!it->Valid()) return out;
  const std::string last = ExtractUserKey(it->key()).ToString();
  size_t p = 0;
  while (p < first.size() && p < last.size() && first[p] == last[p]) ++p;
  auto number = [p](const std::string& k) {
    return robinhood::KeyOrderModel::NumberOf(k, p);
  };
  auto key_of = [&](uint64_t x) {
    std::string k = first.substr(0, p);
    for (int b = 0; b < 8; ++b) k.push_back(static_cast<char>(x >> (56 - 8 * b)));
    return k;
  };
  const robinhood::Layout& layout = reader_->view().layout();
  auto offset = [&](const std::string& user_key) {
    const InternalKey ik(user_key, kMaxSequenceNumber, kValueTypeForSeek);
    return layout.OffsetOf(ik.Encode());
  };
  const uint64_t lo = offset(first), hi = offset(last);
  if (hi <= lo) return out;
  for (size_t i = 1; i < parts; ++i) {
    const uint64_t target = lo + static_cast<uint64_t>(
                                     static_cast<double>(hi - lo) * i / parts);
    uint64_t a = number(first), b = number(last);
    while (a < b) {
      const uint64_t mid = a + (b - a) / 2;
      if (offset(key_of(mid)) < target) {
        a = mid + 1;
      } else {
        b = mid;
      }
    }
    std::string k = key_of(a);
    if (k > first && k <= last && (out.empty() || k > out.back())) {
      out.push_back(std::move(k));
    }
  }
  return out;
}

std::vector<RangeDel> TableFile::RangeDels() const {
  std::vector<RangeDel> out;
  std::unique_ptr<FragmentedRangeTombstoneIterator> it(
      reader_->NewRangeTombstoneIterator(ReadOptions()));
  if (!it) return out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.push_back(
        {it->start_key().ToString(), it->end_key().ToString(), it->seq()});
  }
  return out;
}

Status TableFile::FindNewest(const Slice& user_key, Newest* newest) const {
  std::string buf;
  EntryRef at;
  const TableView& view = reader_->view();
  const uint64_t hash = view.layout().HashOf(user_key);
  if (inline_table() != nullptr ||
      (paged() != nullptr && !InLog(user_key))) {
    Slice value;
    Status s = paged() != nullptr
                   ? paged()->Find(user_key, hash, &buf, &value, &newest->found)
                   : inline_table()->Find(user_key, hash, true, &buf, &value,
                                          &newest->found);
    newest->seq = view.Surfaced(0);
    newest->type = kTypeValue;
    return s;
  }
  Status s = log()->FindNewest(user_key, hash, true, &buf, &at,
                                               &newest->found);
  if (s.ok() && newest->found) {
    newest->seq = view.Surfaced(at.entry.sequence);
    newest->type = at.entry.type;
  }
  return s;
}

Status TableFile::UserKeyAt(uint64_t address, std::string* key) const {
  if (address >= meta().log_logical_bytes) {
    return Status::Corruption("hash index: address " + std::to_string(address) +
                              " past the log");
  }
  // The reader's own entry read (and its checks).
  std::string buf;
  EntryRef at;
  Status s =
      log()->log().ReadEntry(address, true, &buf, &at);
  if (!s.ok()) return s;
  key->assign(at.entry.user_key.data(), at.entry.user_key.size());
  return Status::OK();
}

Status TableFile::VerifyChecksums() const {
  return reader_->VerifyChecksum(ReadOptions(),
                                 TableReaderCaller::kSSTDumpTool RH_VERIFY_CHECKSUM_ALL);
}

}  // namespace rh_inspect
