// multipart/form-data (multipart.hpp).
#include "referee/web/multipart.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace arena::web {

namespace {

constexpr std::string_view kCrlf = "\r\n";

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A header value's parameters after its first ';': name=token or name="quoted" (a backslash
// escapes the next character). The value's first part goes to `head`.
Result<std::map<std::string, std::string>> parameters(std::string_view value, std::string& head) {
  std::map<std::string, std::string> out;
  const std::size_t semi = value.find(';');
  head = lower(trim(value.substr(0, semi)));
  std::size_t i = semi == std::string_view::npos ? value.size() : semi + 1;
  while (i < value.size()) {
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
    const std::size_t eq = value.find('=', i);
    if (eq == std::string_view::npos) return fail(fmt::format("a parameter without '=' in \"{}\"", value));
    const std::string name = lower(trim(value.substr(i, eq - i)));
    if (name.empty()) return fail(fmt::format("a parameter without a name in \"{}\"", value));
    std::string v;
    i = eq + 1;
    if (i < value.size() && value[i] == '"') {
      ++i;
      bool closed = false;
      while (i < value.size()) {
        const char c = value[i++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && i < value.size()) {
          v += value[i++];
        } else {
          v += c;
        }
      }
      if (!closed) return fail(fmt::format("an unclosed quote in \"{}\"", value));
    } else {
      const std::size_t end = value.find(';', i);
      v = std::string(trim(value.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i)));
      i = end == std::string_view::npos ? value.size() : end;
    }
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
    if (i < value.size()) {
      if (value[i] != ';') return fail(fmt::format("parameters must be separated by ';' in \"{}\"", value));
      ++i;
    }
    if (!out.emplace(name, std::move(v)).second)
      return fail(fmt::format("the parameter \"{}\" is given twice in \"{}\"", name, value));
  }
  return out;
}

bool boundary_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
         std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

Result<FormPart> read_part(std::string_view part, std::size_t index, const FormLimits& limits) {
  const std::size_t end = part.find("\r\n\r\n");
  if (end == std::string_view::npos || end > limits.part_header_bytes)
    return fail(fmt::format("part {}: its headers do not end with an empty line within {} bytes", index + 1,
                            limits.part_header_bytes));
  FormPart out;
  bool disposition = false;
  std::string_view headers = part.substr(0, end);
  while (!headers.empty()) {
    const std::size_t eol = headers.find(kCrlf);
    const std::string_view line = headers.substr(0, eol);
    headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 2);
    for (char c : line)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
        return fail(fmt::format("part {}: a control character in its headers", index + 1));
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return fail(fmt::format("part {}: the header line \"{}\" is not NAME: VALUE", index + 1, line));
    const std::string name = lower(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (name == "content-disposition") {
      if (disposition) return fail(fmt::format("part {}: two Content-Disposition headers", index + 1));
      disposition = true;
      std::string kind;
      auto params = parameters(value, kind);
      if (!params) return fail(fmt::format("part {}: Content-Disposition: {}", index + 1, params.error()));
      if (kind != "form-data")
        return fail(fmt::format("part {}: Content-Disposition is \"{}\", not form-data", index + 1, kind));
      for (auto& [key, v] : *params) {
        if (key == "name") {
          out.name = v;
        } else if (key == "filename") {
          out.filename = v;
        } else {
          return fail(fmt::format("part {}: Content-Disposition has an unknown parameter \"{}\"", index + 1, key));
        }
      }
      if (out.name.empty()) return fail(fmt::format("part {}: Content-Disposition has no name", index + 1));
    } else if (name == "content-type") {
      out.content_type = std::string(value);
    } else {
      return fail(fmt::format("part {}: an unexpected header \"{}\" (only Content-Disposition and Content-Type)",
                              index + 1, line.substr(0, colon)));
    }
  }
  if (!disposition) return fail(fmt::format("part {}: no Content-Disposition header", index + 1));
  out.data = std::string(part.substr(end + 4));
  return out;
}

}  // namespace

Result<std::map<std::string, FormPart>> parse_form_data(std::string_view content_type, std::string_view body,
                                                        const FormLimits& limits) {
  std::string kind;
  auto params = parameters(content_type, kind);
  if (!params) return fail(fmt::format("Content-Type: {}", params.error()));
  if (kind != "multipart/form-data") return fail(fmt::format("the body must be multipart/form-data, not \"{}\"", kind));
  const auto b = params->find("boundary");
  if (b == params->end()) return fail(std::string("Content-Type: multipart/form-data without a boundary"));
  const std::string& boundary = b->second;
  if (boundary.empty() || boundary.size() > 70 || boundary.back() == ' ')
    return fail(std::string("Content-Type: the boundary must be 1 to 70 characters, not ending with a space"));
  for (char c : boundary)
    if (!boundary_char(c)) return fail(std::string("Content-Type: the boundary has a character RFC 2046 forbids"));
  const std::string delimiter = "\r\n--" + boundary;
  // The first delimiter may start the body (no CRLF before it) or follow a preamble.
  std::size_t at;
  if (body.substr(0, delimiter.size() - 2) == std::string_view(delimiter).substr(2)) {
    at = delimiter.size() - 2;
  } else {
    const std::size_t first = body.find(delimiter);
    if (first == std::string_view::npos) return fail(std::string("the body holds no part (no boundary line)"));
    at = first + delimiter.size();
  }
  std::map<std::string, FormPart> out;
  for (std::size_t index = 0;; ++index) {
    // After a delimiter: "--" closes the body, else optional spaces then CRLF start a part.
    if (body.substr(at, 2) == "--") {
      if (index == 0) return fail(std::string("the body holds no part"));
      return out;
    }
    while (at < body.size() && (body[at] == ' ' || body[at] == '\t')) ++at;
    if (body.substr(at, 2) != kCrlf)
      return fail(fmt::format("part {}: its boundary line does not end with CRLF", index + 1));
    at += 2;
    if (index == limits.parts) return fail(fmt::format("the body has more than {} parts", limits.parts));
    const std::size_t next = body.find(delimiter, at);
    if (next == std::string_view::npos)
      return fail(fmt::format("part {}: the body ends before its closing boundary (truncated?)", index + 1));
    auto part = read_part(body.substr(at, next - at), index, limits);
    if (!part) return fail(part.error());
    std::string name = part->name;
    if (!out.emplace(name, std::move(*part)).second)
      return fail(fmt::format("part {}: the field \"{}\" is given twice", index + 1, name));
    at = next + delimiter.size();
  }
}

std::string form_data_body(const std::string& boundary, const std::map<std::string, FormPart>& parts) {
  // A quoted parameter: '"' and '\\' escaped, control characters (never in a header) as '_'.
  const auto quoted = [](const std::string& text) {
    std::string q;
    for (char c : text) {
      if (c == '"' || c == '\\') q += '\\';
      q += static_cast<unsigned char>(c) < 0x20 ? '_' : c;
    }
    return q;
  };
  std::string out;
  for (const auto& [name, part] : parts) {
    out += fmt::format("--{}\r\nContent-Disposition: form-data; name=\"{}\"", boundary, quoted(name));
    if (part.filename) out += fmt::format("; filename=\"{}\"", quoted(*part.filename));
    out += "\r\n";
    if (!part.content_type.empty()) out += fmt::format("Content-Type: {}\r\n", part.content_type);
    out += "\r\n";
    out += part.data;
    out += "\r\n";
  }
  out += fmt::format("--{}--\r\n", boundary);
  return out;
}

}  // namespace arena::web
