#pragma once
// A submission's files, read from a stranger (docs/ladder-submissions.md): a folder
// (walked without following links) or a .tar, .tar.gz or .tar.zst file; and the form the store
// keeps them in, a zstd-compressed tar, packed here and unpacked into an empty folder (by the
// builder, by a remote worker) with the same checks.
//
// Everything is read into memory and checked before a byte is written, so a refused archive
// writes nothing. Refused, each with its own ArchiveProblem and the entry named: an absolute
// path, a ".." part, a name with a control character (NUL included) or an empty part, a symbolic
// link, a hard link (in a folder: a file with more than one link), a device, a FIFO, a socket, an
// entry given twice, more files than the limit, more bytes in all or in one file than the limits.
// Set-user-ID, set-group-ID and sticky bits are stripped, not refused: only the permission bits
// (0777) are kept. Owners and times are not kept (a packed entry is root's, of time 0).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"
#include "referee/ladder/manifest.hpp"

namespace arena::ladder {

using Bytes = std::vector<std::uint8_t>;

struct ArchiveLimits {
  std::size_t max_files = 2000;                       // files and folders
  std::uint64_t max_total_bytes = 64ull << 20;        // of every file's content together
  std::uint64_t max_file_bytes = 32ull << 20;         // of one file
  static constexpr std::size_t kMaxPathBytes = 1024;  // of an entry's path
};

enum class ArchiveProblem {
  unreadable,  // not a folder, not an archive, truncated or corrupt
  absolute_path,
  parent_path,  // a ".." part
  bad_name,     // a control character (NUL included), an empty part, too long
  symlink,
  hard_link,
  device,
  fifo,
  socket,
  duplicate,  // the same path twice
  too_many_files,
  too_large,       // all files together
  file_too_large,  // one file
  no_manifest,     // no bot.json at the root (nor in a single top folder)
  bad_manifest,    // bot.json is not a valid manifest (manifest.hpp)
  not_empty,       // unpacking into a folder that is not empty
  unwritable       // the folder to unpack into cannot be written
};

struct ArchiveError {
  ArchiveProblem problem = ArchiveProblem::unreadable;
  std::string entry;    // the entry's path as given (may be empty: the whole archive)
  std::string message;  // one sentence naming the entry and the problem
};

template <typename T>
using ArchiveResult = Result<T, ArchiveError>;

// One entry, checked: a relative path without "." or ".." parts, "/"-separated.
struct FileEntry {
  std::string path;
  bool folder = false;
  std::uint32_t mode = 0644;  // permission bits only
  std::string data;           // a file's content
  bool operator==(const FileEntry&) const = default;
};

// A tree of files, sorted by path, every folder listed before what it holds.
struct FileSet {
  std::vector<FileEntry> entries;
  std::uint64_t bytes() const;
  const FileEntry* find(std::string_view path) const;
};

// A folder (must not be a link itself), walked without following links.
ArchiveResult<FileSet> read_folder(const std::filesystem::path& folder, const ArchiveLimits& limits);
// A tar, plain or compressed with gzip or zstd (told by its content), from a regular file (not
// a link, not a FIFO) or from bytes.
ArchiveResult<FileSet> read_archive(const std::filesystem::path& file, const ArchiveLimits& limits);
ArchiveResult<FileSet> read_archive(const Bytes& bytes, const ArchiveLimits& limits);

// The zstd-compressed tar the store keeps (deterministic: sorted, owner root, time 0).
Bytes pack(const FileSet& files);
// Writes `files` into `folder`, which must exist, not be a link and be empty; nothing is written
// through a link. Folders get their modes last (a 0555 folder is still filled).
ArchiveResult<void> write_files(const FileSet& files, const std::filesystem::path& folder);

// A submission: a folder or an archive file with bot.json at its root, or in a single top
// folder (as tarballs usually are; that folder becomes the root). Its manifest is parsed.
struct Submission {
  Manifest manifest;
  FileSet files;
};
ArchiveResult<Submission> read_submission(const std::filesystem::path& path, const ArchiveLimits& limits);
// The same checks on files already read (a packed submission from the store).
ArchiveResult<Submission> submission_from(FileSet files);

// The per-version storage folder and a built bot: a folder packed, refused when the packed bytes
// pass `max_packed_bytes`; and such bytes unpacked into an empty folder.
ArchiveResult<Bytes> pack_folder(const std::filesystem::path& folder, const ArchiveLimits& limits,
                                 std::uint64_t max_packed_bytes);
ArchiveResult<void> unpack(const Bytes& packed, const std::filesystem::path& folder, const ArchiveLimits& limits);

}  // namespace arena::ladder

template <>
struct arena::EnumNames<arena::ladder::ArchiveProblem> {
  using P = ladder::ArchiveProblem;
  static constexpr auto table =
      name_table(P::unreadable, "unreadable", P::absolute_path, "absolute_path", P::parent_path, "parent_path",
                 P::bad_name, "bad_name", P::symlink, "symlink", P::hard_link, "hard_link", P::device, "device",
                 P::fifo, "fifo", P::socket, "socket", P::duplicate, "duplicate", P::too_many_files, "too_many_files",
                 P::too_large, "too_large", P::file_too_large, "file_too_large", P::no_manifest, "no_manifest",
                 P::bad_manifest, "bad_manifest", P::not_empty, "not_empty", P::unwritable, "unwritable");
};
