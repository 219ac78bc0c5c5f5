#include "probes/test_data.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <random>

#include "core/atomic_file.h"
#include "core/redact.h"
#include "core/units.h"
#include "probes/blob_writes.h"
#include "probes/list_probe.h"
#include "probes/redact.h"
#include "probes/test_prefix_name.h"
#include "transport/http_errors.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {

struct TestData::State {
  std::mutex mu;
  bool storage = false;
  HttpProbeEnv env;                // storage: the target, signer and client factory
  std::vector<std::string> names;  // storage: full blob names, recorded before each PUT
  std::string dir;                 // directory mode: the directory created
  std::string location;
  uint64_t bytes = 0;
  bool removed = false;
  size_t left = 0;

  size_t RemoveAll() {
    std::lock_guard<std::mutex> lock(mu);
    if (removed) return left;
    removed = true;
    if (!storage) {
      std::error_code ec;
      if (!dir.empty()) std::filesystem::remove_all(dir, ec);
      left = (!dir.empty() && std::filesystem::exists(dir, ec)) ? 1 : 0;
      return left;
    }
    auto client = env.make_client();
    for (const auto& name : names) {
      HttpRequest del = env.SignedRequest("DELETE", env.target.ObjectUrl(name));
      del.timeout_s = 30;
      del.stoppable = false;  // cleanup runs after the stop request
      HttpResponse r = client->Perform(del);
      // 404: the PUT never landed (interrupted before the server stored it) — nothing to do.
      if (r.status != 202 && r.status != 200 && r.status != 404) ++left;
    }
    return left;
  }
};

std::vector<std::pair<std::string, uint64_t>> PlanTestObjects(const TestDataSpec& spec) {
  std::vector<std::pair<std::string, uint64_t>> out;
  uint64_t total = 0;
  for (uint64_t size : spec.sizes) {
    if (size == 0) continue;
    for (int c = 0; c < std::max(1, spec.copies_per_size); ++c) {
      if (c > 0 && total + size > spec.max_total_bytes) break;  // one copy of each size at least
      if (c == 0 && total + size > spec.max_total_bytes && !out.empty()) break;
      // Two directories so listings see a tree, sizes in the name for people reading a listing.
      out.emplace_back(fmt::format("d{}/size-{}-{}.bin", c % 2, size, c), size);
      total += size;
    }
  }
  return out;
}

bool PlanTestDataWithin(const TestDataSpec& spec, const ProbeBudget& budget,
                        std::vector<std::pair<std::string, uint64_t>>* plan, std::string* error) {
  TestDataSpec fitted = spec;
  fitted.max_total_bytes = std::min(spec.max_total_bytes, budget.max_bytes / 2);
  // One object of each size is the least a probe can measure with.
  TestDataSpec minimal = spec;
  minimal.copies_per_size = 1;
  minimal.max_total_bytes = UINT64_MAX;
  std::vector<std::pair<std::string, uint64_t>> least = PlanTestObjects(minimal);
  uint64_t least_bytes = 0;
  for (const auto& [name, size] : least) least_bytes += size;
  // The emptiness check, a PUT and a DELETE per object.
  uint64_t least_requests = 1 + 2 * least.size();
  if (least_bytes > budget.max_bytes / 2) {
    *error = fmt::format(
        "--max-bytes {} cannot fit the test data: its {} objects upload {}, and setup may use "
        "at most half of --max-bytes; raise --max-bytes to at least {} or leave out "
        "--create-test-data",
        FormatBytes(static_cast<double>(budget.max_bytes)), least.size(),
        FormatBytes(static_cast<double>(least_bytes)),
        FormatBytes(2.0 * static_cast<double>(least_bytes)));
    return false;
  }
  if (least_requests > budget.max_requests / 2) {
    *error = fmt::format(
        "--max-requests {} cannot fit the test data: {} requests to create and remove {} "
        "objects, and setup and cleanup may use at most half of --max-requests; raise "
        "--max-requests to at least {} or leave out --create-test-data",
        budget.max_requests, least_requests, least.size(), 2 * least_requests);
    return false;
  }
  // One object of each size first, then further copies in the spec's order while they fit in
  // the request and byte shares.
  size_t max_objects = static_cast<size_t>((budget.max_requests / 2 - 1) / 2);
  std::vector<std::pair<std::string, uint64_t>> chosen = least;
  uint64_t total = least_bytes;
  for (const auto& object : PlanTestObjects(spec)) {
    if (chosen.size() >= max_objects) break;
    if (std::find(chosen.begin(), chosen.end(), object) != chosen.end()) continue;
    if (total + object.second > fitted.max_total_bytes) continue;
    chosen.push_back(object);
    total += object.second;
  }
  *plan = std::move(chosen);
  return true;
}

