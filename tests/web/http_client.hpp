#pragma once
// What the web tests use to talk to a server on this machine: one HTTP request over its own
// connection (the ladder's own client, referee/web/client.hpp), and raw TCP connections that send what a test says
// (slow, unfinished or oversized requests).

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace arena::testing {

struct Reply {
  int status = 0;                              // 0: no answer (`body` says why)
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// One request to 127.0.0.1:port (Connection: close); a reply within 60 s or status 0.
Reply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                   const std::vector<std::pair<std::string, std::string>>& headers = {}, const std::string& body = "");
inline Reply http_get(std::uint16_t port, const std::string& target) {
  return http_request(port, "GET", target);
}

// A TCP connection to 127.0.0.1:port, closed when it goes.
class RawConnection {
 public:
  explicit RawConnection(std::uint16_t port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  bool connected() const { return fd_ >= 0; }
  bool send(const std::string& bytes);
  // Whether the server has sent something (or closed the connection) that is not read yet.
  bool readable() const;
  // Reads until the server closes the connection or `limit` passes; what arrived, and whether
  // the server closed it.
  std::pair<std::string, bool> read_until_closed(std::chrono::seconds limit);

 private:
  int fd_ = -1;
};

// Sends `bytes` over a new connection and returns what the server answered before it closed the
// connection ("" when it did not close it within 30 s).
std::string raw_exchange(std::uint16_t port, const std::string& bytes);

}  // namespace arena::testing
