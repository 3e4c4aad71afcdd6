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

// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "arena-private-XXXXXX").string();
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
    *out << "two\n";
    out->close();
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
