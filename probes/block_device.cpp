#include "probes/block_device.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/ascii_text.h"

namespace feedcheck {

namespace fs = std::filesystem;

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7' && s[i + 2] >= '0' &&
        s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
      out.push_back(
          static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::vector<std::string_view> SplitSpaces(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool ParseInt(std::string_view s, int* out) {
  if (s.empty() || s.size() > 9) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool IsPrefixPath(const std::string& mount_point, const std::string& path) {
  if (mount_point == "/") return !path.empty() && path[0] == '/';
  if (path.compare(0, mount_point.size(), mount_point) != 0) return false;
  return path.size() == mount_point.size() || path[mount_point.size()] == '/';
}

std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

bool IsNetworkFs(const std::string& fstype) {
  static const char* const kNetwork[] = {"nfs",  "nfs4", "cifs",      "smb3",   "smbfs",
                                         "9p",   "ceph", "glusterfs", "lustre", "beegfs",
                                         "gpfs", "afs",  "sshfs",     "fuse",   "fuseblk"};
  for (const char* n : kNetwork)
    if (fstype == n) return true;
  return StartsWith(fstype, "fuse.");
}

// The whole disk a block device (maybe a partition) belongs to, from /sys/dev/block/M:m.
struct BlockDisk {
  std::string name;       ///< nvme0n1, vda, sdb, md0
  std::string partition;  ///< nvme0n1p1 when the mount is on a partition
};

bool ResolveDisk(const std::string& sys_root, int major, int minor, BlockDisk* out) {
  std::error_code ec;
  fs::path link =
      fs::path(sys_root + "/sys/dev/block") / (std::to_string(major) + ":" + std::to_string(minor));
  fs::path real = fs::canonical(link, ec);
  if (ec) return false;
  std::string base = real.filename().string();
  if (fs::exists(real / "partition", ec)) {
    out->partition = base;
    out->name = real.parent_path().filename().string();
  } else {
    out->name = base;
  }
  return !out->name.empty();
}

// The disk a /sys/class/block entry (disk or partition) belongs to.
std::string DiskOfBlockName(const std::string& sys_root, const std::string& name) {
  std::error_code ec;
  fs::path real = fs::canonical(fs::path(sys_root + "/sys/class/block") / name, ec);
  if (ec) return name;
  if (fs::exists(real / "partition", ec)) return real.parent_path().filename().string();
  return real.filename().string();
}

std::string DiskModel(const std::string& sys_root, const std::string& disk) {
  std::string base = sys_root + "/sys/block/" + disk + "/device/";
  std::string vendor = ReadSmallFile(base + "vendor");
  if (vendor.rfind("0x", 0) == 0) vendor.clear();  // virtio prints a PCI vendor id, not a name
  std::string model = ReadSmallFile(base + "model");
  if (!vendor.empty() && !model.empty()) return vendor + " " + model;
  return model.empty() ? vendor : model;
}

// kind + description of one whole disk.
std::pair<std::string, std::string> ClassifyDisk(const std::string& sys_root,
                                                 const std::string& disk,
                                                 std::vector<std::string>* notes, int depth) {
  std::string model = DiskModel(sys_root, disk);
  std::string desc = model.empty() ? disk : disk + " (" + model + ")";
  if (StartsWith(disk, "nvme")) {
    // Azure v6 sizes expose remote managed disks over NVMe too ("MSFT NVMe Accelerator"); only
    // "NVMe Direct Disk" is local.
    if (model.find("Accelerator") != std::string::npos) {
      notes->push_back("NVMe interface to a remote managed disk, not a local NVMe disk");
      return {"other", desc};
    }
    return {"nvme", desc};
  }
  if (StartsWith(disk, "vd")) return {"virtio", desc};
  if ((StartsWith(disk, "md") || StartsWith(disk, "dm-")) && depth < 4) {
    std::error_code ec;
    std::vector<std::string> members;
    std::string kinds_seen;
    std::string kind;
    bool same = true;
    for (const auto& e : fs::directory_iterator(sys_root + "/sys/block/" + disk + "/slaves", ec)) {
      std::string member = DiskOfBlockName(sys_root, e.path().filename().string());
      auto [k, d] = ClassifyDisk(sys_root, member, notes, depth + 1);
      if (kind.empty()) kind = k;
      same = same && k == kind;
      members.push_back(member);
    }
    if (members.empty()) return {"other", desc};
    std::sort(members.begin(), members.end());
    std::string joined;
    for (const auto& m : members) joined += (joined.empty() ? "" : ", ") + m;
    desc =
        disk + " (" + (StartsWith(disk, "md") ? "RAID of " : "device-mapper over ") + joined + ")";
    return {same ? kind : "other", desc};
  }
  return {"other", desc};
}

}  // namespace

std::vector<MountEntry> ParseMountInfo(std::string_view text, int* bad_lines) {
  std::vector<MountEntry> out;
  int bad = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) continue;
    // id parent maj:min root mount_point options [optional...] - fstype source super_options
    auto f = SplitSpaces(line);
    size_t dash = 0;
    for (size_t i = 6; i < f.size(); ++i) {
      if (f[i] == "-") {
        dash = i;
        break;
      }
    }
    MountEntry e;
    size_t colon = f.size() > 2 ? f[2].find(':') : std::string_view::npos;
    if (dash == 0 || dash + 2 >= f.size() || colon == std::string_view::npos ||
        !ParseInt(f[2].substr(0, colon), &e.major) || !ParseInt(f[2].substr(colon + 1), &e.minor)) {
      ++bad;
      continue;
    }
    e.root = Unescape(f[3]);
    e.mount_point = Unescape(f[4]);
    e.fstype = std::string(f[dash + 1]);
    e.source = Unescape(f[dash + 2]);
    if (dash + 3 < f.size()) e.super_options = std::string(f[dash + 3]);
    out.push_back(std::move(e));
  }
  if (bad_lines) *bad_lines = bad;
  return out;
}

const MountEntry* FindMount(const std::vector<MountEntry>& mounts, const std::string& path,
                            int major, int minor) {
  const MountEntry* best = nullptr;
  const MountEntry* best_any = nullptr;
  // Later entries win on ties: a later mount on the same point hides the earlier one.
  for (const auto& m : mounts) {
    if (!IsPrefixPath(m.mount_point, path)) continue;
    if (!best_any || m.mount_point.size() >= best_any->mount_point.size()) best_any = &m;
    if (m.major == major && m.minor == minor &&
        (!best || m.mount_point.size() >= best->mount_point.size()))
      best = &m;
  }
  return best ? best : best_any;
}

DeviceDescription DescribeMount(const std::vector<MountEntry>& mounts, const MountEntry& mount,
                                const std::string& sys_root) {
  DeviceDescription d;
  d.fstype = mount.fstype;
  d.mount_point = mount.mount_point;
  if (mount.fstype == "tmpfs" || mount.fstype == "ramfs" || mount.fstype == "devtmpfs") {
    d.kind = "tmpfs";
    d.device = mount.fstype + " (memory)";
    d.notes.push_back("memory-backed: fast, but it shares RAM with training and is lost on reboot");
    return d;
  }
  if (IsNetworkFs(mount.fstype)) {
    d.kind = "network";
    d.device = mount.fstype + " " + mount.source;
    return d;
  }
  if (mount.fstype == "overlay") {
    // The writable layer is what a cache would fill: describe the mount holding upperdir.
    auto p = mount.super_options.find("upperdir=");
    if (p != std::string::npos) {
      std::string upper = mount.super_options.substr(p + 9);
      upper = upper.substr(0, upper.find(','));
      const MountEntry* under = FindMount(mounts, upper, -1, -1);
      if (under && under != &mount && under->fstype != "overlay") {
        DeviceDescription u = DescribeMount(mounts, *under, sys_root);
        u.notes.push_back("overlay filesystem; writes go to " + upper);
        u.fstype = "overlay";
        u.mount_point = mount.mount_point;
        return u;
      }
    }
    d.kind = "other";
    d.device = "overlay";
    return d;
  }
  BlockDisk disk;
  if (mount.major == 0 || !ResolveDisk(sys_root, mount.major, mount.minor, &disk)) {
    d.kind = "other";
    d.device = mount.source.empty() ? mount.fstype : mount.source;
    d.notes.push_back("no block device found for " + std::to_string(mount.major) + ":" +
                      std::to_string(mount.minor));
    return d;
  }
  auto [kind, desc] = ClassifyDisk(sys_root, disk.name, &d.notes, 0);
  d.kind = kind;
  d.device = disk.partition.empty() ? desc : disk.partition + " on " + desc;
  // A cache on the disk that also holds the OS competes with it; say so unless it is NVMe.
  const MountEntry* root = FindMount(mounts, "/", -1, -1);
  BlockDisk root_disk;
  if (root && root != &mount && root->major != 0 &&
      ResolveDisk(sys_root, root->major, root->minor, &root_disk) && root_disk.name == disk.name &&
      kind != "nvme") {
    d.kind = "os_disk";
    d.notes.push_back(disk.name + " also holds the root filesystem");
  } else if (root == &mount && kind != "nvme") {
    d.kind = "os_disk";
  }
  return d;
}

DeviceDescription DescribePath(const std::string& path, const std::string& root,
                               std::string* error) {
  DeviceDescription none;
  std::error_code ec;
  fs::path abs = fs::canonical(path, ec);
  if (ec) {
    if (error) *error = path + ": " + ec.message();
    return none;
  }
  struct stat st {};
  if (::stat(abs.c_str(), &st) != 0) {
    if (error) *error = path + ": cannot stat";
    return none;
  }
  std::ifstream in(root + "/proc/self/mountinfo");
  std::stringstream text;
  text << in.rdbuf();
  auto mounts = ParseMountInfo(text.str());
  const MountEntry* m = FindMount(mounts, abs.string(), static_cast<int>(major(st.st_dev)),
                                  static_cast<int>(minor(st.st_dev)));
  if (!m) {
    if (error) *error = "no mount found for " + abs.string() + " in /proc/self/mountinfo";
    return none;
  }
  return DescribeMount(mounts, *m, root);
}

}  // namespace feedcheck
