#include "tools/inspect/properties.h"

#include <string>
#include <vector>

#include "table/sst_file_writer_collectors.h"
#include "tools/inspect/text_format.h"
#include "util/coding.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;

namespace {

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

void DescribeProp(Printer& out, const Prop& p) {
  const std::string label = Escaped(p.name);
  uint64_t v = 0;
  if (p.numeric) {
    out.Field(p.name, Uint(p.num), Row(label));
  } else if (const char* encoding = DecodeBinaryProp(p, &v)) {
    out.Field(p.name, Uint(v),
              Row(label, std::to_string(v) + " (" + encoding + ")"));
  } else {
    out.Field(p.name, Bytes(p.bytes), Row(label));
  }
}

}  // namespace

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

void DescribeProperties(Printer& out, const TableProperties& p) {
  const std::vector<Prop> props = AllProperties(p);
  for (bool user : {false, true}) {
    out.BeginObject(
        user ? "user_collected_properties" : "properties",
        Heading(user ? "user-collected properties" : "table properties", 46));
    for (const Prop& prop : props) {
      if (prop.user == user) DescribeProp(out, prop);
    }
    out.End();
  }
}

}  // namespace rh_inspect
