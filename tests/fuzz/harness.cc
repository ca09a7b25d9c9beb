#include "tests/fuzz/harness.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/comparator.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/compat.h"
#include "table/robinhood_table_reader.h"
#include "table/table_builder.h"
#include "tests/fuzz/edits.h"
#include "tests/fuzz/exercise.h"
#include "tests/fuzz/rechecksum.h"

namespace rh_fuzz {

using namespace ROCKSDB_NAMESPACE;

namespace {

// Everything that does not depend on the input, built once: libFuzzer runs
// thousands of inputs a second and these cost more than a small file.
struct Fixture {
  Fixture() : factory(NewRobinHoodTableFactory()) {
    for (int mmap = 0; mmap < 2; ++mmap) {
      Options o;
      o.allow_mmap_reads = mmap != 0;
      ioptions[mmap].reset(new ImmutableOptions(o));
    }
    // tmpfs when there is one: the file is rewritten for every input.
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    path = std::string(dir != nullptr ? dir : "/tmp") + "/rh_fuzz_" +
           std::to_string(getpid()) + ".sst";
  }
  ~Fixture() { unlink(path.c_str()); }

  std::shared_ptr<TableFactory> factory;
  std::unique_ptr<ImmutableOptions> ioptions[2];
  const EnvOptions env_options;
  const std::shared_ptr<const SliceTransform> no_prefix;
  const InternalKeyComparator bytewise{BytewiseComparator()};
  const InternalKeyComparator reverse{ReverseBytewiseComparator()};
  std::string path;
  std::vector<std::string> bases;  // the edits' (edits.h), read on first use
  // RH_FUZZ_VERBOSE=1: say how each open went (is a seed read at all?).
  const bool verbose = getenv("RH_FUZZ_VERBOSE") != nullptr;
};

Fixture& TheFixture() {
  static Fixture* f = new Fixture();  // never destroyed: libFuzzer exits
  return *f;                          // from inside the run
}

void WriteFile(const std::string& path, const std::string& bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    perror(path.c_str());
    abort();
  }
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      perror(path.c_str());
      abort();
    }
    done += static_cast<size_t>(n);
  }
  close(fd);
}

Status Open(Fixture& f, bool mmap, const InternalKeyComparator& icmp,
            uint64_t size, std::unique_ptr<TableReader>* table) {
  FileOptions fo;
  fo.use_mmap_reads = mmap;
  std::unique_ptr<FSRandomAccessFile> raf;
  Status s = f.ioptions[mmap]->fs->NewRandomAccessFile(f.path, fo, &raf,
                                                        nullptr);
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFileReader> reader(
      new RandomAccessFileReader(std::move(raf), f.path));
  // Both ways the reader meets an ingested file's global seqno:
  // largest_seqno 0 (as the tests pass it: a nonzero property must agree,
  // so such files are refused) and kMaxSequenceNumber (no comparison: the
  // property is applied as the file says).
  const SequenceNumber largest = mmap ? kMaxSequenceNumber : 0;
  // Our reader directly, not through the factory: the factory hands files
  // with BlockBasedTable's magic number to RocksDB's reader, which is not
  // what we fuzz (and the fuzzer learns that constant from the comparison).
  return robinhood::RobinHoodTableReader::Open(*f.ioptions[mmap], icmp,
                                               std::move(reader), size,
                                               largest, table);
}

// A base that cannot be read is a broken setup, not an input to skip:
// the fuzzer would otherwise run on nothing and say it found nothing.
const std::vector<std::string>& Bases(Fixture& f) {
  if (!f.bases.empty()) return f.bases;
  const char* env = getenv("RH_FUZZ_SEEDS");
  const std::string dir = env != nullptr ? env : RH_FUZZ_SEEDS_DIR;
  for (const std::string& name : BaseNames()) {
    std::ifstream in(dir + "/" + name, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
    if (!in || bytes.empty()) {
      fprintf(stderr, "rh_fuzz: cannot read the edits' base %s/%s "
              "(RH_FUZZ_SEEDS names the seed directory)\n",
              dir.c_str(), name.c_str());
      abort();
    }
    f.bases.push_back(std::move(bytes));
  }
  return f.bases;
}

}  // namespace

void RunInput(const uint8_t* data, size_t size, Mode mode) {
  Fixture& f = TheFixture();
  std::string bytes;
  if (mode == Mode::kEdits) {
    bool rechecksum = true;
    bytes = ApplyEdits(Bases(f), data, size, &rechecksum);
    if (rechecksum) Rechecksum(&bytes);
  } else {
    bytes.assign(reinterpret_cast<const char*>(data), size);
    if (mode == Mode::kCrafted) Rechecksum(&bytes);
  }
  size = bytes.size();
  WriteFile(f.path, bytes);
  for (bool mmap : {false, true}) {
    // Most seeds are bytewise; a file a bytewise reader refuses gets a
    // second chance in reverse order, so reverse-ordered files are read too.
    const InternalKeyComparator* icmp = &f.bytewise;
    std::unique_ptr<TableReader> table;
    Status s = Open(f, mmap, *icmp, size, &table);
    if (!s.ok()) {
      icmp = &f.reverse;
      s = Open(f, mmap, *icmp, size, &table);
    }
    if (f.verbose) {
      fprintf(stderr, "rh_fuzz: open (mmap %d, %s): %s\n", int(mmap),
              icmp->user_comparator()->Name(), s.ToString().c_str());
    }
    if (!s.ok()) continue;
    for (bool verify : {true, false}) {
      if (f.verbose) {
        fprintf(stderr, "rh_fuzz: reading (mmap %d, verify_checksums %d)\n",
                int(mmap), int(verify));
      }
      ExerciseReader(table.get(), *icmp, verify);
    }
  }
}

}  // namespace rh_fuzz
