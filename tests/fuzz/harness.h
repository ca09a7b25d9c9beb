// One fuzz input, start to end: the bytes become a file (on tmpfs, so that
// mmap reads map a real file), which is opened through the RobinHoodTable
// factory with allow_mmap_reads on and off, and each open reader is
// exercised (exercise.h) with verify_checksums on and off.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rh_fuzz {

enum class Mode {
  kRaw,      // the bytes as given
  kCrafted,  // every checksum recomputed first (rechecksum.h)
  kEdits,    // changes to a large seed file (edits.h), read from the seed
             // directory: $RH_FUZZ_SEEDS, else the build's fuzz-seeds
};

void RunInput(const uint8_t* data, size_t size, Mode mode);

}  // namespace rh_fuzz
