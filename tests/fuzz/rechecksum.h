// Recomputes every checksum of a RobinHoodTable file in place, so that the
// fuzzer's mutations reach the parsers behind the checksums instead of
// stopping at the first trailer. The input is untrusted: whatever it claims
// (offsets, sizes, counts) is bounded by the buffer before it is used, and
// a claim that does not fit is skipped, never followed.
#pragma once

#include <string>

namespace rh_fuzz {

// Rewrites the CRC of every log block trailer (as the block table lists
// them), of every section trailer (as the meta block lists them), the meta
// block's footer_crc and the meta block's own trailer. Type bytes are kept.
// Returns how many checksums it rewrote.
size_t Rechecksum(std::string* file);

}  // namespace rh_fuzz
