// libFuzzer entry point: the input is a table file, read as given.
#include "tests/fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rh_fuzz::RunInput(data, size, rh_fuzz::Mode::kRaw);
  return 0;
}
