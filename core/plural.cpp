#include "core/plural.h"

#include "core/units.h"

namespace feedcheck {

std::string_view NounFor(double count, std::string_view singular, std::string_view plural) {
  return count == 1 ? singular : plural;
}

std::string Counted(double count, std::string_view singular, std::string_view plural) {
  std::string many = plural.empty() ? std::string(singular) + "s" : std::string(plural);
  return FormatGrouped(count, 15) + " " + std::string(NounFor(count, singular, many));
}

}  // namespace feedcheck
