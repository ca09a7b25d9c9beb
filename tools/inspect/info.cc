// info: what the file is: format, counts, the size of each part, the
// options recorded in it and every property.
#include <algorithm>
#include <cinttypes>

#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/inspect/command.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/printer.h"
#include "tools/inspect/properties.h"
#include "table/filter_section.h"
#include "tools/inspect/table_file.h"
#include "tools/inspect/text_format.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;
using namespace ROCKSDB_NAMESPACE::robinhood;

namespace {

// num_deletions counts range deletions too (as BlockBasedTable's does);
// the entries row is about the log, so it shows the point deletions.
uint64_t PointDeletions(const TableProperties& p) {
  return p.num_deletions - std::min(p.num_deletions, p.num_range_deletions);
}

void DescribeSections(Printer& out, const std::vector<Section>& sections) {
  out.BeginArray("sections",
                 Heading("sections (bytes include the 5-byte trailer)"));
  for (const Section& s : sections) {
    out.BeginObject(nullptr,
                    Row(s.name, Format("%12" PRIu64 " bytes at offset %" PRIu64,
                                       s.bytes, s.offset)));
    out.Field("name", Str(s.name));
    out.Field("offset", Uint(s.offset));
    out.Field("bytes", Uint(s.bytes));
    out.End();
  }
  out.End();
}

}  // namespace

