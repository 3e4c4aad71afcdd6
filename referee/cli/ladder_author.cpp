// `referee ladder author add|list`: the web API's accounts (docs/ladder.md "Accounts and tokens").
// An account's name is an author's name, the one `ladder submit --author` writes on bots.
#include <fmt/format.h>

#include "referee/cli/ladder_cmd.hpp"
#include "referee/core/markup.hpp"
#include "referee/league/deal.hpp"
#include "referee/web/tokens.hpp"

namespace arena::cli {

int run_ladder_author_add(const LadderArgs& a) {
  if (auto st = check_name(a.name, "the account's name"); !st) return ladder_fails("author add", kUsage, st.error());
  int exit = kFinished;
  auto store = open_ladder_store(a, false, exit);
  if (!store) return ladder_fails("author add", exit, store.error());
  auto authors = (*store)->authors();
  if (!authors) return ladder_fails("author add", kDatabase, authors.error());
  for (const ladder::AuthorRow& r : *authors) {
    if (r.name == a.name) {
      say("referee ladder author add: the ladder has an account \"{}\" already; nothing changed\n", a.name);
      return kUsage;
    }
  }
  auto token = web::new_token();
  if (!token) return ladder_fails("author add", kDatabase, token.error());
  ladder::AuthorRow row{a.name, web::token_hash(*token), a.organiser, league::unix_ms()};
  if (auto st = (*store)->add_author(row); !st) return ladder_fails("author add", kDatabase, st.error());
  say("referee ladder author add: {} \"{}\" added; its token follows, shown this once (only its hash is kept):\n",
      a.organiser ? "the organiser's account" : "the author", a.name);
  say_to(stdout, "{}\n", *token);
  return kFinished;
}

int run_ladder_author_list(const LadderArgs& a) {
  int exit = kFinished;
  auto store = open_ladder_store(a, false, exit);
  if (!store) return ladder_fails("author list", exit, store.error());
  auto authors = (*store)->authors();
  if (!authors) return ladder_fails("author list", kDatabase, authors.error());
  say_to(stdout, "{:<24} {}\n", "account", "role");
  for (const ladder::AuthorRow& r : *authors)
    say_to(stdout, "{:<24} {}\n", terminal_safe(r.name), r.organiser ? "organiser" : "author");
  return kFinished;
}

}  // namespace arena::cli
