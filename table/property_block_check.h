// Checks a properties block's structure before RocksDB's parser reads it.
//
// The properties block is RocksDB's standard block (table/block_based/
// block.h), which RocksDB's ReadTablePropertiesHelper parses on trust: a
// flag bit asks for a hash index whose initialisation asserts on bad
// sizes, and entries that share more than the previous key has trip
// assertions in its iterator. A checksum says the bytes are the ones
// written, not that a crafted file wrote sane ones, so this walks the
// block first:
//
//   entry*                 varint32 shared, varint32 non_shared,
//                          varint32 value_length, key delta, value
//   fixed32 restart[n]     offsets of entries that share nothing
//   fixed32 n              high bit: hash index flag (never set here)
#pragma once

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// OK if `block` is a well-formed block without a hash index whose entries
// all lie inside it, each restart point starts an entry that shares
// nothing, and keys rise strictly (bytewise). Otherwise Corruption saying
// what is wrong and, in the message, at which offset of the block.
Status CheckPropertyBlock(const Slice& block);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
