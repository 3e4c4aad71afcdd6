#include "referee/core/private_file.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <optional>
#include <string>
#include <utility>

namespace arena::files {

namespace fs = std::filesystem;

namespace {

std::string why(const char* what, const fs::path& path, int error) {
  if (error == ELOOP)
    return std::string("cannot ") + what + " " + path.string() +
           ": it is (or passes through) a symbolic link, which a file from someone else may not be";
  if (error == EXDEV) return std::string("cannot ") + what + " " + path.string() + ": it leads outside its folder";
  return std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(error);
}

// A stream over a descriptor it owns (GCC's stdio_filebuf: seekable, closed with the stream).
template <typename Base>
class FdStream : public Base {
 public:
  FdStream(int fd, std::ios::openmode mode) : Base(nullptr), buf_(fd, mode) { this->rdbuf(&buf_); }

 private:
  __gnu_cxx::stdio_filebuf<char> buf_;
};

// A path the user names on purpose as a stream (/dev/null, /dev/stdout): opened as it is. Files
// under /dev/shm (a tmpfs for ordinary files, a usual place for a fast league) are files like any.
bool is_device_path(const fs::path& path) {
  const std::string text = path.lexically_normal().string();
  return text.rfind("/dev/", 0) == 0 && text.rfind("/dev/shm/", 0) != 0;
}

// `path` without trailing separators, so that O_NOFOLLOW applies to its last component.
fs::path without_trailing_slash(const fs::path& path) {
  std::string s = path.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

Status write_all(int fd, std::string_view text, const fs::path& path) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(why("write", path, errno));
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

// The content of an open descriptor that must be a regular file of at most `max_bytes`.
Result<std::string> read_regular(int fd, const fs::path& path, std::uint64_t max_bytes) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(why("read", path, errno));
  if (!S_ISREG(st.st_mode)) {
    return fail("cannot read " + path.string() + ": not a regular file (" +
                (S_ISFIFO(st.st_mode)                         ? "a FIFO"
                 : S_ISDIR(st.st_mode)                        ? "a folder"
                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                              : "a special file") +
                ")");
  }
  auto too_big = [&] {
    return fail("cannot read " + path.string() + ": it is larger than the " + std::to_string(max_bytes >> 20) +
                " MiB a reader takes");
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) return too_big();
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t have = 0;
  for (;;) {
    if (have == text.size()) {
      if (text.size() > max_bytes) return too_big();
      text.resize(std::min<std::uint64_t>(max_bytes + 1, text.size() + 65536));
    }
    const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(why("read", path, errno));
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (have > max_bytes) return too_big();
  text.resize(have);
  return text;
}

// A fresh name for a temporary file beside `name`.
std::string temporary_name(const std::string& name) {
  static std::atomic<unsigned> counter{0};
  return "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// `text` as the whole content of `name` in the folder `dir`: a temporary file created there
// exclusively, its mode set on the open file, then renamed over `name` (whatever `name` was: a
// link is replaced, not followed; a folder is an error).
Status replace_in(int dir, const std::string& name, std::string_view text, ::mode_t mode, const fs::path& shown) {
  for (int attempt = 0;; ++attempt) {
    const std::string temp = temporary_name(name);
    Fd fd(::openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kPrivateFile));
    if (fd.fd < 0) {
      if (errno == EEXIST && attempt < 100) continue;
      return fail(why("create a file beside", shown, errno));
    }
    Status st = ::fchmod(fd.fd, mode) == 0 ? write_all(fd.fd, text, shown) : fail(why("set the mode of", shown, errno));
    if (st && ::close(fd.release()) != 0) st = fail(why("write", shown, errno));
    if (st && ::renameat(dir, temp.c_str(), dir, name.c_str()) != 0) st = fail(why("replace", shown, errno));
    if (!st) ::unlinkat(dir, temp.c_str(), 0);
    return st;
  }
}

// openat2 beneath `dir`, no link anywhere; where the kernel lacks openat2, each component is
// opened with O_NOFOLLOW (the path has no "." or ".." components: check_inside).
int open_beneath_fd(int dir, const fs::path& relative, int flags) {
  static std::atomic<bool> no_openat2{false};
  if (!no_openat2.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<__u64>(static_cast<unsigned>(flags | O_CLOEXEC));
    how.mode = (flags & O_CREAT) != 0 ? kPrivateFile : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    const long fd = ::syscall(SYS_openat2, dir, relative.c_str(), &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS) return static_cast<int>(fd);
    no_openat2 = true;
  }
  std::vector<std::string> parts;
  for (const auto& part : relative) parts.push_back(part.string());
  Fd held(-1);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const int next =
        ::openat(held.fd >= 0 ? held.fd : dir, parts[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) return -1;
    if (held.fd >= 0) ::close(held.fd);
    held.fd = next;
  }
  return ::openat(held.fd >= 0 ? held.fd : dir, parts.empty() ? "." : parts.back().c_str(),
                  flags | O_NOFOLLOW | O_CLOEXEC, kPrivateFile);
}

constexpr int kReadFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY;

// A stream over `fd` (taken), which must be a regular file of at most kMaxReadBytes.
Result<std::unique_ptr<std::istream>> stream_of(int fd, const fs::path& path) {
  Fd held(fd);
  struct stat st {};
  if (::fstat(held.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return fail("cannot read " + path.string() + ": not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxReadBytes)
    return fail("cannot read " + path.string() + ": it is larger than the " + std::to_string(kMaxReadBytes >> 20) +
                " MiB a reader takes");
  ::fcntl(held.fd, F_SETFL, ::fcntl(held.fd, F_GETFL) & ~O_NONBLOCK);
  return std::unique_ptr<std::istream>(std::make_unique<FdStream<std::istream>>(held.release(), std::ios::in));
}

}  // namespace

Result<std::vector<fs::path>> make_private_dirs(const fs::path& dir) {
  fs::path target = dir;
  if (!target.has_filename() && target.has_parent_path()) target = target.parent_path();  // "logs/"
  std::vector<fs::path> missing;
  for (fs::path p = target; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (fs::exists(st)) {
      if (!fs::is_directory(st))
        return fail("cannot create the folder " + dir.string() + ": " + p.string() + " is not a folder");
      break;
    }
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  std::reverse(missing.begin(), missing.end());
  std::vector<fs::path> created;
  for (const fs::path& p : missing) {
    if (::mkdir(p.c_str(), kPrivateDir) != 0) {
      const int error = errno;
      std::error_code ec;
      if (error == EEXIST && fs::is_directory(p, ec)) continue;  // made by someone else meanwhile: not ours
      return fail(why("create the folder", p, error));
    }
    Fd made(::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (made.fd < 0 || ::fchmod(made.fd, kPrivateDir) != 0) return fail(why("set the mode of", p, errno));
    created.push_back(p);
  }
  return created;
}

Result<std::unique_ptr<std::ostream>> open_private(const fs::path& path, std::ios::openmode mode) {
  const bool append = (mode & std::ios::app) != 0;
  const int flags = O_WRONLY | O_CLOEXEC | (append ? O_APPEND : 0);
  if (is_device_path(path)) {
    const int fd = ::open(path.c_str(), flags);
    if (fd < 0) return fail(why("write", path, errno));
    return std::unique_ptr<std::ostream>(std::make_unique<FdStream<std::ostream>>(fd, std::ios::out));
  }
  Fd fd(::open(path.c_str(), flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, kPrivateFile));
  if (fd.fd < 0) return fail(why("create", path, errno));
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) return fail(why("create", path, errno));
  if (!S_ISREG(st.st_mode)) return fail("cannot write " + path.string() + ": not a regular file");
  if ((st.st_mode & 07777) != kPrivateFile && ::fchmod(fd.fd, kPrivateFile) != 0)
    return fail(why("set the mode of", path, errno));
  // Only a file with content is truncated: a truncation to zero makes ext4 flush the file's data
  // at close (its guard for files rewritten in place), a disk write per replay for nothing.
  if (!append && st.st_size > 0 && ::ftruncate(fd.fd, 0) != 0) return fail(why("write", path, errno));
  const int open_flags = ::fcntl(fd.fd, F_GETFL);
  ::fcntl(fd.fd, F_SETFL, open_flags & ~O_NONBLOCK);
  return std::unique_ptr<std::ostream>(std::make_unique<FdStream<std::ostream>>(fd.release(), std::ios::out));
}

Status write_private(const fs::path& path, std::string_view text, bool share_now) {
  if (is_device_path(path)) {
    Fd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd.fd < 0) return fail(why("write", path, errno));
    return write_all(fd.fd, text, path);
  }
  const fs::path target = without_trailing_slash(path);
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  Fd dir(::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.fd < 0) return fail(why("write", path, errno));
  return replace_in(dir.fd, target.filename().string(), text, share_now ? kSharedFile : kPrivateFile, path);
}

Result<bool> create_private(const fs::path& path) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kPrivateFile));
  if (fd.fd < 0) {
    if (errno == EEXIST) return false;
    return fail(why("create", path, errno));
  }
  if (::fchmod(fd.fd, kPrivateFile) != 0) return fail(why("set the mode of", path, errno));
  return true;
}

Status share(const std::vector<fs::path>& paths) {
  for (const fs::path& p : paths) {
    Fd at(::open(without_trailing_slash(p).c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (at.fd < 0) {
      if (errno == ENOENT) continue;
      return fail(why("share", p, errno));
    }
    struct stat st {};
    if (::fstat(at.fd, &st) != 0) return fail(why("share", p, errno));
    const ::mode_t mode = S_ISREG(st.st_mode) ? kSharedFile : S_ISDIR(st.st_mode) ? kSharedDir : 0;
    if (mode == 0 || (st.st_mode & 07777) == mode) continue;  // a link or a special file: left alone
    // The same inode (checked), opened for its mode: O_PATH descriptors take no fchmod.
    Fd fd(::open(without_trailing_slash(p).c_str(), kReadFlags | O_CLOEXEC | O_NOFOLLOW));
    struct stat again {};
    if (fd.fd < 0 || ::fstat(fd.fd, &again) != 0 || again.st_ino != st.st_ino || again.st_dev != st.st_dev ||
        ::fchmod(fd.fd, mode) != 0)
      return fail(why("share", p, errno));
  }
  return {};
}

Result<std::string> read_file(const fs::path& path, std::uint64_t max_bytes) {
  Fd fd(::open(without_trailing_slash(path).c_str(), kReadFlags | O_NOFOLLOW | O_CLOEXEC));
  if (fd.fd < 0) return fail(why("open", path, errno));
  return read_regular(fd.fd, path, max_bytes);
}

Result<std::unique_ptr<std::istream>> open_read(const fs::path& path) {
  const int fd = ::open(without_trailing_slash(path).c_str(), kReadFlags | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return fail(why("open", path, errno));
  return stream_of(fd, path);
}

Status check_inside(const fs::path& relative) {
  if (relative.empty()) return fail(std::string("an empty path"));
  if (relative.is_absolute())
    return fail("\"" + relative.string() + "\" is an absolute path; only paths inside the folder are read");
  for (const auto& part : relative) {
    if (part == ".." || part == ".")
      return fail("\"" + relative.string() + "\" has a \"" + part.string() +
                  "\" component; only paths inside the folder are read");
  }
  return {};
}

Result<Dir> Dir::open(const fs::path& dir) {
  const int fd = ::open(without_trailing_slash(dir).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOTDIR) {
      struct stat st {};
      if (::lstat(without_trailing_slash(dir).c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return fail(why("open the folder", dir, ELOOP));
      return fail("cannot open the folder " + dir.string() + ": not a folder");
    }
    return fail(why("open the folder", dir, errno));
  }
  return Dir(fd, dir);
}

Dir::Dir(Dir&& other) noexcept : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

Dir& Dir::operator=(Dir&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

Dir::~Dir() {
  if (fd_ >= 0) ::close(fd_);
}

Result<int> Dir::open_beneath(const fs::path& relative, int flags) const {
  if (auto st = check_inside(relative); !st) return fail((path_ / relative).string() + ": " + st.error());
  const int fd = open_beneath_fd(fd_, relative, flags);
  if (fd < 0) return fail(why(flags & O_DIRECTORY ? "open the folder" : "open", path_ / relative, errno));
  return fd;
}

Result<Dir> Dir::sub(const fs::path& relative) const {
  auto fd = open_beneath(relative, O_RDONLY | O_DIRECTORY);
  if (!fd) return fail(fd.error());
  return Dir(*fd, path_ / relative);
}

bool Dir::exists(const fs::path& relative) const {
  if (!check_inside(relative)) return false;
  struct stat st {};
  return ::fstatat(fd_, relative.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool Dir::is_file(const fs::path& relative) const {
  auto fd = open_beneath(relative, O_PATH);
  if (!fd) return false;
  struct stat st {};
  const bool regular = ::fstat(*fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(*fd);
  return regular;
}

Result<int> Dir::open_regular(const fs::path& relative) const {
  auto fd = open_beneath(relative, kReadFlags);
  if (!fd) return fail(fd.error());
  Fd held(*fd);
  struct stat st {};
  if (::fstat(held.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return fail("cannot read " + (path_ / relative).string() + ": not a regular file");
  ::fcntl(held.fd, F_SETFL, ::fcntl(held.fd, F_GETFL) & ~O_NONBLOCK);
  return held.release();
}

Result<std::string> Dir::read(const fs::path& relative, std::uint64_t max_bytes) const {
  auto fd = open_beneath(relative, kReadFlags);
  if (!fd) return fail(fd.error());
  Fd held(*fd);
  return read_regular(held.fd, path_ / relative, max_bytes);
}

Result<std::unique_ptr<std::istream>> Dir::open_read(const fs::path& relative) const {
  auto fd = open_beneath(relative, kReadFlags);
  if (!fd) return fail(fd.error());
  return stream_of(*fd, path_ / relative);
}

Status Dir::write(const fs::path& relative, std::string_view text, bool share_now) const {
  if (auto st = check_inside(relative); !st) return fail((path_ / relative).string() + ": " + st.error());
  const fs::path shown = path_ / relative;
  int at = fd_;
  std::optional<Fd> parent;
  if (relative.has_parent_path()) {
    auto fd = open_beneath(relative.parent_path(), O_RDONLY | O_DIRECTORY);
    if (!fd) return fail(fd.error());
    parent.emplace(*fd);
    at = *fd;
  }
  return replace_in(at, relative.filename().string(), text, share_now ? kSharedFile : kPrivateFile, shown);
}

}  // namespace arena::files
