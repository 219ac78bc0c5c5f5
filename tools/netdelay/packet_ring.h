// A FIFO of variable-size packets in one fixed byte ring, for a wire whose delay is constant per
// direction (so departures are in arrival order). The caller reserves room for the largest packet
// it may read, reads into it, and commits what it got; nothing is allocated after construction,
// and the whole ring is touched once up front so its resident size never changes.
#ifndef FEEDCHECK_TOOLS_NETDELAY_PACKET_RING_H_
#define FEEDCHECK_TOOLS_NETDELAY_PACKET_RING_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace netdelay {

class PacketRing {
 public:
  struct Record {
    int64_t due_ns;
    uint32_t bytes;  // payload bytes after this header
    uint32_t wrap;   // 1: no record here, the next one is at offset 0
    const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  };
  static_assert(sizeof(Record) == 16, "records are 16-byte aligned");

  explicit PacketRing(size_t capacity_bytes)
      : capacity_(capacity_bytes & ~size_t{15}), bytes_(new char[capacity_]) {
    std::memset(bytes_.get(), 0, capacity_);  // resident from the start: RSS stays flat
  }

  // Room for a payload of up to `max_bytes` at the tail, or nullptr when the ring is too full.
  // Calling it again without Commit returns the same room.
  char* Reserve(size_t max_bytes) {
    const size_t need = sizeof(Record) + Rounded(max_bytes);
    if (need > capacity_) return nullptr;
    if (used_ == 0) head_ = tail_ = 0;
    if (tail_ >= head_ && (used_ == 0 || tail_ != head_)) {
      // Free space is [tail, capacity) and [0, head).
      if (capacity_ - tail_ >= need) return Slot(tail_);
      if (head_ < need) return nullptr;  // not enough at the front either
      // Mark the unusable end (a header always fits: offsets are multiples of 16).
      if (capacity_ - tail_ >= sizeof(Record)) {
        At(tail_)->wrap = 1;
        At(tail_)->bytes = 0;
      }
      used_ += capacity_ - tail_;
      tail_ = 0;
      // head_ > 0 here, so [0, head) is free and >= need.
      return Slot(tail_);
    }
    // tail < head (or full): free space is [tail, head).
    if (head_ - tail_ >= need) return Slot(tail_);
    return nullptr;
  }

  // Keeps the `bytes` just read into the last reserved room, due at `due_ns`.
  void Commit(uint32_t bytes, int64_t due_ns) {
    Record* r = At(tail_);
    r->due_ns = due_ns;
    r->bytes = bytes;
    r->wrap = 0;
    const size_t step = sizeof(Record) + Rounded(bytes);
    tail_ += step;
    used_ += step;
    if (tail_ == capacity_) tail_ = 0;
    ++count_;
  }

  // The oldest packet, or nullptr when empty.
  const Record* Front() {
    if (count_ == 0) return nullptr;
    SkipWrap();
    return At(head_);
  }

  void PopFront() {
    if (count_ == 0) return;
    SkipWrap();
    const size_t step = sizeof(Record) + Rounded(At(head_)->bytes);
    head_ += step;
    used_ -= step;
    if (head_ == capacity_) head_ = 0;
    --count_;
    if (count_ == 0) used_ = 0, head_ = tail_ = 0;
  }

  size_t count() const { return count_; }
  size_t capacity() const { return capacity_; }

 private:
  static size_t Rounded(size_t n) { return (n + 15) & ~size_t{15}; }
  Record* At(size_t offset) { return reinterpret_cast<Record*>(bytes_.get() + offset); }
  char* Slot(size_t offset) { return bytes_.get() + offset + sizeof(Record); }
  // A wrap marker (or an end too short for one) at head means the next record is at 0.
  void SkipWrap() {
    if (capacity_ - head_ < sizeof(Record) || At(head_)->wrap == 1) {
      used_ -= capacity_ - head_;
      head_ = 0;
    }
  }

  size_t capacity_;
  std::unique_ptr<char[]> bytes_;
  size_t head_ = 0;   // offset of the oldest record
  size_t tail_ = 0;   // offset where the next record goes
  size_t used_ = 0;   // bytes between head and tail, including skipped ends
  size_t count_ = 0;  // records held
};

}  // namespace netdelay

#endif  // FEEDCHECK_TOOLS_NETDELAY_PACKET_RING_H_
