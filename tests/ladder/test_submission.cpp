// Submissions to the ladder: bot.json, folders and archives from strangers (every hostile entry
// refused with its own problem, nothing written), the store's zstd tars, the sandboxed build (the
// starter kits, a compile error, a build that never ends, one that reaches for the network or
// /etc/shadow) and the conformance check of what was built.

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "referee/bots/sandbox.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/build.hpp"
#include "referee/ladder/check.hpp"
#include "referee/ladder/manifest.hpp"
#include "tests/match/harness.hpp"

namespace {

namespace fs = std::filesystem;
using namespace arena;
using namespace arena::ladder;
using nlohmann::json;

void write(const fs::path& p, const std::string& text, mode_t mode = 0644) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  ::chmod(p.c_str(), mode);
}

bool empty_folder(const fs::path& p) {
  return fs::is_empty(p);
}

// ---- tars written entry by entry, hostile ones included --------------------------------------

struct TarEntry {
  std::string path;
  mode_t type = AE_IFREG;
  mode_t perm = 0644;
  std::string data;
  std::string link;      // a symbolic link's target
  std::string hardlink;  // a hard link's target
};

enum class Filter { none, gzip, zstd };

Bytes make_tar(const std::vector<TarEntry>& entries, Filter filter = Filter::none) {
  Bytes out;
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  if (filter == Filter::gzip) archive_write_add_filter_gzip(a);
  if (filter == Filter::zstd) archive_write_add_filter_zstd(a);
  archive_write_set_bytes_in_last_block(a, 1);
  auto cb = [](archive*, void* client, const void* buf, size_t n) -> la_ssize_t {
    auto* o = static_cast<Bytes*>(client);
    o->insert(o->end(), static_cast<const std::uint8_t*>(buf), static_cast<const std::uint8_t*>(buf) + n);
    return static_cast<la_ssize_t>(n);
  };
  REQUIRE(archive_write_open(a, &out, nullptr, cb, nullptr) == ARCHIVE_OK);
  for (const TarEntry& t : entries) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, t.path.c_str());
    archive_entry_set_filetype(e, t.type);
    archive_entry_set_perm(e, t.perm);
    if (!t.link.empty()) archive_entry_set_symlink(e, t.link.c_str());
    if (!t.hardlink.empty()) archive_entry_set_hardlink(e, t.hardlink.c_str());
    if (t.type == AE_IFCHR) archive_entry_set_rdev(e, makedev(1, 3));
    archive_entry_set_size(e, t.type == AE_IFREG && t.hardlink.empty() ? static_cast<la_int64_t>(t.data.size()) : 0);
    REQUIRE(archive_write_header(a, e) == ARCHIVE_OK);
    if (!t.data.empty()) archive_write_data(a, t.data.data(), t.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

const TarEntry kManifest{"bot.json", AE_IFREG, 0644, R"({"language": "python"})", "", ""};
const TarEntry kBot{"bot.py", AE_IFREG, 0644, "print('hi')\n", "", ""};

// The problem a tar is refused with, after checking that unpacking it wrote nothing.
ArchiveProblem refused(const Bytes& tar, const ArchiveLimits& limits = {}) {
  const fs::path into = testing::fresh_dir("ladder", "refused");
  auto unpacked = unpack(tar, into, limits);
  REQUIRE_FALSE(unpacked.ok());
  INFO(unpacked.error().message);
  CHECK(empty_folder(into));
  auto read = read_archive(tar, limits);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().problem == unpacked.error().problem);
  CHECK_FALSE(read.error().message.empty());
  return read.error().problem;
}

// ---- the sandboxed build and the check ---------------------------------------------------------

bots::Tier machine_tier() {
  return bots::sandbox_support().strictest();
}

std::vector<std::string> bot_env() {
  const char* path = std::getenv("PATH");
  return {std::string("PATH=") + (path != nullptr ? path : "/usr/bin:/bin"), "LANG=C.UTF-8"};
}

// A kit's files with a bot.json naming only its language, read as a submission.
Submission kit(const std::string& name, const std::string& language) {
  const fs::path src = testing::fresh_dir("ladder", "kit-" + name);
  for (const auto& e : fs::directory_iterator(fs::path(ARENA_SOURCE_DIR) / "sample_bots/starter" / name))
    fs::copy(e.path(), src / e.path().filename());
  write(src / "bot.json", json{{"language", language}}.dump());
  auto s = read_submission(src, {});
  INFO((s ? "" : s.error().message));
  REQUIRE(s.ok());
  return std::move(s).value();
}