std::string UniqueTestPrefix() {
  std::random_device rd;
  TestPrefixName name;
  name.utc_s = std::time(nullptr);
  name.pid = static_cast<uint32_t>(::getpid());
  name.random = rd();
  return FormatTestPrefixSegment(name) + "/";
}

std::string TestContent(uint64_t size, uint64_t seed) {
  std::string s(size, '\0');
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i + 8 <= s.size(); i += 8) {
    uint64_t v = rng();
    std::memcpy(&s[i], &v, 8);
  }
  return s;
}

TestData::~TestData() { Remove(); }

size_t TestData::Remove() {
  if (!state_) return 0;
  if (registry_) {
    registry_->Run(cleanup_id_);  // runs RemoveAll unless the registry already did
    registry_ = nullptr;
  }
  return state_->RemoveAll();
}

const std::string& TestData::location() const {
  static const std::string kNone;
  return state_ ? state_->location : kNone;
}
size_t TestData::created() const { return state_ ? state_->names.size() : 0; }
uint64_t TestData::created_bytes() const { return state_ ? state_->bytes : 0; }

bool TestData::CreateInStorage(const HttpProbeEnv& env, const TestDataSpec& spec,
                               CleanupRegistry* registry, HttpProbeEnv* env_out,
                               std::string* error) {
  if (!env.target.is_azure() || env.target.kind == TargetKind::kDfs) {
    *error = "--create-test-data needs a Blob (or emulator) container URL";
    return false;
  }
  if (env.signer.auth().kind == AuthKind::kAnonymous ||
      env.signer.auth().kind == AuthKind::kBearer) {
    // Bearer tokens could write with the right role, but the probe promises read-only unless
    // the user hands it a credential that can only mean writing was intended.
    *error =
        "--create-test-data needs Shared Key (AZURE_STORAGE_KEY) or a SAS with write and "
        "delete permission";
    return false;
  }
  std::vector<std::pair<std::string, uint64_t>> plan;
  if (!PlanTestDataWithin(spec, env.budget, &plan, error)) return false;  // nothing written
  const ProbeBudget& total = env.budget;
  auto started = std::chrono::steady_clock::now();
  auto elapsed_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const double setup_s = total.duration_s / 3;
  uint64_t requests = 0, response_bytes = 0, uploaded = 0;

  std::string base = env.target.prefix;
  if (!base.empty() && base.back() != '/') base += '/';
  std::string prefix = base + UniqueTestPrefix();

  // The prefix is new by construction; check anyway that nothing is there, so the cleanup can
  // never remove someone else's data.
  // The check follows the listing through empty pages that carry a NextMarker; pages beyond the
  // first take what the planned PUTs and DELETEs leave of setup's half of --max-requests.
  auto client = env.make_client();
  const int check_pages = static_cast<int>(std::min<uint64_t>(
      100, 1 + total.max_requests / 2 - std::min(total.max_requests / 2, 1 + 2 * plan.size())));
  PrefixCheck check = CheckPrefixEmpty(env, client.get(), prefix, check_pages,
                                       std::max(0.001, std::min(30.0, setup_s)));
  requests += check.requests;
  response_bytes += check.response_bytes;
  // One round trip, to reserve time for the DELETEs that undo the PUTs.
  const double round_trip_s = std::max(0.005, check.first_round_trip_s);
  if (!check.answered) {
    *error = "checking the new prefix: " + check.error;
    return false;
  }
  if (!check.empty) {
    *error = "the new prefix " + prefix + " is not empty; refusing to write there";
    return false;
  }

  state_ = std::make_shared<State>();
  state_->storage = true;
  state_->env = env;
  state_->location = env.target.ContainerUrl() + "/" + prefix;
  registry_ = registry;
  std::shared_ptr<State> state = state_;
  if (registry_) {
    cleanup_id_ = registry_->Add("delete test data under " + state_->location,
                                 [state] { state->RemoveAll(); });
  }
  for (const auto& [rel, size] : plan) {
    if (StopRequested()) {
      *error = "stopped by a signal while creating test data";
      return false;
    }
    double setup_left_s = setup_s - elapsed_s();
    if (setup_left_s <= 0) {
      *error = fmt::format(
          "creating the test data took the third of --duration {} it may use, after {} of {} "
          "objects; raise --duration",
          FormatSeconds(total.duration_s), state_->names.size(), plan.size());
      return false;
    }
    std::string name = prefix + rel;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->names.push_back(name);  // before the PUT: an interrupted PUT is still cleaned up
    }
    // Creates only (If-None-Match: *): a blob someone else put there meanwhile is not replaced.
    HttpRequest put = PutBlobRequest(env, name, TestContent(size, size + state_->names.size()));
    put.timeout_s = std::min(120.0, setup_left_s);
    put.connect_timeout_s = std::min(put.connect_timeout_s, put.timeout_s);
    put.max_body_bytes = 64 << 10;
    HttpResponse r = client->Perform(put);
    ++requests;
    response_bytes += r.body_bytes;
    uploaded += size;
    if (std::string exists = ExistingBlobRefusal(r, name); !exists.empty()) {
      // Not ours: the cleanup must never delete it.
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->names.pop_back();
      *error = exists;
      return false;
    }
    if (r.status != 201) {
      *error = r.status == 0
                   ? RedactText(r.transport_error)
                   : fmt::format("Put Blob {}: HTTP {} {}", name, r.status, ErrorCodeOf(r));
      return false;
    }
    state_->bytes += size;
    env.Progress(fmt::format("created {} test objects", state_->names.size()));
  }
  *env_out = env;
  env_out->target.prefix = prefix;
  // The probe gets what setup left, minus the cleanup reserved now: a DELETE per object (the
  // cleanup may still run over the deadline, but only to remove what was written).
  size_t deletes = state_->names.size();
  double cleanup_s = std::min(total.duration_s / 6,
                              std::max(0.2, 2.0 * static_cast<double>(deletes) * round_trip_s));
  ProbeBudget& left = env_out->budget;
  left.duration_s = total.duration_s - elapsed_s() - cleanup_s;
  left.max_requests = total.max_requests - std::min(total.max_requests, requests + deletes);
  left.max_bytes = total.max_bytes - std::min(total.max_bytes, uploaded + response_bytes);
  if (left.duration_s <= 0 || left.max_requests == 0 || left.max_bytes == 0) {
    *error = "the budget was used up creating the test data; raise --duration";
    return false;
  }
  return true;
}

