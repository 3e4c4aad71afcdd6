// The HTTP server over Boost.Beast (http_server.hpp): an acceptor, and one asynchronous session
// per connection on its own strand.
#include "referee/web/http_server.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's asio/awaitable.hpp needs std::exchange under C++20

#include "referee/web/api_json.hpp"

namespace arena::web {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      const int hi = i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
      const int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return fail(fmt::format("a bad escape \"{}\" in the query", text.substr(i, 3)));
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

struct Shared {
  Handler handler;
  ServerLimits limits;
  std::atomic<std::size_t> open{0};
  std::unique_ptr<asio::thread_pool> handlers;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<Shared> shared)
      : stream_(std::move(socket)), shared_(std::move(shared)) {}
  ~Session() { shared_->open.fetch_sub(1); }

  void start() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
  }

 private:
  void read() {
    parser_.emplace();
    body_limit_ = shared_->limits.body_bytes;
    parser_->header_limit(static_cast<std::uint32_t>(shared_->limits.header_bytes));
    // Beast compares a Content-Length with the limit as the header ends, before the path is
    // known: on_header compares it with the path's limit instead.
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    stream_.expires_after(shared_->limits.read_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  // The header is in: an upload gets its own limits for the body; then the rest is read.
  void on_header(beast::error_code ec) {
    if (ec) {
      on_read(ec);
      return;
    }
    const ServerLimits& l = shared_->limits;
    const auto target = parser_->get().target();
    const std::string_view path(target.data(), std::min(target.size(), target.find('?')));
    if (upload_limit() > 0 && parser_->get().method() == http::verb::post && path == l.upload_path) {
      body_limit_ = l.upload_bytes;
      stream_.expires_after(l.upload_timeout);
    }
    const auto announced = parser_->content_length();
    if (announced && *announced > body_limit_) {
      on_read(http::error::body_limit);
      return;
    }
    parser_->body_limit(body_limit_);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code read_ec, std::size_t) { self->on_read(read_ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
        ec == asio::error::connection_reset || ec == asio::error::eof) {
      close();
      return;
    }
    if (ec == http::error::body_limit) {
      send(error_response(413, fmt::format("the request's body is over the limit of {} bytes", body_limit_)), false);
      return;
    }
    if (ec == http::error::header_limit) {
      send(error_response(
               431, fmt::format("the request's header is over the limit of {} bytes", shared_->limits.header_bytes)),
           false);
      return;
    }
    if (ec) {
      send(error_response(400, fmt::format("a malformed HTTP request: {}", ec.message())), false);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    Request r;
    r.method = std::string(req.method_string());
    const std::string_view target(req.target().data(), req.target().size());
    const std::size_t q = target.find('?');
    r.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos) {
      auto query = parse_query(target.substr(q + 1));
      if (!query) {
        send(error_response(400, query.error()), req.keep_alive());
        return;
      }
      r.query = std::move(*query);
    }
    for (const auto& field : req) {
      std::string name(field.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      r.headers[name] = std::string(field.value());
    }
    r.body = std::move(req.body());
    // The handler runs on the handlers' pool, so a slow one (a database that takes its time)
    // never holds the threads that accept and read connections; its answer comes back to this
    // session's strand.
    const bool keep_alive = req.keep_alive();
    asio::post(*shared_->handlers, [self = shared_from_this(), r = std::move(r), keep_alive]() mutable {
      Response out;
      try {
        out = self->shared_->handler(r);
      } catch (const std::exception& e) {
        out = error_response(500, fmt::format("the server failed: {}", e.what()));
      }
      asio::post(self->stream_.get_executor(),
                 [self, out = std::move(out), keep_alive]() mutable { self->send(std::move(out), keep_alive); });
    });
  }

  void send(Response r, bool keep_alive) {
    res_ = {};
    res_.version(11);
    res_.result(static_cast<unsigned>(r.status));
    res_.set(http::field::server, "stellar-arena");
    res_.set(http::field::content_type, r.content_type);
    res_.set(http::field::cache_control, "no-store");
    res_.set("X-Content-Type-Options", "nosniff");
    for (const auto& [name, value] : r.headers) res_.set(name, value);
    res_.body() = std::move(r.body);
    res_.keep_alive(keep_alive);
    res_.prepare_payload();
    stream_.expires_after(shared_->limits.write_timeout);
    http::async_write(stream_, res_, [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
      if (ec || !keep_alive) {
        self->close();
        return;
      }
      self->read();
    });
  }

  // The uploads' larger limit, or 0 when there is none.
  std::size_t upload_limit() const {
    const ServerLimits& l = shared_->limits;
    return !l.upload_path.empty() && l.upload_bytes > l.body_bytes ? l.upload_bytes : 0;
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  std::shared_ptr<Shared> shared_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::size_t body_limit_ = 0;  // the request's (an upload's is larger)
  http::response<http::string_body> res_;
};

class BeastServer : public HttpServer {
 public:
  BeastServer(Handler handler, ServerLimits limits)
      : ioc_(std::make_unique<asio::io_context>()),
        shared_(std::make_shared<Shared>()),
        acceptor_(std::make_unique<tcp::acceptor>(asio::make_strand(*ioc_))) {
    shared_->handler = std::move(handler);
    shared_->limits = limits;
    shared_->handlers =
        std::make_unique<asio::thread_pool>(static_cast<std::size_t>(std::max(1, limits.handler_threads)));
  }
  ~BeastServer() override { stop(); }

  Status listen(const Endpoint& where) {
    beast::error_code ec;
    const auto address = asio::ip::make_address(where.host, ec);
    if (ec) return fail(fmt::format("--listen {}: not an IP address ({})", where.host, ec.message()));
    const tcp::endpoint endpoint(address, where.port);
    const std::string named = fmt::format("{}:{}", where.host, where.port);
    acceptor_->open(endpoint.protocol(), ec);
    if (!ec) acceptor_->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_->bind(endpoint, ec);
    if (!ec) acceptor_->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return fail(fmt::format("cannot listen on {}: {}", named, ec.message()));
    local_ = where;
    local_.port = acceptor_->local_endpoint().port();
    accept();
    for (int i = 0; i < std::max(1, shared_->limits.threads); ++i) threads_.emplace_back([this] { ioc_->run(); });
    return {};
  }

  Endpoint local() const override { return local_; }

  void stop() override {
    if (stopped_.exchange(true)) return;
    ioc_->stop();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    shared_->handlers->join();  // the handlers running finish; their answers go nowhere
    // No thread runs now: the listening socket closes, and the io_context's end destroys the
    // sessions its pending operations held, closing their connections.
    acceptor_.reset();
    ioc_.reset();
  }

 private:
  void accept() {
    acceptor_->async_accept(asio::make_strand(*ioc_), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        if (shared_->open.load() >= shared_->limits.connections) {
          beast::error_code ignored;
          socket.close(ignored);  // over the limit of open connections
        } else {
          socket.set_option(tcp::no_delay(true), ec);  // small responses are not held back (Nagle)
          shared_->open.fetch_add(1);
          std::make_shared<Session>(std::move(socket), shared_)->start();
        }
      }
      accept();
    });
  }

  std::unique_ptr<asio::io_context> ioc_;
  std::shared_ptr<Shared> shared_;
  std::unique_ptr<tcp::acceptor> acceptor_;
  Endpoint local_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopped_{false};
};

}  // namespace

