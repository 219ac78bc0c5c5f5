// Builds List Blobs XML pages shaped like the real service's (one line, every property Azure
// returns, ~630 bytes per blob) for parser tests and benchmarks.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace feedcheck::testing {

inline std::string ListBlobsBlobXml(const std::string& name, uint64_t size) {
  return "<Blob><Name>" + name +
         "</Name><Properties><Creation-Time>Thu, 15 Aug 2019 08:33:20 GMT</Creation-Time>"
         "<Last-Modified>Thu, 15 Aug 2019 08:33:20 GMT</Last-Modified><Etag>0x8D7215B3B006953"
         "</Etag><Content-Length>" +
         std::to_string(size) +
         "</Content-Length><Content-Type>application/octet-stream</Content-Type>"
         "<Content-Encoding /><Content-Language /><Content-CRC64 />"
         "<Content-MD5>1B2M2Y8AsgTpgAmY7PhCfg==</Content-MD5><Cache-Control />"
         "<Content-Disposition /><BlobType>BlockBlob</BlobType><AccessTier>Hot</AccessTier>"
         "<AccessTierInferred>true</AccessTierInferred><LeaseStatus>unlocked</LeaseStatus>"
         "<LeaseState>available</LeaseState><ServerEncrypted>true</ServerEncrypted>"
         "</Properties><OrMetadata /></Blob>";
}

/// A page of `count` blobs named "<prefix>NNNNNN.jpg" with sizes 1000 + 37*i, and a NextMarker.
inline std::string ListBlobsPageXml(int count, const std::string& prefix = "train/img_",
                                    const std::string& next_marker = "2!96!MDAwMDQ2IXRyYWlu") {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults "
      "ServiceEndpoint=\"https://acct.blob.core.windows.net/\" ContainerName=\"data\">"
      "<Prefix>train/</Prefix><MaxResults>5000</MaxResults><Blobs>";
  xml.reserve(static_cast<size_t>(count) * 640 + 512);
  char name[32];
  for (int i = 0; i < count; ++i) {
    std::snprintf(name, sizeof(name), "%06d.jpg", i);
    xml += ListBlobsBlobXml(prefix + name, 1000 + 37 * static_cast<uint64_t>(i));
  }
  xml += "</Blobs>";
  xml += next_marker.empty() ? "<NextMarker />" : "<NextMarker>" + next_marker + "</NextMarker>";
  xml += "</EnumerationResults>";
  return xml;
}

}  // namespace feedcheck::testing
