#pragma once
// A private PostgreSQL cluster for a test: a fresh folder (owned by `postgres` when the test runs
// as root, since initdb refuses root), initdb --no-sync with trust authentication, the server on a
// unix socket in that folder only (no TCP port: listen_addresses=''), stopped (-m fast) and removed
// when the object goes, also after a failed test. The ladder's store tests and its end-to-end
// test use it.

#include <filesystem>
#include <string>

namespace arena::testing {

class PgCluster {
 public:
  // Starts the cluster and creates the database `database`; throws std::runtime_error naming the
  // step that failed and its output.
  explicit PgCluster(const std::string& database = "ladder");
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // Whether this machine has PostgreSQL's server programs (Debian: postgresql).
  static bool available();

  // A libpq connection string for `database` (the one made at the start by default).
  std::string connection(const std::string& database = "") const;
  // Another empty database in the same cluster.
  void create_database(const std::string& name) const;
  const std::filesystem::path& folder() const { return folder_; }  // socket, log, data
  std::filesystem::path data() const { return folder_ / "data"; }

 private:
  std::string as_postgres(const std::string& command) const;  // the command line, run as the cluster's owner
  void run(const std::string& step, const std::string& command) const;
  void stop() noexcept;

  std::filesystem::path bin_;
  std::filesystem::path folder_;
  std::string database_;
  bool started_ = false;
};

}  // namespace arena::testing
