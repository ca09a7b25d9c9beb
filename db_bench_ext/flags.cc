#include "db_bench_ext/flags.h"

DEFINE_string(benchmarks,
              "fill,ingest,readrandom,multireadrandom,readmissing,seekrandom",
              "Comma-separated phases, run in this order for every format: "
              "fill (DB fill + full CompactRange), ingest (SstFileWriter + "
              "IngestExternalFile into a fresh DB), readrandom, "
              "multireadrandom (--batch_size keys per MultiGet), readmissing "
              "(absent keys), seekrandom (Seek + --seek_nexts Next), readseq "
              "(one full scan; not run unless named). 'build' "
              "means fill,ingest. Read phases use the DB made by fill (or "
              "the existing one with --use_existing_db).");
DEFINE_string(formats, "robinhood,cuckoo,plain,block",
              "Comma-separated table formats, run on identical keys and "
              "values: robinhood, cuckoo, plain, block; robinhood_bloom "
              "is robinhood with RocksDB's Bloom filter of --bloom_bits, "
              "robinhood_nofilter robinhood with no filter, "
              "robinhood_log robinhood with page_layout=false, "
              "robinhood_hashorder robinhood with inline_key_order=false.");
DEFINE_string(workload, "sparkey,cuckoo",
              "Comma-separated built-in workloads: cuckoo (8-byte keys, "
              "4-byte values, mmap), sparkey (keys of 8 to 32 bytes, "
              "100-byte values), decimal (20-digit text keys, 4-byte "
              "values), compound (27-byte keys: tNN/user and a 19-digit "
              "id, 16 tenants; 4-byte values), misses (cuckoo-shaped data, absent-key lookups "
              "only), or 'all'. --key_size/--value_size override.");
DEFINE_int64(num, 1000000, "Number of key/values to place in each database");
DEFINE_int64(reads, -1,
             "Read operations per thread per read phase (-1: --num, at most "
             "500000, so the default run stays short)");
DEFINE_int64(read_key_range, 0,
             "Read phases look up only the first N keys (0: all --num). A "
             "small N keeps every structure a lookup touches in the CPU's "
             "caches: what is left is RocksDB's own Get path, the floor "
             "under any table format's lookups");
DEFINE_int32(key_size, 0,
             "Fixed key size in bytes (>= 8); 0: the workload's own");
DEFINE_int32(value_size, -1, "Value size in bytes; -1: the workload's own");
DEFINE_string(compression, "none",
              "Codec of every format that compresses (none, snappy, lz4, "
              "zstd): BlockBasedTable's blocks, RobinHoodTable's log blocks "
              "(slots and pages are never compressed)");
DEFINE_double(compression_ratio, 1.0,
              "The share of each value that is random, the rest repeating it "
              "(as db_bench's flag: 0.5 compresses to about half); 1.0, the "
              "default: values do not compress");
DEFINE_int32(threads, 1, "Reader threads for the read phases");
DEFINE_int32(batch_size, 50, "Keys per MultiGet in multireadrandom");
DEFINE_int32(seek_nexts, 10, "Next() calls after each Seek in seekrandom");
DEFINE_bool(mmap_read, true,
            "allow_mmap_reads for robinhood and block (cuckoo and plain "
            "always map their files, which they need). On by default: every "
            "built-in workload fits in memory, and Sparkey and CuckooTable "
            "read through mmap");
DEFINE_uint64(seed, 301, "Seed of the random read order (keys do not "
              "depend on it, so --use_existing_db works across seeds)");
DEFINE_string(db, "/tmp/db_bench_ext",
              "Directory for the databases, one subdirectory per workload "
              "and format");
DEFINE_bool(use_existing_db, false,
            "Read from the databases a previous run left in --db "
            "(run with --keep_db) instead of filling them");
DEFINE_int32(repetitions, 3,
             "Repetitions of every phase; reported numbers are medians");
DEFINE_string(json_out, "", "Write all results as JSON to this path");
DEFINE_string(csv_out, "", "Write the median results as CSV to this path");
DEFINE_string(chart_out, "",
              "Draw a chart (PNG or SVG by extension) from the JSON with "
              "db_bench_ext/plot.py; needs --json_out");
