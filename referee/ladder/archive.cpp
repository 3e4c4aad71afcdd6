#include "referee/ladder/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "referee/core/private_file.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

namespace {

ArchiveError problem(ArchiveProblem p, std::string entry, std::string what) {
  std::string message = entry.empty() ? std::move(what) : fmt::format("entry \"{}\": {}", entry, what);
  return {p, std::move(entry), std::move(message)};
}

std::string errno_text(int e) {
  return std::strerror(e);
}

using files::Fd;

// Gathers checked entries, under the limits, then gives them sorted with every folder listed.
class Collector {
 public:
  explicit Collector(const ArchiveLimits& limits) : limits_(limits) {}

  // `raw` as the source spells it ("./a/b", "dir/"); null: no name at all.
  ArchiveResult<std::string> name(const char* raw) const {
    if (raw == nullptr) return fail(problem(ArchiveProblem::bad_name, "", "an entry without a readable name"));
    std::string_view s(raw);
    const std::string shown(s);
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f)
        return fail(problem(ArchiveProblem::bad_name, shown,
                            fmt::format("its name holds a control character (byte {:#04x})", c)));
    }
    if (s.size() > ArchiveLimits::kMaxPathBytes)
      return fail(problem(ArchiveProblem::bad_name, shown,
                          fmt::format("its name is longer than {} bytes", ArchiveLimits::kMaxPathBytes)));
    if (!s.empty() && s.front() == '/')
      return fail(problem(ArchiveProblem::absolute_path, shown, "an absolute path (it must be relative to the root)"));
    while (s.size() >= 2 && s.substr(0, 2) == "./") s.remove_prefix(2);
    while (!s.empty() && s.back() == '/') s.remove_suffix(1);
    if (s.empty() || s == ".") return std::string();  // the root itself
    std::size_t start = 0;
    while (start <= s.size()) {
      const std::size_t end = std::min(s.find('/', start), s.size());
      const std::string_view part = s.substr(start, end - start);
      if (part == "..")
        return fail(problem(ArchiveProblem::parent_path, shown, "a \"..\" part would lead out of the folder"));
      if (part.empty() || part == ".")
        return fail(problem(ArchiveProblem::bad_name, shown, "its name has an empty or \".\" part"));
      start = end + 1;
    }
    return std::string(s);
  }

  ArchiveResult<void> add(FileEntry e, const std::string& shown) {
    if (e.path.empty()) return {};
    if (!paths_.insert(e.path).second) return fail(problem(ArchiveProblem::duplicate, shown, "given more than once"));
    if (paths_.size() > limits_.max_files)
      return fail(problem(ArchiveProblem::too_many_files, shown,
                          fmt::format("more than {} files and folders", limits_.max_files)));
    total_ += e.data.size();
    if (auto st = check_size(e.data.size(), shown); !st) return st;
    e.mode &= 0777;  // set-user-ID, set-group-ID and sticky bits stripped
    entries_.push_back(std::move(e));
    return {};
  }

  // The size a file says it has, checked before its content is read.
  ArchiveResult<void> check_size(std::uint64_t file_bytes, const std::string& shown) const {
    if (file_bytes > limits_.max_file_bytes)
      return fail(problem(ArchiveProblem::file_too_large, shown,
                          fmt::format("larger than {} bytes (one file's limit)", limits_.max_file_bytes)));
    if (total_ > limits_.max_total_bytes)
      return fail(problem(ArchiveProblem::too_large, shown,
                          fmt::format("the files hold more than {} bytes in all", limits_.max_total_bytes)));
    return {};
  }
  std::uint64_t total() const { return total_; }
  std::size_t max_files() const { return limits_.max_files; }

  // Sorted; the folders above each entry added (0755) where the source did not list them; a
  // file that is also used as a folder is refused.
  ArchiveResult<FileSet> finish() {
    std::map<std::string, FileEntry> all;
    for (FileEntry& e : entries_) all.emplace(e.path, std::move(e));
    std::vector<FileEntry> implied;
    for (const auto& [path, e] : all) {
      for (std::size_t cut = path.find('/'); cut != std::string::npos; cut = path.find('/', cut + 1)) {
        const std::string up = path.substr(0, cut);
        const auto it = all.find(up);
        if (it != all.end() && !it->second.folder)
          return fail(problem(ArchiveProblem::duplicate, path, fmt::format("\"{}\" is a file and a folder", up)));
        if (it == all.end() && paths_.insert(up).second) implied.push_back({up, true, 0755, {}});
      }
    }
    if (paths_.size() > limits_.max_files)
      return fail(problem(ArchiveProblem::too_many_files, "",
                          fmt::format("more than {} files and folders", limits_.max_files)));
    for (FileEntry& e : implied) all.emplace(e.path, std::move(e));
    FileSet out;
    for (auto& [path, e] : all) out.entries.push_back(std::move(e));
    return out;
  }

 private:
  const ArchiveLimits& limits_;
  std::set<std::string> paths_;
  std::vector<FileEntry> entries_;
  std::uint64_t total_ = 0;
};

