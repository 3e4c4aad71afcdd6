#pragma once
// The one place the referee writes and reads its files (replays, journals, league files,
// standings, pages, logs), and where the rules for files from strangers live (docs/security.md,
// "Files from strangers").
//
// Writing: owner-only, 0600 files and 0700 folders, whatever the umask, so that a bot running as
// another uid cannot read a match while it is played. With --share-output the CLI makes them
// readable by others (0644 files, 0755 folders) once the bots of their match are gone
// (docs/cli.md). A whole file is written to a fresh temporary file beside the target (O_EXCL,
// its mode set on the open file) and renamed over the target, so a symbolic link, FIFO or device
// planted at the target is replaced, never written through; a file written line by line (a
// replay, a journal) is opened without following a link and must be a regular file. Modes are
// set on open files or through an O_PATH descriptor, never by a path that could be a link.
//
// Reading: a file is opened without following a link at its last component (O_NOFOLLOW), without
// blocking (a FIFO is refused, never waited on), must be a regular file and is read up to a bound.
// A folder from a stranger (a league's) is opened once as a `Dir`, and every file in it is
// opened beneath that descriptor with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
// RESOLVE_NO_MAGICLINKS): no link, no "..", nothing outside it.

#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::files {

// A descriptor closed at the end of its scope.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

inline constexpr ::mode_t kPrivateFile = 0600;
inline constexpr ::mode_t kPrivateDir = 0700;
inline constexpr ::mode_t kSharedFile = 0644;
inline constexpr ::mode_t kSharedDir = 0755;

// The most a reader takes in (a replay, a league file, a journal line by line): a file larger
// than this (a huge or sparse file) is refused before a byte is read.
inline constexpr std::uint64_t kMaxReadBytes = std::uint64_t{1} << 30;

// Creates `dir` and its missing parents, each with mode 0700. Returns the folders it created,
// outermost first (none when `dir` existed); folders that existed keep their mode.
Result<std::vector<std::filesystem::path>> make_private_dirs(const std::filesystem::path& dir);

// Opens `path` for writing line by line (`mode`: trunc or app), creating it with mode 0600; an
// existing file must be a regular file (not a link) and gets mode 0600. Paths under /dev/ (the
// user's /dev/null, /dev/stdout) are opened as they are and keep their mode.
Result<std::unique_ptr<std::ostream>> open_private(const std::filesystem::path& path,
                                                   std::ios::openmode mode = std::ios::out | std::ios::trunc);

// `text` as the whole content of `path`: a temporary file beside it, then renamed over it (a
// link at `path` is replaced). Mode 0600, or 0644 with `share_now` (a file no bot runs beside,
// e.g. the standings). Paths under /dev/ are written as they are. The error names the file.
Status write_private(const std::filesystem::path& path, std::string_view text, bool share_now = false);

// Creates `path` exclusively with mode 0600: true when created, false when it already existed.
Result<bool> create_private(const std::filesystem::path& path);

// --share-output: each regular file becomes 0644 and each folder 0755; a path that is missing
// (a log a bot that never started did not get), a link or of another kind is skipped.
Status share(const std::vector<std::filesystem::path>& paths);

// The whole of the regular file `path` (not a link, not a FIFO), at most `max_bytes`.
Result<std::string> read_file(const std::filesystem::path& path, std::uint64_t max_bytes = kMaxReadBytes);

// The regular file `path` (not a link, not a FIFO, at most kMaxReadBytes) as a stream: read line
// by line, seekable.
Result<std::unique_ptr<std::istream>> open_read(const std::filesystem::path& path);

// A relative path read from a file a stranger may have written (a replay's path in a journal):
// relative, not empty, without "." or ".." components; else an error naming it.
Status check_inside(const std::filesystem::path& relative);

// A folder from a stranger, opened once (the folder itself must not be a link). Every path given
// to its members is relative to it and checked with check_inside; files are opened beneath its
// descriptor, never through a link.
class Dir {
 public:
  static Result<Dir> open(const std::filesystem::path& dir);
  Dir(Dir&&) noexcept;
  Dir& operator=(Dir&&) noexcept;
  Dir(const Dir&) = delete;
  Dir& operator=(const Dir&) = delete;
  ~Dir();

  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_; }

  // A folder beneath this one.
  Result<Dir> sub(const std::filesystem::path& relative) const;
  // Whether `relative` names something (a link too, not followed).
  bool exists(const std::filesystem::path& relative) const;
  // Whether `relative` is a regular file beneath (not a link).
  bool is_file(const std::filesystem::path& relative) const;
  // A regular file beneath opened for reading (the caller closes the descriptor); an error for a
  // link, a FIFO, a folder or a device.
  Result<int> open_regular(const std::filesystem::path& relative) const;
  // The whole of a regular file beneath, at most `max_bytes`.
  Result<std::string> read(const std::filesystem::path& relative, std::uint64_t max_bytes = kMaxReadBytes) const;
  // A regular file beneath as a stream (read line by line, seekable).
  Result<std::unique_ptr<std::istream>> open_read(const std::filesystem::path& relative) const;
  // `text` as the whole content of a file beneath (temporary file, renamed over it), mode 0600,
  // or 0644 with `share_now`.
  Status write(const std::filesystem::path& relative, std::string_view text, bool share_now = false) const;

 private:
  Dir(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  Result<int> open_beneath(const std::filesystem::path& relative, int flags) const;
  int fd_ = -1;
  std::filesystem::path path_;
};

}  // namespace arena::files
