#include "app_test_support.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace feedcheck::app::testing {
namespace fs = std::filesystem;
namespace {

// Before any test runs: the workflows look for data/ and rules/ under FEEDCHECK_HOME.
const bool kHomeSet = [] {
  setenv("FEEDCHECK_HOME", FEEDCHECK_BINARY_DIR, 1);
  return true;
}();

const ResultValue* Find(const Report& report, const std::string& key) {
  for (const auto& v : report.result)
    if (v.key == key) return &v;
  return nullptr;
}

template <typename T>
std::optional<T> Get(const Report& report, const std::string& key) {
  const ResultValue* v = Find(report, key);
  if (!v || !std::holds_alternative<T>(v->value)) return std::nullopt;
  return std::get<T>(v->value);
}

fs::path Scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("feedcheck_app_test_" + std::to_string(getpid()));
    fs::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() / ("feedcheck_app_test_" + std::to_string(getpid())),
                     ec);
    });
    return d;
  }();
  return dir;
}

}  // namespace

std::optional<double> ResultNumber(const Report& report, const std::string& key) {
  (void)kHomeSet;
  return Get<double>(report, key);
}
std::optional<std::string> ResultText(const Report& report, const std::string& key) {
  return Get<std::string>(report, key);
}
std::optional<bool> ResultBool(const Report& report, const std::string& key) {
  return Get<bool>(report, key);
}

const ReportTable* FindTable(const Report& report, const std::string& title) {
  for (const auto& t : report.tables)
    if (t.title == title) return &t;
  return nullptr;
}

const TableCell* Cell(const ReportTable& table, size_t row, const std::string& column) {
  if (row >= table.rows.size()) return nullptr;
  for (size_t c = 0; c < table.columns.size(); ++c)
    if (table.columns[c].key == column && c < table.rows[row].size()) return &table.rows[row][c];
  return nullptr;
}

bool HasDiagnostic(const DiagnosticList& diagnostics, const std::string& code,
                   const std::string& part) {
  for (const auto& d : diagnostics.kept())
    if (d.code == code && d.message.find(part) != std::string::npos) return true;
  return false;
}

std::string WriteTempFile(const std::string& name, const std::string& text) {
  const fs::path path = Scratch() / name;
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

std::string SourcePath(const std::string& path) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/" + path;
}

PostmortemRequest CorpusRequest(const std::string& job, const std::vector<std::string>& args) {
  const std::string corpus = SourcePath("tests/data/joblogs");
  PostmortemRequest r;
  r.job_dir = corpus + "/" + job;
  r.fail_on = "never";
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    const std::string& flag = args[i];
    const std::string& value = args[i + 1];
    if (flag == "--sku") r.cluster.sku = value;
    if (flag == "--nodes") r.cluster.nodes = std::stoi(value);
    if (flag == "--region") r.cluster.region = value;
    if (flag == "--account-kind") r.cluster.account_kind = value;
    if (flag == "--account-egress-gbps") r.cluster.account_egress = value;
    if (flag == "--profile") r.profile = corpus + "/" + value;
    if (flag == "--with") r.with.push_back(corpus + "/" + value);
    if (flag == "--gpu-utc-offset") r.gpu_utc_offset = value;
  }
  return r;
}

}  // namespace feedcheck::app::testing
