#include "core/json_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/input_file.h"

namespace feedcheck {

using nlohmann::json;

namespace {

// The parser's events pass through here on their way to nlohmann's tree builder: the path of
// the value being read is kept (for messages), the nesting is counted (and refused past the
// limit before it allocates), and an error stops the parse instead of throwing. A top-level
// member the options do not keep is parsed and checked but never built. (nlohmann's callback
// builder, which could drop it, scans an array for discarded values at every object's end:
// quadratic in an array of objects, seconds for a minified metrics response of 1 MiB.)
class CheckedSax {
 public:
  using Builder = nlohmann::detail::json_sax_dom_parser<json>;

  CheckedSax(json* out, const JsonParseOptions& options)
      : options_(options), builder_(*out, /*allow_exceptions=*/false) {}

  bool null() {
    return Ended([&] { return builder_.null(); });
  }
  bool boolean(bool v) {
    return Ended([&] { return builder_.boolean(v); });
  }
  bool number_integer(json::number_integer_t v) {
    return Ended([&] { return builder_.number_integer(v); });
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return Ended([&] { return builder_.number_unsigned(v); });
  }
  bool number_float(json::number_float_t v, const json::string_t& text) {
    // nlohmann 3.11 refuses an overflow before it gets here; a version that gives +inf instead
    // is refused the same way.
    if (!std::isfinite(v)) {
      error_ =
          fmt::format("{}: number {} is out of range: expected a finite number", Where(), text);
      return false;
    }
    return Ended([&] { return builder_.number_float(v, text); });
  }
  bool string(json::string_t& v) {
    return Ended([&] { return builder_.string(v); });
  }
  bool binary(json::binary_t& v) {
    return Ended([&] { return builder_.binary(v); });
  }
  bool key(json::string_t& k) {
    if (!frames_.empty()) frames_.back().key = k;
    if (skip_level_ > 0) return true;
    if (frames_.size() == 1 && !frames_.back().array && !Kept(k)) {
      skip_level_ = frames_.size();  // the member's value, up to its end, goes nowhere
      return true;
    }
    return builder_.key(k);
  }
  bool start_object(std::size_t n) {
    if (!Open(false)) return false;
    return skip_level_ > 0 || builder_.start_object(n);
  }
  bool start_array(std::size_t n) {
    if (!Open(true)) return false;
    return skip_level_ > 0 || builder_.start_array(n);
  }
  bool end_object() {
    frames_.pop_back();
    return Ended([&] { return builder_.end_object(); });
  }
  bool end_array() {
    frames_.pop_back();
    return Ended([&] { return builder_.end_array(); });
  }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    position_ = position;
    if (ex.id == 406) {  // out_of_range: number overflow
      error_ =
          fmt::format("{}: number {} is out of range: expected a finite number", Where(), token);
    } else {
      std::string what = ex.what();
      if (size_t colon = what.find("] "); colon != std::string::npos) what.erase(0, colon + 2);
      error_ = "not valid JSON: " + what;
    }
    return false;
  }

  const std::string& error() const { return error_; }
  std::size_t position() const { return position_; }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;
    std::string key;
  };

  // A top-level member is built when the options keep every member, or name it.
  bool Kept(const std::string& k) const {
    const auto& keep = options_.keep_top_level;
    return keep.empty() || std::find(keep.begin(), keep.end(), k) != keep.end();
  }

  // A value that ended (a scalar, or an object or array whose frame was popped): built unless
  // it is (inside) a member being skipped; a skipped member that is this value ends with it.
  template <typename Build>
  bool Ended(Build build) {
    if (skip_level_ == 0) return Value(build());
    if (frames_.size() == skip_level_) skip_level_ = 0;
    return Value(true);
  }

  bool Value(bool ok) {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return ok;
  }

