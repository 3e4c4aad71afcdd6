// hostile_bot's attacks on the memory limit (modes documented in hostile_bot.cpp): a tree of
// processes, each within its limits and together over the tree's, and memory that is not a
// process's own: shared anonymous mappings across forked children, memfd, files on a tmpfs, SysV
// shared memory. Each object is at most 16 MiB (below a file-size limit) and is
// filled with write() or by touching its pages, so that its memory is really held.

#include <fcntl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hostile.hpp"

namespace hostile {

namespace {

constexpr std::size_t kObject = 16u << 20;

int target_mb(const Options& o) {
  return o.mb < 0 ? 640 : o.mb;
}

void touch(void* at, std::size_t bytes) {
  std::memset(at, 1, bytes);
}

// Writes `bytes` into `fd` with write(); false (errno set) when it stops short.
bool fill(int fd, std::size_t bytes) {
  static const std::vector<char> chunk(1 << 20, 1);
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t n = ::write(fd, chunk.data(), std::min(chunk.size(), bytes - done));
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Makes objects of 16 MiB with `make` (true: held) until `mb` MiB are held or one fails.
template <typename Make>
void objects(const Options& o, Make make) {
  const int mb = target_mb(o);
  int made = 0;
  int err = 0;
  for (int held = 0; held < mb; held += 16) {
    errno = 0;
    if (!make(made)) {
      err = errno;
      break;
    }
    ++made;
  }
  report(o, "objects=" + std::to_string(made) + " mib=" + std::to_string(made * 16) + " target=" + std::to_string(mb) +
                " errno=" + errno_name(err));
}

// Forks `o.procs` children that each run `hold` (true: it holds all it was to) and then wait
// forever; reports once every child has said how it went.
template <typename Hold>
void children_holding(const Options& o, int mb, Hold hold) {
  int done[2];
  if (::pipe(done) != 0) {
    report(o, "procs=0 errno=" + errno_name(errno));
    return;
  }
  int started = 0;
  for (int i = 0; i < o.procs; ++i) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(done[0]);
      const char c = hold() ? 'y' : 'n';
      (void)!::write(done[1], &c, 1);
      for (;;) ::pause();
    }
    if (pid > 0) ++started;
  }
  ::close(done[1]);
  int full = 0;
  for (int i = 0; i < started; ++i) {
    char c = 0;
    if (::read(done[0], &c, 1) != 1) break;
    full += c == 'y' ? 1 : 0;
  }
  ::close(done[0]);
  report(o, "procs=" + std::to_string(started) + " mib_each=" + std::to_string(mb) + " full=" + std::to_string(full));
}

}  // namespace

// mem-tree: every child malloc()s and touches --mb in blocks of 16 MiB (its own memory).
void mem_tree(const Options& o) {
  const int mb = o.mb < 0 ? 256 : o.mb;
  children_holding(o, mb, [mb] {
    for (int got = 0; got < mb; got += 16) {
      void* block = std::malloc(kObject);
      if (block == nullptr) return false;
      touch(block, kObject);
    }
    return true;
  });
}

// shm-anon: every one of --procs children maps and touches a shared anonymous region of --mb.
// shm-one: the bot maps one shared anonymous region of --mb, and every child touches all of it
// (honest sharing: the memory exists once).
void shared_anonymous(const Options& o, bool one) {
  const int mb = o.mb < 0 ? 160 : o.mb;
  const std::size_t bytes = static_cast<std::size_t>(mb) << 20;
  void* common = nullptr;
  if (one) {
    common = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (common == MAP_FAILED) {
      report(o, "procs=0 mib_each=" + std::to_string(mb) + " errno=" + errno_name(errno));
      return;
    }
  }
  children_holding(o, mb, [&] {
    void* region = one ? common : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) return false;
    touch(region, bytes);
    return true;
  });
}

// memfd: memfd objects filled with write(), held open, never mapped.
void memfd(const Options& o) {
  objects(o, [](int i) {
    const int fd = ::memfd_create(("hostile-" + std::to_string(i)).c_str(), 0);
    return fd >= 0 && fill(fd, kObject);
  });
}

// memfd-map: memfd objects filled with write(), one page of each mapped, the descriptor closed:
// only the mapping of one page keeps each object.
void memfd_mapped(const Options& o) {
  objects(o, [](int i) {
    const int fd = ::memfd_create(("hostile-" + std::to_string(i)).c_str(), 0);
    if (fd < 0 || !fill(fd, kObject)) return false;
    void* page = ::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    return page != MAP_FAILED;
  });
}

// tmpfs-file: files in /dev/shm (POSIX shared memory's folder, a tmpfs), filled with write(),
// then closed: only their names keep them.
void tmpfs_files(const Options& o) {
  objects(o, [&](int i) {
    const std::string path = "/dev/shm/hostile-mem-" + std::to_string(::getpid()) + "-" + std::to_string(i);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    const bool ok = fill(fd, kObject);
    ::close(fd);
    return ok;
  });
}

// sysv: SysV shared memory segments, each attached, touched and detached: only the segment
// (IPC_PRIVATE, never removed) keeps its memory.
void sysv(const Options& o) {
  objects(o, [](int) {
    const int id = ::shmget(IPC_PRIVATE, kObject, IPC_CREAT | 0600);
    if (id < 0) return false;
    void* at = ::shmat(id, nullptr, 0);
    if (at == reinterpret_cast<void*>(-1)) return false;
    touch(at, kObject);
    return ::shmdt(at) == 0;
  });
}

}  // namespace hostile
