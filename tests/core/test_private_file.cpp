// core/private_file: owner-only files and folders whatever the umask, and --share-output's modes.

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "referee/core/private_file.hpp"

using namespace arena;
namespace fs = std::filesystem;

namespace {

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// A fresh folder under `parent` (the system's temporary folder), removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const fs::path& parent = fs::temp_directory_path()) {
    std::string templ = (parent / "arena-private-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Sets the umask for the scope of the test.
struct Umask {
  ::mode_t old;
  explicit Umask(::mode_t mask) : old(::umask(mask)) {}
  ~Umask() { ::umask(old); }
};

}  // namespace

TEST_CASE("private files and folders get 0600 and 0700 whatever the umask", "[core][files]") {
  for (::mode_t mask : {::mode_t{0}, ::mode_t{022}, ::mode_t{0277}}) {
    INFO("umask " << mask);
    TempDir tmp;
    Umask scoped(mask);
    auto created = files::make_private_dirs(tmp.path / "a" / "b" / "");
    REQUIRE(created.ok());
    REQUIRE(created->size() == 2);
    CHECK(created->front() == tmp.path / "a");
    CHECK(mode_of(tmp.path / "a") == 0700);
    CHECK(mode_of(tmp.path / "a" / "b") == 0700);
    auto again = files::make_private_dirs(tmp.path / "a" / "b");
    REQUIRE(again.ok());
    CHECK(again->empty());  // nothing new: nothing to share later

    const fs::path file = tmp.path / "a" / "b" / "f.txt";
    REQUIRE(files::write_private(file, "one\n").ok());
    CHECK(mode_of(file) == 0600);
    auto out = files::open_private(file, std::ios::app);
    REQUIRE(out.ok());
    **out << "two\n";
    out->reset();
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == "one\ntwo\n");

    auto claimed = files::create_private(tmp.path / "claim");
    REQUIRE(claimed.ok());
    CHECK(*claimed);
    CHECK(mode_of(tmp.path / "claim") == 0600);
    claimed = files::create_private(tmp.path / "claim");
    REQUIRE(claimed.ok());
    CHECK_FALSE(*claimed);
  }
}

TEST_CASE("an existing file is made private, a folder that existed and a device keep their mode", "[core][files]") {
  TempDir tmp;
  fs::permissions(tmp.path, fs::perms(0755));
  const fs::path file = tmp.path / "old.json";
  std::ofstream(file) << "{}";
  fs::permissions(file, fs::perms(0666));
  REQUIRE(files::write_private(file, "[]").ok());
  CHECK(mode_of(file) == 0600);
  auto created = files::make_private_dirs(tmp.path);
  REQUIRE(created.ok());
  CHECK(created->empty());
  CHECK(mode_of(tmp.path) == 0755);
  const unsigned null_mode = mode_of("/dev/null");
  auto null = files::open_private("/dev/null");
  REQUIRE(null.ok());
  CHECK(mode_of("/dev/null") == null_mode);
  // A file where a folder should be is an error that names it.
  auto refused = files::make_private_dirs(file / "sub");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("old.json is not a folder") != std::string::npos);
}

TEST_CASE("files under /dev/shm are private files like any, not streams", "[core][files]") {
  // A league's folder on the tmpfs (/dev/shm/...) used to be taken for a device: league.json was
  // opened without being created and the league stopped on "No such file or directory".
  if (!fs::is_directory("/dev/shm")) {
    WARN("no /dev/shm on this machine: nothing to check");
    return;
  }
  TempDir tmp("/dev/shm");
  const fs::path& folder = tmp.path;
  auto created = files::make_private_dirs(folder / "league");
  REQUIRE(created.ok());
  REQUIRE(files::write_private(folder / "league" / "league.json", "{}").ok());
  CHECK(mode_of(folder / "league" / "league.json") == 0600);
  auto out = files::open_private(folder / "league" / "results.jsonl", std::ios::app);
  REQUIRE(out.ok());
  **out << "{}\n";
  out->reset();
  CHECK(fs::file_size(folder / "league" / "results.jsonl") == 3);
  // A link planted there is refused as anywhere else (the device exception would follow it).
  fs::create_symlink("/etc/hostname", folder / "league" / "link");
  CHECK_FALSE(files::open_private(folder / "league" / "link").ok());
}

TEST_CASE("share: files 0644, folders 0755, missing paths skipped", "[core][files]") {
  TempDir tmp;
  Umask scoped(0);
  auto created = files::make_private_dirs(tmp.path / "d");
  REQUIRE(created.ok());
  REQUIRE(files::write_private(tmp.path / "d" / "r.jsonl", "x").ok());
  REQUIRE(files::share({tmp.path / "d", tmp.path / "d" / "r.jsonl", tmp.path / "d" / "never-written.log"}).ok());
  CHECK(mode_of(tmp.path / "d") == 0755);
  CHECK(mode_of(tmp.path / "d" / "r.jsonl") == 0644);
  REQUIRE(files::write_private(tmp.path / "page.html", "<p>", true).ok());
  CHECK(mode_of(tmp.path / "page.html") == 0644);
}

// ---- files from strangers (docs/security.md) ------------------------------------------------

