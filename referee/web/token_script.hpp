#pragma once
// The script the ladder's pages share to act with an author's or the organiser's token: the key
// under which a tab keeps an accepted token (the submit page keeps it, the bot and account pages
// use it), the API read with the token as a Bearer header, and the wiring of a token form.

#include <string_view>

namespace arena::web {

inline constexpr std::string_view kTokenScriptJs = R"(
  const kTokenKey = 'arena-ladder-token';
  // The answer's JSON, or an Error naming the status and the server's message.
  async function read(path, token) {
    const answer = await fetch(path, { headers: { Authorization: 'Bearer ' + token }, cache: 'no-store' });
    const body = await answer.json();
    if (!answer.ok) throw new Error(answer.status + ': ' + body.error);
    return body;
  }
  // Calls show(token) with the token typed into the form (its field #token), and at once with the
  // token this tab kept, put in the field.
  function withToken(form, show) {
    const field = document.getElementById('token');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      show(field.value.trim());
    });
    const kept = sessionStorage.getItem(kTokenKey);
    if (kept) {
      field.value = kept;
      show(kept);
    }
  }
)";

}  // namespace arena::web
