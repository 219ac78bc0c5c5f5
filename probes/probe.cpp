#include "probes/probe.h"

namespace feedcheck {

std::string_view ProbeStatusName(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::kOk:
      return "ok";
    case ProbeStatus::kPartial:
      return "partial";
    case ProbeStatus::kFailed:
      return "failed";
    case ProbeStatus::kUnreachable:
      return "unreachable";
  }
  return "failed";
}

}  // namespace feedcheck
