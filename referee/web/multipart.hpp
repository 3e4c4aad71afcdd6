#pragma once
// A strict reader of multipart/form-data bodies (RFC 7578), what a browser's form or
// `referee ladder submit --server` sends to POST /api/v1/submit. Beast parses HTTP but not form
// data. Strict: the boundary comes from the Content-Type header and must be 1 to 70 characters;
// every part has CRLF line ends, a `Content-Disposition: form-data; name="..."` header (an
// optional filename), at most a few short headers, and a name given once; the body ends with the
// closing delimiter (a preamble and an epilogue are allowed, as the RFC says). Past the limits,
// or on any departure, the error names the problem; nothing is guessed.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "referee/core/result.hpp"

namespace arena::web {

struct FormPart {
  std::string name;
  std::optional<std::string> filename;  // present when the part is a file (may be empty)
  std::string content_type;             // "" when the part has none
  std::string data;
};

struct FormLimits {
  std::size_t parts = 8;                 // parts in the body
  std::size_t part_header_bytes = 1024;  // one part's headers together
};

// The form's parts by name, from the request's Content-Type header and its body.
Result<std::map<std::string, FormPart>> parse_form_data(std::string_view content_type, std::string_view body,
                                                        const FormLimits& limits = {});

// A multipart/form-data body of `parts` with `boundary` (which must not occur in any part's data);
// the other side of parse_form_data, for the client.
std::string form_data_body(const std::string& boundary, const std::map<std::string, FormPart>& parts);

}  // namespace arena::web
