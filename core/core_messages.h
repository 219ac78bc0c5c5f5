// Diagnostic codes of core's readers (E00x facts files), in one place so each code keeps one
// meaning and tests compare through the names. The knowledge base's K3xx codes are in
// core/knowledge_base.h beside its loader. Codes are user-visible and stable.
#pragma once

namespace feedcheck {

inline constexpr const char* kCodeFactsFileInvalid = "E001";    ///< a facts file unreadable/invalid
inline constexpr const char* kCodeFactsSchemaVersion = "E002";  ///< warning: another schema

}  // namespace feedcheck
