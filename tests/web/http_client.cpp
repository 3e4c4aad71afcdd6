// The web tests' client side (http_client.hpp).
#include "tests/web/http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <utility>  // before Asio: Boost 1.74's asio/awaitable.hpp needs std::exchange under C++20

namespace arena::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

Reply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                   const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body) {
  Reply out;
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.expires_after(std::chrono::seconds(60));  // every step below, together
  http::request<http::string_body> req(http::string_to_verb(method), target, 11);
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::connection, "close");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.prepare_payload();
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t{1} << 30);
  beast::error_code failed;
  stream.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), [&](beast::error_code ec) {
    if (ec) {
      failed = ec;
      return;
    }
    http::async_write(stream, req, [&](beast::error_code wec, std::size_t) {
      if (wec) {
        failed = wec;
        return;
      }
      http::async_read(stream, buffer, parser, [&](beast::error_code rec, std::size_t) { failed = rec; });
    });
  });
  ioc.run();
  if (failed) {
    out.body = failed.message();
    return out;
  }
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

RawConnection::RawConnection(std::uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::send(const std::string& bytes) {
  std::size_t done = 0;
  while (fd_ >= 0 && done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return fd_ >= 0;
}

std::pair<std::string, bool> RawConnection::read_until_closed(std::chrono::seconds limit) {
  std::string got;
  const auto end = std::chrono::steady_clock::now() + limit;
  while (fd_ >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return {got, false};
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return {got, true};  // closed (or reset)
    got.append(buf, static_cast<std::size_t>(n));
  }
  return {got, true};
}

std::string raw_exchange(std::uint16_t port, const std::string& bytes) {
  RawConnection c(port);
  if (!c.send(bytes)) return "";
  const auto [answer, closed] = c.read_until_closed(std::chrono::seconds(30));
  return closed ? answer : "";
}

}  // namespace arena::testing
