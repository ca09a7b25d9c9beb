// Heap accounting for the builder's peak memory: this program replaces the
// global operator new/delete (which also serve librocksdb's allocations),
// counting live bytes always and the peak between StartPeak and PeakBytes.
#pragma once

#include <cstdint>

namespace db_bench_ext {

// Live heap bytes allocated through operator new.
int64_t HeapBytes();
// Starts a new peak at the current live bytes.
void StartHeapPeak();
// Largest live bytes since StartHeapPeak, minus the live bytes then; or,
// where larger, the resident set's growth over the same time (its
// high-water mark over its size then), which also counts memory mapped
// outside operator new.
int64_t HeapPeakGrowth();

}  // namespace db_bench_ext
