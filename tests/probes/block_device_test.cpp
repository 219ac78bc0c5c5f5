#include "probes/block_device.h"

#include <catch2/catch.hpp>

#include "fixture_tree.h"

using namespace feedcheck;
using feedcheck::testing::FixtureTree;

namespace {

// A node like an Azure ND-series VM: OS on vda, a RAID0 of two local NVMe disks, one NVMe
// partition, an NVMe-attached remote managed disk, tmpfs, NFS and BlobFuse2.
const char* kMountInfo =
    "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    "40 27 259:1 / /mnt/nvme rw,relatime - xfs /dev/nvme0n1p1 rw\n"
    "41 27 9:0 / /mnt/raid rw,relatime shared:5 - xfs /dev/md0 rw\n"
    "42 27 259:8 / /mnt/managed rw,relatime - ext4 /dev/nvme2n1 rw\n"
    "43 27 254:0 /srv/cache /mnt/my\\040cache rw,relatime - ext4 /dev/vda rw\n"
    "25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw\n"
    "50 27 0:60 / /mnt/nfs rw,relatime - nfs4 10.0.0.4:/export rw,vers=4.1\n"
    "51 27 0:61 / /mnt/blob rw,nosuid - fuse.blobfuse2 blobfuse2 rw,user_id=0\n"
    "garbage line without the separator\n";

void BuildSys(const FixtureTree& t) {
  const std::string nvme0 = "sys/devices/pci0000:00/nvme/nvme0/nvme0n1";
  const std::string nvme1 = "sys/devices/pci0000:00/nvme/nvme1/nvme1n1";
  const std::string nvme2 = "sys/devices/pci0000:00/nvme/nvme2/nvme2n1";
  t.Write(nvme0 + "/device/model", "Microsoft NVMe Direct Disk              \n");
  t.Write(nvme0 + "/nvme0n1p1/partition", "1\n");
  t.Write(nvme1 + "/device/model", "Microsoft NVMe Direct Disk\n");
  t.Write(nvme2 + "/device/model", "MSFT NVMe Accelerator v1.0\n");
  t.Write("sys/devices/pci0000:00/virtio1/block/vda/size", "1000\n");
  t.Dir("sys/devices/virtual/block/md0/slaves/nvme0n1");
  t.Dir("sys/devices/virtual/block/md0/slaves/nvme1n1");
  t.Link("sys/dev/block/254:0", "../../devices/pci0000:00/virtio1/block/vda");
  t.Link("sys/dev/block/259:1", "../../devices/pci0000:00/nvme/nvme0/nvme0n1/nvme0n1p1");
  t.Link("sys/dev/block/259:8", "../../devices/pci0000:00/nvme/nvme2/nvme2n1");
  t.Link("sys/dev/block/9:0", "../../devices/virtual/block/md0");
  for (const char* d : {"nvme0n1", "nvme1n1", "nvme2n1"}) {
    std::string n(d);
    t.Link("sys/block/" + n, "../devices/pci0000:00/nvme/nvme" + n.substr(4, 1) + "/" + n);
    t.Link("sys/class/block/" + n, "../../devices/pci0000:00/nvme/nvme" + n.substr(4, 1) + "/" + n);
  }
  t.Link("sys/block/md0", "../devices/virtual/block/md0");
  t.Link("sys/block/vda", "../devices/pci0000:00/virtio1/block/vda");
}

DeviceDescription Describe(const FixtureTree& t, const std::vector<MountEntry>& mounts,
                           const std::string& path, int major, int minor) {
  const MountEntry* m = FindMount(mounts, path, major, minor);
  REQUIRE(m != nullptr);
  return DescribeMount(mounts, *m, t.root());
}

}  // namespace

TEST_CASE("mountinfo lines are parsed and bad lines counted", "[probes][disk]") {
  int bad = 0;
  auto mounts = ParseMountInfo(kMountInfo, &bad);
  CHECK(bad == 1);
  REQUIRE(mounts.size() == 8);
  CHECK(mounts[0].major == 254);
  CHECK(mounts[0].mount_point == "/");
  CHECK(mounts[2].fstype == "xfs");
  CHECK(mounts[2].source == "/dev/md0");
  CHECK(mounts[4].mount_point == "/mnt/my cache");
  CHECK(mounts[4].root == "/srv/cache");
  CHECK(mounts[6].super_options == "rw,vers=4.1");
}

