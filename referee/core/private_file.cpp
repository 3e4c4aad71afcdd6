#include "referee/core/private_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace arena::files {

namespace fs = std::filesystem;

namespace {

std::string why(const char* what, const fs::path& path, int error) {
  return std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(error);
}

// Opens (creates) `path` with `flags` and mode `mode` exactly: the umask may only have removed
// bits, which fchmod puts back; an existing regular file gets the mode too.
Result<int> open_with_mode(const fs::path& path, int flags, ::mode_t mode) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  if (fd < 0) return fail(why("create", path, errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) != mode && ::fchmod(fd, mode) != 0) {
    const int error = errno;
    ::close(fd);
    return fail(why("set the mode of", path, error));
  }
  return fd;
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
    if (::chmod(p.c_str(), kPrivateDir) != 0) return fail(why("set the mode of", p, errno));
    created.push_back(p);
  }
  return created;
}

Result<std::ofstream> open_private(const fs::path& path, std::ios::openmode mode) {
  auto fd = open_with_mode(path, O_WRONLY | O_CREAT, kPrivateFile);
  if (!fd) return fail(fd.error());
  ::close(*fd);
  // The file exists with its final mode before the stream opens it by name.
  std::ofstream out(path, mode | std::ios::out);
  if (!out) return fail(why("write", path, errno));
  return out;
}

Status write_private(const fs::path& path, std::string_view text, bool share_now) {
  auto out = open_private(path);
  if (!out) return fail(out.error());
  out->write(text.data(), static_cast<std::streamsize>(text.size()));
  out->close();
  if (!*out) return fail(why("write", path, errno));
  return share_now ? share({path}) : Status{};
}

Result<bool> create_private(const fs::path& path) {
  auto fd = open_with_mode(path, O_WRONLY | O_CREAT | O_EXCL, kPrivateFile);
  if (!fd) {
    std::error_code ec;
    if (fs::exists(path, ec)) return false;
    return fail(fd.error());
  }
  ::close(*fd);
  return true;
}

Status share(const std::vector<fs::path>& paths) {
  for (const fs::path& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) continue;
      return fail(why("share", p, errno));
    }
    const ::mode_t mode = S_ISREG(st.st_mode) ? kSharedFile : S_ISDIR(st.st_mode) ? kSharedDir : 0;
    if (mode != 0 && (st.st_mode & 07777) != mode && ::chmod(p.c_str(), mode) != 0) return fail(why("share", p, errno));
  }
  return {};
}

}  // namespace arena::files
