// netdelay: a userspace "wire" between two TUN devices in two network namespaces that holds each
// IP packet for a fixed per-direction delay. This kernel has no sch_netem (nor fq or etf, which
// an in-kernel EDT delay set by a BPF program would need), so delay is emulated here while the
// rate stays in the kernel (tc tbf on the sending side). See scripts/netns.sh.
//
// usage: netdelay NS_A TUN_A NS_B TUN_B DELAY_A_TO_B_US DELAY_B_TO_A_US LIFETIME_S
//
// Cost: the TUN devices are opened with a virtio-net header and TSO/checksum offload, so the
// kernel hands the wire GSO super-packets of up to 64 KiB instead of 1500-byte frames, and
// segments (or simply accepts) them on the far side. At 1 Gbit/s that is ~2,000 reads a second
// instead of ~85,000. Where the kernel refuses offload the wire still works, per MTU-sized packet.
//
// Memory: each direction is one fixed byte ring, allocated and touched once at start; packets are
// read straight into it and written straight out of it. Nothing is allocated per packet, so the
// resident size is flat whatever the traffic (tests/netns/netdelay_soak.sh checks it). A packet
// that finds the ring full is dropped, as a router with a full buffer would; TCP recovers.
//
// It exits by itself after LIFETIME_S (so a crashed test cannot leave a wire running forever),
// and cleanly on SIGTERM/SIGINT/SIGHUP, printing packet counts and its CPU time on stderr. It runs
// SCHED_FIFO where allowed (NETDELAY_NO_REALTIME=1 to opt out), so load elsewhere does not stretch
// the delay.
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "tools/netdelay/packet_ring.h"

namespace {

using Clock = std::chrono::steady_clock;

// Room for one read: the largest GSO packet a TUN device builds (64 KiB) plus its virtio-net
// header, with slack. A read into less room than this could truncate a packet.
constexpr size_t kMaxReadBytes = 65536 + 256;
// At 1 Gbit/s and 50 ms one way, 6.25 MB are in flight; 32 MiB leaves ample headroom.
constexpr size_t kRingBytesPerDirection = 32u << 20;
// Packets read per wake-up per direction, so one busy side cannot starve the other.
constexpr int kMaxReadsPerWake = 64;
// Packets due within this window are sent together: waking once per packet costs more than the
// wire can spare, while sending up to 30 us early is 0.3 % of a 10 ms delay.
constexpr auto kBatchWindow = std::chrono::microseconds(30);

volatile sig_atomic_t g_stop = 0;

void OnSignal(int) { g_stop = 1; }

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

struct Direction {
  int in_fd = -1;
  int out_fd = -1;
  int64_t delay_ns = 0;
  std::unique_ptr<netdelay::PacketRing> ring;
  uint64_t forwarded = 0;
  uint64_t forwarded_bytes = 0;
  uint64_t dropped_full = 0;  // the ring was full
  uint64_t write_errors = 0;  // the far TUN refused the packet (e.g. its queue was full)
};

bool ParseNonNegative(const char* text, long long* out) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < 0) return false;
  *out = v;
  return true;
}