  bool Open(bool array) {
    if (static_cast<int>(frames_.size()) >= options_.max_depth) {
      std::string where = Where();
      if (where.size() > 60) where = where.substr(0, 60) + "...";
      error_ = fmt::format("{}: nested deeper than {} levels: not a document feedcheck reads",
                           where, options_.max_depth);
      return false;
    }
    frames_.push_back(Frame{array, 0, ""});
    return true;
  }

  // The path of the value being read now.
  std::string Where() const {
    std::string path;
    for (const Frame& f : frames_)
      path = f.array ? JsonIndexPath(path, f.index) : JsonFieldPath(path, f.key);
    return path.empty() ? "the top level" : "field '" + path + "'";
  }

  const JsonParseOptions& options_;
  Builder builder_;
  std::vector<Frame> frames_;
  size_t skip_level_ = 0;  // the depth of the object whose member is being skipped; 0: none
  std::string error_;
  std::size_t position_ = 0;
};

void LineColumn(std::string_view text, size_t offset, int* line, int* column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++*line;
      *column = 1;
    } else {
      ++*column;
    }
  }
}

void Add(const JsonSource& source, std::string message, int line = 0, int column = 0,
         std::string context = "") {
  if (source.diagnostics == nullptr) return;
  source.diagnostics->Add(Diagnostic{source.code,
                                     source.severity,
                                     std::move(message),
                                     {source.file, line, column},
                                     std::move(context),
                                     ""});
}

}  // namespace

std::string JsonPointer(const std::string& path) {
  std::string out = "/";
  for (char c : path) {
    if (c == '.' || c == '[') {
      if (out.back() != '/') out += '/';
    } else if (c != ']') {
      out += c;
    }
  }
  return out;
}

std::optional<json> ParseJsonInput(std::string_view text, const JsonSource& source,
                                   const JsonParseOptions& options) {
  json out;
  CheckedSax sax(&out, options);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const std::exception& e) {  // std::bad_alloc, or a bug in a handler: never past here
    Add(source, fmt::format("not read: {}", e.what()));
    return std::nullopt;
  }
  if (ok) return out;
  int line = 0, column = 0;
  if (sax.position() > 0) LineColumn(text, sax.position() - 1, &line, &column);
  Add(source, sax.error().empty() ? "not valid JSON" : sax.error(), line, column);
  return std::nullopt;
}

std::optional<json> ReadJsonInputFile(const std::string& path, const char* code,
                                      DiagnosticList* diagnostics, uint64_t max_bytes,
                                      const JsonParseOptions& options) {
  const JsonSource source{path, code, diagnostics};
  std::string text, why;
  if (!ReadBoundedRegularFile(path, max_bytes, &text, &why)) {
    Add(source, why);
    return std::nullopt;
  }
  return ParseJsonInput(text, source, options);
}

std::string JsonFieldPath(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string JsonIndexPath(const std::string& parent, size_t index) {
  return fmt::format("{}[{}]", parent, index);
}

std::string_view JsonKindName(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "true or false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "a number";
    default:
      return "something else";
  }
}

JsonField::JsonField(const json* value, const JsonSource* source, std::string path)
    : value_(value), source_(source), path_(std::move(path)) {}

JsonField JsonField::Root(const json& document, const JsonSource& source) {
  return JsonField(&document, &source, "");
}

JsonField JsonField::operator[](std::string_view key) const {
  const json* member = nullptr;
  if (is_object()) {
    auto it = value_->find(key);
    if (it != value_->end()) member = &*it;
  }
  return JsonField(member, source_, JsonFieldPath(path_, key));
}

JsonField JsonField::operator[](size_t index) const {
  const json* element = is_array() && index < value_->size() ? &(*value_)[index] : nullptr;
  return JsonField(element, source_, JsonIndexPath(path_, index));
}

size_t JsonField::size() const { return is_array() || is_object() ? value_->size() : 0; }

