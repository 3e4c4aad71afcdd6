#include "referee/bots/root_fs.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif

namespace arena::bots {

namespace fs = std::filesystem;

namespace {

// Shown read-only at the same path: what programs need to run (no /home, /root, /opt, /srv,
// /var, /tmp, /run: those hold other people's files, other bots among them).
constexpr const char* kSystem[] = {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
constexpr const char* kDevices[] = {"null", "zero", "full", "random", "urandom"};
constexpr const char* kScratch = "/.arena/scratch";
constexpr const char* kEmpty = "/.arena/empty";
constexpr const char* kProgramStaging = "/.arena/program";
constexpr const char* kProgramEmpty = "/.arena/program-empty";

bool is_under(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (f->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

// `path` without "." and ".." parts and without a trailing separator ("/opt/engines/" names the
// folder /opt/engines).
fs::path clean(const fs::path& path) {
  fs::path p = path.lexically_normal();
  if (p.filename().empty() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

// The file `path` names, whichever way it is spelled (links resolved): what makes two paths one
// file.
fs::path identity(const fs::path& path) {
  std::error_code ec;
  const fs::path c = fs::weakly_canonical(path, ec);
  return ec ? clean(path) : clean(c);
}

bool is_system(const fs::path& path) {
  for (const char* s : kSystem) {
    if (is_under(path, s)) return true;
  }
  return false;
}

// Where an interpreter found in PATH is installed: the folder above its bin/ (pyenv's shims/),
// so that its libraries come along; else its own folder.
fs::path install_prefix(const fs::path& exe) {
  const fs::path dir = exe.parent_path();
  const std::string name = dir.filename().string();
  if ((name == "bin" || name == "sbin" || name == "shims") && dir.parent_path() != dir.parent_path().root_path())
    return dir.parent_path();
  return dir;
}

// The mount flags the kernel locks on a bind mount made in a user namespace: a read-only
// remount must repeat them.
unsigned long locked_flags(const fs::path& source) {
  struct statvfs st {};
  if (::statvfs(source.c_str(), &st) != 0) return 0;
  unsigned long flags = 0;
  if (st.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (st.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (st.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (st.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (st.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (st.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  if ((flags & (MS_NOATIME | MS_RELATIME)) == 0) flags |= MS_STRICTATIME;
  return flags;
}

// A bot's own files, by identity: never masked from it.
struct Own {
  std::set<fs::path> files;    // its executable, its program, the files and folders it names
  std::set<fs::path> folders;  // the folders it names: everything inside is its own too

  void add(const fs::path& path) {
    const fs::path id = identity(path);
    files.insert(id);
    std::error_code ec;
    if (fs::is_directory(id, ec)) folders.insert(id);
  }
  // `id` is an own file or lies inside an own folder.
  bool covers(const fs::path& id) const {
    if (files.count(id) != 0) return true;
    return std::any_of(folders.begin(), folders.end(), [&](const fs::path& f) { return is_under(id, f); });
  }
  // The folder `id` holds an own file (strictly inside).
  bool inside(const fs::path& id) const {
    return std::any_of(files.begin(), files.end(), [&](const fs::path& f) { return f != id && is_under(f, id); });
  }
};

class Planner {
 public:
  explicit Planner(const std::string& mount_point) { plan_.fs.mount_point = mount_point; }

  std::string at(const std::string& inside) const { return plan_.fs.mount_point + inside; }

  void step(FsStep s) { plan_.fs.steps.push_back(std::move(s)); }

  // Creates `inside` and its parents in the new root (once each).
  void folder(const fs::path& inside, unsigned mode = 0) {
    fs::path so_far = "/";
    for (const auto& part : inside.relative_path()) {
      so_far /= part;
      if (!made_.insert(so_far.string()).second) continue;
      FsStep s;
      s.kind = FsStep::Kind::dir;
      s.target = at(so_far.string());
      if (so_far == inside) s.mode = mode;
      step(std::move(s));
    }
  }

  void file(const fs::path& inside) {
    folder(inside.parent_path());
    if (!made_.insert(inside.string()).second) return;
    step({FsStep::Kind::file, at(inside.string()), ""});
  }

  // Shows the host folder `host` at `inside`, read-only, through an overlay (FsStep::Kind::overlay):
  // no host path of it in the bot's mountinfo.
  void overlay(const fs::path& host, const fs::path& inside) {
    folder(inside);
    folder(kProgramStaging);
    folder(kProgramEmpty, 0555);
    FsStep s;
    s.kind = FsStep::Kind::overlay;
    s.target = at(inside.string());
    s.source = host.string();
    s.staging = at(kProgramStaging);
    s.options = fmt::format("lowerdir=.{}:.{}", kProgramStaging, kProgramEmpty);
    s.keep_flags = locked_flags(host);
    s.tree_fd =
        static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, host.c_str(), OPEN_TREE_CLONE | AT_RECURSIVE | O_CLOEXEC));
    step(std::move(s));
    binds_.push_back({host.lexically_normal(), inside});
    plan_.shown.push_back(fmt::format("{} -> {}", host.string(), inside.string()));
  }

  // Shows the host's `host` at `inside` (read-only unless said otherwise).
  void bind(const fs::path& host, const fs::path& inside, bool read_only = true) {
    std::error_code ec;
    if (fs::is_directory(host, ec)) {
      folder(inside);
    } else {
      file(inside);
    }
    FsStep s;
    s.kind = FsStep::Kind::bind;
    s.target = at(inside.string());
    s.source = host.string();
    s.read_only = read_only;
    if (read_only) s.keep_flags = locked_flags(host);
    // As root a detached clone of the tree: attached in the namespace, it needs no path the
    // bot's uid can walk. Elsewhere (no privilege for a clone) the init binds the path itself.
    s.tree_fd =
        static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, host.c_str(), OPEN_TREE_CLONE | AT_RECURSIVE | O_CLOEXEC));
    step(std::move(s));
    binds_.push_back({clean(host), inside});
    plan_.shown.push_back(fmt::format("{} -> {}", host.string(), inside.string()));
  }

  // The path inside the new root at which the host's `host` shows, or empty.
  fs::path inside(const fs::path& host) const {
    const fs::path h = clean(host);
    fs::path best;
    std::size_t best_len = 0;
    for (const auto& [from, to] : binds_) {
      if (!is_under(h, from)) continue;
      const std::size_t len = from.string().size();
      if (best.empty() || len > best_len) {
        best = to / h.lexically_relative(from);
        best_len = len;
      }
    }
    for (const char* s : kSystem) {
      if (best.empty() && is_under(h, s) && system_.count(s) != 0) best = h;
    }
    return best.lexically_normal();
  }

  // The bound host folder that shows `host`, for the access checks.
  std::pair<fs::path, fs::path> bound_root(const fs::path& host) const {
    const fs::path h = clean(host);
    std::pair<fs::path, fs::path> best;
    for (const auto& [from, to] : binds_) {
      if (is_under(h, from) && from.string().size() >= best.first.string().size()) best = {from, to};
    }
    return best;
  }

  Status system() {
    for (const char* name : kSystem) {
      std::error_code ec;
      const auto st = fs::symlink_status(name, ec);
      if (ec) continue;
      if (fs::is_symlink(st)) {
        step({FsStep::Kind::symlink, at(name), fs::read_symlink(name, ec).string()});
        made_.insert(name);
        system_.insert(name);  // a link into /usr, which shows
      } else if (fs::is_directory(st)) {
        bind(name, name);
        system_.insert(name);
      }
    }
    return {};
  }

  void devices() {
    folder("/dev");
    for (const char* d : kDevices) {
      const std::string dev = fmt::format("/dev/{}", d);
      file(dev);
      FsStep s;
      s.kind = FsStep::Kind::bind;
      s.target = at(dev);
      s.source = dev;  // a device node: bound by path, no clone needed
      // Read-only mount, writable device: writes still reach the device, but its times and
      // attributes, shared with every other process, cannot be changed (utimensat, a channel).
      s.read_only = true;
      s.keep_flags = locked_flags(dev);
      step(std::move(s));
    }
    const std::pair<const char*, const char*> links[] = {{"/dev/fd", "/proc/self/fd"},
                                                         {"/dev/stdin", "/proc/self/fd/0"},
                                                         {"/dev/stdout", "/proc/self/fd/1"},
                                                         {"/dev/stderr", "/proc/self/fd/2"}};
    for (const auto& [link, text] : links) step({FsStep::Kind::symlink, at(link), text});
    folder("/proc");
    step({FsStep::Kind::proc, at("/proc"), ""});
  }

  void scratch(std::uint64_t mb) {
    folder(kScratch);
    FsStep t;
    t.kind = FsStep::Kind::tmpfs;
    t.target = at(kScratch);
    t.source = fmt::format("size={}m,nr_inodes=65536,mode=0755", mb);
    step(std::move(t));
    plan_.fs.scratch = kScratch;
    // Made by the init, which runs as the bot's uid: the home is the bot's own.
    const std::tuple<const char*, const char*, unsigned> places[] = {
        {"tmp", "/tmp", 01777}, {"var-tmp", "/var/tmp", 01777}, {"shm", "/dev/shm", 01777}, {"home", kBotHome, 0700}};
    for (const auto& [name, where, mode] : places) {
      FsStep d;
      d.kind = FsStep::Kind::dir;
      d.target = at(fmt::format("{}/{}", kScratch, name));
      d.mode = mode;
      step(std::move(d));
      folder(where);
      FsStep b;
      b.kind = FsStep::Kind::bind;
      b.target = at(where);
      b.source = at(fmt::format("{}/{}", kScratch, name));
      step(std::move(b));
    }
    plan_.fs.cwd = kBotHome;
  }

  // Hides `host` (a file of another bot, an output of the referee) wherever it would show, unless
  // it is one of the bot's `own` files (identities): those it names, and everything inside a
  // folder it names. A hidden folder that holds own files is hidden but for them.
  Status mask(const fs::path& host, const Own& own) {
    std::error_code ec;
    const fs::path h = identity(host);
    if (!fs::exists(h, ec) || own.covers(h)) return {};
    std::vector<std::pair<fs::path, fs::path>> showing;  // bound folders that show it: host (identity) -> inside
    for (const auto& [from, to] : binds_) {
      const fs::path root = identity(from);
      if (root == h) {
        return fail(
            fmt::format("{} would show the referee's or another bot's files ({}); give each bot a folder of its own, "
                        "apart from the referee's output folder",
                        from.string(), host.string()));
      }
      if (is_under(h, root) && fs::is_directory(root, ec)) showing.emplace_back(root, to);
    }
    if (showing.empty()) return {};
    if (own.inside(h)) {
      for (const auto& entry : fs::directory_iterator(h, ec)) {
        if (auto st = mask(entry.path(), own); !st) return st;
      }
      return {};
    }
    for (const auto& [root, to] : showing) {
      // A file whose folder is strictly inside the bound one hides with its folder (its modules,
      // its data), unless that folder holds this bot's own files.
      fs::path target = h;
      if (!fs::is_directory(h, ec) && h.parent_path() != root && !own.inside(h.parent_path()) &&
          !own.covers(h.parent_path()))
        target = h.parent_path();
      FsStep s;
      s.kind = FsStep::Kind::bind;
      s.target = at((to / target.lexically_relative(root)).lexically_normal().string());
      s.source = fs::is_directory(target, ec) ? at(kEmpty) : "/dev/null";
      s.read_only = fs::is_directory(target, ec);
      s.keep_flags = MS_NOSUID | MS_NODEV;
      masks_.push_back(std::move(s));
    }
    return {};
  }

  void finish_masks() {
    if (masks_.empty()) return;
    folder(kEmpty, 0555);
    for (FsStep& s : masks_) step(std::move(s));
    masks_.clear();
  }

  RootFsPlan& plan() { return plan_; }

 private:
  RootFsPlan plan_;
  std::set<std::string> made_;
  std::set<std::string> system_;
  std::vector<std::pair<fs::path, fs::path>> binds_;  // host -> inside
  std::vector<FsStep> masks_;
};

}  // namespace

Result<RootFsPlan> plan_root_fs(const BotCommand& command, const std::vector<fs::path>& hidden,
                                const std::vector<fs::path>& outputs, std::uint64_t scratch_mb,
                                const std::string& mount_point, const fs::path& workspace, const fs::path& storage) {
  Planner p(mount_point);
  FsStep root;
  root.kind = FsStep::Kind::tmpfs;
  root.target = mount_point;
  root.source = "size=4m,nr_inodes=16384,mode=0755";
  p.step(std::move(root));
  if (auto st = p.system(); !st) return fail(st.error());
  if (!workspace.empty()) p.bind(workspace, kBotFolder, false);
  if (!storage.empty()) p.bind(storage, kStorageFolder, false);

  std::error_code ec;
  const fs::path exe = fs::path(command.exe).lexically_normal();
  // The bot's program: the executable the user named, or the first file given to an interpreter.
  fs::path program;
  if (!command.exe_from_path && !is_system(exe)) {
    program = exe;
  } else {
    for (const std::string& a : command.args) {
      if (!a.empty() && a[0] == '/' && fs::is_regular_file(a, ec) && !is_system(a)) {
        program = fs::path(a).lexically_normal();
        break;
      }
    }
  }
  std::vector<fs::path> reach = {exe};  // host files the bot's uid must be able to read
  Own own;
  own.add(exe);
  if (!program.empty() && p.inside(program).empty()) {
    reach.push_back(program);
    own.add(program);
    const fs::path folder = program.parent_path();
    if (folder == folder.root_path()) {
      p.bind(program, fs::path(kBotFolder) / program.filename());
    } else {
      p.overlay(folder, kBotFolder);
    }
  }
  // An interpreter outside the system folders comes with its installation, where it is.
  for (const fs::path& e : {exe, fs::weakly_canonical(exe, ec)}) {
    if (e.empty() || !p.inside(e).empty()) continue;
    const fs::path prefix = install_prefix(e);
    if (prefix == prefix.root_path()) {
      p.bind(e, e);
    } else {
      p.bind(prefix, prefix);
    }
  }
  RootFsPlan& plan = p.plan();
  plan.command.exe = p.inside(exe).string();
  plan.command.exe_from_path = command.exe_from_path;
  int extra = 0;
  for (const std::string& a : command.args) {
    if (a.empty() || a[0] != '/' || !fs::exists(a, ec)) {
      plan.command.args.push_back(a);
      continue;
    }
    // A file or folder the bot is given is its own wherever it shows (another seat may name it
    // too), given twice it shows once.
    own.add(a);
    reach.push_back(clean(a));
    fs::path shown = p.inside(a);
    if (shown.empty()) {
      shown = fs::path("/arena/args") / fmt::format("{}-{}", ++extra, clean(a).filename().string());
      p.bind(a, shown);
    }
    plan.command.args.push_back(shown.string());
  }
  // What the bot's uid must be able to reach inside: its executable, its program, its files.
  auto check = [&](const fs::path& host, int mode) {
    const auto [from, to] = p.bound_root(host);
    if (from.empty() || is_system(from)) return;
    plan.checks.push_back(
        {from.string(), clean(host).lexically_relative(from).string(), mode, p.inside(host).string()});
  };
  check(exe, X_OK);
  for (std::size_t i = 1; i < reach.size(); ++i) check(reach[i], R_OK);
  for (const fs::path& h : hidden) {
    if (auto st = p.mask(h, own); !st) return fail(st.error());
  }
  // The referee's outputs are nobody's own, even inside a folder the bot names; in an output
  // folder only the files the bot names itself stay (a bot kept in a league's folder).
  Own named;
  named.files = own.files;
  for (const fs::path& h : outputs) {
    if (own.files.count(identity(h)) != 0)
      return fail(
          fmt::format("the bot is given the referee's output folder {}; give it a folder of its own", h.string()));
    if (auto st = p.mask(h, named); !st) return fail(st.error());
  }
  p.devices();
  p.scratch(scratch_mb);
  if (!workspace.empty()) plan.fs.cwd = kBotFolder;
  p.finish_masks();
  return std::move(plan);
}

void close_trees(RootFs& root) {
  for (FsStep& s : root.steps) {
    if (s.tree_fd >= 0) ::close(s.tree_fd);
    s.tree_fd = -1;
  }
}

}  // namespace arena::bots
