// The Python module stellar_arena (its compiled part, stellar_arena._core; the package's
// __init__.py adds the environment class): the rules library's Game with Python types. Views,
// actions, outcomes and configurations are dicts and lists, converted from and to the JSON the
// library speaks; stellar_arena.Error (a ValueError) carries the library's messages.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <string>

#include "stellar_arena/game.hpp"

namespace py = pybind11;
using stellar_arena::Game;
using stellar_arena::json;

namespace {

py::object to_python(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return py::none();
    case json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float:
      return py::float_(j.get<double>());
    case json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list out(j.size());
      std::size_t i = 0;
      for (const json& item : j) out[i++] = to_python(item);
      return out;
    }
    case json::value_t::object: {
      py::dict out;
      for (auto it = j.begin(); it != j.end(); ++it) out[py::str(it.key())] = to_python(it.value());
      return out;
    }
    case json::value_t::binary:
    case json::value_t::discarded:
      break;
  }
  return py::none();
}

json from_python(py::handle o) {
  if (o.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(o)) return o.cast<bool>();
  if (py::isinstance<py::int_>(o)) {
    const py::int_ i = py::reinterpret_borrow<py::int_>(o);
    if (i < py::int_(0)) return o.cast<std::int64_t>();
    return o.cast<std::uint64_t>();
  }
  if (py::isinstance<py::float_>(o)) {
    const double d = o.cast<double>();
    if (!std::isfinite(d)) throw py::value_error("JSON has no infinite or NaN numbers");
    return d;
  }
  if (py::isinstance<py::str>(o)) return o.cast<std::string>();
  if (py::isinstance<py::dict>(o)) {
    json out = json::object();
    for (auto item : py::reinterpret_borrow<py::dict>(o)) {
      if (!py::isinstance<py::str>(item.first)) throw py::type_error("a JSON object's keys are strings");
      out[item.first.cast<std::string>()] = from_python(item.second);
    }
    return out;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    json out = json::array();
    for (auto item : o) out.push_back(from_python(item));
    return out;
  }
  throw py::type_error("not a JSON value: " + std::string(py::str(o.get_type())));
}

py::list to_python_list(const std::vector<json>& items) {
  py::list out(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) out[i] = to_python(items[i]);
  return out;
}

std::vector<json> seat_configs_of(const py::object& given) {
  std::vector<json> out;
  if (given.is_none()) return out;
  for (auto item : given) out.push_back(from_python(item));
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The Stellar Arena referee's games as a library (docs/library.md)";
  py::register_exception<stellar_arena::Error>(m, "Error", PyExc_ValueError);

  m.def("game_names", &stellar_arena::game_names, "The games this module knows");

  py::class_<Game>(m, "Game")
      .def(py::init(
               [](const std::string& game, std::uint64_t seed, const py::object& config, const py::object& seat_configs,
                  int seats) { return Game(game, seed, from_python(config), seat_configs_of(seat_configs), seats); }),
           py::arg("game"), py::arg("seed"), py::arg("config") = py::none(), py::arg("seat_configs") = py::none(),
           py::arg("seats") = 0)
      .def_static("from_replay", &Game::from_replay, py::arg("path"), py::arg("step"))
      .def_static(
          "from_request",
          [](const std::string& game, const py::object& request, std::uint64_t seed, const py::object& config,
             const py::object& seat_configs) {
            return Game::from_request(game, from_python(request), seed, from_python(config),
                                      seat_configs_of(seat_configs));
          },
          py::arg("game"), py::arg("request"), py::arg("seed"), py::arg("config") = py::none(),
          py::arg("seat_configs") = py::none())
      .def_property_readonly("name", &Game::name)
      .def_property_readonly("seats", &Game::seats)
      .def_property_readonly("config", [](const Game& g) { return to_python(g.config()); })
      .def_property_readonly("seat_configs", [](const Game& g) { return to_python_list(g.seat_configs()); })
      .def_property_readonly("to_act", &Game::to_act)
      .def("is_over", &Game::is_over)
      .def("legal_actions", [](const Game& g) { return to_python_list(g.legal_actions()); })
      .def("legal_count", &Game::legal_count)
      .def(
          "apply", [](Game& g, const py::object& action) { g.apply(from_python(action)); }, py::arg("action"))
      .def("apply_index", &Game::apply_index, py::arg("index"))
      .def(
          "view", [](const Game& g, int seat, int protocol) { return to_python(g.view(seat, protocol)); },
          py::arg("seat"), py::arg("protocol") = 2)
      .def("view_text", &Game::view_text, py::arg("seat"), py::arg("protocol") = 2)
      .def(
          "card_table", [](const Game& g, int seat) { return to_python(g.card_table(seat)); }, py::arg("seat"))
      .def("view_hash", &Game::view_hash, py::arg("seat"))
      .def("state_hash", &Game::state_hash)
      .def("scores", &Game::scores)
      .def("outcome", [](const Game& g) { return to_python(g.outcome()); })
      .def("rollout", &Game::rollout, py::arg("seed"))
      .def("clone", &Game::clone)
      .def("__copy__", &Game::clone)
      .def("__deepcopy__", [](const Game& g, const py::object&) { return g.clone(); })
      .def("determinize", &Game::determinize, py::arg("seat"), py::arg("seed"));
}
