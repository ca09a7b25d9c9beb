// The edits fuzzer's input: not a file but changes to one of the seed files
// too large for the fuzzers' -max_len (pages then a log, 8 KiB pages), so
// that mutations reach the parts only large files have.
//
//   byte 0          bits 0-6: which base (BaseNames(), modulo their count);
//                   bit 7 set: leave the checksums as the edits left them
//                   (else every checksum is recomputed after the edits,
//                   as in the crafted mode)
//   then records, until the input ends:
//     byte          bits 0-2: n - 1 (n = 1..8 bytes to write);
//                   bit 3: the offset counts back from the file's last byte;
//                   bit 4: cut the file at the offset instead (no data)
//     3 bytes       offset, big-endian, modulo the file's size then
//     n bytes       written over the file from the offset (clipped at its
//                   end; a record cut short by the input's end writes what
//                   it has)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rh_fuzz {

// The seeds (tests/fuzz/make_corpus.cc) the edits apply to, in the order
// byte 0 picks them. Appending keeps old inputs' meaning; reordering does
// not.
const std::vector<std::string>& BaseNames();

// Applies `input` to `bases` as above. Returns the edited file; sets
// *rechecksum to whether checksums are to be recomputed.
std::string ApplyEdits(const std::vector<std::string>& bases,
                       const uint8_t* input, size_t size, bool* rechecksum);

}  // namespace rh_fuzz