bool TestData::CreateInDirectory(const std::string& dir, const TestDataSpec& spec,
                                 CleanupRegistry* registry, std::string* dir_out,
                                 std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = dir + ": not a directory";
    return false;
  }
  std::string name = UniqueTestPrefix();
  name.pop_back();
  std::string root = (fs::path(dir) / ("." + name)).string();
  if (!fs::create_directory(root, ec)) {  // fails if it exists: never reuse a directory
    *error = root + ": " + (ec ? ec.message() : "already exists");
    return false;
  }
  state_ = std::make_shared<State>();
  state_->dir = root;
  state_->location = root;
  registry_ = registry;
  std::shared_ptr<State> state = state_;
  if (registry_) cleanup_id_ = registry_->Add("remove " + root, [state] { state->RemoveAll(); });
  for (const auto& [rel, size] : PlanTestObjects(spec)) {
    if (StopRequested()) {
      *error = "stopped by a signal while creating test data";
      return false;
    }
    // Through the one writer: inside the folder just made, never through a link.
    if (!WriteFileUnder(root, rel, TestContent(size, size), error)) return false;
    state_->names.push_back(rel);
    state_->bytes += size;
  }
  // Flush so the probe's reads can drop the pages from the cache and reach the device.
  ::sync();
  *dir_out = root;
  return true;
}

}  // namespace feedcheck
