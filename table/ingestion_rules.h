// What ingestion does to a file, and how the reader honours it, by the
// rules of RocksDB's block-based reader so that both formats agree on every
// ingested file.
//
// IngestExternalFile with write_global_seqno writes the global sequence
// number into the properties block in place, after SstFileWriter took the
// block's checksum with 0 there:
//   properties entry "rocksdb.external_sst_file.global_seqno" -> fixed64
// so the checksum is checked as written and, failing that, with those 8
// bytes zeroed. Only external files (version property 2) carry a global
// seqno; their entries all surface with it, or with
// TableReaderOptions::largest_seqno when it is 0.
#pragma once

#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// Checks the properties block `contents` (at file offset `offset`) against
// its `trailer`, allowing for a global seqno written after the checksum.
// `*patched_at` is the file offset of the 8 bytes that had to be zeroed
// for the checksum to hold, or 0 if none had to be.
Status VerifyPropertiesChecksum(const Slice& contents, const char* trailer,
                                const std::string& file, uint64_t offset,
                                uint64_t* patched_at);

// The sequence number every entry of the file surfaces with, or
// kDisableGlobalSequenceNumber for entries to keep their own.
// `largest_seqno`: TableReaderOptions::largest_seqno (kMaxSequenceNumber if
// unknown). `offset` locates the properties in errors.
Status GlobalSeqnoOf(const TableProperties& props,
                     SequenceNumber largest_seqno, const std::string& file,
                     uint64_t offset, SequenceNumber* global);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
