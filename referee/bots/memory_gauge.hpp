#pragma once
// What a bot's processes really hold in memory, for the sampler that holds a tree to
// --memory-mb where no cgroup memory controller does (process.cpp, every 10 ms).
//
// Counted, in bytes:
//   - each process's own resident memory (/proc/PID/statm: resident minus file and shared pages),
//     and its huge pages when the machine has any reserved; not the referee's own helpers in the
//     tree (MemoryScope::helpers);
//   - every shared memory object the tree holds, once however many of its processes hold it and
//     however little of it is mapped: shared anonymous mappings, memfd, files on a tmpfs, SysV
//     and POSIX shared memory, whether mapped (/proc/PID/maps) or only held open (/proc/PID/fd);
//     its size is what the object holds (its allocated blocks), not what is mapped;
//   - strict: the bot's scratch tmpfs (/tmp, /var/tmp, /dev/shm, its home) as a whole, and the
//     SysV shared memory segments and message queues of its IPC namespace, attached or not;
//   - basic as root: files the bot's uid owns on the host's tmpfs mounts (/dev/shm, ...), looked
//     for only when such a mount grew since the bot started.
// Cheap when nothing is shared: all of these but the message queues and huge pages are in the
// machine's Shmem (/proc/meminfo, read once per interval for all bots), and the objects are
// looked for only while it is above its lowest since the bot started, and once a second
// regardless; otherwise a sample reads /proc/PID/statm of each process, as it did before shared
// memory was counted.
// Not counted: page cache of files on disk (reclaimable), kernel memory behind pipes and sockets.

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace arena::bots {

struct MemoryUse {
  std::uint64_t total = 0;   // bytes
  std::uint64_t shared = 0;  // of `total`: shared memory objects, scratch and tmpfs files, huge pages
};

// Whose memory: set by the jail (Jail::memory_scope).
struct MemoryScope {
  // Strict: the referee's own processes in the bot's cgroup (the one it started, which waits, and
  // the namespace's init), not counted. Neither execs nor runs the bot's code, and each holds a
  // copy-on-write copy of the referee's memory that is the referee's, not the bot's.
  std::vector<pid_t> helpers;
  uid_t uid = 0;
  bool own_uid = false;  // the bot runs as a uid of its own: its files on the host's tmpfs count
  pid_t inner = -1;      // strict: a process inside the bot's namespaces (its root, its IPC namespace)
  // A process whose root shows the bot's scratch tmpfs at /tmp: strict, and basic as root with a
  // mount namespace of its own (its /tmp, /var/tmp and /dev/shm are one private tmpfs).
  pid_t scratch_root = -1;
};

class MemoryGauge {
 public:
  // In the strict tier, joins the bot's IPC namespace to read its SysV objects: construct it on
  // the thread that samples, a thread that does nothing else.
  explicit MemoryGauge(const MemoryScope& scope);
  MemoryGauge(const MemoryGauge&) = delete;
  MemoryGauge& operator=(const MemoryGauge&) = delete;

  MemoryUse sample(const std::vector<pid_t>& pids);

 private:
  using Key = std::pair<dev_t, ino_t>;
  using Objects = std::map<Key, std::uint64_t>;  // a shared object -> its bytes

  bool is_shared_fs(dev_t dev, const std::string& path);  // a tmpfs (cached per device)
  void mapped(pid_t pid, Objects& objects, std::uint64_t& fallback);
  void held(pid_t pid, Objects& objects);
  std::uint64_t segments(Objects& objects) const;
  std::uint64_t message_queues() const;
  std::uint64_t scratch();
  void tmpfs_files(Objects& objects, bool full);

  MemoryScope scope_;
  bool in_ipc_namespace_ = false;
  std::uint64_t lowest_shmem_ = ~0ULL;  // the machine's Shmem at its lowest while the bot ran
  std::uint64_t samples_ = 0;
  dev_t scratch_dev_ = 0;  // strict: its scratch tmpfs (counted whole), 0 until known
  std::map<dev_t, bool> shared_fs_;
  struct Tmpfs {
    std::string path;
    dev_t dev = 0;
    std::uint64_t lowest = 0;                          // the least used it had while the bot ran
    std::uint64_t walked = ~0ULL;                      // how much was used at the last walk
    std::vector<std::pair<Key, std::uint64_t>> files;  // the bot's files found then
  };
  std::vector<Tmpfs> tmpfs_;  // basic as root: the host's tmpfs mounts
};

}  // namespace arena::bots
