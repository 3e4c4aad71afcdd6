#pragma once
// The ladder's HTTP server (docs/ladder.md "The web server and its API"): Boost.Beast over one
// Asio io_context run by a few threads. Every connection is asynchronous, so a client that sends
// its request slowly, or never finishes it, holds no thread: it only holds its socket until its
// timeout. The handler runs on a pool of its own, so a slow answer does not stop the server
// accepting and reading other requests. Every request has limits: its header, its body, the time to receive it; past
// them the client gets the status that names the problem (431, 413, 400) and the connection is closed. Beast stays
// inside http_server.cpp: callers see plain requests and responses.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::web {

struct Request {
  std::string method;                          // "GET", "POST", ...
  std::string path;                            // the target before '?', as sent
  std::map<std::string, std::string> query;    // the target's parameters, percent-decoded
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beyond the ones every response has
};

using Handler = std::function<Response(const Request&)>;

// Where to listen: "HOST:PORT" or "PORT" (HOST then 127.0.0.1). HOST is an IPv4 or IPv6 address
// ("[::1]:8080"); PORT 0 lets the system choose (the server says which).
struct Endpoint {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
};
Result<Endpoint> parse_listen(const std::string& text);

struct ServerLimits {
  std::size_t header_bytes = 8 * 1024;     // the request line and headers together
  std::size_t body_bytes = 1024 * 1024;    // a request's body
  std::chrono::seconds read_timeout{10};   // to receive a whole request (also an idle keep-alive)
  std::chrono::seconds write_timeout{60};  // to send a whole response
  std::size_t connections = 1024;          // open at once; more are closed as they arrive
  int threads = 2;                         // accepting, reading and writing connections
  int handler_threads = 2;                 // running the handler (the answers' work: database reads)
  // A POST to `upload_path` (e.g. "/api/v1/submit") may carry a body of up to `upload_bytes`
  // (when larger than body_bytes), received within `upload_timeout` from its first byte.
  std::string upload_path;
  std::size_t upload_bytes = 0;
  std::chrono::seconds upload_timeout{120};
};

class HttpServer {
 public:
  // Binds and starts serving at once; an error names the address and the system's reason.
  static Result<std::unique_ptr<HttpServer>> start(const Endpoint& where, Handler handler, ServerLimits limits = {});
  virtual ~HttpServer() = default;
  // The address it listens on (the port the system chose for port 0).
  virtual Endpoint local() const = 0;
  // Closes the listening socket and every connection, and joins the threads (the destructor
  // does too).
  virtual void stop() = 0;
};

// A query string ("a=1&b=x%20y") as its parameters; an error names a bad escape.
Result<std::map<std::string, std::string>> parse_query(std::string_view text);

}  // namespace arena::web
