// libFuzzer entry point: the input is a list of changes to a large seed
// file (edits.h), so mutations reach what only files past -max_len hold.
#include "tests/fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rh_fuzz::RunInput(data, size, rh_fuzz::Mode::kEdits);
  return 0;
}