std::vector<JsonField> JsonField::Elements() const {
  std::vector<JsonField> out;
  if (!present()) return out;
  if (!is_array()) {
    Complain(fmt::format("expected an array, found {}", JsonKindName(*value_)));
    return out;
  }
  out.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i)
    out.emplace_back(&(*value_)[i], source_, JsonIndexPath(path_, i));
  return out;
}

std::vector<std::pair<std::string, JsonField>> JsonField::Members() const {
  std::vector<std::pair<std::string, JsonField>> out;
  if (!present()) return out;
  if (!is_object()) {
    Complain(fmt::format("expected an object, found {}", JsonKindName(*value_)));
    return out;
  }
  for (auto it = value_->begin(); it != value_->end(); ++it)
    out.emplace_back(it.key(), JsonField(&it.value(), source_, JsonFieldPath(path_, it.key())));
  return out;
}

std::optional<std::string> JsonField::String() const {
  if (!present()) return std::nullopt;
  if (const auto* s = value_->get_ptr<const std::string*>()) return *s;
  Complain(fmt::format("expected a string, found {}", JsonKindName(*value_)));
  return std::nullopt;
}

std::optional<double> JsonField::Number() const {
  if (!present()) return std::nullopt;
  // By type, not get_ptr: nlohmann's integer pointer also answers for an unsigned value.
  double v = 0;
  switch (value_->type()) {
    case json::value_t::number_float:
      v = *value_->get_ptr<const json::number_float_t*>();
      break;
    case json::value_t::number_unsigned:
      v = static_cast<double>(*value_->get_ptr<const json::number_unsigned_t*>());
      break;
    case json::value_t::number_integer:
      v = static_cast<double>(*value_->get_ptr<const json::number_integer_t*>());
      break;
    default:
      Complain(fmt::format("expected a finite number, found {}", JsonKindName(*value_)));
      return std::nullopt;
  }
  if (!std::isfinite(v)) {
    Complain("expected a finite number");
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> JsonField::Whole(int64_t min, int64_t max) const {
  if (!present()) return std::nullopt;
  auto refuse = [&]() -> std::optional<int64_t> {
    Complain(fmt::format("expected a whole number from {} to {}, found {}", min, max,
                         value_->is_number() ? value_->dump() : JsonKindName(*value_)));
    return std::nullopt;
  };
  switch (value_->type()) {
    case json::value_t::number_integer: {
      const int64_t i = *value_->get_ptr<const json::number_integer_t*>();
      return i >= min && i <= max ? std::optional<int64_t>(i) : refuse();
    }
    case json::value_t::number_unsigned: {
      const uint64_t u = *value_->get_ptr<const json::number_unsigned_t*>();
      if (max < 0 || u > static_cast<uint64_t>(max)) return refuse();
      const auto i = static_cast<int64_t>(u);
      return i >= min ? std::optional<int64_t>(i) : refuse();
    }
    case json::value_t::number_float: {
      // Compared in double first: past +-9.2e18 a double no longer fits int64_t.
      const double v = *value_->get_ptr<const json::number_float_t*>();
      if (!std::isfinite(v) || v != std::floor(v) || v < -9.2e18 || v > 9.2e18) return refuse();
      const auto w = static_cast<int64_t>(v);
      return w >= min && w <= max ? std::optional<int64_t>(w) : refuse();
    }
    default:
      return refuse();
  }
}

std::optional<bool> JsonField::Bool() const {
  if (!present()) return std::nullopt;
  if (const auto* b = value_->get_ptr<const bool*>()) return *b;
  Complain(fmt::format("expected true or false, found {}", JsonKindName(*value_)));
  return std::nullopt;
}

void JsonField::Complain(std::string_view what) const {
  if (source_ == nullptr) return;
  Add(*source_,
      path_.empty() ? fmt::format("the top level: {}", what)
                    : fmt::format("field '{}': {}", path_, what),
      0, 0, JsonPointer(path_));
}

}  // namespace feedcheck
