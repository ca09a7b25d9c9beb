#include "table/residency.h"

#include <sys/mman.h>
#include <unistd.h>

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {

uintptr_t PageSize() {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// The whole pages that hold [p, p + n).
void PageSpan(const char* p, size_t n, uintptr_t* start, size_t* len) {
  const uintptr_t page = PageSize();
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  *start = a & ~(page - 1);
  *len = ((a + n + page - 1) & ~(page - 1)) - *start;
}

}  // namespace

bool PagesResident(const char* p, size_t n) {
  if (n == 0) return true;
  uintptr_t start;
  size_t len;
  PageSpan(p, n, &start, &len);
  // Homes are at most a 64 KiB page of entries: 17 pages of 4 KiB where
  // it does not start on one.
  unsigned char vec[32];
  const size_t pages = len / PageSize();
  if (pages > sizeof(vec)) return true;
  if (mincore(reinterpret_cast<void*>(start), len, vec) != 0) return true;
  for (size_t i = 0; i < pages; ++i) {
    if ((vec[i] & 1) == 0) return false;
  }
  return true;
}

void AskForPages(const char* p, size_t n) {
  if (n == 0) return;
  uintptr_t start;
  size_t len;
  PageSpan(p, n, &start, &len);
  // Advice only: a failure leaves the read to the lookup's own fault.
  (void)madvise(reinterpret_cast<void*>(start), len, MADV_WILLNEED);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