DEFINE_int64(target_file_size_base, 64 << 20,
             "Target SST file size, as in db_bench");
DEFINE_int64(cache_size, 0,
             "Block cache bytes for block, and for robinhood's blocks when "
             "compressed or read without mmap; 0: large enough to hold the "
             "data");
DEFINE_string(cache_type, "lru_cache",
              "Kind of every block cache, as db_bench's flag: lru_cache or "
              "hyper_clock_cache (RocksDB's HyperClockCache, db_bench's "
              "default since 8.x)");
DEFINE_bool(robinhood_block_cache, true,
            "Give RobinHoodTable a block_cache of --cache_size bytes for its "
            "decompressed blocks and, without mmap, the blocks and pages "
            "its lookups read (used when --compression is not none or "
            "--mmap_read=false)");
DEFINE_bool(block_align, false,
            "BlockBasedTable's block_align: data blocks padded to start on "
            "4 KiB pages, so a block no longer than a page is one page read "
            "(uncompressed files only)");
DEFINE_int32(bloom_bits, 10, "Bloom filter bits per key for block and plain");
DEFINE_double(robinhood_load_factor, 0.85, "RobinHoodTable load_factor");
DEFINE_int32(robinhood_log_block_size, 4096, "RobinHoodTable log_block_size");
DEFINE_int32(robinhood_inline_slot_limit, 64,
             "RobinHoodTable inline_slot_limit (0: every file keeps a log)");
DEFINE_double(robinhood_inline_load_factor, 0.8,
              "RobinHoodTable inline_load_factor");
DEFINE_string(robinhood_filter_policy, "default",
              "RobinHoodTable filter_policy, e.g. hashbloom:10 or "
              "bloomfilter:10 (empty: none; default: the option's default)");
DEFINE_bool(robinhood_inline_order_array, true,
            "RobinHoodTable inline_order_array (false: iterators sort)");
DEFINE_bool(robinhood_inline_key_order, true,
            "RobinHoodTable inline_key_order (false: hash order always)");
DEFINE_uint64(robinhood_inline_hash_order_limit, 256 << 20,
              "RobinHoodTable inline_hash_order_limit, bytes (0: no limit; "
              "larger inline files in hash order take pages)");
DEFINE_bool(robinhood_page_layout, true,
            "RobinHoodTable page_layout (false: files too long for a slot "
            "keep the log)");
DEFINE_int32(robinhood_sparse_index_interval, 16,
             "RobinHoodTable sparse_index_interval");
DEFINE_int64(warmup_reads, 100000,
             "Untimed, verified random reads after building (plus a full "
             "scan), so caches and page tables are warm for every format");
DEFINE_bool(warmup_scan, true,
            "Begin the warm-up with a full scan that counts every key "
            "(false: only the verified random reads; for data larger than "
            "memory, where a scan of mapped files cycles the page cache one "
            "4 KiB fault at a time)");
DEFINE_bool(keep_db, false,
            "Keep the databases after the run (for --use_existing_db); "
            "databases opened with --use_existing_db are always kept");
DEFINE_bool(formats_in_turn, false,
            "Fill, read and remove each format's database before the next "
            "format's (all repetitions of one format, then the next), for "
            "data sets that fit memory or disk once but not once a format; "
            "the default fills every format first and interleaves the "
            "repetitions");
DEFINE_string(fill_by, "compaction",
              "How the fill phase builds the DB its reads use: compaction "
              "(Puts, then one full CompactRange: the data twice on disk "
              "while it runs) or ingest (SstFileWriter files of "
              "--target_file_size_base written in key order and ingested in "
              "one call: the data once on disk, as a bulk load makes it; "
              "CuckooTable and PlainTable cannot be ingested)");
DEFINE_bool(cuckoo_seekrandom, false,
            "Run seekrandom on CuckooTable too. Off by default: its iterator "
            "sorts the whole file before the first Seek (the CuckooTable "
            "wiki: \"range scan is very slow\"), which takes minutes at 10M "
            "keys");
