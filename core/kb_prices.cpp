#include "core/kb_prices.h"

#include <fmt/format.h>

namespace feedcheck {
namespace {

// "2026-11-09": a date a reader can check the figure against.
bool IsDate(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

}  // namespace

bool ReadVmPrice(const YAML::Node& row, kb::RowReader* r, kb::FileReader* file, VmSize* vm) {
  if (!row["price_usd_per_hour"]) {
    for (const char* field : {"price_region", "price_as_of", "price_source"})
      if (row[field]) {
        file->Error(codes::kKbMissingField, row[field].Mark(),
                    fmt::format("'{}' without 'price_usd_per_hour'", field));
        return false;
      }
    return true;
  }
  auto price = r->Decimal("price_usd_per_hour");
  auto region = r->Text("price_region");
  auto as_of = r->Text("price_as_of");
  auto source = r->Text("price_source");
  if (!price || !region || !as_of || !source) return false;
  if (!IsDate(*as_of)) {
    file->Error(codes::kKbBadValue, row["price_as_of"].Mark(),
                "bad value for 'price_as_of': the date the price was read, YYYY-MM-DD");
    return false;
  }
  vm->price_usd_per_hour = *price;
  vm->price_region = *region;
  vm->price_as_of = *as_of;
  vm->price_source = *source;
  return true;
}

std::optional<StorageReadPrice> ReadStorageReadPrice(const YAML::Node& row, kb::FileReader* file) {
  kb::RowReader r(row, file, {"tier", "usd_per_10k_reads", "region", "as_of", "source", "note"});
  auto tier = r.Text("tier");
  file->set_context(tier ? fmt::format("read price '{}'", *tier) : "read price");
  r.CheckKeys();
  auto usd = r.Decimal("usd_per_10k_reads");
  auto region = r.Text("region");
  auto as_of = r.Text("as_of");
  auto source = r.Text("source");
  auto note = r.Text("note", false);
  if (!tier || !usd || !region || !as_of || !source) return std::nullopt;
  if (!IsDate(*as_of)) {
    file->Error(codes::kKbBadValue, row["as_of"].Mark(),
                "bad value for 'as_of': the date the price was read, YYYY-MM-DD");
    return std::nullopt;
  }
  StorageReadPrice p;
  p.name = *tier;
  p.usd_per_10k_reads = *usd;
  p.region = *region;
  p.as_of = *as_of;
  p.source = *source;
  p.note = note.value_or("");
  p.file = file->path();
  p.line = row.Mark().line + 1;
  return p;
}

}  // namespace feedcheck