TEST_CASE("the mount of a path is the longest matching mount point", "[probes][disk]") {
  auto mounts = ParseMountInfo(kMountInfo);
  CHECK(FindMount(mounts, "/mnt/nvme/cache/x", 259, 1)->mount_point == "/mnt/nvme");
  // "/mnt/nvmeX" is not under "/mnt/nvme".
  CHECK(FindMount(mounts, "/mnt/nvmeX", 254, 0)->mount_point == "/");
  CHECK(FindMount(mounts, "/mnt/my cache/a", 254, 0)->mount_point == "/mnt/my cache");
  // Unknown device numbers fall back to the path.
  CHECK(FindMount(mounts, "/mnt/raid/a", 1, 1)->mount_point == "/mnt/raid");
}

TEST_CASE("devices behind paths are named from sysfs", "[probes][disk]") {
  FixtureTree t;
  BuildSys(t);
  auto mounts = ParseMountInfo(kMountInfo);

  auto nvme = Describe(t, mounts, "/mnt/nvme/cache", 259, 1);
  CHECK(nvme.kind == "nvme");
  CHECK(nvme.device == "nvme0n1p1 on nvme0n1 (Microsoft NVMe Direct Disk)");
  CHECK(nvme.fstype == "xfs");

  auto raid = Describe(t, mounts, "/mnt/raid", 9, 0);
  CHECK(raid.kind == "nvme");
  CHECK(raid.device == "md0 (RAID of nvme0n1, nvme1n1)");

  auto managed = Describe(t, mounts, "/mnt/managed", 259, 8);
  CHECK(managed.kind == "other");
  CHECK(managed.notes.size() == 1);

  auto os = Describe(t, mounts, "/var/cache", 254, 0);
  CHECK(os.kind == "os_disk");
  CHECK(os.device == "vda");

  auto bind = Describe(t, mounts, "/mnt/my cache", 254, 0);
  CHECK(bind.kind == "os_disk");  // another mount of the root disk
  CHECK(bind.notes.at(0).find("root filesystem") != std::string::npos);

  auto shm = Describe(t, mounts, "/dev/shm/x", 0, 23);
  CHECK(shm.kind == "tmpfs");

  auto nfs = Describe(t, mounts, "/mnt/nfs/data", 0, 60);
  CHECK(nfs.kind == "network");
  CHECK(nfs.device == "nfs4 10.0.0.4:/export");

  auto blob = Describe(t, mounts, "/mnt/blob", 0, 61);
  CHECK(blob.kind == "network");
  CHECK(blob.fstype == "fuse.blobfuse2");
}

TEST_CASE("an overlay root is described by the disk holding its upper layer", "[probes][disk]") {
  FixtureTree t;
  BuildSys(t);
  auto mounts = ParseMountInfo(
      "27 1 259:1 / /var/lib/docker rw - xfs /dev/nvme0n1p1 rw\n"
      "90 27 0:70 / / rw - overlay overlay rw,lowerdir=/var/lib/docker/l,"
      "upperdir=/var/lib/docker/overlay2/abc/diff,workdir=/var/lib/docker/overlay2/abc/work\n");
  const MountEntry* m = FindMount(mounts, "/tmp", 0, 70);
  REQUIRE(m != nullptr);
  CHECK(m->fstype == "overlay");
  auto d = DescribeMount(mounts, *m, t.root());
  CHECK(d.kind == "nvme");
  CHECK(d.fstype == "overlay");
  CHECK(d.mount_point == "/");
}

TEST_CASE("a block device missing from sysfs is 'other' with a note", "[probes][disk]") {
  FixtureTree t;
  auto mounts = ParseMountInfo("27 1 8:16 / /mnt rw - ext4 /dev/sdb1 rw\n");
  auto d = DescribeMount(mounts, mounts[0], t.root());
  CHECK(d.kind == "other");
  CHECK(d.device == "/dev/sdb1");
  CHECK_FALSE(d.notes.empty());
}

TEST_CASE("the real machine's /tmp has a device kind", "[probes][disk]") {
  std::string error;
  auto d = DescribePath("/tmp", "", &error);
  INFO(error);
  CHECK_FALSE(d.kind.empty());
  CHECK_FALSE(d.fstype.empty());
}