Submission from_data(const std::string& name) {
  auto s = read_submission(fs::path(ARENA_LADDER_SUBMISSIONS) / name, {});
  INFO((s ? "" : s.error().message));
  REQUIRE(s.ok());
  return std::move(s).value();
}

Submission explicit_build(const std::string& build_command) {
  FileSet files;
  files.entries.push_back({"bot.json", false, 0644, json{{"build", build_command}, {"run", "./bot"}}.dump()});
  auto s = submission_from(std::move(files));
  REQUIRE(s.ok());
  return std::move(s).value();
}

BuildResult built(const Submission& s, const std::string& name, BuildLimits limits = {}) {
  BuildOptions o;
  o.limits = limits;
  o.env = bot_env();
  auto r = build(s, testing::fresh_dir("ladder", "build-" + name), o);
  INFO((r ? "" : r.error()));
  REQUIRE(r.ok());
  INFO(r->message << "\n" << r->log);
  CHECK(r->tier == enum_name(machine_tier()));
  return std::move(r).value();
}

CheckOptions check_options() {
  CheckOptions o;
  o.opponents = {testing::reachable_random_bot()};
  o.env = bot_env();
  o.time_scale = 5;  // a loaded machine must not turn a slow start into a timeout
  auto policy = bots::resolve_policy(std::nullopt, {}, true);
  REQUIRE(policy.ok());
  o.sandbox = *policy;
  o.sandbox.limits.address_space_mb = 0;  // Node reserves large address ranges
  return o;
}

// `src` packed (a 1 MiB cap) and unpacked into the empty folder `dst`, both REQUIREd to succeed;
// the packed bytes.
Bytes packed_and_unpacked(const fs::path& src, const fs::path& dst) {
  auto packed = pack_folder(src, {}, 1 << 20);
  REQUIRE(packed.ok());
  auto unpacked = unpack(*packed, dst, {});
  INFO((unpacked ? "" : unpacked.error().message));
  REQUIRE(unpacked.ok());
  return std::move(*packed);
}

}  // namespace

// ---- bot.json ------------------------------------------------------------------------------------

TEST_CASE("A manifest names a language or explicit commands, and reads back from its JSON", "[ladder][manifest]") {
  auto cpp = parse_manifest(R"({"language": "cpp"})");
  REQUIRE(cpp.ok());
  CHECK(cpp->build == "g++ -std=c++20 -O2 -o bot *.cpp");
  CHECK(cpp->run == "./bot");
  auto py = parse_manifest(R"({"language": "python", "main": "my bot.py"})");
  REQUIRE(py.ok());
  CHECK(py->build == "python3 -m py_compile 'my bot.py'");
  CHECK(py->run == "python3 -u 'my bot.py'");
  auto js = parse_manifest(R"({"language": "javascript", "run": "node --max-old-space-size=256 bot.js"})");
  REQUIRE(js.ok());
  CHECK(js->build == "node --check bot.js");
  CHECK(js->run == "node --max-old-space-size=256 bot.js");
  auto own = parse_manifest(R"({"build": "make", "run": "./engine --fast"})");
  REQUIRE(own.ok());
  CHECK_FALSE(own->language);
  auto none = parse_manifest(R"({"run": "./engine"})");
  REQUIRE(none.ok());
  CHECK(none->build.empty());
  for (const Manifest& m : {*cpp, *py, *js, *own, *none}) {
    auto again = manifest_from_json(to_json(m));
    REQUIRE(again.ok());
    CHECK(*again == m);
  }
}

TEST_CASE("A manifest is read strictly: the error names the key", "[ladder][manifest]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"language": "cpp", "lang": "x"})", "unknown key \"lang\""},
      {R"({"language": 3})", "\"language\" must be a string"},
      {R"({"language": "rust"})", "\"language\" is \"rust\""},
      {R"({"language": "python", "main": ["a"]})", "\"main\" must be a string"},
      {R"({"language": "python", "main": "../up.py"})", "\"main\" (../up.py)"},
      {R"({"language": "python", "main": "/etc/passwd"})", "\"main\" (/etc/passwd) must be relative"},
      {R"({"main": "bot.py"})", "\"main\" needs a \"language\""},
      {R"({"build": "make"})", "needs a \"language\""},
      {R"({"run": ""})", "\"run\" is empty"},
      {R"({"run": "./bot\u0000x"})", "\"run\" holds a control character"},
      {R"({"run": "'unterminated"})", "\"run\" is not a command line"},
      {R"({"build": true, "run": "./bot"})", "\"build\" must be a string"},
      {R"(["language"])", "must hold an object"},
      {R"({"language": )", "not valid JSON"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    auto m = parse_manifest(text);
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(m.error(), Catch::Contains(message));
  }
  CHECK_FALSE(parse_manifest(std::string(kManifestMaxBytes + 1, ' ')).ok());
}

