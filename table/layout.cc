#include "table/layout.h"

#include "table/compat.h"
#include "table/get_context.h"
#include "table/inline_layout.h"
#include "table/log_layout.h"
#include "table/paged_layout.h"
#include "table/paged_log_layout.h"
#include "table/table_view.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status Layout::LoadSamples(const SparseIndex** samples) const {
  std::lock_guard<std::mutex> lock(samples_mu_);
  *samples = samples_.load(std::memory_order_acquire);
  if (*samples != nullptr) return Status::OK();
  const TableView* view = samples_view_;
  const SectionHandle& h = view->meta().sparse_index;
  std::string buf;
  Slice contents;
  Status s = view->file().ReadSection(h, "sparse index", &buf, &contents);
  if (s.ok()) {
    s = sparse_.Init(contents, samples_limit_, &view->icmp(),
                     view->file_name(), h.offset);
  }
  if (!s.ok()) return s;
  samples_.store(&sparse_, std::memory_order_release);
  *samples = &sparse_;
  return Status::OK();
}

Status Layout::AnchorKeys(size_t max, std::vector<std::string>* keys) const {
  const SparseIndex* samples = nullptr;
  Status s = Samples(&samples);
  if (!s.ok()) return s;
  const size_t n = samples->size();
  const size_t step = (n + max) / std::max<size_t>(1, max);  // at most max
  // From the second run on: the first sample is the first key, which
  // ends no run.
  for (size_t i = step; i < n; i += step) {
    keys->push_back(ExtractUserKey(samples->key(i)).ToString());
  }
  return Status::OK();
}

namespace {
// A value RocksDB may pin: what it does not take over (it copied, or the
// key did not match) is released when `pinner` goes. Not inlined: its
// Cleanable would give Save a stack frame on every hit, pinned or not.
[[gnu::noinline]] bool SavePinnable(const TableView& view,
                                    GetContext* get_context,
                                    const ParsedInternalKey& key,
                                    const Slice& value, Status* s) {
  bool matched = false;
  Cleanable pinner;
  return compat::SaveValue(get_context, key, value, &matched, s,
                           view.Pinner(value, &pinner));
}

// SaveEntry's work, small enough to inline into SaveCompactedPut (every
// hit of an inline file, most of a paged one's). A copied value needs no
// Cleanable, whose making and unmaking are calls into RocksDB.
inline bool Save(const TableView& view, GetContext* get_context,
                 const ParsedInternalKey& key, const Slice& value,
                 Status* s) {
  if (view.MayPin(value)) {
    return SavePinnable(view, get_context, key, value, s);
  }
  bool matched = false;
  return compat::SaveValue(get_context, key, value, &matched, s, nullptr);
}
}  // namespace

bool Layout::SaveEntry(const TableView& view, GetContext* get_context,
                       const ParsedInternalKey& key, const Slice& value,
                       Status* s) {
  return Save(view, get_context, key, value, s);
}

void Layout::SaveCompactedPut(const TableView& view,
                              const ParsedInternalKey& target,
                              const Slice& value, GetContext* get_context,
                              Status* s) {
  const SequenceNumber seq = view.Surfaced(0);
  if (seq <= target.sequence) {
    Save(view, get_context,
         ParsedInternalKey(target.user_key, seq, kTypeValue), value, s);
  }
}

namespace {
template <typename L>
std::unique_ptr<Layout> Make() {
  return std::unique_ptr<Layout>(new L);
}
}  // namespace

const LayoutKind& LayoutKindOf(const TableMeta& meta) {
  static const LayoutKind kLog{LogLayout::kIndexPart, LogLayout::kDirectoryPart,
                               nullptr, nullptr, &Make<LogLayout>};
  static const LayoutKind kInline{InlineLayout::kIndexPart,
                                  InlineLayout::kDirectoryPart, nullptr,
                                  nullptr, &Make<InlineLayout>};
  static const LayoutKind kPaged{PagedLayout::kIndexPart,
                                 PagedLayout::kDirectoryPart, nullptr,
                                 nullptr, &Make<PagedLayout>};
  static const LayoutKind kPagedLog{
      PagedLayout::kIndexPart, PagedLayout::kDirectoryPart,
      LogLayout::kIndexPart, LogLayout::kDirectoryPart, &Make<PagedLogLayout>};
  if (meta.has_log_tail()) return kPagedLog;
  if (meta.is_paged()) return kPaged;
  return meta.is_inline() ? kInline : kLog;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
