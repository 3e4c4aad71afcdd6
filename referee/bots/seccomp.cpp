// The seccomp programs of tiers basic and strict (sandbox_detail.hpp, seccomp_program): what a
// bot may not call, and the kernel state of shared files it may not use to signal another bot.
// Built once per referee with libseccomp, installed by child.cpp with no_new_privs.

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/filter.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>

#include "referee/bots/sandbox_detail.hpp"

namespace arena::bots {

using namespace detail;

namespace {

// System calls a bot never needs and a hostile one would use: debugging or reading other
// processes, kernel objects shared across the machine, mounts, modules, io_uring (which can open
// sockets behind seccomp's back), clock and machine control. They fail with EPERM rather than
// killing the bot: language runtimes probe some of them (perf_event_open, io_uring) and must be
// able to carry on without them.
constexpr std::array kDenied = {
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "perf_event_open",
    "bpf",
    "keyctl",
    "add_key",
    "request_key",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fspick",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "userfaultfd",
    "open_by_handle_at",
    "name_to_handle_at",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "fanotify_init",
    "lookup_dcookie",
    "syslog",
    "settimeofday",
    "clock_settime",
    "quotactl",
};

// Kernel state attached to a file is shared by every process that sees the file (the system
// folders, /bot when two seats run one program, /dev/null): a lock one bot takes is seen by
// another, a watch reports another bot's open or read. So in tiers basic and strict:
//   - lock requests succeed and do nothing (flock; fcntl's F_SETLK, F_SETLKW and their OFD
//     forms): a bot holds no lock any other process can see, while a program that locks its own
//     files (SQLite on its scratch space, a JVM's jar cache) runs as before; the lock queries
//     (F_GETLK, F_OFD_GETLK) stay real, and with no bot able to take a lock they only ever show
//     locks of the machine's own processes;
//   - leases and directory notification (F_SETLEASE, F_GETLEASE, F_NOTIFY) and inotify fail with
//     EPERM (fanotify is in kDenied): a runtime asks for them only when a program watches files.
// The fcntl command is compared on its low 32 bits, as the kernel reads it.
constexpr std::array<unsigned, 6> kLockCommands = {6 /* F_SETLK */,       7 /* F_SETLKW */,   37 /* F_OFD_SETLK */,
                                                   38 /* F_OFD_SETLKW */, 13 /* F_SETLK64 */, 14 /* F_SETLKW64 */};
constexpr std::array<unsigned, 3> kNoticeCommands = {1024 /* F_SETLEASE */, 1025 /* F_GETLEASE */, 1026 /* F_NOTIFY */};
constexpr std::array kWatches = {"inotify_init", "inotify_init1", "inotify_add_watch"};

int add_file_state_rules(scmp_filter_ctx ctx) {
  int rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(0), SCMP_SYS(flock), 0);
  for (const char* name : {"fcntl", "fcntl64"}) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;
    for (unsigned cmd : kLockCommands) {
      if (rc == 0)
        rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(0), nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, cmd));
    }
    for (unsigned cmd : kNoticeCommands) {
      if (rc == 0)
        rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, cmd));
    }
  }
  for (const char* name : kWatches) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (rc == 0 && nr != __NR_SCMP_ERROR) rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
  }
  return rc;
}

// Tier basic has no IPC or network namespace: SysV IPC, POSIX message queues and listening
// sockets (abstract unix sockets are machine-wide there) would let bots meet, so they are refused.
constexpr std::array kDeniedInBasic = {"shmget", "shmat", "semget", "msgget", "mq_open"};
constexpr std::array kDeniedInBasicOffline = {"bind", "listen"};

SeccompProgram build_seccomp(Tier tier, bool network) {
  SeccompProgram out;
  scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) {
    out.error = "seccomp_init failed";
    return out;
  }
  int rc = 0;
  for (const char* name : kDenied) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture
    rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    if (rc != 0) break;
  }
  std::vector<const char*> basic;
  if (tier == Tier::basic) {
    basic.assign(kDeniedInBasic.begin(), kDeniedInBasic.end());
    if (!network) basic.insert(basic.end(), kDeniedInBasicOffline.begin(), kDeniedInBasicOffline.end());
  }
  for (const char* name : basic) {
    if (rc != 0) break;
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR) rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
  }
  if (rc == 0) rc = add_file_state_rules(ctx);
  if (rc == 0 && !network) {
    // No socket(): a unix socket could connect to a host service or to a socket file in a
    // shown folder, or meet another bot at an abstract name (machine-wide in tier basic).
    // socketpair() stays: runtimes use it between their own threads and processes.
    rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 0);
  }
  if (rc == 0) {
    const int fd = ::memfd_create("arena-seccomp", MFD_CLOEXEC);
    if (fd < 0) {
      rc = -errno;
    } else {
      rc = ::seccomp_export_bpf(ctx, fd);
      const off_t size = ::lseek(fd, 0, SEEK_END);
      if (rc == 0 && size > 0 && size % static_cast<off_t>(sizeof(sock_filter)) == 0) {
        out.code.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
        if (::pread(fd, out.code.data(), static_cast<std::size_t>(size), 0) != size) rc = -EIO;
      } else if (rc == 0) {
        rc = -EIO;
      }
      ::close(fd);
    }
  }
  ::seccomp_release(ctx);
  if (rc != 0) {
    out.error = fmt::format("building the seccomp filter failed: {}", errno_text(-rc));
    out.code.clear();
    return out;
  }
  out.prog.len = static_cast<unsigned short>(out.code.size());
  out.prog.filter = out.code.data();
  return out;
}

}  // namespace

const SeccompProgram& detail::seccomp_program(Tier tier, bool network) {
  static const SeccompProgram programs[2][2] = {
      {build_seccomp(Tier::basic, false), build_seccomp(Tier::basic, true)},
      {build_seccomp(Tier::strict, false), build_seccomp(Tier::strict, true)}};
  return programs[tier == Tier::strict ? 1 : 0][network ? 1 : 0];
}

}  // namespace arena::bots
