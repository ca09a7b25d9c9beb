// libFuzzer entry point: the input is a table file whose checksums are all
// recomputed before it is read, so mutations reach the parsers.
#include "tests/fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rh_fuzz::RunInput(data, size, rh_fuzz::Mode::kCrafted);
  return 0;
}