// Asks the device for GSO super-packets with a virtio-net header. Both ends must agree, since
// the header read on one side is written unchanged to the other.
bool EnableOffload(int fd, const std::string& tun) {
  unsigned offload = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
  if (ioctl(fd, TUNSETOFFLOAD, offload) != 0) {
    std::fprintf(stderr, "netdelay: %s refuses TSO offload (%s); forwarding per packet\n",
                 tun.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

// Attaches to an existing (persistent) TUN device inside the named namespace. The fd keeps
// working after we switch to the other namespace: a TUN fd belongs to its device, not to us.
int OpenTunInNamespace(const std::string& ns, const std::string& tun, bool vnet_header) {
  std::string ns_path = "/var/run/netns/" + ns;
  int ns_fd = open(ns_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (ns_fd < 0) {
    std::fprintf(stderr, "netdelay: cannot open namespace %s: %s\n", ns_path.c_str(),
                 std::strerror(errno));
    return -1;
  }
  int rc = setns(ns_fd, CLONE_NEWNET);
  int setns_errno = errno;
  close(ns_fd);
  if (rc != 0) {
    std::fprintf(stderr, "netdelay: setns %s: %s\n", ns.c_str(), std::strerror(setns_errno));
    return -1;
  }
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    std::fprintf(stderr, "netdelay: open /dev/net/tun: %s\n", std::strerror(errno));
    return -1;
  }
  ifreq ifr{};
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI | (vnet_header ? IFF_VNET_HDR : 0);
  std::strncpy(ifr.ifr_name, tun.c_str(), IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
    std::fprintf(stderr, "netdelay: attach %s in %s: %s\n", tun.c_str(), ns.c_str(),
                 std::strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

// Writes every packet whose time has come to the far side.
void ForwardDue(Direction& d, int64_t now_ns) {
  const int64_t horizon = now_ns + std::chrono::nanoseconds(kBatchWindow).count();
  while (const netdelay::PacketRing::Record* p = d.ring->Front()) {
    if (p->due_ns > horizon) break;
    if (write(d.out_fd, p->data(), p->bytes) < 0) {
      ++d.write_errors;
    } else {
      ++d.forwarded;
      d.forwarded_bytes += p->bytes;
    }
    d.ring->PopFront();
  }
}

// Reads what is waiting on the near side straight into the ring, stamped with its departure.
void ReadWaiting(Direction& d, char* scratch) {
  for (int i = 0; i < kMaxReadsPerWake; ++i) {
    char* slot = d.ring->Reserve(kMaxReadBytes);
    ssize_t n = read(d.in_fd, slot != nullptr ? slot : scratch, kMaxReadBytes);
    if (n <= 0) return;  // EAGAIN: drained
    if (slot == nullptr) {
      ++d.dropped_full;  // a real wire with a full buffer drops too; TCP recovers
      continue;
    }
    d.ring->Commit(static_cast<uint32_t>(n), NowNs() + d.delay_ns);
  }
}

// How long poll may sleep: until the earliest due packet, at most 100 ms so the lifetime and
// the stop flag are checked often.
timespec SleepUntilNextDue(const Direction* dirs, int64_t now_ns) {
  int64_t wait_ns = 100'000'000;
  for (int i = 0; i < 2; ++i) {
    const netdelay::PacketRing::Record* p = dirs[i].ring->Front();
    if (p == nullptr) continue;
    int64_t ns = p->due_ns - now_ns - std::chrono::nanoseconds(kBatchWindow).count();
    if (ns < wait_ns) wait_ns = ns < 0 ? 0 : ns;
  }
  return timespec{static_cast<time_t>(wait_ns / 1'000'000'000),
                  static_cast<long>(wait_ns % 1'000'000'000)};
}

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int Usage() {
  std::fprintf(stderr,
               "usage: netdelay NS_A TUN_A NS_B TUN_B DELAY_A_TO_B_US DELAY_B_TO_A_US LIFETIME_S\n"
               "  Forwards IP packets between two persistent TUN devices, each in its own network\n"
               "  namespace, holding each packet for the given one-way delay. Exits after\n"
               "  LIFETIME_S seconds or on SIGTERM/SIGINT/SIGHUP.\n");
  return 2;
}

void Report(const char* why, bool offload, const Direction* dirs, double cpu_s, double wall_s) {
  std::fprintf(
      stderr,
      "netdelay: %s (offload %s); A->B %llu packets %llu bytes (%llu dropped, %llu write errors), "
      "B->A %llu packets %llu bytes (%llu dropped, %llu write errors); "
      "cpu %.3f s in %.3f s\n",
      why, offload ? "on" : "off", static_cast<unsigned long long>(dirs[0].forwarded),
      static_cast<unsigned long long>(dirs[0].forwarded_bytes),
      static_cast<unsigned long long>(dirs[0].dropped_full),
      static_cast<unsigned long long>(dirs[0].write_errors),
      static_cast<unsigned long long>(dirs[1].forwarded),
      static_cast<unsigned long long>(dirs[1].forwarded_bytes),
      static_cast<unsigned long long>(dirs[1].dropped_full),
      static_cast<unsigned long long>(dirs[1].write_errors), cpu_s, wall_s);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) return Usage();
  long long delay_ab_us = 0, delay_ba_us = 0, lifetime_s = 0;
  if (!ParseNonNegative(argv[5], &delay_ab_us) || !ParseNonNegative(argv[6], &delay_ba_us) ||
      !ParseNonNegative(argv[7], &lifetime_s) || lifetime_s == 0 || delay_ab_us > 10'000'000 ||
      delay_ba_us > 10'000'000) {
    std::fprintf(stderr,
                 "netdelay: delays must be integers in [0, 10000000] us and LIFETIME_S a "
                 "positive integer\n");
    return Usage();
  }

  // Handlers first: the carrier comes up when the devices are attached, and whoever started the
  // wire may stop it from then on, also while the rings are still being set up.
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);

  // Offload only when both devices take it: a header written to a device that does not expect
  // one would be read as the start of the IP packet. NETDELAY_NO_OFFLOAD=1 forces the
  // per-packet path (for measuring what offload saves).
  bool vnet = std::getenv("NETDELAY_NO_OFFLOAD") == nullptr;
  Direction dirs[2];
  for (int attempt = 0; attempt < 2; ++attempt) {
    dirs[0].in_fd = OpenTunInNamespace(argv[1], argv[2], vnet);
    if (dirs[0].in_fd < 0) return 1;
    dirs[1].in_fd = OpenTunInNamespace(argv[3], argv[4], vnet);
    if (dirs[1].in_fd < 0) return 1;
    if (!vnet || (EnableOffload(dirs[0].in_fd, argv[2]) && EnableOffload(dirs[1].in_fd, argv[4])))
      break;
    close(dirs[0].in_fd);
    close(dirs[1].in_fd);
    vnet = false;
  }
  dirs[0].out_fd = dirs[1].in_fd;
  dirs[1].out_fd = dirs[0].in_fd;
  dirs[0].delay_ns = delay_ab_us * 1000;
  dirs[1].delay_ns = delay_ba_us * 1000;
  for (Direction& d : dirs) d.ring = std::make_unique<netdelay::PacketRing>(kRingBytesPerDirection);

  // Default timer slack (50 us) would add that much to every delay; ask for 1 ns.
  prctl(PR_SET_TIMERSLACK, 1UL);
  // A wire is not a process that waits its turn: on a 2-core machine busy with builds, a wake-up
  // queued behind a compiler for 2-4 ms shows as that much extra RTT. Real-time priority makes
  // the delay the configured one. Safe: the loop sleeps in ppoll and uses about an eighth of a
  // core at 1 Gbit/s, and the kernel's RT throttling bounds it in any case. Best effort.
  if (std::getenv("NETDELAY_NO_REALTIME") == nullptr) {
    sched_param realtime{};
    realtime.sched_priority = 10;
    if (sched_setscheduler(0, SCHED_FIFO, &realtime) != 0) {
      std::fprintf(stderr, "netdelay: no real-time priority (%s); delays may stretch under load\n",
                   std::strerror(errno));
    }
  }

  const int64_t start_ns = NowNs();
  const int64_t deadline_ns = start_ns + lifetime_s * 1'000'000'000;
  const double start_cpu_s = CpuSeconds();
  std::unique_ptr<char[]> scratch(new char[kMaxReadBytes]);
  bool expired = false;
  while (!g_stop) {
    int64_t now = NowNs();
    if (now >= deadline_ns) {
      expired = true;
      break;
    }
    ForwardDue(dirs[0], now);
    ForwardDue(dirs[1], now);
    timespec sleep = SleepUntilNextDue(dirs, now);
    pollfd fds[2] = {{dirs[0].in_fd, POLLIN, 0}, {dirs[1].in_fd, POLLIN, 0}};
    if (ppoll(fds, 2, &sleep, nullptr) < 0 && errno != EINTR) {
      std::fprintf(stderr, "netdelay: poll: %s\n", std::strerror(errno));
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents & POLLIN) ReadWaiting(dirs[i], scratch.get());
    }
  }

  Report(expired ? "lifetime over" : "stopped", vnet, dirs, CpuSeconds() - start_cpu_s,
         static_cast<double>(NowNs() - start_ns) / 1e9);
  close(dirs[0].in_fd);
  close(dirs[1].in_fd);
  return 0;
}
