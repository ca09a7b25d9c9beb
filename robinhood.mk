# RocksDB plugin description, read by RocksDB's own make and CMake builds
# when this folder is plugin/robinhood in a RocksDB tree and the build is
# given ROCKSDB_PLUGINS=robinhood. RocksDB's CMake parses the two lines below
# with regular expressions, so each stays on one line. Our CMakeLists.txt
# refuses to configure when the list misses a table/*.cc file.
robinhood_SOURCES = table/block_table.cc table/build_chunk.cc table/cached_block.cc table/crc32c_fast.cc table/entry_page.cc table/filter_section.cc table/hash_filter.cc table/hash_index.cc table/ingestion_rules.cc table/inline_directory.cc table/inline_entries.cc table/inline_entries_key_order.cc table/inline_table.cc table/inline_layout.cc table/inline_table_iterator.cc table/key_order_model.cc table/layout.cc table/log_block_reader.cc table/log_block_writer.cc table/log_entry.cc table/log_layout.cc table/page_index.cc table/paged_entries.cc table/paged_iterator.cc table/paged_layout.cc table/paged_log_iterator.cc table/paged_log_layout.cc table/properties_section.cc table/property_block_check.cc table/robinhood_format.cc table/robinhood_table_builder.cc table/robinhood_table_builder_layouts.cc table/robinhood_table_builder_output.cc table/robinhood_table_factory.cc table/robinhood_table_iterator.cc table/robinhood_table_reader.cc table/robinhood_table_reader_lookups.cc table/robinhood_compress.cc table/residency.cc table/robinhood_uncompress.cc table/section_reader.cc table/sparse_index.cc table/spill_buffer.cc table/spill_sorter.cc table/table_meta.cc
robinhood_HEADERS = include/rocksdb_robinhood/robinhood_table.h
robinhood_FUNC = robinhood_table_register
# Our sources include "table/..." and "rocksdb_robinhood/..." from this
# folder: ':=' takes its path now, while this file is the last one read.
robinhood_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
robinhood_CXXFLAGS := -I$(robinhood_DIR) -I$(robinhood_DIR)include
