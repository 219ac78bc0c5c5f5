#include "probes/blob_writes.h"

#include <fmt/format.h>

#include <algorithm>

#include "probes/list_probe.h"
#include "probes/redact.h"
#include "transport/http_errors.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {

PrefixCheck CheckPrefixEmpty(const HttpProbeEnv& env, HttpClient* client, const std::string& prefix,
                             int max_pages, double timeout_s) {
  PrefixCheck out;
  Target where = env.target;
  where.prefix = prefix;
  ListProbeOptions one;
  one.max_results = 1;
  std::string marker;
  for (int page_no = 1; page_no <= max_pages; ++page_no) {
    HttpRequest list = env.SignedRequest("GET", ListPageUrl(where, one, marker));
    list.keep_body = true;
    list.max_body_bytes = ListPageMaxBytes(1);
    list.timeout_s = timeout_s;
    list.connect_timeout_s = std::min(list.connect_timeout_s, list.timeout_s);
    HttpResponse r = client->Perform(list);
    ++out.requests;
    out.response_bytes += r.body_bytes;
    if (page_no == 1) out.first_round_trip_s = r.timing.total_s;
    ListPage page;
    std::string perr;
    if (r.status != 200 || !ParseListBlobsXml(r.body, &page, &perr)) {
      out.error = r.status == 0 ? RedactText(r.transport_error)
                                : fmt::format("listing the prefix: HTTP {} {}{}", r.status,
                                              ErrorCodeOf(r), perr);
      return out;
    }
    if (!page.entries.empty() || !page.prefixes.empty()) {
      out.answered = true;
      out.first_name = page.entries.empty() ? page.prefixes.front() : page.entries.front().name;
      return out;
    }
    if (page.next_marker.empty()) {
      out.answered = true;
      out.empty = true;
      return out;
    }
    if (page.next_marker == marker) {
      out.error = fmt::format(
          "listing the prefix: page {} repeats its NextMarker with no entries (a broken or hostile "
          "server): cannot tell whether the prefix is empty",
          page_no);
      return out;
    }
    marker = page.next_marker;  // an empty page with a marker: the listing goes on
  }
  out.error = fmt::format(
      "listing the prefix: {} pages with no entries and a NextMarker each; cannot tell whether "
      "the prefix is empty",
      max_pages);
  return out;
}

HttpRequest PutBlobRequest(const HttpProbeEnv& env, const std::string& name, std::string body,
                           bool unconditional) {
  std::vector<std::pair<std::string, std::string>> headers = {
      {"x-ms-blob-type", "BlockBlob"},
      {"Content-Type", "application/octet-stream"},
      {"Content-Length", std::to_string(body.size())}};
  if (!unconditional) headers.emplace_back("If-None-Match", "*");
  HttpRequest put = env.SignedRequest("PUT", env.target.ObjectUrl(name), std::move(headers));
  put.body = std::move(body);
  return put;
}

std::string ExistingBlobRefusal(const HttpResponse& response, const std::string& name) {
  if (response.status != 409 && response.status != 412) return "";
  std::string code = ErrorCodeOf(response);
  return fmt::format(
      "Put Blob {}: HTTP {}{}: a blob of that name already exists (another writer created it "
      "after the emptiness check); it was not replaced, and is not retried",
      name, response.status, code.empty() ? "" : " " + code);
}

}  // namespace feedcheck
