#include "tests/ladder/pg_cluster.hpp"

#include <pwd.h>
#include <unistd.h>

#include <stdexcept>
#include <system_error>

#include "tests/command.hpp"

namespace arena::testing {

namespace fs = std::filesystem;

namespace {

// The socket file's name only: with no TCP listener the port number collides with nothing.
constexpr int kPort = 54329;

// The newest /usr/lib/postgresql/<major>/bin (Debian's layout), empty when there is none.
fs::path server_bin() {
  fs::path best;
  int best_major = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = e.path().filename().string();
    const int major = std::atoi(name.c_str());
    if (major > best_major && fs::exists(e.path() / "bin" / "initdb")) {
      best_major = major;
      best = e.path() / "bin";
    }
  }
  return best;
}

std::string quoted(const fs::path& p) {
  return "'" + p.string() + "'";
}

}  // namespace

bool PgCluster::available() {
  return !server_bin().empty();
}

PgCluster::PgCluster(const std::string& database) : bin_(server_bin()), database_(database) {
  if (bin_.empty()) throw std::runtime_error("PostgreSQL's server programs are missing (Debian package postgresql)");
  std::string templ = (fs::temp_directory_path() / "arena-pg-XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  folder_ = templ;
  try {
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (pw == nullptr) throw std::runtime_error("there is no user postgres to own the cluster");
      if (::chown(folder_.c_str(), pw->pw_uid, pw->pw_gid) != 0) throw std::runtime_error("chown of the folder failed");
    }
    fs::permissions(folder_, fs::perms::owner_all);
    run("initdb", as_postgres(quoted(bin_ / "initdb") + " -D " + quoted(data()) +
                              " -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8"));
    run("pg_ctl start", as_postgres(quoted(bin_ / "pg_ctl") + " -D " + quoted(data()) + " -l " +
                                    quoted(folder_ / "server.log") + " -w -t 60 -o \"-c listen_addresses='' -k " +
                                    folder_.string() + " -p " + std::to_string(kPort) + " -c fsync=off\" start"));
    started_ = true;
    create_database(database_);
  } catch (...) {
    stop();
    throw;
  }
}

PgCluster::~PgCluster() {
  stop();
}

std::string PgCluster::connection(const std::string& database) const {
  return "host=" + folder_.string() + " port=" + std::to_string(kPort) +
         " user=postgres dbname=" + (database.empty() ? database_ : database);
}

void PgCluster::create_database(const std::string& name) const {
  run("createdb", as_postgres(quoted(bin_ / "createdb") + " -h " + quoted(folder_) + " -p " + std::to_string(kPort) +
                              " -U postgres " + name));
}

std::string PgCluster::as_postgres(const std::string& command) const {
  return (::geteuid() == 0 ? "runuser -u postgres -- " : "") + command + " 2>&1";
}

void PgCluster::run(const std::string& step, const std::string& command) const {
  const Command c = arena::testing::run(command);
  if (c.exit_code != 0)
    throw std::runtime_error("PostgreSQL test cluster: " + step + " failed (exit " + std::to_string(c.exit_code) +
                             "): " + c.out);
}

void PgCluster::stop() noexcept {
  if (started_) {
    arena::testing::run(as_postgres(quoted(bin_ / "pg_ctl") + " -D " + quoted(data()) + " -m fast -w -t 60 stop"));
    started_ = false;
  }
  std::error_code ec;
  if (!folder_.empty()) fs::remove_all(folder_, ec);
}

}  // namespace arena::testing
