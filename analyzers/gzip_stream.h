// Gzip inflated piece by piece (zlib), for readers that stream a .gz file: concatenated members
// are read one after the other, as gzip -d does. Used by the profiler trace reader.
#pragma once

#include <zlib.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace feedcheck::analyzers {

/// Whether `head` starts with gzip's magic bytes.
inline bool IsGzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

// Inflates gzip `next` piece by piece into `sink`; false (with `error`) on corrupt data.
// Concatenated members are read one after the other, as gzip -d does.
class Inflater {
 public:
  static constexpr size_t kChunkBytes = 256 * 1024;  ///< the pieces handed to the sink
  Inflater() : out_(new char[kChunkBytes]) {
    std::memset(&zs_, 0, sizeof(zs_));
    ok_ = inflateInit2(&zs_, 15 + 32) == Z_OK;
  }
  ~Inflater() {
    if (ok_) inflateEnd(&zs_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  template <typename Sink>
  bool Put(std::string_view in, Sink&& sink, std::string* error) {
    if (!ok_) {
      *error = "cannot start zlib";
      return false;
    }
    zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs_.avail_in = static_cast<uInt>(in.size());
    while (zs_.avail_in > 0) {
      if (ended_) {  // another member follows
        inflateReset(&zs_);
        ended_ = false;
      }
      zs_.next_out = reinterpret_cast<Bytef*>(out_.get());
      zs_.avail_out = static_cast<uInt>(kChunkBytes);
      int r = inflate(&zs_, Z_NO_FLUSH);
      size_t produced = kChunkBytes - zs_.avail_out;
      if (produced > 0 && !sink(std::string_view(out_.get(), produced))) return true;
      if (r == Z_STREAM_END) {
        ended_ = true;
        continue;
      }
      if (r != Z_OK && r != Z_BUF_ERROR) {
        *error = zs_.msg ? zs_.msg : "corrupt gzip data";
        return false;
      }
      if (r == Z_BUF_ERROR && zs_.avail_in == 0) break;
    }
    return true;
  }
  bool ended() const { return ended_; }

 private:
  z_stream zs_;
  bool ok_ = false;
  bool ended_ = false;
  std::unique_ptr<char[]> out_;
};

}  // namespace feedcheck::analyzers
