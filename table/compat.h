// Every RocksDB internal call whose signature moved between releases, in one
// place: supporting a newer host means editing this file only. Written for
// the host 7.8.3 (Debian 12); notes say what later releases changed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/table_properties_collector.h"
#include "file/random_access_file_reader.h"
#include "file/writable_file_writer.h"
#include "table/format.h"
#include "table/get_context.h"
#include "table/meta_blocks.h"
#include "table/table_builder.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace compat {

// 8.x moved the rate-limiter priority into IOOptions.
inline IOStatus ReadAt(const RandomAccessFileReader* file, uint64_t offset,
                       size_t n, Slice* result, char* scratch) {
  return file->Read(IOOptions(), offset, n, result, scratch,
                    /*aligned_buf=*/nullptr, Env::IO_TOTAL);
}

// 8.x added a read_status out-parameter; 9.x wide-column overloads.
inline bool SaveValue(GetContext* get_context, const ParsedInternalKey& key,
                      const Slice& value, bool* matched) {
  return get_context->SaveValue(key, value, matched, /*value_pinner=*/nullptr);
}

// 8.x passes a context struct with more fields.
inline IntTblPropCollector* NewCollector(
    IntTblPropCollectorFactory* factory, const TableBuilderOptions& tbo) {
  return factory->CreateIntTblPropCollector(tbo.column_family_id,
                                            tbo.level_at_creation);
}

// 9.x: the footer decoder takes the expected magic number.
inline Status DecodeFooter(const Slice& bytes, uint64_t offset,
                           Footer* footer) {
  return footer->DecodeFrom(bytes, offset);
}

// 8.x added a ReadOptions-free overload; the helper's arguments moved.
inline Status ReadProperties(RandomAccessFileReader* file,
                             const BlockHandle& handle, const Footer& footer,
                             const ImmutableOptions& ioptions,
                             std::unique_ptr<TableProperties>* props) {
  return ReadTablePropertiesHelper(ReadOptions(), handle, file,
                                   /*prefetch_buffer=*/nullptr, footer,
                                   ioptions, props);
}

}  // namespace compat
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
