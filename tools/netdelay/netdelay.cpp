// netdelay: a userspace "wire" between two TUN devices in two network namespaces that holds each
// IP packet for a fixed per-direction delay. This kernel has no sch_netem, so delay is emulated
// here while the rate stays in the kernel (tc tbf on the sending side). See scripts/netns.sh.
//
// usage: netdelay NS_A TUN_A NS_B TUN_B DELAY_A_TO_B_US DELAY_B_TO_A_US LIFETIME_S
//
// It exits by itself after LIFETIME_S (so a crashed test cannot leave a wire running forever),
// and cleanly on SIGTERM/SIGINT, printing packet counts on stderr. Queued bytes per direction are
// capped, so memory stays bounded whatever the traffic.
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// A packet larger than any TUN MTU we configure (max 65535) plus slack.
constexpr size_t kMaxPacketBytes = 65536 + 64;
// At 1 Gbit/s and 50 ms one-way, 6.25 MB are in flight; 64 MiB leaves ample headroom.
constexpr size_t kMaxQueuedBytesPerDirection = 64u << 20;
// Packets read per wake-up per direction, so one busy side cannot starve the other.
constexpr int kMaxReadsPerWake = 256;
// Packets due within this window are sent together. At 1 Gbit/s a packet arrives every 12 us;
// waking once per packet costs more CPU than the wire can spare on 2 cores, while sending up to
// 30 us early is 0.3 % of a 10 ms delay.
constexpr auto kBatchWindow = std::chrono::microseconds(30);

volatile sig_atomic_t g_stop = 0;

void OnSignal(int) { g_stop = 1; }

struct Packet {
  Clock::time_point due;
  std::vector<char> data;
};

struct Direction {
  int in_fd = -1;
  int out_fd = -1;
  std::chrono::microseconds delay{0};
  std::deque<Packet> queue;
  size_t queued_bytes = 0;
  uint64_t forwarded = 0;
  uint64_t dropped_full = 0;             // queue cap reached
  uint64_t write_errors = 0;             // the far TUN refused the packet (e.g. its queue was full)
  std::vector<std::vector<char>> spare;  // buffers of sent packets, reused to avoid malloc
};

bool ParseNonNegative(const char* text, long long* out) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < 0) return false;
  *out = v;
  return true;
}

// Attaches to an existing (persistent) TUN device inside the named namespace. The fd keeps
// working after we switch to the other namespace: a TUN fd belongs to its device, not to us.
int OpenTunInNamespace(const std::string& ns, const std::string& tun) {
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
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
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
void ForwardDue(Direction& d, Clock::time_point now) {
  while (!d.queue.empty() && d.queue.front().due <= now + kBatchWindow) {
    Packet& p = d.queue.front();
    if (write(d.out_fd, p.data.data(), p.data.size()) < 0) {
      ++d.write_errors;
    } else {
      ++d.forwarded;
    }
    d.queued_bytes -= p.data.size();
    d.spare.push_back(std::move(p.data));
    d.queue.pop_front();
  }
}

// Reads what is waiting on the near side and stamps it with its departure time.
void ReadWaiting(Direction& d, std::vector<char>& buffer) {
  for (int i = 0; i < kMaxReadsPerWake; ++i) {
    ssize_t n = read(d.in_fd, buffer.data(), buffer.size());
    if (n <= 0) return;  // EAGAIN: drained
    size_t bytes = static_cast<size_t>(n);
    if (d.queued_bytes + bytes > kMaxQueuedBytesPerDirection) {
      ++d.dropped_full;  // a real wire would drop too; TCP recovers
      continue;
    }
    d.queued_bytes += bytes;
    d.queue.push_back(
        Packet{Clock::now() + d.delay, std::vector<char>(buffer.data(), buffer.data() + n)});
  }
}

// How long poll may sleep: until the earliest due packet, at most 100 ms so the lifetime and
// the stop flag are checked often.
timespec SleepUntilNextDue(const Direction* dirs, Clock::time_point now) {
  long long wait_ns = 100'000'000;
  for (int i = 0; i < 2; ++i) {
    if (dirs[i].queue.empty()) continue;
    long long ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(dirs[i].queue.front().due - now)
            .count();
    ns -= std::chrono::duration_cast<std::chrono::nanoseconds>(kBatchWindow).count();
    if (ns < wait_ns) wait_ns = ns < 0 ? 0 : ns;
  }
  return timespec{static_cast<time_t>(wait_ns / 1'000'000'000),
                  static_cast<long>(wait_ns % 1'000'000'000)};
}

int Usage() {
  std::fprintf(stderr,
               "usage: netdelay NS_A TUN_A NS_B TUN_B DELAY_A_TO_B_US DELAY_B_TO_A_US LIFETIME_S\n"
               "  Forwards IP packets between two persistent TUN devices, each in its own network\n"
               "  namespace, holding each packet for the given one-way delay. Exits after\n"
               "  LIFETIME_S seconds or on SIGTERM/SIGINT.\n");
  return 2;
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

  Direction dirs[2];
  dirs[0].in_fd = OpenTunInNamespace(argv[1], argv[2]);
  if (dirs[0].in_fd < 0) return 1;
  dirs[1].in_fd = OpenTunInNamespace(argv[3], argv[4]);
  if (dirs[1].in_fd < 0) return 1;
  dirs[0].out_fd = dirs[1].in_fd;
  dirs[1].out_fd = dirs[0].in_fd;
  dirs[0].delay = std::chrono::microseconds(delay_ab_us);
  dirs[1].delay = std::chrono::microseconds(delay_ba_us);

  // Default timer slack (50 us) would add that much to every delay; ask for 1 ns.
  prctl(PR_SET_TIMERSLACK, 1UL);
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);

  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(lifetime_s);
  std::vector<char> buffer(kMaxPacketBytes);
  bool expired = false;
  while (!g_stop) {
    Clock::time_point now = Clock::now();
    if (now >= deadline) {
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
      if (fds[i].revents & POLLIN) ReadWaiting(dirs[i], buffer);
    }
  }

  std::fprintf(stderr,
               "netdelay: %s; A->B %llu packets (%llu dropped, %llu write errors), "
               "B->A %llu packets (%llu dropped, %llu write errors)\n",
               expired ? "lifetime over" : "stopped",
               static_cast<unsigned long long>(dirs[0].forwarded),
               static_cast<unsigned long long>(dirs[0].dropped_full),
               static_cast<unsigned long long>(dirs[0].write_errors),
               static_cast<unsigned long long>(dirs[1].forwarded),
               static_cast<unsigned long long>(dirs[1].dropped_full),
               static_cast<unsigned long long>(dirs[1].write_errors));
  close(dirs[0].in_fd);
  close(dirs[1].in_fd);
  return 0;
}