// ---- archives ------------------------------------------------------------------------------------

TEST_CASE("Every hostile archive entry is refused with its own problem, and nothing is written", "[ladder][archive]") {
  using P = ArchiveProblem;
  CHECK(refused(make_tar({kManifest, {"/etc/cron.d/x", AE_IFREG, 0644, "x", "", ""}})) == P::absolute_path);
  CHECK(refused(make_tar({kManifest, {"a/../../x", AE_IFREG, 0644, "x", "", ""}})) == P::parent_path);
  CHECK(refused(make_tar({kManifest, {"..", AE_IFDIR, 0755, "", "", ""}})) == P::parent_path);
  CHECK(refused(make_tar({kManifest, {"link", AE_IFLNK, 0777, "", "/etc/shadow", ""}})) == P::symlink);
  CHECK(refused(make_tar({kManifest, {"hard", AE_IFREG, 0644, "", "", "bot.json"}})) == P::hard_link);
  CHECK(refused(make_tar({kManifest, {"null", AE_IFCHR, 0666, "", "", ""}})) == P::device);
  CHECK(refused(make_tar({kManifest, {"pipe", AE_IFIFO, 0644, "", "", ""}})) == P::fifo);
  CHECK(refused(make_tar({kManifest, {"bad\x01name", AE_IFREG, 0644, "x", "", ""}})) == P::bad_name);
  CHECK(refused(make_tar({kManifest, {"a//b", AE_IFREG, 0644, "x", "", ""}})) == P::bad_name);
  CHECK(refused(make_tar({kManifest, {std::string(2000, 'n'), AE_IFREG, 0644, "x", "", ""}})) == P::bad_name);
  CHECK(refused(make_tar({kManifest, kBot, kBot})) == P::duplicate);
  CHECK(refused(make_tar({kManifest, {"a", AE_IFREG, 0644, "x", "", ""}, {"a/b", AE_IFREG, 0644, "y", "", ""}})) ==
        P::duplicate);
  ArchiveLimits small;
  small.max_files = 3;
  small.max_file_bytes = 100;
  small.max_total_bytes = 150;
  CHECK(refused(make_tar({kManifest, kBot, {"c", AE_IFREG, 0644, "", "", ""}, {"d", AE_IFREG, 0644, "", "", ""}}),
                small) == P::too_many_files);
  CHECK(refused(make_tar({kManifest, {"big", AE_IFREG, 0644, std::string(101, 'x'), "", ""}}), small) ==
        P::file_too_large);
  CHECK(refused(make_tar({kManifest,
                          {"a", AE_IFREG, 0644, std::string(80, 'x'), "", ""},
                          {"b", AE_IFREG, 0644, std::string(80, 'x'), "", ""}}),
                small) == P::too_large);
  // A compressed bomb: little on disk, more than the limit inside.
  CHECK(refused(make_tar({kManifest, {"zeros", AE_IFREG, 0644, std::string(1 << 20, '\0'), "", ""}}, Filter::zstd),
                small) == P::file_too_large);
  Bytes garbage = {'n', 'o', 't', ' ', 'a', ' ', 't', 'a', 'r'};
  CHECK(refused(garbage) == P::unreadable);
  Bytes cut = make_tar({kManifest, {"x", AE_IFREG, 0644, std::string(5000, 'x'), "", ""}});
  cut.resize(1200);
  CHECK(refused(cut) == P::unreadable);
}

