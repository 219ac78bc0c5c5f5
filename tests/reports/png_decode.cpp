#include "tests/reports/png_decode.h"

#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace feedcheck::testing {

namespace {

uint32_t BigEndian(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

uint8_t Paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<uint8_t>(a);
  return static_cast<uint8_t>(pb <= pc ? b : c);
}

}  // namespace

bool DecodePng(const std::string& path, Image* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const uint8_t kSignature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (data.size() < 8 || !std::equal(kSignature, kSignature + 8, data.begin())) {
    *error = path + ": not a PNG";
    return false;
  }
  std::vector<uint8_t> idat;
  int width = 0, height = 0, channels = 0;
  for (size_t pos = 8; pos + 12 <= data.size();) {
    uint32_t length = BigEndian(&data[pos]);
    std::string type(reinterpret_cast<const char*>(&data[pos + 4]), 4);
    if (pos + 12 + length > data.size()) break;
    const uint8_t* body = &data[pos + 8];
    if (type == "IHDR") {
      width = static_cast<int>(BigEndian(body));
      height = static_cast<int>(BigEndian(body + 4));
      if (body[8] != 8 || body[12] != 0 || (body[9] != 2 && body[9] != 6)) {
        *error = path + ": only 8-bit RGB/RGBA, non-interlaced PNGs are supported";
        return false;
      }
      channels = body[9] == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat.insert(idat.end(), body, body + length);
    } else if (type == "IEND") {
      break;
    }
    pos += 12 + length;
  }
  if (width <= 0 || height <= 0 || channels == 0 || width > 20000 || height > 40000) {
    *error = path + ": missing or unreasonable IHDR";
    return false;
  }
  const size_t stride = static_cast<size_t>(width) * channels;
  std::vector<uint8_t> raw((stride + 1) * static_cast<size_t>(height));
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, idat.data(), idat.size()) != Z_OK ||
      raw_size != raw.size()) {
    *error = path + ": image data does not inflate to the expected size";
    return false;
  }
  std::vector<uint8_t> pixels(stride * static_cast<size_t>(height));
  for (int y = 0; y < height; ++y) {
    const uint8_t filter = raw[static_cast<size_t>(y) * (stride + 1)];
    const uint8_t* src = &raw[static_cast<size_t>(y) * (stride + 1) + 1];
    uint8_t* row = &pixels[static_cast<size_t>(y) * stride];
    const uint8_t* up = y > 0 ? row - stride : nullptr;
    for (size_t i = 0; i < stride; ++i) {
      int a = i >= static_cast<size_t>(channels) ? row[i - channels] : 0;
      int b = up ? up[i] : 0;
      int c = (up && i >= static_cast<size_t>(channels)) ? up[i - channels] : 0;
      int v = src[i];
      switch (filter) {
        case 0:
          break;
        case 1:
          v += a;
          break;
        case 2:
          v += b;
          break;
        case 3:
          v += (a + b) / 2;
          break;
        case 4:
          v += Paeth(a, b, c);
          break;
        default:
          *error = path + ": bad filter type";
          return false;
      }
      row[i] = static_cast<uint8_t>(v);
    }
  }
  out->width = width;
  out->height = height;
  out->rgb.resize(static_cast<size_t>(width) * height * 3);
  for (size_t p = 0; p < static_cast<size_t>(width) * height; ++p)
    for (int k = 0; k < 3; ++k) out->rgb[p * 3 + k] = pixels[p * channels + k];
  return true;
}

}  // namespace feedcheck::testing
