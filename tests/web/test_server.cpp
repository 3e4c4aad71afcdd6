// The ladder's HTTP server in this process (referee/web/http_server.hpp), with a handler that
// echoes the request: requests parsed (path, query, headers, body), every limit answered with the
// status that names it, a handler's failure a 500, unfinished requests closed at their timeout
// without holding up anyone else, a handler that does not return holding up no other request,
// and --listen's address parsed or refused.

#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "referee/web/http_server.hpp"
#include "tests/web/http_client.hpp"

using namespace arena;
using namespace arena::testing;
using nlohmann::json;

namespace {

// Released by the test that blocks a handler on "/block".
std::promise<void> release;
std::shared_future<void> released = release.get_future().share();
std::atomic<bool> blocked{false};

web::Response echo(const web::Request& r) {
  if (r.path == "/throw") throw std::runtime_error("the handler broke");
  if (r.path == "/block") {
    blocked = true;
    released.wait();
  }
  web::Response out;
  out.body = json{
      {"method", r.method},
      {"path", r.path},
      {"query", r.query},
      {"agent", r.headers.count("x-agent") > 0 ? r.headers.at("x-agent") : ""},
      {"body",
       r.body}}.dump();
  out.headers.emplace_back("X-Extra", "yes");
  return out;
}

std::unique_ptr<web::HttpServer> start(web::ServerLimits limits) {
  auto server = web::HttpServer::start(web::Endpoint{"127.0.0.1", 0}, echo, limits);
  INFO((server ? std::string() : server.error()));
  REQUIRE(server);
  return std::move(*server);
}

// Polls `done` every 10 ms, for up to a minute.
bool wait_for(const std::function<bool()>& done) {
  for (int i = 0; i < 6000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

web::ServerLimits small_limits() {
  web::ServerLimits l;
  l.header_bytes = 1024;
  l.body_bytes = 4096;
  l.read_timeout = std::chrono::seconds(1);
  return l;
}

}  // namespace

TEST_CASE("http server: a request reaches the handler parsed, the response carries its headers", "[ladder]") {
  auto server = start(small_limits());
  const std::uint16_t port = server->local().port;
  CHECK(port != 0);
  const Reply r = http_request(port, "POST", "/a/b?x=1&y=two%20words&z=a+b&empty", {{"X-Agent", "tester"}}, "hello");
  INFO(r.body);
  REQUIRE(r.status == 200);
  const json j = json::parse(r.body);
  CHECK(j["method"] == "POST");
  CHECK(j["path"] == "/a/b");
  CHECK(j["query"]["x"] == "1");
  CHECK(j["query"]["y"] == "two words");
  CHECK(j["query"]["z"] == "a b");
  CHECK(j["query"]["empty"] == "");
  CHECK(j["agent"] == "tester");
  CHECK(j["body"] == "hello");
  CHECK(r.headers.at("content-type") == "application/json");
  CHECK(r.headers.at("x-content-type-options") == "nosniff");
  CHECK(r.headers.at("cache-control") == "no-store");
  CHECK(r.headers.at("x-extra") == "yes");

  // Two requests on one connection (keep-alive), answered in order.
  RawConnection c(port);
  REQUIRE(c.connected());
  REQUIRE(c.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const auto [both, closed] = c.read_until_closed(std::chrono::seconds(30));
  CHECK(closed);
  const auto one = both.find("\"/one\"");
  const auto two = both.find("\"/two\"");
  CHECK(one != std::string::npos);
  CHECK(two != std::string::npos);
  CHECK(one < two);
}

TEST_CASE("http server: over-limit, malformed and failing requests get the status that names them", "[ladder]") {
  auto server = start(small_limits());
  const std::uint16_t port = server->local().port;

  const Reply big_header = http_request(port, "GET", "/", {{"X-Padding", std::string(2000, 'a')}});
  CHECK(big_header.status == 431);
  CHECK_THAT(big_header.body, Catch::Contains("header is over the limit of 1024 bytes"));

  const Reply big_body = http_request(port, "POST", "/", {}, std::string(5000, 'b'));
  CHECK(big_body.status == 413);
  CHECK_THAT(big_body.body, Catch::Contains("over the limit of 4096 bytes"));

  // A body announced over the limit is refused before it is sent.
  const std::string refusal = raw_exchange(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n");
  CHECK_THAT(refusal, Catch::StartsWith("HTTP/1.1 413"));

  const std::string bad = raw_exchange(port, "this is not HTTP\r\n\r\n");
  CHECK_THAT(bad, Catch::StartsWith("HTTP/1.1 400"));
  CHECK_THAT(bad, Catch::Contains("a malformed HTTP request"));

  const Reply escape = http_get(port, "/?a=%4");
  CHECK(escape.status == 400);
  CHECK_THAT(escape.body, Catch::Contains("a bad escape \\\"%4\\\" in the query"));

  const Reply thrown = http_get(port, "/throw");
  CHECK(thrown.status == 500);
  CHECK(json::parse(thrown.body)["error"] == "the server failed: the handler broke");
  CHECK(http_get(port, "/after").status == 200);  // the server goes on
}

TEST_CASE("http server: unfinished requests are closed at their timeout and hold up no one", "[ladder]") {
  auto server = start(small_limits());
  const std::uint16_t port = server->local().port;
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 64; ++i) {
    slow.push_back(std::make_unique<RawConnection>(port));
    REQUIRE(slow.back()->connected());
    REQUIRE(slow.back()->send("GET /slow HTTP/1.1\r\nHost: x\r\n"));  // never finished
  }
  const Reply other = http_get(port, "/other");
  CHECK(other.status == 200);
  for (auto& c : slow) {
    const auto [got, closed] = c->read_until_closed(std::chrono::seconds(60));
    CHECK(closed);       // the server gave up on it (its read timeout is 1 s)
    CHECK(got.empty());  // without an answer: there was no request to answer
  }
  server->stop();
  CHECK(http_get(port, "/stopped").status == 0);
}

TEST_CASE("http server: --listen's address", "[ladder]") {
  auto e = web::parse_listen("8080");
  REQUIRE(e);
  CHECK(e->host == "127.0.0.1");
  CHECK(e->port == 8080);
  e = web::parse_listen("0.0.0.0:81");
  REQUIRE(e);
  CHECK(e->host == "0.0.0.0");
  CHECK(e->port == 81);
  e = web::parse_listen("[::1]:0");
  REQUIRE(e);
  CHECK(e->host == "::1");
  CHECK(e->port == 0);
  for (const char* bad : {"", ":80", "host:", "127.0.0.1:65536", "127.0.0.1:http", "1234567"}) {
    INFO(bad);
    auto r = web::parse_listen(bad);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("--listen"));
  }
  auto not_ip = web::HttpServer::start(web::Endpoint{"localhost", 0}, echo);
  REQUIRE_FALSE(not_ip);
  CHECK_THAT(not_ip.error(), Catch::Contains("not an IP address"));
  auto first = start({});
  auto taken = web::HttpServer::start(web::Endpoint{"127.0.0.1", first->local().port}, echo);
  REQUIRE_FALSE(taken);
  CHECK_THAT(taken.error(), Catch::Contains("cannot listen on 127.0.0.1:" + std::to_string(first->local().port)));
}

TEST_CASE("http server: a handler that does not return holds up no other request", "[ladder]") {
  web::ServerLimits limits;
  limits.threads = 1;  // the one thread that reads connections stays free
  auto server = start(limits);
  const std::uint16_t port = server->local().port;
  std::thread slow([port] { CHECK(http_get(port, "/block").status == 200); });
  REQUIRE(wait_for([] { return blocked.load(); }));
  const Reply other = http_get(port, "/other");  // answered while /block's handler waits
  CHECK(other.status == 200);
  release.set_value();
  slow.join();
}