TEST_CASE("A submission needs bot.json at its root or in a single top folder", "[ladder][archive]") {
  const fs::path dir = testing::fresh_dir("ladder", "roots");
  for (Filter f : {Filter::none, Filter::gzip, Filter::zstd}) {
    const Bytes tar = make_tar({{"kit", AE_IFDIR, 0755, "", "", ""},
                                {"kit/bot.json", AE_IFREG, 0644, R"({"language": "python"})", "", ""},
                                {"kit/bot.py", AE_IFREG, 0755, "print(1)\n", "", ""}},
                               f);
    const fs::path file = dir / (f == Filter::none ? "kit.tar" : f == Filter::gzip ? "kit.tar.gz" : "kit.tar.zst");
    write(file, std::string(tar.begin(), tar.end()));
    auto s = read_submission(file, {});
    INFO((s ? "" : s.error().message));
    REQUIRE(s.ok());
    CHECK(s->manifest.language == Language::python);
    REQUIRE(s->files.find("bot.py") != nullptr);
    CHECK(s->files.find("bot.py")->mode == 0755);
  }
  auto none = submission_from(read_archive(make_tar({kBot}), {}).value());
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().problem == ArchiveProblem::no_manifest);
  auto two_tops = submission_from(
      read_archive(make_tar({{"a/bot.json", AE_IFREG, 0644, "{}", "", ""}, {"b/bot.py", AE_IFREG, 0644, "", "", ""}}),
                   {})
          .value());
  REQUIRE_FALSE(two_tops.ok());
  CHECK(two_tops.error().problem == ArchiveProblem::no_manifest);
  auto bad = submission_from(
      read_archive(make_tar({{"bot.json", AE_IFREG, 0644, R"({"language": "go"})", "", ""}}), {}).value());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().problem == ArchiveProblem::bad_manifest);
  CHECK_THAT(bad.error().message, Catch::Contains("\"language\" is \"go\""));
  // A link is not followed, even to a good folder.
  const fs::path real = dir / "real";
  write(real / "bot.json", R"({"language": "python"})");
  fs::create_directory_symlink(real, dir / "via-link");
  CHECK_FALSE(read_submission(dir / "via-link", {}).ok());
  CHECK(read_submission(real, {}).ok());
}

TEST_CASE("A folder with a link, a hard link, a device, a FIFO or a socket is refused", "[ladder][archive]") {
  struct Case {
    const char* name;
    ArchiveProblem problem;
  };
  for (const Case c : {Case{"symlink", ArchiveProblem::symlink}, Case{"hard_link", ArchiveProblem::hard_link},
                       Case{"device", ArchiveProblem::device}, Case{"fifo", ArchiveProblem::fifo},
                       Case{"socket", ArchiveProblem::socket}}) {
    INFO(c.name);
    const fs::path dir = testing::fresh_dir("ladder", std::string("folder-") + c.name);
    write(dir / "bot.json", R"({"language": "python"})");
    write(dir / "sub/bot.py", "print(1)\n");
    const fs::path planted = dir / "sub/a-planted";  // before bot.py: a hard link's first name
    if (c.problem == ArchiveProblem::symlink) REQUIRE(::symlink("/etc/shadow", planted.c_str()) == 0);
    if (c.problem == ArchiveProblem::hard_link) REQUIRE(::link((dir / "sub/bot.py").c_str(), planted.c_str()) == 0);
    if (c.problem == ArchiveProblem::device) REQUIRE(::mknod(planted.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    if (c.problem == ArchiveProblem::fifo) REQUIRE(::mkfifo(planted.c_str(), 0644) == 0);
    if (c.problem == ArchiveProblem::socket) REQUIRE(::mknod(planted.c_str(), S_IFSOCK | 0644, 0) == 0);
    auto s = read_submission(dir, {});
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().problem == c.problem);
    CHECK(s.error().entry == "sub/a-planted");
    CHECK_THAT(s.error().message, Catch::Contains("sub/a-planted"));
  }
}

TEST_CASE("Packing and unpacking keep files and modes (not owners) and strip set-id bits", "[ladder][archive]") {
  const fs::path src = testing::fresh_dir("ladder", "pack-src");
  write(src / "bot.json", R"({"run": "./run.sh"})");
  write(src / "run.sh", "#!/bin/sh\necho hi\n", 0755);
  write(src / "secret.txt", "mine", 0600);
  write(src / "data/deep/table.bin", std::string("\0\1\2\3", 4), 0640);
  write(src / "setuid", "x", 04755);
  ::chmod((src / "data/deep").c_str(), 0750);
  ::chown((src / "secret.txt").c_str(), 1234, 1234);
  fs::create_directory(src / "empty");
  const fs::path dst = testing::fresh_dir("ladder", "pack-dst");
  const Bytes packed = packed_and_unpacked(src, dst);
  auto mode = [](const fs::path& p) {
    struct stat st {};
    REQUIRE(::lstat(p.c_str(), &st) == 0);
    return st.st_mode & 07777;
  };
  for (const char* f : {"bot.json", "run.sh", "secret.txt", "data/deep/table.bin", "data/deep", "empty"}) {
    INFO(f);
    CHECK(mode(dst / f) == mode(src / f));
    if (fs::is_regular_file(src / f)) CHECK(testing::read_file(dst / f) == testing::read_file(src / f));
  }
  CHECK(mode(dst / "setuid") == 0755);
  struct stat st {};
  REQUIRE(::stat((dst / "secret.txt").c_str(), &st) == 0);
  CHECK(st.st_uid == ::geteuid());
  // Into a folder that is not empty: refused, nothing changed.
  auto again = unpack(packed, dst, {});
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().problem == ArchiveProblem::not_empty);
  // The storage cap.
  auto capped = pack_folder(src, {}, 16);
  REQUIRE_FALSE(capped.ok());
  CHECK(capped.error().problem == ArchiveProblem::too_large);
  // A read folder packs to the same bytes every time.
  CHECK(pack(read_folder(src, {}).value()) == packed);
}

