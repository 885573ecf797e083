#ifndef PROPANE_ENGINE_EVENT_HPP
#define PROPANE_ENGINE_EVENT_HPP

#include <cstdint>

namespace propane {

// When a subscription fires.
//   domain: any removal;
//   bounds: the least or the greatest value moved (or the variable became
//           fixed);
//   fixed:  the variable became fixed;
//   min:    the least value rose; max: the greatest value fell. For a
//           propagator that reads one end of a variable only, as x <= y
//           reads min(x) and max(y): a cut at the other end does not wake
//           it. A subscription may fire more often than its event, never
//           less: an update that can move either end wakes both, a fixing
//           wakes both unless it came from below, a max subscription may
//           wake on a removal inside the domain, and a tagged subscription
//           to min or max fires as bounds.
// The values of the first three are their order of strength, which the
// store relies on.
enum class Event : std::uint8_t { domain, bounds, fixed, min, max };

} // namespace propane

#endif
