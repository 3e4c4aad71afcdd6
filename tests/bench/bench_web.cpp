// The ladder's HTTP API under load (referee/web): a SQLite ladder seeded with V active versions
// (default 1,000) and G counted games (default 100,000), served in this process on loopback by the
// same server and API as `referee ladder serve`; C client threads (default 2 and 8), each on one
// keep-alive connection, request a path for D seconds (default 3). Prints requests/s and the
// latency (p50, p99) for the leaderboard (refitted once at the first request, then read from the
// fitted board) as JSON and as the page, the recent matches, the status, and one bot's page as JSON
// and as HTML (its head-to-head records tallied from every game at the first request; its rating
// history seeded with 1,000 rows, of which the page draws 200).
//
//   bench_web [--versions V] [--games G] [--seconds D]
//
// A benchmark prints figures; it never fails on speed.
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's asio/awaitable.hpp needs std::exchange under C++20

#include "referee/ladder/config.hpp"
#include "referee/web/api.hpp"
#include "tests/bench/ladder_seed.hpp"

using namespace arena;
using namespace arena::bench;
namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using Clock = std::chrono::steady_clock;

namespace {

struct Load {
  std::size_t requests = 0;
  std::size_t bytes = 0;
  std::vector<double> latency_us;
};

// One client: a keep-alive connection requesting `target` until `until` (once at least).
Load client(std::uint16_t port, const std::string& target, Clock::time_point until) {
  Load out;
  asio::io_context ioc;
  asio::ip::tcp::socket socket(ioc);
  socket.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  socket.set_option(asio::ip::tcp::no_delay(true));
  http::request<http::empty_body> req(http::verb::get, target, 11);
  req.set(http::field::host, "127.0.0.1");
  beast::flat_buffer buffer;
  do {  // at least one request
    const auto t = Clock::now();
    http::write(socket, req);
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{1} << 30);
    http::read(socket, buffer, parser);
    if (parser.get().result_int() != 200) die(fmt::format("{} answered {}", target, parser.get().result_int()));
    out.latency_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
    out.bytes += parser.get().body().size();
    ++out.requests;
  } while (Clock::now() < until);
  return out;
}

void run_load(std::uint16_t port, const std::string& target, int clients, double seconds) {
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<Load> loads(static_cast<std::size_t>(clients));
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (int c = 0; c < clients; ++c)
    threads.emplace_back([&, c] { loads[static_cast<std::size_t>(c)] = client(port, target, until); });
  for (auto& t : threads) t.join();
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  Load all;
  for (const Load& l : loads) {
    all.requests += l.requests;
    all.bytes += l.bytes;
    all.latency_us.insert(all.latency_us.end(), l.latency_us.begin(), l.latency_us.end());
  }
  std::sort(all.latency_us.begin(), all.latency_us.end());
  const auto at = [&](double q) {
    return all.latency_us[static_cast<std::size_t>(q * double(all.latency_us.size() - 1))];
  };
  fmt::print(
      "{:<34} c={:<2} {:>7} requests in {:.2f} s = {:>8.0f} req/s, {:>7.0f} KiB a response; p50 {:.0f} us, p99 {:.0f} "
      "us\n",
      target, clients, all.requests, took, double(all.requests) / took,
      double(all.bytes) / double(std::max<std::size_t>(1, all.requests)) / 1024.0, at(0.5), at(0.99));
}

}  // namespace

int main(int argc, char** argv) {
  int versions = 1000;
  std::int64_t games = 100000;
  double seconds = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--versions" && i + 1 < argc) {
      versions = std::stoi(argv[++i]);
    } else if (a == "--games" && i + 1 < argc) {
      games = std::stoll(argv[++i]);
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else {
      fmt::print(stderr, "usage: bench_web [--versions V] [--games G] [--seconds D]\n");
      return 2;
    }
  }
  std::string templ = (fs::temp_directory_path() / "bench-web-XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr) return 1;
  const ladder::Location where{templ, ""};
  {
    auto store = open_or_die(where);
    std::vector<ladder::Id> ids;
    for (int v = 0; v < versions; ++v) ids.push_back(active(*store, "bot" + std::to_string(v)));
    seed_games(*store, ids, games);
    // bot0's rating history: a row per refit, its interval narrowing.
    std::vector<ladder::RatingRow> history;
    for (int i = 1; i <= 1000; ++i) {
      const double half = 400.0 / std::sqrt(static_cast<double>(i));
      history.push_back(ladder::RatingRow{ids[0], 10, 10 - half, 10 + half, static_cast<std::uint64_t>(i),
                                          1'700'000'000'000 + i * 60'000});
    }
    if (auto st = store->add_ratings(history); !st) die(st.error());
  }
  ladder::LadderConfig config;
  config.game = "stellar";
  auto api = std::make_shared<web::Api>(open_or_die(where), must(ladder::normalize(config)));
  auto server = must(
      web::HttpServer::start(web::Endpoint{"127.0.0.1", 0}, [api](const web::Request& r) { return api->handle(r); }));
  const std::uint16_t port = server->local().port;
  fmt::print("bench_web: {} versions, {} games, {} cores, {} s a run\n", versions, games,
             std::thread::hardware_concurrency(), seconds);
  const auto t = Clock::now();
  run_load(port, "/api/v1/leaderboard", 1, 0);  // one request: the first fit
  fmt::print("first leaderboard (reads every game, fits): {:.2f} s\n",
             std::chrono::duration<double>(Clock::now() - t).count());
  const auto b = Clock::now();
  run_load(port, "/api/v1/bots/bot0", 1, 0);  // one request: the head-to-head tally of every game
  fmt::print("first bot page (reads every game, tallies head to head): {:.2f} s\n",
             std::chrono::duration<double>(Clock::now() - b).count());
  for (const char* target :
       {"/api/v1/leaderboard", "/", "/api/v1/matches", "/api/v1/status", "/api/v1/bots/bot0", "/bots/bot0"})
    for (int clients : {2, 8}) run_load(port, target, clients, seconds);
  server->stop();
  std::error_code ec;
  fs::remove_all(templ, ec);
  return 0;
}