TEST_CASE("An empty storage folder packs and unpacks", "[ladder][archive]") {
  const fs::path src = testing::fresh_dir("ladder", "storage-empty");
  const fs::path dst = testing::fresh_dir("ladder", "storage-empty-out");
  packed_and_unpacked(src, dst);
  CHECK(empty_folder(dst));
}

// ---- the build and the check ---------------------------------------------------------------------

TEST_CASE("The three starter kits build in the sandbox and pass the check", "[ladder][build][check]") {
  const std::vector<std::pair<std::string, std::string>> kits = {
      {"cpp", "cpp"}, {"python", "python"}, {"javascript", "javascript"}};
  for (const auto& [folder, language] : kits) {
    INFO(folder);
    if (language == "javascript" && testing::run("command -v node").exit_code != 0) {
      WARN("node is not installed (scripts/test.sh installs it): the JavaScript kit is not built");
      continue;
    }
    const Submission s = kit(folder, language);
    const BuildResult b = built(s, folder);
    REQUIRE(b.outcome == BuildOutcome::ok);
    if (language == "cpp") CHECK(fs::is_regular_file(b.folder / "bot"));
    // What the store keeps of it, unpacked where a worker would run it.
    auto bytes = pack_folder(b.folder, {}, 64 << 20);
    REQUIRE(bytes.ok());
    const fs::path run_dir = testing::fresh_dir("ladder", "run-" + folder);
    REQUIRE(unpack(*bytes, run_dir, {}).ok());
    CheckOptions o = check_options();
    o.seat_counts = {2};
    auto c = check(s.manifest.run, run_dir, testing::fresh_dir("ladder", "check-" + folder), o);
    INFO((c ? c->log : c.error()));
    REQUIRE(c.ok());
    CHECK(c->outcome == CheckOutcome::passed);
    CHECK(c->games == 2);
    CHECK_FALSE(c->fault);
  }
}

TEST_CASE("A C++ bot that does not compile is rejected with the compiler's message", "[ladder][build]") {
  const BuildResult b = built(from_data("compile_error"), "compile-error");
  CHECK(b.outcome == BuildOutcome::failed);
  CHECK(b.exit.kind == bots::ExitStatus::Kind::exited);
  CHECK(b.exit.code == 1);
  CHECK(b.message == "the build failed: exit code 1");
  CHECK_THAT(b.log, Catch::Contains("bot.cpp") && Catch::Contains("undeclared_name") && Catch::Contains("error"));
  CHECK_FALSE(fs::exists(b.folder / "bot"));
}

TEST_CASE("A bot that crashes at its first decision is rejected with that fault", "[ladder][check]") {
  const Submission s = from_data("crash_first");
  const BuildResult b = built(s, "crash-first");
  REQUIRE(b.outcome == BuildOutcome::ok);
  auto c = check(s.manifest.run, b.folder, testing::fresh_dir("ladder", "check-crash"), check_options());
  REQUIRE(c.ok());
  INFO(c->log);
  CHECK(c->outcome == CheckOutcome::faulted);
  REQUIRE(c->fault);
  CHECK(c->fault->kind == replay::FaultKind::crash);
  CHECK(c->fault->phase == replay::FaultPhase::decision);
  CHECK(c->fault->seat == 0);
  CHECK_THAT(c->fault->request, Catch::Contains("\"legal\""));
  CHECK_THAT(c->fault->exit, Catch::Contains("exit code 3"));
  REQUIRE_FALSE(c->fault->stderr_tail.empty());
  CHECK_THAT(c->fault->stderr_tail.back(), Catch::Contains("crashing at the first decision"));
  CHECK(c->games == 1);
  CHECK_THAT(c->log, Catch::Contains("crash in decision"));
}

