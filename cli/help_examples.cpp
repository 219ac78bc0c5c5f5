#include "cli/help_examples.h"

#include <map>

namespace feedcheck::cli {
namespace {

const std::map<std::string, std::vector<std::string>, std::less<>>& Table() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> table = {
      {"egress",
       {"feedcheck egress --sku Standard_ND96asr_v4 --region eastus --nodes 12",
        "feedcheck egress --all --region westeurope",
        "feedcheck egress --sku Standard_NC96ads_A100_v4 --account-egress-gbps 120 --json"}},
      {"plan",
       {"feedcheck plan --bytes 1TB --mean-file-bytes 500KB --sku Standard_ND96asr_v4 --nodes 12 "
        "--region eastus",
        "feedcheck plan --bytes 2TB --files 4000000 --epochs 10 --sku Standard_NC96ads_A100_v4 "
        "-o plan.html"}},
      {"probe",
       {"feedcheck probe throughput https://ACCOUNT.blob.core.windows.net/CONTAINER/shards/ "
        "--concurrency auto --duration 60",
        "feedcheck probe latency https://ACCOUNT.blob.core.windows.net/CONTAINER/file --requests "
        "2000",
        "feedcheck probe nic --sku Standard_ND96asr_v4"}},
      {"probe throughput",
       {"feedcheck probe throughput https://ACCOUNT.blob.core.windows.net/CONTAINER/shards/ "
        "--concurrency auto --duration 60",
        "feedcheck probe throughput https://ACCOUNT.blob.core.windows.net/CONTAINER/shards/ "
        "--concurrency 16 --sku Standard_ND96asr_v4 -o throughput.json"}},
      {"probe latency",
       {"feedcheck probe latency https://ACCOUNT.blob.core.windows.net/CONTAINER/file --requests "
        "2000",
        "feedcheck probe latency https://ACCOUNT.blob.core.windows.net/CONTAINER/file "
        "--concurrency 8 --json"}},
      {"probe list",
       {"feedcheck probe list https://ACCOUNT.blob.core.windows.net/CONTAINER/train/",
        "feedcheck probe list https://ACCOUNT.blob.core.windows.net/CONTAINER/ --delimiter / "
        "--max-pages 20"}},
      {"probe smallfiles",
       {"feedcheck probe smallfiles https://ACCOUNT.blob.core.windows.net/CONTAINER/",
        "feedcheck probe smallfiles https://ACCOUNT.blob.core.windows.net/CONTAINER/ "
        "--create-test-data --concurrency 8"}},
      {"probe disk",
       {"feedcheck probe disk /mnt", "feedcheck probe disk /mnt --file-size 4GiB --json"}},
      {"probe nic",
       {"feedcheck probe nic --sku Standard_ND96asr_v4",
        "feedcheck probe nic https://ACCOUNT.blob.core.windows.net/ --sku Standard_ND96asr_v4"}},
      {"cleanup",
       {"feedcheck cleanup https://ACCOUNT.blob.core.windows.net/CONTAINER/ --dry-run",
        "feedcheck cleanup https://ACCOUNT.blob.core.windows.net/CONTAINER/"}},
      {"advise",
       {"feedcheck advise --profile examples/large-file-sequential-once.yaml",
        "feedcheck advise --profile examples/small-files-multi-epoch.yaml --env-format shell",
        "feedcheck advise --profile examples/egress-12-nodes-nd96asr-v4.yaml -f md -o advice.md"}},
      {"lint",
       {"feedcheck lint examples/jobs/train-images-12-nodes.yml --profile "
        "examples/small-files-multi-epoch.yaml --region eastus --fail-on warning",
        "feedcheck lint examples/jobs/train-images-12-nodes.yml --sku Standard_ND96asr_v4 "
        "-o lint.sarif"}},
      {"rules", {"feedcheck rules list", "feedcheck rules validate rules/builtin/egress.yaml"}},
      {"rules list", {"feedcheck rules list", "feedcheck rules list --json"}},
      {"rules validate",
       {"feedcheck rules validate rules/builtin/egress.yaml rules/builtin/access.yaml",
        "feedcheck rules validate my-rules/*.yaml --json"}},
      {"facts", {"feedcheck facts list", "feedcheck facts list --json"}},
      {"facts list", {"feedcheck facts list", "feedcheck facts list -f md -o facts.md"}},
      {"report",
       {"feedcheck report preflight.json", "feedcheck report preflight.json -o preflight.html"}},
      {"preflight",
       {"feedcheck preflight https://ACCOUNT.blob.core.windows.net/CONTAINER/train --sku "
        "Standard_ND96asr_v4 --nodes 12 --region eastus",
        "feedcheck preflight https://ACCOUNT.blob.core.windows.net/CONTAINER/train --sku "
        "Standard_ND96asr_v4 --nodes 12 --region eastus --cache-dir /mnt -o preflight.html"}},
      {"postmortem",
       {"feedcheck postmortem tests/data/joblogs/job-demo",
        "feedcheck postmortem tests/data/joblogs/job-demo --sku Standard_ND96asr_v4 --nodes 2 "
        "--region eastus -o report.html",
        "feedcheck postmortem tests/data/joblogs/job-demo -v"}},
      {"fetch",
       {"feedcheck fetch JOB_NAME -w WORKSPACE -g RESOURCE_GROUP --dir JOB_NAME",
        "feedcheck fetch --jobs-since 7d -w WORKSPACE -g RESOURCE_GROUP --dir last-week"}},
      {"compare",
       {"feedcheck compare before.json after.json",
        "feedcheck compare before.json after.json --floor 50% --fail-on-worse"}},
      {"analyze",
       {"feedcheck analyze tests/data/joblogs/job-demo",
        "feedcheck analyze tests/data/joblogs/job-demo -o facts.json"}},
  };
  return table;
}

}  // namespace

const std::vector<std::string>& HelpExamples(std::string_view command_path) {
  static const std::vector<std::string> none;
  auto it = Table().find(command_path);
  return it == Table().end() ? none : it->second;
}

std::vector<std::string> CommandsWithExamples() {
  std::vector<std::string> out;
  for (const auto& [path, examples] : Table()) out.push_back(path);
  return out;
}

}  // namespace feedcheck::cli
