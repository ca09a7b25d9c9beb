// Drives every read path of an open table reader: scans both ways (plain,
// pinned, and compaction-style with readahead), Seek and SeekForPrev, Get
// and MultiGet of keys the scans saw and of made-up ones, the range
// tombstone iterator, ApproximateOffsetOf/ApproximateSize, VerifyChecksum
// and the properties. Every loop is capped so a hostile file cannot make an
// input slow. Answers are not checked (a damaged file may answer anything);
// what is checked is what RocksDB relies on: iterator keys are internal
// keys, and pinned values stay readable.
#pragma once

#include "db/dbformat.h"
#include "table/table_reader.h"

namespace rh_fuzz {

void ExerciseReader(ROCKSDB_NAMESPACE::TableReader* table,
                    const ROCKSDB_NAMESPACE::InternalKeyComparator& icmp,
                    bool verify_checksums);

}  // namespace rh_fuzz
