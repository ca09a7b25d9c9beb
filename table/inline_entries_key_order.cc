// InlineEntryBuffer's key-order plan (inline_entries.h, PlanKeyOrder): fits
// the key order model to the waiting entries and takes it where its
// placement is as good as a hash's.
#include <algorithm>

#include "table/inline_entries.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

double KeyOrderDisplacementLimit(double load) {
  // Linear probing with random homes averages a / (2 (1 - a)) slots past
  // home at load a (2 at 0.8); allow half again, and half a slot for
  // chance in small files, before hash order is preferred.
  return 1.5 * load / (2 * (1 - load)) + 0.5;
}

bool InlineEntryBuffer::PlanKeyOrder(double load_factor,
                                     IndexGeometry* geometry) {
  key_ordered_ = false;
  if (count_ == 0) return false;
  IndexGeometry geo;
  geo.capacity = IndexCapacity(count_, load_factor);
  geo.keys = count_;
  if (geo.capacity > kMaxOrderedCapacity) return false;
  Slice first = first_key_, last, v;
  std::string last_buf;
  if (spilled()) {
    last = last_key_;
  } else {
    Get(count_ - 1, &last_buf, &last, &v);
  }
  const IndexGeometry empty = geo;
  // Places every key at its home under `m`: true, with the geometry in
  // `*geometry`, if the displacements pass the rule.
  auto place_all = [&](const KeyOrderModel& m, IndexGeometry* g) {
    *g = empty;
    Placement place;
    Status s = ForEach([&](const Slice& k, const Slice&) {
      place.Place(m.Home(k), g);
      return g->max_displacement <= kInlineMaxDisplacement;
    });
    if (!s.ok()) {
      if (status_.ok()) status_ = s;
      return false;
    }
    if (g->max_displacement > kInlineMaxDisplacement) return false;
    g->slots = std::max(g->capacity, place.next_free());
    const double load = static_cast<double>(count_) / g->capacity;
    return static_cast<double>(g->total_displacement) / count_ <=
           KeyOrderDisplacementLimit(load);
  };
  // The raw 8 bytes first (exact for binary keys), then a digit map, for
  // keys written in few byte values a position, then a long one, for keys
  // whose first bytes past the prefix vary little. Where each crowds, the
  // same models again with room for buckets whose keys use part of their
  // numbers (so a file that took key order as fitted is written as before).
  const uint32_t maps[] = {0u, kMaxShortMapPositions, kMaxMappedPositions};
  KeyOrderModel fitted[3];
  bool tried[3] = {false, false, false};
  for (int spread = 0; spread < 2; ++spread) {
    for (int i = 0; i < 3; ++i) {
      KeyOrderModel& m = fitted[i];
      if (spread == 0) {
        Status s;
        m.Fit(
            count_, first, last,
            [&](const KeyOrderModel::KeyVisit& visit) {
              if (!s.ok()) return;
              s = ForEach([&](const Slice& k, const Slice&) {
                visit(k);
                return true;
              });
            },
            empty.capacity, maps[i]);
        if (!s.ok()) {
          if (status_.ok()) status_ = s;
          return false;
        }
        // A long map of no more positions numbers the keys as the short
        // one did.
        if (maps[i] > kMaxShortMapPositions &&
            m.mapped_positions() <= kMaxShortMapPositions) {
          continue;
        }
        tried[i] = true;
      } else if (!tried[i] || !m.SpreadPartialBuckets()) {
        continue;
      }
      if (place_all(m, &geo)) {
        model_ = std::move(m);
        geo_ = geo;
        *geometry = geo;
        key_ordered_ = true;
        return true;
      }
      if (!status_.ok()) return false;
    }
  }
  return false;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
