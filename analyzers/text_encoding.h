// The text encodings an input file may come in. Files saved on Windows are often not plain
// UTF-8: Windows PowerShell 5.1's `>` and Out-File write UTF-16LE with a byte order mark (so
// `az monitor metrics list -o json > metrics.json` there gives UTF-16), and Excel's "CSV UTF-8"
// starts with a UTF-8 byte order mark. Every reader sees UTF-8: the sniff's head through
// AsUtf8, the line reader through a Utf16Decoder it streams each chunk through.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace feedcheck::analyzers {

enum class TextEncoding { kUtf8, kUtf16Le, kUtf16Be };

/// The encoding the first bytes declare by their byte order mark (UTF-8 without one: files
/// without a mark are read as UTF-8, invalid sequences tolerated by each parser).
TextEncoding EncodingOf(std::string_view first_bytes);

/// UTF-16 to UTF-8, in pieces of any size: an odd byte or a high surrogate at a piece's end
/// waits for the next. A leading byte order mark is dropped; a unit that is not valid UTF-16
/// (a lone surrogate) becomes U+FFFD, so no input stops the decoding.
class Utf16Decoder {
 public:
  explicit Utf16Decoder(bool big_endian) : big_endian_(big_endian) {}
  /// Appends the UTF-8 of `bytes` (after what earlier calls left pending) to `out`.
  void Decode(std::string_view bytes, std::string* out);
  /// The input ended: what is pending (half a unit, a high surrogate) becomes U+FFFD.
  void Finish(std::string* out);
  /// At most this many UTF-8 bytes per input byte (a BMP character: 2 bytes in, 3 out)...
  static constexpr double kMaxGrowth = 1.5;
  /// ...plus at most this many for what an earlier piece left pending (a high surrogate found
  /// lone: U+FFFD; half a unit completed) and for Finish.
  static constexpr size_t kMaxPendingOut = 8;

 private:
  void Unit(uint16_t unit, std::string* out);  // one UTF-16 code unit, in order
  bool big_endian_;
  bool started_ = false;  // the first unit (a byte order mark or not) is behind
  unsigned char pending_byte_ = 0;
  bool has_pending_byte_ = false;
  uint16_t high_surrogate_ = 0;  // 0: none waiting
};

/// `text` without a leading UTF-8 byte order mark (Excel's "CSV UTF-8", PowerShell's
/// Set-Content -Encoding UTF8).
std::string_view WithoutUtf8Bom(std::string_view text);

/// `raw` as UTF-8: UTF-16 (by its byte order mark) decoded, a UTF-8 byte order mark dropped,
/// anything else as it is.
std::string AsUtf8(std::string_view raw);

}  // namespace feedcheck::analyzers