TEST_CASE("A bot that never answers the hello is rejected in the handshake, before any game", "[ladder][check]") {
  const fs::path folder = testing::fresh_dir("ladder", "silent");
  write(folder / "silent.sh", "#!/bin/sh\nexec sleep 100\n", 0755);
  CheckOptions o = check_options();
  o.limits.init_ms = 300;
  o.time_scale = 1;
  auto c = check("./silent.sh", folder, testing::fresh_dir("ladder", "check-silent"), o);
  REQUIRE(c.ok());
  INFO(c->log);
  CHECK(c->outcome == CheckOutcome::faulted);
  REQUIRE(c->fault);
  CHECK(c->fault->kind == replay::FaultKind::timeout);
  CHECK(c->fault->phase == replay::FaultPhase::handshake);
  CHECK_THAT(c->fault->request, Catch::StartsWith("{\"cards\":"));  // the hello, keys in order
  CHECK_THAT(c->fault->message, Catch::Contains("no ready message within 300 ms"));
  CHECK(c->games == 0);
}

TEST_CASE("A build that never ends is stopped at its time limit, and nothing of it runs on", "[ladder][build]") {
  BuildLimits limits;
  limits.wall = std::chrono::seconds(2);
  const BuildResult b = built(explicit_build("sleep 1000 & while :; do :; done"), "forever", limits);
  CHECK(b.outcome == BuildOutcome::timed_out);
  CHECK_THAT(b.message, Catch::Contains("time limit"));
  CHECK(testing::run("ps -eo args | grep -c '^sleep 1000$'").out == "0\n");
}

TEST_CASE("A build cannot reach the network, /etc/shadow or other folders", "[ladder][build]") {
  const std::string network = "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", 9), timeout=2)'";
  const BuildResult net = built(explicit_build(network), "network");
  CHECK(net.outcome == BuildOutcome::failed);
  CHECK_THAT(net.log, Catch::Contains("PermissionError") || Catch::Contains("Operation not permitted"));
  const BuildResult shadow = built(explicit_build("cat /etc/shadow"), "shadow");
  CHECK(shadow.outcome == BuildOutcome::failed);
  CHECK_THAT(shadow.log, Catch::Contains("Permission denied"));
  // Another bot's build folder and the test's own files are not in its world.
  const fs::path other = testing::fresh_dir("ladder", "build-other-bot");
  write(other / "bot.json", "{}");
  const BuildResult look = built(
      explicit_build("test ! -e " + other.string() + " && test ! -e " + std::string(ARENA_SOURCE_DIR) + " && echo ok"),
      "look");
  CHECK(look.outcome == BuildOutcome::ok);
  CHECK(look.log == "ok\n");
}

TEST_CASE("What a build leaves that a stranger's folder may not hold is refused when it is packed", "[ladder][build]") {
  const BuildResult b = built(explicit_build("ln -s /etc/shadow leak && echo built"), "leave-links");
  REQUIRE(b.outcome == BuildOutcome::ok);
  auto packed = pack_folder(b.folder, {}, 1 << 20);
  REQUIRE_FALSE(packed.ok());
  CHECK(packed.error().problem == ArchiveProblem::symlink);
  CHECK(packed.error().entry == "leak");
  struct stat st {};
  REQUIRE(::stat("/etc/shadow", &st) == 0);
  CHECK((st.st_mode & 0004) == 0);  // taking the folder back changed nothing through the link
}

TEST_CASE("A build over its memory or output limit is stopped with that outcome", "[ladder][build]") {
  BuildLimits limits;
  limits.memory_mb = 128;
  const BuildResult mem =
      built(explicit_build("python3 -c 'import time; x = b\"x\" * (600 << 20); time.sleep(30)'"), "memory", limits);
  CHECK(mem.outcome == BuildOutcome::over_memory);
  CHECK_THAT(mem.message, Catch::Contains("memory"));
  BuildLimits out;
  out.output_bytes = 4096;
  const BuildResult loud = built(explicit_build("yes 'too much'"), "output", out);
  CHECK(loud.outcome == BuildOutcome::output_limit);
  CHECK(loud.log_cut);
  CHECK(loud.log.size() == 4096);
}
