// The pieces of POST /api/v1/submit that need no ladder: the multipart/form-data reader
// (referee/web/multipart.hpp) on well-formed and hostile bodies, one source file made a
// submission (submission.hpp), --server's address (client.hpp), and the server's larger body
// limit for the upload path only (http_server.hpp).

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "referee/web/client.hpp"
#include "referee/web/http_server.hpp"
#include "referee/web/multipart.hpp"
#include "referee/web/submission.hpp"
#include "tests/web/http_client.hpp"

using namespace arena;
using namespace arena::web;
using namespace arena::testing;

namespace {

const std::string kType = "multipart/form-data; boundary=XyZ";

std::string part(const std::string& headers, const std::string& data) {
  return "--XyZ\r\n" + headers + "\r\n\r\n" + data + "\r\n";
}

std::string form_error(const std::string& type, const std::string& body, const FormLimits& limits = {}) {
  auto parsed = parse_form_data(type, body, limits);
  REQUIRE_FALSE(parsed);
  return parsed.error();
}

}  // namespace

TEST_CASE("form data: fields and files read back as written, binary data kept", "[web]") {
  std::map<std::string, FormPart> parts;
  parts["name"] = FormPart{"name", std::nullopt, "", "my-bot"};
  const std::string binary("\0\r\n--XyZ-not-a-boundary\r\n\xff", 26);
  parts["file"] = FormPart{"file", "a \"quoted\" name.tar", "application/octet-stream", binary};
  const std::string body = form_data_body("b0und", parts);
  auto read = parse_form_data("multipart/form-data; boundary=\"b0und\"", body);
  REQUIRE(read);
  REQUIRE(read->size() == 2);
  CHECK(read->at("name").data == "my-bot");
  CHECK_FALSE(read->at("name").filename);
  CHECK(read->at("file").data == binary);
  CHECK(read->at("file").filename == std::string("a \"quoted\" name.tar"));
  CHECK(read->at("file").content_type == "application/octet-stream");

  // A preamble and an epilogue are allowed; the header names in any case.
  auto browser = parse_form_data(
      "Multipart/Form-Data; charset=utf-8; boundary=XyZ",
      "preamble\r\n" + part("content-disposition: form-data; name=\"language\"", "python") + "--XyZ--\r\nepilogue");
  REQUIRE(browser);
  CHECK(browser->at("language").data == "python");
}

TEST_CASE("form data: hostile and malformed bodies are refused with the problem named", "[web]") {
  const std::string name = part("Content-Disposition: form-data; name=\"name\"", "x");
  CHECK_THAT(form_error("application/json", "{}"), Catch::Contains("must be multipart/form-data"));
  CHECK_THAT(form_error("multipart/form-data", name), Catch::Contains("without a boundary"));
  CHECK_THAT(form_error("multipart/form-data; boundary=" + std::string(71, 'a'), name),
             Catch::Contains("1 to 70 characters"));
  CHECK_THAT(form_error("multipart/form-data; boundary=\"a\x01\"", name), Catch::Contains("forbids"));
  CHECK_THAT(form_error("multipart/form-data; boundary=\"XyZ", name), Catch::Contains("unclosed quote"));
  CHECK_THAT(form_error("multipart/form-data; boundary=XyZ; boundary=Q", name), Catch::Contains("given twice"));
  CHECK_THAT(form_error(kType, ""), Catch::Contains("no part"));
  CHECK_THAT(form_error(kType, "--XyZ--\r\n"), Catch::Contains("no part"));
  CHECK_THAT(form_error(kType, name), Catch::Contains("truncated"));  // no closing boundary
  CHECK_THAT(form_error(kType, "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n--XyZ--"),
             Catch::Contains("empty line"));
  CHECK_THAT(form_error(kType, "--XyZjunk\r\n" + name + "--XyZ--"), Catch::Contains("CRLF"));
  CHECK_THAT(form_error(kType, name + name + "--XyZ--"), Catch::Contains("\"name\" is given twice"));
  // One part with these headers: the error names the problem.
  const std::vector<std::pair<std::string, std::string>> one_part = {
      {"Content-Type: text/plain", "no Content-Disposition"},
      {"Content-Disposition: attachment; name=\"a\"", "not form-data"},
      {"Content-Disposition: form-data; filename=\"f\"", "has no name"},
      {"Content-Disposition: form-data; name=\"a\"; evil=\"1\"", "unknown parameter \"evil\""},
      {"Content-Disposition: form-data; name=\"a\"\r\nX-Evil: 1", "unexpected header \"X-Evil\""},
      {"Content-Disposition: form-data; name=\"a\x01\"", "control character"},
      {"Content-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"",
       "two Content-Disposition"},
      {"no colon here", "NAME: VALUE"}};
  for (const auto& [headers, problem] : one_part) {
    INFO(headers);
    CHECK_THAT(form_error(kType, part(headers, "x") + "--XyZ--"), Catch::Contains(problem));
  }
  // Limits: parts, and one part's headers.
  std::string many;
  for (int i = 0; i < 9; ++i) many += part("Content-Disposition: form-data; name=\"f" + std::to_string(i) + "\"", "x");
  CHECK_THAT(form_error(kType, many + "--XyZ--"), Catch::Contains("more than 8 parts"));
  FormLimits small;
  small.part_header_bytes = 40;
  CHECK_THAT(form_error(kType, name + "--XyZ--", small), Catch::Contains("within 40 bytes"));
}

