// The API's client side (client.hpp).
#include "referee/web/client.hpp"

#include <fmt/format.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <utility>  // before Asio: Boost 1.74's asio/awaitable.hpp needs std::exchange under C++20

namespace arena::web {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

Result<Url> parse_url(const std::string& text) {
  constexpr std::string_view kScheme = "http://";
  if (text.rfind(kScheme, 0) != 0) {
    return fail(
        fmt::format("--server \"{}\": an http:// address (https: put the server behind a local reverse proxy "
                    "or an SSH tunnel and give its plain-HTTP address)",
                    text));
  }
  const std::string rest = text.substr(kScheme.size());
  const std::size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  Url url;
  url.prefix = slash == std::string::npos ? "" : rest.substr(slash);
  while (!url.prefix.empty() && url.prefix.back() == '/') url.prefix.pop_back();
  if (url.prefix.find_first_of("?# \t\r\n") != std::string::npos)
    return fail(fmt::format("--server \"{}\": a path without a query, fragment or space", text));
  std::string port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string::npos) return fail(fmt::format("--server \"{}\": an unclosed '['", text));
    url.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return fail(fmt::format("--server \"{}\": ':' must follow ']'", text));
      port = authority.substr(close + 2);
      if (port.empty()) return fail(fmt::format("--server \"{}\": no port after ':'", text));
    }
  } else {
    const std::size_t colon = authority.find(':');
    url.host = authority.substr(0, colon);
    if (colon != std::string::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) return fail(fmt::format("--server \"{}\": no port after ':'", text));
    }
  }
  if (url.host.empty() || url.host.find_first_of("@ \t\r\n") != std::string::npos)
    return fail(fmt::format("--server \"{}\": no host (http://HOST[:PORT])", text));
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) == 0 ||
        std::stoul(port) > 65535)
      return fail(fmt::format("--server \"{}\": the port must be a number from 1 to 65535", text));
    url.port = static_cast<std::uint16_t>(std::stoul(port));
  }
  return url;
}

Result<ClientReply> http_request(const Url& server, const std::string& method, const std::string& target,
                                 const std::vector<std::pair<std::string, std::string>>& headers,
                                 const std::string& body, std::chrono::seconds timeout) {
  const std::string where = fmt::format("{}:{}", server.host, server.port);
  asio::io_context ioc;
  tcp::resolver resolver(ioc);
  beast::tcp_stream stream(ioc);
  http::request<http::string_body> req(http::string_to_verb(method), server.prefix + target, 11);
  req.set(http::field::host, server.host.find(':') == std::string::npos ? server.host : "[" + server.host + "]");
  req.set(http::field::connection, "close");
  req.set(http::field::user_agent, "stellar-arena");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.prepare_payload();
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t{64} << 20);
  std::string failed;
  stream.expires_after(timeout);  // every step below, together
  resolver.async_resolve(server.host, std::to_string(server.port),
                         [&](beast::error_code ec, tcp::resolver::results_type found) {
                           if (ec) {
                             failed = fmt::format("cannot resolve {}: {}", server.host, ec.message());
                             return;
                           }
                           stream.async_connect(found, [&](beast::error_code cec, const tcp::endpoint&) {
                             if (cec) {
                               failed = fmt::format("cannot connect to {}: {}", where, cec.message());
                               return;
                             }
                             http::async_write(stream, req, [&](beast::error_code wec, std::size_t) {
                               // A server may answer before it has read the whole body (413) and close: its answer is
                               // still read.
                               http::async_read(stream, buffer, parser, [&, wec](beast::error_code rec, std::size_t) {
                                 if (rec && wec) {
                                   failed = fmt::format("sending to {}: {}", where, wec.message());
                                 } else if (rec) {
                                   failed = fmt::format("reading {}'s answer: {}", where, rec.message());
                                 }
                               });
                             });
                           });
                         });
  ioc.run();
  if (!failed.empty()) return fail(failed);
  ClientReply out;
  const auto& res = parser.get();
  out.status = static_cast<int>(res.result_int());
  for (const auto& field : res) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers[name] = std::string(field.value());
  }
  out.body = res.body();
  return out;
}

}  // namespace arena::web
