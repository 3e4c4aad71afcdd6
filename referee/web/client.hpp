#pragma once
// The client side of the ladder's API, what `referee ladder submit --server` uses: one HTTP
// request over its own connection (Boost.Beast). Plain HTTP only: a server on this machine, one
// reached through an SSH tunnel, or a reverse proxy's plain-HTTP side (docs/ladder.md).

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::web {

// "http://HOST[:PORT][/PREFIX]" (PORT default 80; HOST a name, an IPv4 or a [IPv6] address).
struct Url {
  std::string host;
  std::uint16_t port = 80;
  std::string prefix;  // the path before /api/v1/, without a trailing '/' ("" at the root)
};
Result<Url> parse_url(const std::string& text);

struct ClientReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// One request (Connection: close); the whole exchange within `timeout`. An error names the
// address and what failed (resolving, connecting, sending, reading).
Result<ClientReply> http_request(const Url& server, const std::string& method, const std::string& target,
                                 const std::vector<std::pair<std::string, std::string>>& headers,
                                 const std::string& body, std::chrono::seconds timeout);

}  // namespace arena::web