int Info(const Args& a, const TableFile& t) {
  size_t samples = 0;
  const Status read = t.SparseIndexRecords(&samples);
  if (!read.ok()) return ReportFailure(a, Describe(a.file, read), kExitBadFile);
  const TableMeta& m = t.meta();
  // A paged file with a log tail: its log's part, which the log section
  // below describes as a log file's.
  const bool tail = m.has_log_tail();
  const TableMeta lm = tail ? m.LogPart() : m;
  const TableProperties& p = t.properties();
  const size_t blocks = t.blocks().num_blocks();
  uint64_t compressed_blocks = 0;
  for (size_t b = 0; b < blocks; ++b) {
    compressed_blocks += t.blocks().Get(b).compressed();
  }
  const auto& user = p.user_collected_properties;
  const auto recorded = user.find(RobinHoodTablePropertyNames::kFactory);
  const std::string factory =
      recorded == user.end() ? std::string() : recorded->second;
  uint64_t global_seqno = 0;
  const bool has_global_seqno = GlobalSeqno(p, &global_seqno);
  const double load_factor =
      static_cast<double>(m.num_keys) / static_cast<double>(m.index_capacity);
  const double log_load_factor =
      static_cast<double>(lm.num_keys) / static_cast<double>(lm.index_capacity);
  const uint32_t tag_bits = t.hash_index().geometry().tag_bits();
  const std::string hash_seed = Format("0x%016" PRIx64, m.hash_seed);

  Printer out(a);
  out.Field("file", Str(a.file), Row("file"));
  out.Field("ok", Bool(true));
  out.Field("table_factory",
            Str(factory.empty() ? kRobinHoodTableName : factory),
            Row("table factory",
                factory.empty() ? "(not recorded)" : Escaped(factory)));
  out.Field("format_version", Uint(m.format_version), Row("format version"));
  const InlineTable* in = t.inline_table();
  const PagedLayout* paged = t.paged();
  out.Field("layout",
            Str(tail ? "paged+log" : paged ? "paged" : in ? "inline" : "log"),
            Row("layout",
                tail ? "paged+log (entries in key order in pages, a page "
                       "index over them; then a log of the rest, a hash "
                       "index over it)"
                : paged ? "paged (entries in key order in pages, a page index "
                          "over them)"
                : in  ? "inline (entries in the hash table's slots)"
                      : "log (entries in a log, a hash index over them)"));
  out.Field("comparator", Str(p.comparator_name), Row("comparator"));
  out.Field("file_size", Uint(t.file_size()),
            Row("file size", std::to_string(t.file_size()) + " bytes"));
  out.Field("entries", Uint(m.num_entries),
            Row("entries",
                Format("%" PRIu64 " (%" PRIu64 " deletions, %" PRIu64
                       " merge operands)",
                       m.num_entries, PointDeletions(p), p.num_merge_operands)));
  out.Field("distinct_keys", Uint(m.num_keys), Row("distinct keys"));
  out.Field("deletions", Uint(PointDeletions(p)));
  out.Field("merge_operands", Uint(p.num_merge_operands));
  out.Field("range_deletions", Uint(p.num_range_deletions),
            Row("range deletions"));
  out.Field("global_seqno", has_global_seqno ? Uint(global_seqno) : Null(),
            Row("global seqno",
                has_global_seqno ? std::to_string(global_seqno) : "none"));
  out.Field("data_size", Uint(p.data_size),
            Row("data size", std::to_string(p.data_size) +
                                 (tail    ? " bytes (the pages and the log)"
                                  : paged ? " bytes (the pages)"
                                  : in  ? " bytes (the slots)"
                                        : " bytes (the log)")));
  out.Field("index_size", Uint(p.index_size),
            Row("index size",
                std::to_string(p.index_size) +
                    (tail ? " bytes (page index; hash index, block table "
                            "and sparse index of the log)"
                     : paged ? " bytes (page index, sparse index)"
                     : in  ? " bytes (inline directory, sparse index)"
                           : " bytes (hash index, block table, sparse index)")));
  if (paged != nullptr) {
    // The builder's record of how full the pages are (0 if absent).
    const auto recorded_fill = user.find(RobinHoodTablePropertyNames::kLoadFactor);
    const double fill = recorded_fill == user.end()
                            ? 0.0
                            : strtod(recorded_fill->second.c_str(), nullptr);
    out.BeginObject(
        "pages",
        Row("pages", Format("%" PRIu64 " of %u bytes, %.1f entries a page, "
                            "%.1f%% filled by entries; page index %" PRIu64
                            " bytes",
                            paged->pages(), paged->page_bytes(),
                            paged->pages()
                                ? static_cast<double>(
                                      paged->meta().num_entries) /
                                      paged->pages()
                                : 0.0,
                            100 * fill, m.block_table.size)));
    out.Field("bytes", Uint(m.index.size));
    out.Field("pages", Uint(paged->pages()));
    out.Field("page_bytes", Uint(paged->page_bytes()));
    out.Field("fill", Real(fill));
    out.Field("page_index_bytes", Uint(m.block_table.size));
    out.End();
  }
  if (in == nullptr && (paged == nullptr || tail)) {
  out.BeginObject(
      "log", Row("log", Format("%" PRIu64 " bytes in %zu blocks, "
                               "%" PRIu64 " bytes uncompressed",
                               lm.log_file_bytes, blocks,
                               lm.log_logical_bytes)));
  out.Field("file_bytes", Uint(lm.log_file_bytes));
  out.Field("logical_bytes", Uint(lm.log_logical_bytes));
  out.Field("blocks", Uint(blocks));
  out.Field("compressed_blocks", Uint(compressed_blocks));
  out.End();
  out.Field(
      "compression", Str(p.compression_name),
      Row("compression", Escaped(p.compression_name) +
                             Format(" (%" PRIu64 " of %zu blocks compressed)",
                                    compressed_blocks, blocks)));

  out.BeginObject(
      "hash_index",
      Row("hash index",
          Format("%" PRIu64 " bytes: %" PRIu64 " home slots + %" PRIu64
                 " overflow, %u address bits, %u tag bits",
                 lm.index.size, lm.index_capacity,
                 lm.index_slots - lm.index_capacity, lm.address_bits,
                 tag_bits)));
  out.Field("bytes", Uint(lm.index.size));
  out.Field("capacity", Uint(lm.index_capacity));
  out.Field("slots", Uint(lm.index_slots));
  out.Field("overflow_slots", Uint(lm.index_slots - lm.index_capacity));
  out.Field("address_bits", Uint(lm.address_bits));
  out.Field("tag_bits", Uint(tag_bits));
  out.Field("max_displacement", Uint(lm.max_displacement),
            Row("max displacement"));
  out.Field("load_factor", Real(log_load_factor));
  out.End();
  }  // a log

  if (in != nullptr) {
    const InlineShape& sh = in->shape();
    out.BeginObject(
        "inline",
        Row("inline slots",
            Format("%u bytes each: key %u%s%s, value %u%s; %" PRIu64
                   " pages of %u slots",
                   sh.slot_width(), sh.key_width,
                   sh.var_key ? " (varying, a length byte)" : "",
                   sh.elided != 0
                       ? Format(" past the %u-byte prefix every key shares",
                                sh.elided)
                             .c_str()
                       : "",
                   sh.value_width,
                   sh.var_value ? " (varying, a length byte)" : "",
                   in->num_pages(), in->paging().page_slots)));
    out.Field("bytes", Uint(m.index.size));
    out.Field("capacity", Uint(m.index_capacity));
    out.Field("slots", Uint(m.index_slots),
              Row("slots", Format("%" PRIu64 " home + %" PRIu64 " overflow",
                                  m.index_capacity,
                                  m.index_slots - m.index_capacity)));
    out.Field("max_displacement", Uint(m.max_displacement),
              Row("max displacement"));
    out.Field("load_factor", Real(load_factor));
    out.Field("slot_width", Uint(sh.slot_width()));
    out.Field("key_width", Uint(sh.key_width));
    out.Field("elided_prefix_bytes", Uint(sh.elided));
    out.Field("value_width", Uint(sh.value_width));
    out.Field("varying_keys", Bool(sh.var_key));
    out.Field("varying_values", Bool(sh.var_value));
    out.Field("pages", Uint(in->num_pages()));
    out.Field("page_slots", Uint(in->paging().page_slots));
    out.Field("order_array", Bool(in->has_order_array()),
              Row("key order", in->key_ordered()
                                   ? "the slots' own (homes from the keys)"
                               : in->has_order_array()
                                   ? "stored (order array)"
                                   : "sorted by readers on first iteration"));
    out.Field("key_ordered_slots", Bool(in->key_ordered()));
    if (in->key_ordered()) {
      const KeyOrderModel& km = in->key_order();
      out.Field("key_order_prefix_bytes", Uint(km.prefix_len()),
                Row("key order model",
                    Format("%u buckets of 2^%u numbers, past a %zu-byte "
                           "prefix",
                           km.buckets(), km.shift(), km.prefix_len())));
      out.Field("key_order_buckets", Uint(km.buckets()));
      out.Field("key_order_bucket_shift", Uint(km.shift()));
      out.Field("key_order_digit_map_bytes", Uint(km.mapped_positions()),
                Row("digit map",
                    km.mapped_positions() == 0
                        ? std::string("none (the 8 bytes as they are)")
                        : Format("the first %u bytes, as digits of the "
                                 "values the keys use",
                                 km.mapped_positions())));
    }
    out.End();
  }
  {
    const FilterSection& f = t.filter();
    const uint64_t keys = m.num_keys;
    out.BeginObject(
        "filter",
        Row("filter",
            m.filter.size == 0
                ? std::string("none")
                : Format("%zu bytes, %.2f bits a key, %s%s", f.filter_bytes(),
                         keys ? f.filter_bytes() * 8.0 / keys : 0.0,
                         p.filter_policy_name.c_str(),
                         f.usable() ? "" : " (not readable here)")));
    out.Field("bytes", Uint(f.filter_bytes()));
    out.Field("policy", Str(p.filter_policy_name));
    out.Field("compatibility_name", Str(f.policy_name()));
    out.Field("usable", Bool(f.usable()));
    out.End();
  }
  out.BeginObject("sparse_index",
                  Row("sparse index",
                      Format("%zu records, %" PRIu64 " bytes",
                             samples, m.sparse_index.size)));
  out.Field("records", Uint(samples));
  out.Field("bytes", Uint(m.sparse_index.size));
  out.End();

  // JSON lists the sections before the options, text after them.
  const std::vector<Section> sections = t.Sections();
  {
    Printer::Only json(out, Printer::Form::kJson);
    DescribeSections(out, sections);
  }
  out.BeginObject("options", Heading("options recorded in the file"));
  out.Field("hash_seed", Str(hash_seed), Row("hash_seed"));
  out.Field("log_block_size", Uint(m.log_block_size), Row("log_block_size"));
  out.Field("sparse_index_interval", Uint(m.sparse_interval),
            Row("sparse_index_interval"));
  // A log tail's: its hash index's (the pages' part has none).
  out.Field("load_factor", Real(tail ? log_load_factor : load_factor),
            Row("load_factor", Format("%.4f (distinct keys / home slots; the "
                                      "configured target is at least this)",
                                      tail ? log_load_factor : load_factor)));
  out.End();
  {
    Printer::Only text(out, Printer::Form::kText);
    DescribeSections(out, sections);
  }
  DescribeProperties(out, p);
  return kExitOk;
}

}  // namespace rh_inspect