namespace {

unsigned lmode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// A file outside the folder a reader is given, mode 0640, that must keep its bytes and mode.
fs::path victim(const TempDir& tmp) {
  const fs::path v = tmp.path / "victim";
  std::ofstream(v) << "precious";
  fs::permissions(v, fs::perms(0640));
  return v;
}

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("a whole-file write replaces a link, FIFO or file at its target, never writing through", "[core][files]") {
  TempDir tmp;
  const fs::path v = victim(tmp);
  fs::create_directories(tmp.path / "sent");
  const fs::path link = tmp.path / "sent" / "page.html";
  fs::create_symlink(v, link);
  REQUIRE(files::write_private(link, "<p>", true).ok());
  CHECK(text_of(v) == "precious");
  CHECK(lmode_of(v) == 0640);
  CHECK_FALSE(fs::is_symlink(link));
  CHECK(text_of(link) == "<p>");
  CHECK(lmode_of(link) == 0644);

  const fs::path fifo = tmp.path / "sent" / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  REQUIRE(files::write_private(fifo, "x").ok());  // replaced, not opened: nothing waits
  CHECK(fs::is_regular_file(fifo));

  // A folder at the target is an error that names it; no temporary file is left behind.
  fs::create_directories(tmp.path / "sent" / "dir");
  auto refused = files::write_private(tmp.path / "sent" / "dir", "x");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("dir") != std::string::npos);
  for (const auto& e : fs::directory_iterator(tmp.path / "sent")) CHECK(e.path().filename().string()[0] != '.');
}

TEST_CASE("a file written line by line is never opened through a link", "[core][files]") {
  TempDir tmp;
  const fs::path v = victim(tmp);
  const fs::path link = tmp.path / "results.jsonl";
  fs::create_symlink(v, link);
  auto out = files::open_private(link, std::ios::app);
  REQUIRE_FALSE(out.ok());
  CHECK(out.error().find("symbolic link") != std::string::npos);
  CHECK(files::create_private(link).ok());
  CHECK(text_of(v) == "precious");
  CHECK(lmode_of(v) == 0640);
}

TEST_CASE("share never changes the mode of a link's target", "[core][files]") {
  TempDir tmp;
  Umask scoped(0);
  const fs::path v = victim(tmp);
  fs::create_directories(tmp.path / "out");
  fs::create_symlink(v, tmp.path / "out" / "m.jsonl");
  REQUIRE(files::share({tmp.path / "out" / "m.jsonl"}).ok());
  CHECK(lmode_of(v) == 0640);
}

TEST_CASE("reading refuses links, FIFOs without waiting, folders and files past the bound", "[core][files]") {
  TempDir tmp;
  const fs::path v = victim(tmp);
  fs::create_symlink(v, tmp.path / "link");
  REQUIRE(::mkfifo((tmp.path / "fifo").c_str(), 0600) == 0);
  std::ofstream(tmp.path / "big") << std::string(1000, 'x');
  const auto error_of = [](const Result<std::string>& r) { return r ? std::string("(read)") : r.error(); };
  CHECK(error_of(files::read_file(tmp.path / "link")).find("symbolic link") != std::string::npos);
  CHECK(error_of(files::read_file(tmp.path / "fifo")).find("a FIFO") != std::string::npos);
  CHECK(error_of(files::read_file(tmp.path)).find("a folder") != std::string::npos);
  CHECK(error_of(files::read_file(tmp.path / "big", 999)).find("larger than") != std::string::npos);
  auto whole = files::read_file(tmp.path / "big", 1000);
  REQUIRE(whole.ok());
  CHECK(whole->size() == 1000);
  // A sparse file far past the bound is refused by its size, before a byte is read.
  {
    std::ofstream(tmp.path / "sparse") << "x";
    fs::resize_file(tmp.path / "sparse", std::uintmax_t{64} << 30);
  }
  CHECK(error_of(files::read_file(tmp.path / "sparse")).find("larger than") != std::string::npos);
  auto stream = files::open_read(tmp.path / "fifo");
  REQUIRE_FALSE(stream.ok());
}

TEST_CASE("a folder from a stranger: nothing outside it, no link anywhere beneath it", "[core][files]") {
  TempDir tmp;
  const fs::path v = victim(tmp);
  const fs::path sent = tmp.path / "sent";
  fs::create_directories(sent / "replays");
  std::ofstream(sent / "replays" / "m.jsonl") << "ok";
  fs::create_symlink(v, sent / "replays" / "link.jsonl");
  fs::create_symlink(tmp.path, sent / "up");
  fs::create_symlink(sent, tmp.path / "alias");

  auto alias = files::Dir::open(tmp.path / "alias");
  REQUIRE_FALSE(alias.ok());
  CHECK(alias.error().find("symbolic link") != std::string::npos);
  auto dir = files::Dir::open(sent);
  REQUIRE(dir.ok());
  auto read = dir->read("replays/m.jsonl");
  REQUIRE(read.ok());
  CHECK(*read == "ok");
  for (const char* bad : {"replays/link.jsonl", "up/victim", "../victim", "/etc/passwd", "replays/../../victim"}) {
    INFO(bad);
    auto r = dir->read(bad);
    REQUIRE_FALSE(r.ok());
    CHECK_FALSE(dir->is_file(bad));
  }
  CHECK(dir->exists("replays/link.jsonl"));
  CHECK_FALSE(dir->is_file("replays/link.jsonl"));
  CHECK_FALSE(files::check_inside("../x").ok());
  CHECK_FALSE(files::check_inside("/x").ok());
  CHECK(files::check_inside("replays/m.jsonl").ok());

  // Writing beneath it replaces a link at the target; a link on the way is refused.
  REQUIRE(dir->write("replays/link.jsonl", "new").ok());
  CHECK(text_of(v) == "precious");
  CHECK_FALSE(fs::is_symlink(sent / "replays" / "link.jsonl"));
  CHECK_FALSE(dir->write("up/victim", "x").ok());
  CHECK(text_of(v) == "precious");
  CHECK(lmode_of(v) == 0640);
}
