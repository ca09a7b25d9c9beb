// The hash index slot by slot: how far each key sits from its home, how
// the used slots cluster, and how long random misses probe. stats prints
// it; verify uses the walk to check that the index holds exactly the
// file's keys, each within reach of its home.
#pragma once

#include <cstdint>
#include <vector>

#include "tools/inspect/table_file.h"

namespace rh_inspect {

struct IndexStats {
  uint64_t used = 0;
  uint64_t overflow_used = 0;
  std::vector<uint64_t> histogram;  // keys by displacement
  uint64_t total_displacement = 0;
  uint64_t clusters = 0;  // runs of used slots
  uint64_t max_cluster = 0;
  uint64_t samples = 0;
  double miss_mean = 0;
  uint64_t miss_max = 0;
  double miss_log_reads = 0;  // tag matches per miss: reads of the log

  uint64_t max_displacement() const {
    return histogram.empty() ? 0 : histogram.size() - 1;
  }
  // The probe length (slots read by a hit = displacement + 1) below which
  // fraction `q` of the keys lie.
  uint64_t ProbePercentile(double q) const;
};

// Walks every slot, then probes `samples` random hashes that miss.
Status ComputeIndexStats(const TableFile& t, uint64_t samples, IndexStats* st);

}  // namespace rh_inspect