// What kind of file a mode is, when it is neither a regular file nor a folder.
std::optional<ArchiveError> refuse_kind(mode_t mode, const std::string& shown) {
  if (S_ISLNK(mode)) return problem(ArchiveProblem::symlink, shown, "a symbolic link");
  if (S_ISCHR(mode) || S_ISBLK(mode)) return problem(ArchiveProblem::device, shown, "a device");
  if (S_ISFIFO(mode)) return problem(ArchiveProblem::fifo, shown, "a FIFO");
  if (S_ISSOCK(mode)) return problem(ArchiveProblem::socket, shown, "a socket");
  if (!S_ISREG(mode) && !S_ISDIR(mode)) return problem(ArchiveProblem::unreadable, shown, "a file of unknown type");
  return std::nullopt;
}

// Reads the open regular file `fd` of `size` bytes, no more.
ArchiveResult<std::string> read_whole(int fd, std::uint64_t size, const std::string& shown) {
  std::string data(size, '\0');
  std::size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(problem(ArchiveProblem::unreadable, shown, "cannot be read: " + errno_text(errno)));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  data.resize(got);  // a file that shrank meanwhile
  return data;
}

ArchiveResult<void> walk(int dir, const std::string& prefix, Collector& c) {
  const int listing = ::dup(dir);
  DIR* d = listing < 0 ? nullptr : ::fdopendir(listing);
  if (d == nullptr) {
    if (listing >= 0) ::close(listing);
    return fail(problem(ArchiveProblem::unreadable, prefix, "cannot list the folder: " + errno_text(errno)));
  }
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view n(e->d_name);
    if (n != "." && n != "..") names.emplace_back(n);
    if (names.size() > c.max_files()) break;  // too many whatever they are: no need to list them all
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    const std::string path = prefix.empty() ? n : prefix + "/" + n;
    auto checked = c.name(path.c_str());
    if (!checked) return fail(checked.error());
    struct stat st {};
    if (::fstatat(dir, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
      return fail(problem(ArchiveProblem::unreadable, path, "cannot be read: " + errno_text(errno)));
    if (auto refused = refuse_kind(st.st_mode, path)) return fail(*refused);
    if (S_ISDIR(st.st_mode)) {
      if (auto st2 = c.add({path, true, static_cast<std::uint32_t>(st.st_mode), {}}, path); !st2) return st2;
      Fd sub(::openat(dir, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.fd < 0)
        return fail(problem(ArchiveProblem::unreadable, path, "cannot open the folder: " + errno_text(errno)));
      if (auto st2 = walk(sub.fd, path, c); !st2) return st2;
      continue;
    }
    // A second name of a file elsewhere (/etc/shadow linked into the folder) is not the
    // submitter's to give.
    if (st.st_nlink > 1) return fail(problem(ArchiveProblem::hard_link, path, "a hard link (a file with other names)"));
    if (auto st2 = c.check_size(static_cast<std::uint64_t>(st.st_size), path); !st2) return fail(st2.error());
    Fd f(::openat(dir, n.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat again {};
    if (f.fd < 0 || ::fstat(f.fd, &again) != 0 || again.st_ino != st.st_ino || again.st_dev != st.st_dev ||
        !S_ISREG(again.st_mode))
      return fail(problem(ArchiveProblem::unreadable, path, "changed or cannot be opened while it was read"));
    auto data = read_whole(f.fd, static_cast<std::uint64_t>(st.st_size), path);
    if (!data) return fail(data.error());
    if (auto st2 = c.add({path, false, static_cast<std::uint32_t>(st.st_mode), std::move(*data)}, path); !st2)
      return st2;
  }
  return {};
}

struct ReadArchive {
  archive* a = archive_read_new();
  ~ReadArchive() { archive_read_free(a); }
};

std::string archive_text(archive* a) {
  const char* s = archive_error_string(a);
  return s != nullptr ? s : "unknown error";
}

}  // namespace

std::uint64_t FileSet::bytes() const {
  std::uint64_t n = 0;
  for (const FileEntry& e : entries) n += e.data.size();
  return n;
}

const FileEntry* FileSet::find(std::string_view path) const {
  for (const FileEntry& e : entries) {
    if (e.path == path) return &e;
  }
  return nullptr;
}

ArchiveResult<FileSet> read_folder(const fs::path& folder, const ArchiveLimits& limits) {
  Fd root(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (root.fd < 0) {
    return fail(problem(ArchiveProblem::unreadable, "",
                        fmt::format("{} is not a folder that can be read (a link is not followed): {}", folder.string(),
                                    errno_text(errno))));
  }
  Collector c(limits);
  if (auto st = walk(root.fd, "", c); !st) return fail(st.error());
  return c.finish();
}

ArchiveResult<FileSet> read_archive(const Bytes& bytes, const ArchiveLimits& limits) {
  ReadArchive r;
  archive_read_support_filter_gzip(r.a);
  archive_read_support_filter_zstd(r.a);
  archive_read_support_format_tar(r.a);
  if (archive_read_open_memory(r.a, bytes.data(), bytes.size()) != ARCHIVE_OK)
    return fail(problem(ArchiveProblem::unreadable, "", "not a tar archive: " + archive_text(r.a)));
  Collector c(limits);
  std::size_t seen = 0;
  for (;;) {
    archive_entry* e = nullptr;
    const int rc = archive_read_next_header(r.a, &e);
    if (rc == ARCHIVE_EOF) break;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
      return fail(problem(ArchiveProblem::unreadable, "",
                          fmt::format("not a readable tar archive (after {} entries): {}", seen, archive_text(r.a))));
    if (++seen > limits.max_files + 1)
      return fail(
          problem(ArchiveProblem::too_many_files, "", fmt::format("more than {} files and folders", limits.max_files)));
    const char* raw = archive_entry_pathname_utf8(e);
    if (raw == nullptr) raw = archive_entry_pathname(e);
    const std::string shown = raw == nullptr ? std::string() : raw;
    auto path = c.name(raw);
    if (!path) return fail(path.error());
    if (archive_entry_hardlink(e) != nullptr)
      return fail(
          problem(ArchiveProblem::hard_link, shown, fmt::format("a hard link (to \"{}\")", archive_entry_hardlink(e))));
    const mode_t type = archive_entry_filetype(e);
    if (auto refused = refuse_kind(type, shown)) return fail(*refused);
    const auto mode = static_cast<std::uint32_t>(archive_entry_perm(e));
    if (type == AE_IFDIR) {
      if (auto st = c.add({*path, true, mode, {}}, shown); !st) return fail(st.error());
      continue;
    }
    const auto declared = archive_entry_size_is_set(e) ? static_cast<std::uint64_t>(archive_entry_size(e)) : 0;
    if (auto st = c.check_size(declared, shown); !st) return fail(st.error());
    std::string data;
    char buf[65536];
    for (;;) {
      const la_ssize_t n = archive_read_data(r.a, buf, sizeof buf);
      if (n < 0) return fail(problem(ArchiveProblem::unreadable, shown, "cannot be read: " + archive_text(r.a)));
      if (n == 0) break;
      data.append(buf, static_cast<std::size_t>(n));
      if (auto st = c.check_size(data.size(), shown); !st) return fail(st.error());
      if (c.total() + data.size() > limits.max_total_bytes)
        return fail(problem(ArchiveProblem::too_large, shown,
                            fmt::format("the files hold more than {} bytes in all", limits.max_total_bytes)));
    }
    if (auto st = c.add({*path, false, mode, std::move(data)}, shown); !st) return fail(st.error());
  }
  return c.finish();
}

ArchiveResult<FileSet> read_archive(const fs::path& file, const ArchiveLimits& limits) {
  Fd f(::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0)
    return fail(problem(ArchiveProblem::unreadable, "",
                        fmt::format("cannot open {} (a link is not followed): {}", file.string(), errno_text(errno))));
  if (!S_ISREG(st.st_mode))
    return fail(problem(ArchiveProblem::unreadable, "", fmt::format("{} is not a regular file", file.string())));
  // Compressed or not, an archive within the limits is not much larger than its content: 1 KiB
  // of headers a file at most, beside the content.
  const std::uint64_t bound = limits.max_total_bytes + 1024 * (limits.max_files + 2) + (1 << 20);
  if (static_cast<std::uint64_t>(st.st_size) > bound)
    return fail(
        problem(ArchiveProblem::too_large, "", fmt::format("{} is larger than {} bytes", file.string(), bound)));
  auto data = read_whole(f.fd, static_cast<std::uint64_t>(st.st_size), "");
  if (!data) return fail(data.error());
  return read_archive(Bytes(data->begin(), data->end()), limits);
}

Bytes pack(const FileSet& files) {
  Bytes out;
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_add_filter_zstd(a);
  archive_write_set_bytes_in_last_block(a, 1);
  auto write = [](archive*, void* client, const void* buf, size_t n) -> la_ssize_t {
    auto* o = static_cast<Bytes*>(client);
    const auto* b = static_cast<const std::uint8_t*>(buf);
    o->insert(o->end(), b, b + n);
    return static_cast<la_ssize_t>(n);
  };
  archive_write_open(a, &out, nullptr, write, nullptr);
  for (const FileEntry& f : files.entries) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname_utf8(e, f.path.c_str());
    archive_entry_set_filetype(e, f.folder ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(e, static_cast<mode_t>(f.mode & 0777));
    archive_entry_set_size(e, static_cast<la_int64_t>(f.data.size()));
    archive_entry_set_mtime(e, 0, 0);
    archive_write_header(a, e);
    if (!f.folder && !f.data.empty()) archive_write_data(a, f.data.data(), f.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

ArchiveResult<void> write_files(const FileSet& files, const fs::path& folder) {
  Fd root(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (root.fd < 0)
    return fail(
        problem(ArchiveProblem::unwritable, "",
                fmt::format("{} is not a folder (a link is not followed): {}", folder.string(), errno_text(errno))));
  {
    const int listing = ::dup(root.fd);
    DIR* d = listing < 0 ? nullptr : ::fdopendir(listing);
    if (d == nullptr) {
      if (listing >= 0) ::close(listing);
      return fail(problem(ArchiveProblem::unwritable, "", fmt::format("cannot list {}", folder.string())));
    }
    bool empty = true;
    while (const dirent* e = ::readdir(d)) {
      const std::string_view n(e->d_name);
      if (n != "." && n != "..") empty = false;
    }
    ::closedir(d);
    if (!empty) return fail(problem(ArchiveProblem::not_empty, "", fmt::format("{} is not empty", folder.string())));
  }
  // The folder holding `path`, opened part by part without following a link.
  auto parent_of = [&](const std::string& path) -> int {
    int at = ::dup(root.fd);
    std::size_t start = 0;
    for (std::size_t cut = path.find('/'); at >= 0 && cut != std::string::npos; cut = path.find('/', start)) {
      const std::string part = path.substr(start, cut - start);
      const int next = ::openat(at, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      ::close(at);
      at = next;
      start = cut + 1;
    }
    return at;
  };
  auto base = [](const std::string& path) {
    const std::size_t cut = path.rfind('/');
    return cut == std::string::npos ? path : path.substr(cut + 1);
  };
  auto unwritable = [&](const std::string& path) {
    return problem(ArchiveProblem::unwritable, path,
                   fmt::format("cannot be written in {}: {}", folder.string(), errno_text(errno)));
  };
  for (const FileEntry& f : files.entries) {
    Fd parent(parent_of(f.path));
    if (parent.fd < 0) return fail(unwritable(f.path));
    if (f.folder) {
      if (::mkdirat(parent.fd, base(f.path).c_str(), 0700) != 0) return fail(unwritable(f.path));
      continue;
    }
    Fd out(::openat(parent.fd, base(f.path).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (out.fd < 0) return fail(unwritable(f.path));
    std::size_t done = 0;
    while (done < f.data.size()) {
      const ssize_t n = ::write(out.fd, f.data.data() + done, f.data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return fail(unwritable(f.path));
      done += static_cast<std::size_t>(n);
    }
    if (::fchmod(out.fd, static_cast<mode_t>(f.mode & 0777)) != 0) return fail(unwritable(f.path));
  }
  for (auto it = files.entries.rbegin(); it != files.entries.rend(); ++it) {
    if (!it->folder) continue;
    Fd parent(parent_of(it->path));
    Fd dir(parent.fd < 0
               ? -1
               : ::openat(parent.fd, base(it->path).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (dir.fd < 0 || ::fchmod(dir.fd, static_cast<mode_t>(it->mode & 0777)) != 0) return fail(unwritable(it->path));
  }
  return {};
}

ArchiveResult<Submission> submission_from(FileSet files) {
  const std::string name(kManifestName);
  if (files.find(name) == nullptr) {
    // A single top folder holding bot.json becomes the root.
    const bool one_top = !files.entries.empty() && files.entries.front().folder &&
                         std::all_of(files.entries.begin() + 1, files.entries.end(), [&](const FileEntry& e) {
                           return e.path.rfind(files.entries.front().path + "/", 0) == 0;
                         });
    if (!one_top || files.find(files.entries.front().path + "/" + name) == nullptr)
      return fail(problem(ArchiveProblem::no_manifest, "",
                          "no bot.json at the submission's root (nor in a single top folder)"));
    const std::size_t cut = files.entries.front().path.size() + 1;
    files.entries.erase(files.entries.begin());
    for (FileEntry& e : files.entries) e.path = e.path.substr(cut);
  }
  const FileEntry* manifest = files.find(name);
  if (manifest->folder) return fail(problem(ArchiveProblem::no_manifest, name, "a folder, not the manifest file"));
  auto m = parse_manifest(manifest->data);
  if (!m) return fail(problem(ArchiveProblem::bad_manifest, name, m.error()));
  return Submission{std::move(*m), std::move(files)};
}

ArchiveResult<Submission> read_submission(const fs::path& path, const ArchiveLimits& limits) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0)
    return fail(
        problem(ArchiveProblem::unreadable, "", fmt::format("cannot read {}: {}", path.string(), errno_text(errno))));
  auto files = S_ISDIR(st.st_mode) ? read_folder(path, limits) : read_archive(path, limits);
  if (!files) return fail(files.error());
  return submission_from(std::move(*files));
}

ArchiveResult<Bytes> pack_folder(const fs::path& folder, const ArchiveLimits& limits, std::uint64_t max_packed_bytes) {
  auto files = read_folder(folder, limits);
  if (!files) return fail(files.error());
  Bytes packed = pack(*files);
  if (packed.size() > max_packed_bytes)
    return fail(problem(
        ArchiveProblem::too_large, "",
        fmt::format("{} packs to {} bytes, over the limit of {}", folder.string(), packed.size(), max_packed_bytes)));
  return packed;
}

ArchiveResult<void> unpack(const Bytes& packed, const fs::path& folder, const ArchiveLimits& limits) {
  auto files = read_archive(packed, limits);
  if (!files) return fail(files.error());
  return write_files(*files, folder);
}

}  // namespace arena::ladder
