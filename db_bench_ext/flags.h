// Command-line flags: db_bench's names where db_bench has them, plus the
// side-by-side ones (--formats, --workload, --repetitions, --json_out).
#pragma once

#include <gflags/gflags.h>

DECLARE_string(benchmarks);
DECLARE_string(formats);
DECLARE_string(workload);
DECLARE_int64(num);
DECLARE_int64(read_key_range);
DECLARE_int64(reads);
DECLARE_int32(key_size);
DECLARE_int32(value_size);
DECLARE_double(compression_ratio);
DECLARE_int32(threads);
DECLARE_int32(batch_size);
DECLARE_int32(seek_nexts);
DECLARE_bool(mmap_read);
DECLARE_uint64(seed);
DECLARE_string(db);
DECLARE_bool(use_existing_db);
DECLARE_int32(repetitions);
DECLARE_string(json_out);
DECLARE_string(csv_out);
DECLARE_string(chart_out);
DECLARE_int64(target_file_size_base);
DECLARE_int64(cache_size);
DECLARE_string(cache_type);
DECLARE_bool(robinhood_block_cache);
DECLARE_int32(bloom_bits);
DECLARE_double(robinhood_load_factor);
DECLARE_int32(robinhood_log_block_size);
DECLARE_int32(robinhood_sparse_index_interval);
DECLARE_int32(robinhood_inline_slot_limit);
DECLARE_double(robinhood_inline_load_factor);
DECLARE_bool(robinhood_inline_order_array);
DECLARE_bool(robinhood_inline_key_order);
DECLARE_uint64(robinhood_inline_hash_order_limit);
DECLARE_bool(robinhood_page_layout);
DECLARE_string(compression);
DECLARE_string(robinhood_filter_policy);
DECLARE_int64(warmup_reads);
DECLARE_bool(keep_db);
DECLARE_bool(formats_in_turn);
DECLARE_string(fill_by);
DECLARE_bool(warmup_scan);
DECLARE_bool(block_align);
DECLARE_bool(cuckoo_seekrandom);