TEST_CASE("one source file as a submission: its bot.json written, its name checked", "[web]") {
  ladder::ArchiveLimits limits;
  auto sub = single_file_submission("main.py", "print(1)\n", ladder::Language::python, limits);
  REQUIRE(sub);
  CHECK(sub->manifest.language == ladder::Language::python);
  CHECK(sub->manifest.main == "main.py");
  REQUIRE(sub->files.find("main.py") != nullptr);
  CHECK(sub->files.find("main.py")->data == "print(1)\n");
  for (const std::string& bad :
       std::vector<std::string>{"", "../x.py", "a/b.py", "..", std::string("a\nb.py"), std::string(256, 'a')}) {
    auto refused = single_file_submission(bad, "x", ladder::Language::python, limits);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().problem == ladder::ArchiveProblem::bad_name);
  }
  auto manifest = single_file_submission("bot.json", "{}", ladder::Language::python, limits);
  REQUIRE_FALSE(manifest);
  CHECK(manifest.error().problem == ladder::ArchiveProblem::bad_manifest);
  limits.max_file_bytes = 4;
  auto big = single_file_submission("bot.py", "12345", ladder::Language::python, limits);
  REQUIRE_FALSE(big);
  CHECK(big.error().problem == ladder::ArchiveProblem::file_too_large);
  CHECK(check_name("ok-bot.1", "--name"));
  CHECK_FALSE(check_name("<script>", "--name"));
  CHECK_FALSE(check_name(".hidden", "--name"));
}

TEST_CASE("the client: --server's http addresses read, others refused with the reason", "[web]") {
  auto url = parse_url("http://127.0.0.1:8080");
  REQUIRE(url);
  CHECK(url->host == "127.0.0.1");
  CHECK(url->port == 8080);
  CHECK(url->prefix.empty());
  url = parse_url("http://[::1]:9000/ladder/");
  REQUIRE(url);
  CHECK(url->host == "::1");
  CHECK(url->port == 9000);
  CHECK(url->prefix == "/ladder");
  url = parse_url("http://localhost");
  REQUIRE(url);
  CHECK(url->port == 80);
  CHECK_THAT(parse_url("https://ladder.example.org").error(), Catch::Contains("http://"));
  CHECK_THAT(parse_url("http://:80").error(), Catch::Contains("no host"));
  CHECK_THAT(parse_url("http://h:99999").error(), Catch::Contains("1 to 65535"));
  CHECK_THAT(parse_url("http://user@h").error(), Catch::Contains("no host"));
  CHECK_THAT(parse_url("http://h/x?y").error(), Catch::Contains("query"));
}

TEST_CASE("the server: the upload path alone takes the larger body, announced or sent", "[web]") {
  ServerLimits limits;
  limits.body_bytes = 1000;
  limits.upload_path = "/up";
  limits.upload_bytes = 5000;
  auto server = HttpServer::start(
      Endpoint{"127.0.0.1", 0},
      [](const Request& r) {
        Response out;
        out.body = std::to_string(r.body.size());
        return out;
      },
      limits);
  REQUIRE(server);
  const std::uint16_t port = (*server)->local().port;
  CHECK(http_request(port, "POST", "/up", {}, std::string(4000, 'a')).body == "4000");
  const Reply over = http_request(port, "POST", "/up", {}, std::string(6000, 'a'));
  CHECK(over.status == 413);
  CHECK_THAT(over.body, Catch::Contains("5000 bytes"));
  CHECK(http_request(port, "POST", "/other", {}, std::string(4000, 'a')).status == 413);
  CHECK(http_request(port, "GET", "/up", {}, std::string(4000, 'a')).status == 413);  // POST only
  CHECK_THAT(raw_exchange(port, "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\n"),
             Catch::Contains("413"));
  CHECK_THAT(raw_exchange(port, "POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n"),
             Catch::Contains("413"));
  // Chunked: no length announced, the limit counts what arrives.
  const std::string chunk = "800\r\n" + std::string(0x800, 'a') + "\r\n";
  CHECK_THAT(
      raw_exchange(port, "POST /other HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + "0\r\n\r\n"),
      Catch::Contains("413"));
  CHECK_THAT(raw_exchange(port,
                          "POST /up HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: "
                          "chunked\r\n\r\n" +
                              chunk + "0\r\n\r\n"),
             Catch::Contains("2048"));
}
