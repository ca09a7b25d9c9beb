// Exact bytes of log entries (table/log_entry.h), and decoding of every
// prefix of an entry: a truncated entry never decodes.
#include "table/log_entry.h"

#include <gtest/gtest.h>

#include <string>

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

std::string Encode(const std::string& key, SequenceNumber seq, ValueType type,
                   const std::string& value) {
  std::string out;
  EncodeLogEntry(key, seq, type, value, &out);
  return out;
}

TEST(LogEntryTest, CompactPutBytes) {
  // tag 0x80 | key length, value length, key, value: 2 bytes of overhead.
  EXPECT_EQ(Encode("abc", 0, kTypeValue, "xy"),
            std::string("\x83\x02" "abcxy", 7));
  EXPECT_EQ(Encode("", 0, kTypeValue, ""), std::string("\x80\x00", 2));
  // A 200-byte value takes a two-byte varint: 3 bytes of overhead.
  std::string v(200, 'v');
  EXPECT_EQ(Encode("k", 0, kTypeValue, v),
            std::string("\x81\xc8\x01" "k", 4) + v);
  // Keys of 127 bytes or more escape to a varint after the tag.
  std::string k(130, 'k');
  EXPECT_EQ(Encode(k, 0, kTypeValue, "v"),
            std::string("\xff\x03\x01", 3) + k + "v");
}

TEST(LogEntryTest, GeneralEntryBytes) {
  // tag = value type, key length, value length, varint64 sequence.
  EXPECT_EQ(Encode("ab", 300, kTypeMerge, "m"),
            std::string("\x02\x02\x01\xac\x02" "abm", 8));
  EXPECT_EQ(Encode("ab", 0, kTypeDeletion, ""),
            std::string("\x00\x02\x00\x00" "ab", 6));
  EXPECT_EQ(Encode("ab", 7, kTypeValue, "x"),
            std::string("\x01\x02\x01\x07" "abx", 7));
}

TEST(LogEntryTest, RoundTripEveryType) {
  for (ValueType type :
       {kTypeValue, kTypeDeletion, kTypeSingleDeletion, kTypeMerge,
        kTypeBlobIndex, kTypeWideColumnEntity, kTypeDeletionWithTimestamp}) {
    for (SequenceNumber seq : {SequenceNumber{0}, SequenceNumber{1},
                               kMaxSequenceNumber}) {
      std::string enc = Encode("user-key", seq, type, "value");
      LogEntry e;
      const char* end = DecodeLogEntry(enc.data(), enc.data() + enc.size(), &e);
      ASSERT_EQ(end, enc.data() + enc.size());
      EXPECT_EQ(e.user_key.ToString(), "user-key");
      EXPECT_EQ(e.value.ToString(), "value");
      EXPECT_EQ(e.sequence, seq);
      EXPECT_EQ(e.type, type);
    }
  }
}

TEST(LogEntryTest, TruncatedEntriesDoNotDecode) {
  for (const std::string& enc :
       {Encode("key", 0, kTypeValue, std::string(300, 'v')),
        Encode(std::string(200, 'k'), 0, kTypeValue, "v"),
        Encode("key", 123456789, kTypeMerge, "operand")}) {
    for (size_t n = 0; n < enc.size(); ++n) {
      LogEntry e;
      EXPECT_EQ(DecodeLogEntry(enc.data(), enc.data() + n, &e), nullptr) << n;
    }
  }
}

// A reader that read part of an entry learns its whole length from the
// header alone, and nothing from a cut header.
TEST(LogEntryTest, LengthFromTheHeader) {
  for (const std::string& enc :
       {Encode("key", 0, kTypeValue, std::string(300, 'v')),
        Encode(std::string(200, 'k'), 0, kTypeValue, "v"),
        Encode("key", 123456789, kTypeMerge, "operand"),
        Encode("", 0, kTypeValue, "")}) {
    LogEntry e;
    const char* end = DecodeLogEntry(enc.data(), enc.data() + enc.size(), &e);
    ASSERT_NE(end, nullptr);
    const size_t header = enc.size() - e.user_key.size() - e.value.size();
    for (size_t n = 0; n <= enc.size(); ++n) {
      uint64_t length = 0;
      const bool known = LogEntryLength(enc.data(), enc.data() + n, &length);
      EXPECT_EQ(known, n >= header) << n;
      if (known) {
        EXPECT_EQ(length, enc.size()) << n;
      }
    }
  }
  // A type no table holds is no header.
  const std::string bad("\x7f\x01\x01\x00" "kv", 6);
  uint64_t length = 0;
  EXPECT_FALSE(LogEntryLength(bad.data(), bad.data() + bad.size(), &length));
}

TEST(LogEntryTest, HugeLengthsAreRejected) {
  // A length field claiming more bytes than the block holds.
  std::string enc("\x83\xff\xff\xff\xff\x0f" "abc", 9);
  LogEntry e;
  EXPECT_EQ(DecodeLogEntry(enc.data(), enc.data() + enc.size(), &e), nullptr);
  // A sequence number beyond RocksDB's 56 bits.
  std::string seq("\x01\x01\x00\xff\xff\xff\xff\xff\xff\xff\xff\x01" "k", 13);
  EXPECT_EQ(DecodeLogEntry(seq.data(), seq.data() + seq.size(), &e), nullptr);
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