Result<std::map<std::string, std::string>> parse_query(std::string_view text) {
  std::map<std::string, std::string> out;
  while (!text.empty()) {
    const std::size_t amp = text.find('&');
    const std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    auto name = percent_decode(pair.substr(0, eq));
    if (!name) return fail(name.error());
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!value) return fail(value.error());
    out[std::move(*name)] = std::move(*value);
  }
  return out;
}

Result<Endpoint> parse_listen(const std::string& text) {
  Endpoint e;
  std::string port = text;
  if (const std::size_t colon = text.rfind(':'); colon != std::string::npos) {
    e.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (e.host.size() >= 2 && e.host.front() == '[' && e.host.back() == ']')
      e.host = e.host.substr(1, e.host.size() - 2);
    if (e.host.empty()) return fail(fmt::format("--listen \"{}\": no address before ':' (e.g. 127.0.0.1:8080)", text));
  }
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535)
    return fail(fmt::format("--listen \"{}\": the port must be a number from 0 to 65535", text));
  e.port = static_cast<std::uint16_t>(std::stoul(port));
  return e;
}

Result<std::unique_ptr<HttpServer>> HttpServer::start(const Endpoint& where, Handler handler, ServerLimits limits) {
  auto server = std::make_unique<BeastServer>(std::move(handler), limits);
  if (auto st = server->listen(where); !st) return fail(st.error());
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace arena::web
