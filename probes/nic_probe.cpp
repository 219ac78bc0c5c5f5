#include "probes/nic_probe.h"

#include <fmt/format.h>

#include "core/diagnostic_codes.h"
#include "probes/nic_info.h"

namespace feedcheck {

ProbeResult RunNicProbe(const NicProbeOptions& options) {
  ProbeResult result;
  result.probe = "nic";
  std::string error;
  std::string iface = options.interface;
  if (iface.empty()) iface = InterfaceForHost(options.host, options.root, &error);
  if (iface.empty()) {
    result.status = ProbeStatus::kUnreachable;
    result.message = error;
    return result;
  }
  NicInfo nic = DescribeInterface(iface, options.root);
  Provenance prov{FactOrigin::kMeasured,
                  fmt::format("probe nic (route to {}, /sys/class/net/{})",
                              options.host.empty() ? "default" : options.host, iface),
                  "",
                  0,
                  "",
                  -1};
  FactSet& facts = result.evidence.facts;
  auto note = [&](std::string code, DiagnosticSeverity sev, std::string msg) {
    result.evidence.diagnostics.Add({std::move(code), sev, std::move(msg), {}, "nic", ""});
  };
  facts.Set(TextFact("probe.nic.interface", nic.interface, prov));
  if (!nic.driver.empty()) facts.Set(TextFact("probe.nic.driver", nic.driver, prov));
  if (nic.mtu) facts.Set(NumberFact("probe.nic.mtu", *nic.mtu, Unit::kCount, prov));
  facts.Set(BoolFact("probe.nic.accelerated", nic.accelerated, prov));
  if (!nic.vf_interface.empty()) {
    facts.Set(TextFact("probe.nic.vf_interface", nic.vf_interface, prov));
    facts.Set(TextFact("probe.nic.vf_driver", nic.vf_driver, prov));
  }
  // The VF carries the data when present, so its speed is the one that matters.
  std::optional<double> link = nic.vf_link_gbps ? nic.vf_link_gbps : nic.link_gbps;
  if (link) {
    facts.Set(NumberFact("probe.nic.link_gbps", *link, Unit::kGbps, prov));
  } else {
    note(codes::kNicNoLinkSpeed, DiagnosticSeverity::kNote,
         iface + " reports no link speed (virtual NIC); use the VM size's bandwidth instead");
  }
  if (nic.driver == "hv_netvsc" && !nic.accelerated) {
    note(codes::kNicNotAccelerated, DiagnosticSeverity::kWarning,
         iface +
             " is a Hyper-V synthetic NIC without an accelerated-networking VF: enable "
             "accelerated networking for full bandwidth and lower latency");
  }
  if (options.expected_gbps) {
    Provenance kb{FactOrigin::kKnowledge, options.expected_source, "", 0, "", -1};
    facts.Set(NumberFact("probe.nic.expected_gbps", *options.expected_gbps, Unit::kGbps, kb));
    // Azure caps bandwidth per VM size below the synthetic link speed; a link slower than the
    // size's allowance is the suspicious case.
    if (link && *link < *options.expected_gbps * 0.95) {
      note(codes::kNicBelowVmSize, DiagnosticSeverity::kWarning,
           fmt::format("{} links at {} but the VM size should get {}", iface,
                       FormatBitRate(*link * 1e9), FormatBitRate(*options.expected_gbps * 1e9)));
    }
  }
  if (nic.operstate == "down") {
    result.status = ProbeStatus::kPartial;
    result.message = iface + " is down";
  }
  return result;
}

}  // namespace feedcheck
