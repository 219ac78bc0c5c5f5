#include "probes/cleanup_registry.h"

#include <algorithm>

namespace feedcheck {

CleanupRegistry::Id CleanupRegistry::Add(std::string description, std::function<void()> action) {
  std::lock_guard<std::mutex> lock(mutex_);
  Id id = next_id_++;
  entries_.push_back({id, std::move(description), std::move(action)});
  return id;
}

void CleanupRegistry::Remove(Id id) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.erase(
      std::remove_if(entries_.begin(), entries_.end(), [id](const Entry& e) { return e.id == id; }),
      entries_.end());
}

void CleanupRegistry::Run(Id id) {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  std::function<void()> action;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it =
        std::find_if(entries_.begin(), entries_.end(), [id](const Entry& e) { return e.id == id; });
    if (it == entries_.end()) return;
    action = std::move(it->action);
    entries_.erase(it);
  }
  try {
    if (action) action();
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++failures_;
  }
}

void CleanupRegistry::RunAll() {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  for (;;) {
    std::function<void()> action;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (entries_.empty()) return;
      action = std::move(entries_.back().action);  // newest first: undo in reverse order
      entries_.pop_back();
    }
    try {
      if (action) action();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++failures_;
    }
  }
}

size_t CleanupRegistry::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t CleanupRegistry::failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

std::vector<std::string> CleanupRegistry::PendingDescriptions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.description);
  return out;
}

ScopedCleanup::ScopedCleanup(CleanupRegistry* registry, std::string description,
                             std::function<void()> action)
    : registry_(registry) {
  if (registry_) {
    id_ = registry_->Add(std::move(description), std::move(action));
  } else {
    action_ = std::move(action);
  }
}

ScopedCleanup::~ScopedCleanup() {
  if (registry_) {
    registry_->Run(id_);  // no-op when the registry already ran it
  } else if (action_) {
    try {
      action_();
    } catch (...) {
    }
  }
}

}  // namespace feedcheck
