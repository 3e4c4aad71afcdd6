#pragma once
// What a bot in the strict tier sees of the file system (docs/security.md): a fresh root that
// holds only
//   - the system folders, read-only: /usr and /etc, and /bin, /sbin, /lib* as on the host (links
//     into /usr on a merged-/usr system);
//   - its own program folder, read-only, at /bot (the folder of the executable the command names,
//     or of the script an interpreter is given); other bots' programs and the referee's output
//     folders are masked if they lie inside it, but never a file or folder this bot names itself
//     (two seats may run one program);
//   - an interpreter found in PATH outside the system folders, with its installation (the folder
//     above its bin/), read-only at the same path; files and folders named by other arguments
//     (with or without a trailing slash, through a link: what they name), read-only at
//     /arena/args/<n>-<name> unless already shown;
//   - a minimal /dev (null, zero, full, random, urandom), its own /proc;
//   - private scratch space: /tmp, /var/tmp, /dev/shm and its home /home/bot, one tmpfs of a
//     fixed size, gone when the bot's namespace ends.
// The referee's files, other bots, the organiser's home: none of them exist in that root, so a
// bot's argv names only /bot paths. The plan is computed here, in the referee; child.cpp carries
// it out in the namespace's init, with async-signal-safe calls only.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::bots {

// One step of building the new root, in order. Targets are absolute host paths under the
// mount point the root is built on.
struct FsStep {
  // overlay: the bot's program folder, attached at `staging` (its clone, or bound by path), then
  // shown at `target` as a read-only overlay whose only layers are that staging folder and an
  // empty one, given relative to the new root (`options`); the staging mount is then detached.
  // So /proc/*/mountinfo shows "overlay" with neutral paths where a bind would show the folder's
  // host path (the root field of a bind is its path in its file system). Should the kernel refuse
  // the overlay (a layer on a file system it cannot stack), the folder is bound as before.
  enum class Kind { tmpfs, dir, file, symlink, bind, proc, overlay };
  Kind kind = Kind::dir;
  std::string target;
  std::string source;            // bind: a host path (used when no tree was cloned); symlink: its text; tmpfs: options
  int tree_fd = -1;              // bind: a detached clone of the source (open_tree), attached with move_mount
  bool read_only = false;        // bind: remounted read-only, keeping the flags the kernel locks
  unsigned long keep_flags = 0;  // bind: nosuid/nodev/noexec/atime flags of the source's mount
  unsigned mode = 0;             // dir: chmod to this after mkdir when non-zero
  std::string staging = {};      // overlay: where the folder is attached first
  std::string options = {};      // overlay: the mount options (layers relative to the mount point)
};

struct RootFs {
  std::string mount_point;  // the folder the new root is built on (the bot's private folder)
  std::vector<FsStep> steps;
  std::string scratch;  // the scratch tmpfs' staging folder, relative to the new root; detached after the pivot
  std::string cwd;      // the bot's working directory in the new root (its home)
};

// A bot's command as the process layer resolved it: the executable's absolute path, its
// arguments (those naming existing files made absolute), and whether the executable was found in
// PATH (an interpreter or a tool) rather than named by the user.
struct BotCommand {
  std::string exe;
  std::vector<std::string> args;
  bool exe_from_path = false;
};

// A check the bot's uid must pass inside the new root: `relative` under the host path `folder`
// (mounted at `shown_as`) must allow `mode` (R_OK, X_OK). A bound file is its own `folder`, with
// `relative` ".".
struct AccessCheck {
  std::string folder;
  std::string relative;
  int mode = 0;
  std::string shown_as;
};

struct RootFsPlan {
  RootFs fs;
  BotCommand command;  // as seen inside the new root
  std::vector<AccessCheck> checks;
  std::vector<std::string> shown;  // "host -> inside" lines, for the report
};

inline constexpr const char* kBotFolder = "/bot";
inline constexpr const char* kBotHome = "/home/bot";
// Where a bot given a storage folder (SpawnOptions::storage) sees it, read-write.
inline constexpr const char* kStorageFolder = "/storage";

// Plans the root for `command` on `mount_point`, masking `hidden` (other bots' programs) and
// `outputs` (the referee's output folders) wherever they would show. The bot's own files (its
// executable, its program, the files and folders its arguments name, and what those folders
// hold) are never masked as `hidden`; `outputs` are masked even inside a folder it names. Opens
// detached clones of the bound trees when the referee may (as root); the caller owns and closes
// their descriptors (close_trees). A `workspace` (a build's folder, SpawnOptions) is shown
// read-write at /bot instead of the program's folder, and is the working directory. A `storage`
// folder (a ladder version's, SpawnOptions) is shown read-write at /storage.
Result<RootFsPlan> plan_root_fs(const BotCommand& command, const std::vector<std::filesystem::path>& hidden,
                                const std::vector<std::filesystem::path>& outputs, std::uint64_t scratch_mb,
                                const std::string& mount_point, const std::filesystem::path& workspace = {},
                                const std::filesystem::path& storage = {});
void close_trees(RootFs& fs);

}  // namespace arena::bots
