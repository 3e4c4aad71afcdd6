#pragma once
// A league worker pinned to one CPU, with the bots it starts (a new process inherits the CPU set
// of the thread that started it): a referee thread and its bots then hand the turn to each other
// on one core, instead of waking each other across cores, which on a 2-vCPU VM made a league of
// instant bots run at half the speed and its speed vary by 2x from run to run (docs/league.md,
// "Pinned workers"). A performance setting, not containment: a bot may widen its own set again.

#include <cstddef>

namespace arena::bots {

// Pins the calling thread to the `index`-th (round robin) of the CPUs the process may use (its
// main thread's set). Returns that CPU, or -1 when the set could not be read or changed (the
// thread then runs where it did).
int pin_thread_to_cpu(std::size_t index);

}  // namespace arena::bots
