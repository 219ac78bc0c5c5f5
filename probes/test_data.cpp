#include "probes/test_data.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>

#include "probes/list_blobs_xml.h"
#include "probes/list_probe.h"
#include "probes/redact.h"

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

std::string UniqueTestPrefix() {
  std::random_device rd;
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
  return fmt::format("feedcheck-test-{}-{}-{:08x}/", stamp, ::getpid(), rd());
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
  std::string base = env.target.prefix;
  if (!base.empty() && base.back() != '/') base += '/';
  std::string prefix = base + UniqueTestPrefix();

  // The prefix is new by construction; check anyway that nothing is there, so the cleanup can
  // never remove someone else's data.
  HttpProbeEnv probe_env = env;
  probe_env.target.prefix = prefix;
  ListProbeOptions one;
  one.max_results = 1;
  auto client = env.make_client();
  HttpRequest list = env.SignedRequest("GET", ListPageUrl(probe_env.target, one, ""));
  list.keep_body = true;
  HttpResponse lr = client->Perform(list);
  ListPage page;
  std::string perr;
  if (lr.status != 200 || !ParseListBlobsXml(lr.body, &page, &perr)) {
    *error = lr.status == 0 ? RedactText(lr.transport_error)
                            : fmt::format("checking the new prefix: HTTP {} {}{}", lr.status,
                                          lr.Header("x-ms-error-code"), perr);
    return false;
  }
  if (!page.entries.empty() || !page.prefixes.empty()) {
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
  for (const auto& [rel, size] : PlanTestObjects(spec)) {
    if (StopRequested()) {
      *error = "stopped by a signal while creating test data";
      return false;
    }
    std::string name = prefix + rel;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->names.push_back(name);  // before the PUT: an interrupted PUT is still cleaned up
    }
    HttpRequest put = env.SignedRequest("PUT", env.target.ObjectUrl(name),
                                        {{"x-ms-blob-type", "BlockBlob"},
                                         {"Content-Type", "application/octet-stream"},
                                         {"Content-Length", std::to_string(size)}});
    put.body = TestContent(size, size + state_->names.size());
    put.timeout_s = 120;
    HttpResponse r = client->Perform(put);
    if (r.status != 201) {
      *error = r.status == 0 ? RedactText(r.transport_error)
                             : fmt::format("Put Blob {}: HTTP {} {}", name, r.status,
                                           r.Header("x-ms-error-code"));
      return false;
    }
    state_->bytes += size;
    env.Progress(fmt::format("created {} test objects", state_->names.size()));
  }
  *env_out = env;
  env_out->target.prefix = prefix;
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
    fs::path p = fs::path(root) / rel;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary);
    std::string content = TestContent(size, size);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      *error = p.string() + ": write failed";
      return false;
    }
    state_->names.push_back(rel);
    state_->bytes += size;
  }
  // Flush so the probe's reads can drop the pages from the cache and reach the device.
  ::sync();
  *dir_out = root;
  return true;
}

}  // namespace feedcheck
