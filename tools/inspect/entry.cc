#include "tools/inspect/entry.h"

#include "tools/inspect/text_format.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;

namespace {

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

}  // namespace

std::string TypeString(ValueType t) {
  const char* name = TypeName(t);
  return name ? name : Format("TYPE_0x%02x", static_cast<unsigned>(t));
}

bool IsDeletion(ValueType t) {
  return t == kTypeDeletion || t == kTypeSingleDeletion ||
         t == kTypeDeletionWithTimestamp;
}

Status ReadEntry(const InternalIterator& it, Entry* e) {
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

void DescribeEntry(Printer& out, const char* key, const Entry& e, bool with_key,
                   const TextForm& text) {
  out.BeginObject(key, text);
  if (with_key) out.Field("key", Bytes(e.user_key));
  out.Field("seq", Uint(e.seq));
  out.Field("type", Str(TypeString(e.type)));
  out.Field("value", Bytes(e.value));
  out.End();
}

void DescribeRangeDel(Printer& out, const RangeDel& r, const TextForm& text) {
  out.BeginObject(nullptr, text);
  out.Field("start", Bytes(r.start));
  out.Field("end", Bytes(r.end));
  out.Field("seq", Uint(r.seq));
  out.End();
}

}  // namespace rh_inspect
