// What a file is, from its kind and its last 8 bytes, before any parsing.
// Naming the format of a foreign SST file is the point of this check; the
// reader would only say "bad magic number".
#pragma once

#include <cstdint>
#include <string>

namespace rh_inspect {

// "" if `path` may be a RobinHoodTable file (the reader then checks
// everything), with `*file_size` set; else why not.
std::string CheckFileKind(const std::string& path, uint64_t* file_size);

}  // namespace rh_inspect
