// Lenient field readers for report documents read back from JSON (a saved post-mortem or fleet):
// a field that is missing or of the wrong type gives the fallback, never an exception, so a
// hand-edited file loads with what it still holds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/whole_number.h"

namespace feedcheck::json_fields {

using nlohmann::json;

inline double Num(const json& j, const char* key, double fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

/// A whole number that fits an int (2.5 reads as 2); 1e300 or a string gives the fallback.
inline int Int(const json& j, const char* key, int fallback) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return fallback;
  return WholeNumber<int>(it->get<double>()).value_or(fallback);
}

inline std::string Text(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

inline bool Flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

inline std::vector<std::string> Texts(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

/// The member when it is an array, else an empty one.
inline const json& Array(const json& j, const char* key) {
  static const json kEmpty = json::array();
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : kEmpty;
}

/// The member when it is an object, else an empty one.
inline const json& Object(const json& j, const char* key) {
  static const json kEmpty = json::object();
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : kEmpty;
}

}  // namespace feedcheck::json_fields
