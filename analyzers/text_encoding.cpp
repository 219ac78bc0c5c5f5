#include "analyzers/text_encoding.h"

#include "core/utf8_append.h"

namespace feedcheck::analyzers {

namespace {

constexpr uint32_t kReplacement = 0xFFFD;

bool IsHigh(uint16_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLow(uint16_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

}  // namespace

TextEncoding EncodingOf(std::string_view first_bytes) {
  if (first_bytes.size() >= 2) {
    const auto b0 = static_cast<unsigned char>(first_bytes[0]);
    const auto b1 = static_cast<unsigned char>(first_bytes[1]);
    if (b0 == 0xFF && b1 == 0xFE) return TextEncoding::kUtf16Le;
    if (b0 == 0xFE && b1 == 0xFF) return TextEncoding::kUtf16Be;
  }
  return TextEncoding::kUtf8;
}

void Utf16Decoder::Decode(std::string_view bytes, std::string* out) {
  out->reserve(out->size() + static_cast<size_t>(static_cast<double>(bytes.size()) * kMaxGrowth) +
               4);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  if (has_pending_byte_ && n > 0) {  // the unit a piece's odd byte began
    has_pending_byte_ = false;
    Unit(static_cast<uint16_t>(big_endian_ ? (pending_byte_ << 8) | p[0]
                                           : (p[0] << 8) | pending_byte_),
         out);
    i = 1;
  }
  for (; i + 1 < n; i += 2) {
    const auto unit =
        static_cast<uint16_t>(big_endian_ ? (p[i] << 8) | p[i + 1] : (p[i + 1] << 8) | p[i]);
    // Logs are mostly ASCII: one byte out, nothing pending
    if (unit < 0x80 && started_ && high_surrogate_ == 0)
      out->push_back(static_cast<char>(unit));
    else
      Unit(unit, out);
  }
  if (i < n) {
    pending_byte_ = p[i];
    has_pending_byte_ = true;
  }
}

void Utf16Decoder::Unit(uint16_t unit, std::string* out) {
  if (!started_) {
    started_ = true;
    if (unit == 0xFEFF) return;
  }
  if (high_surrogate_ != 0) {
    const uint16_t high = high_surrogate_;
    high_surrogate_ = 0;
    if (IsLow(unit)) {
      AppendUtf8(0x10000 + ((static_cast<uint32_t>(high) - 0xD800) << 10) + (unit - 0xDC00), out);
      return;
    }
    AppendUtf8(kReplacement, out);
  }
  if (IsHigh(unit))
    high_surrogate_ = unit;
  else
    AppendUtf8(IsLow(unit) ? kReplacement : unit, out);
}

void Utf16Decoder::Finish(std::string* out) {
  if (high_surrogate_ != 0 || has_pending_byte_) AppendUtf8(kReplacement, out);
  high_surrogate_ = 0;
  has_pending_byte_ = false;
}

std::string_view WithoutUtf8Bom(std::string_view text) {
  constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  return text;
}

std::string AsUtf8(std::string_view raw) {
  const TextEncoding encoding = EncodingOf(raw);
  if (encoding == TextEncoding::kUtf8) return std::string(WithoutUtf8Bom(raw));
  Utf16Decoder decoder(encoding == TextEncoding::kUtf16Be);
  std::string out;
  decoder.Decode(raw, &out);
  // A head cut mid-character: what is pending is the next read's, not a broken character.
  return out;
}

}  // namespace feedcheck::analyzers
