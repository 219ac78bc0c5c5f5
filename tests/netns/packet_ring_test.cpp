// The delay wire's packet store: a FIFO of variable-size packets in one fixed ring. These are the
// properties the soak test relies on: order kept, room reused after a wrap, a full ring refuses
// (the wire drops) instead of growing.
#include "tools/netdelay/packet_ring.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <deque>
#include <random>
#include <string>

using netdelay::PacketRing;

namespace {

// Reserves room for `max_read`, "reads" `payload` into it and commits it.
bool Push(PacketRing& ring, const std::string& payload, size_t max_read, int64_t due) {
  char* slot = ring.Reserve(max_read);
  if (slot == nullptr) return false;
  std::memcpy(slot, payload.data(), payload.size());
  ring.Commit(static_cast<uint32_t>(payload.size()), due);
  return true;
}

std::string Pop(PacketRing& ring, int64_t* due) {
  const PacketRing::Record* r = ring.Front();
  REQUIRE(r != nullptr);
  std::string out(r->data(), r->bytes);
  *due = r->due_ns;
  ring.PopFront();
  return out;
}

}  // namespace

TEST_CASE("packets leave in the order they came, with their bytes and due times", "[ring]") {
  PacketRing ring(4096);
  REQUIRE(ring.Front() == nullptr);
  REQUIRE(Push(ring, "first", 100, 10));
  REQUIRE(Push(ring, std::string(300, 'x'), 300, 20));
  REQUIRE(Push(ring, "", 100, 30));  // an empty read is still a record
  int64_t due = 0;
  CHECK(Pop(ring, &due) == "first");
  CHECK(due == 10);
  CHECK(Pop(ring, &due) == std::string(300, 'x'));
  CHECK(due == 20);
  CHECK(Pop(ring, &due).empty());
  CHECK(due == 30);
  CHECK(ring.Front() == nullptr);
  CHECK(ring.count() == 0);
}

TEST_CASE("a full ring refuses a packet and takes one again once the oldest has left", "[ring]") {
  PacketRing ring(1024);  // room for 3 records of 256 + header (272 bytes each)
  int pushed = 0;
  while (Push(ring, std::string(256, char('a' + pushed)), 256, pushed)) ++pushed;
  CHECK(pushed == 3);
  CHECK(ring.Reserve(256) == nullptr);
  CHECK(ring.Reserve(2048) == nullptr);  // larger than the ring: never
  int64_t due = 0;
  CHECK(Pop(ring, &due) == std::string(256, 'a'));
  // The freed room is at the front; the end has 1024 - 816 = 208 bytes, too few: wrap.
  REQUIRE(Push(ring, std::string(256, 'd'), 256, 3));
  CHECK(Pop(ring, &due) == std::string(256, 'b'));
  CHECK(Pop(ring, &due) == std::string(256, 'c'));
  CHECK(Pop(ring, &due) == std::string(256, 'd'));
  CHECK(ring.Front() == nullptr);
}

TEST_CASE("a reservation that is not committed leaves the ring as it was", "[ring]") {
  PacketRing ring(1024);
  REQUIRE(Push(ring, std::string(500, 'a'), 500, 1));
  // Reserving 600 forces a wrap decision; the front has no room, so nothing changes.
  CHECK(ring.Reserve(600) == nullptr);
  char* first = ring.Reserve(200);
  REQUIRE(first != nullptr);
  CHECK(ring.Reserve(200) == first);  // the same room until something is committed
  int64_t due = 0;
  CHECK(Pop(ring, &due) == std::string(500, 'a'));
  CHECK(ring.count() == 0);
}

TEST_CASE("a long random run through the ring keeps every packet intact and in order", "[ring]") {
  // The wire's pattern: reserve the largest possible read, commit a smaller packet, drain in
  // bursts. A model queue holds what must come out.
  PacketRing ring(64 * 1024);
  std::deque<std::string> model;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> size(0, 9000), burst(0, 12);
  const size_t kMaxRead = 9000;
  size_t refused = 0, passed = 0;
  for (int round = 0; round < 20000; ++round) {
    for (int i = burst(rng); i > 0; --i) {
      std::string p(static_cast<size_t>(size(rng)), char('A' + round % 26));
      if (!p.empty()) p[0] = char(round % 251);
      if (Push(ring, p, kMaxRead, round)) {
        model.push_back(p);
      } else {
        ++refused;
      }
    }
    for (int i = burst(rng); i > 0 && !model.empty(); --i) {
      int64_t due = 0;
      REQUIRE(Pop(ring, &due) == model.front());
      model.pop_front();
      ++passed;
    }
    REQUIRE(ring.count() == model.size());
  }
  CHECK(passed > 50000);
  CHECK(refused > 0);  // the run did fill the ring, so the full path was exercised
}
