// Names the storage behind a path: which mount it is on (/proc/self/mountinfo) and what kind of
// device backs that mount (/sys/dev/block, /sys/block). The root of /proc and /sys is injectable
// so tests run on fixture trees.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace feedcheck {

/// One line of /proc/self/mountinfo.
struct MountEntry {
  int major = 0;
  int minor = 0;
  std::string root;         ///< path inside the filesystem that is mounted here
  std::string mount_point;  ///< octal escapes (\040) decoded
  std::string fstype;       ///< "ext4", "tmpfs", "fuse.blobfuse2", "nfs4", "overlay"
  std::string source;       ///< "/dev/nvme0n1p1", "server:/export", "blobfuse2"
  std::string super_options;
};

/// Parses mountinfo text; malformed lines are skipped (their count goes to `bad_lines`).
std::vector<MountEntry> ParseMountInfo(std::string_view text, int* bad_lines = nullptr);

/// The mount a path is on: among entries with the path's device numbers, the one with the
/// longest mount point that prefixes `path`; when none has those numbers, the longest prefix.
/// `path` must be absolute and normalised. nullptr when nothing matches.
const MountEntry* FindMount(const std::vector<MountEntry>& mounts, const std::string& path,
                            int major, int minor);

/// What the probe reports about the device.
struct DeviceDescription {
  std::string kind;    ///< nvme | os_disk | virtio | tmpfs | network | other
  std::string device;  ///< "nvme0n1 (Microsoft NVMe Direct Disk)", "nfs4 server:/export"
  std::string fstype;
  std::string mount_point;
  std::vector<std::string> notes;  ///< why it was classified so, when not obvious
};

/// Classifies the mount a path is on. `sys_root` is "" for the real machine or a fixture
/// directory holding sys/...; `mounts` comes from ParseMountInfo.
DeviceDescription DescribeMount(const std::vector<MountEntry>& mounts, const MountEntry& mount,
                                const std::string& sys_root);

/// Describes the device behind a real path on this machine (stat + /proc + /sys under `root`).
DeviceDescription DescribePath(const std::string& path, const std::string& root,
                               std::string* error);

}  // namespace feedcheck
