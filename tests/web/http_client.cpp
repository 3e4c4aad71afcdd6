// The web tests' client side (http_client.hpp).
#include "tests/web/http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <utility>

#include "referee/web/client.hpp"

namespace arena::testing {

Reply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                   const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body) {
  auto reply =
      web::http_request(web::Url{"127.0.0.1", port, ""}, method, target, headers, body, std::chrono::seconds(60));
  if (!reply) return Reply{0, {}, reply.error()};
  return Reply{reply->status, std::move(reply->headers), std::move(reply->body)};
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

bool RawConnection::readable() const {
  pollfd p{fd_, POLLIN, 0};
  return fd_ >= 0 && ::poll(&p, 1, 0) > 0;
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
