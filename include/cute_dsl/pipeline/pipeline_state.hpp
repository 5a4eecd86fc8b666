// Where a producer or consumer is in a circular buffer of `Stages` stages: the stage index, and
// the PHASE bit that says which pass over the buffer this is.
//
// Why the phase: an mbarrier is reused once per pass, and a waiter names the parity of the phase
// it waits for (arch/sm90/mbarrier.hpp). Stepping past the last stage wraps the index to 0 and
// flips the phase, so the same barrier is waited on with parity 0, 1, 0, ... on successive passes.
//
// The producer starts with phase 1: its first pass waits on EMPTY barriers that nobody has
// released yet, and waiting for parity 1 on a fresh barrier (phase 0 in progress) returns at once,
// which is exactly "all buffers start empty". Consumers start with phase 0: they wait for the
// first completion of the FULL barriers.
//
//   PipelineState<3> s;        // index 0, phase 0
//   ++s; ++s; ++s;             // index 0, phase 1, count 3
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::pipeline {

template <int Stages>
class PipelineState {
  static_assert(Stages >= 1, "PipelineState: a pipeline needs at least one stage");

 public:
  static constexpr int stages = Stages;

  constexpr PipelineState() = default;
  CUTE_DSL_HOST_DEVICE constexpr PipelineState(unsigned index, unsigned phase, unsigned count)
      : index_(index), phase_(phase), count_(count) {}

  // The stage (buffer and barrier pair) to use now, 0 .. Stages-1.
  CUTE_DSL_HOST_DEVICE constexpr unsigned index() const { return index_; }
  // The parity to wait for on this stage's barrier, 0 or 1.
  CUTE_DSL_HOST_DEVICE constexpr unsigned phase() const { return phase_; }
  // How many stages were stepped over since the start (for loop bounds and debugging).
  CUTE_DSL_HOST_DEVICE constexpr unsigned count() const { return count_; }

  CUTE_DSL_HOST_DEVICE constexpr PipelineState& operator++() {
    ++count_;
    if (++index_ == static_cast<unsigned>(Stages)) {
      index_ = 0;
      phase_ ^= 1u;
    }
    return *this;
  }
  CUTE_DSL_HOST_DEVICE constexpr PipelineState operator++(int) {
    PipelineState before = *this;
    ++*this;
    return before;
  }

  // Steps `n` stages at once (e.g. a consumer that trails the producer by n): the phase flips once
  // per wrap, so only the parity of the number of wraps matters.
  CUTE_DSL_HOST_DEVICE constexpr PipelineState& advance(unsigned n) {
    count_ += n;
    unsigned total = index_ + n;
    unsigned wraps = total / static_cast<unsigned>(Stages);
    index_ = total % static_cast<unsigned>(Stages);
    phase_ ^= (wraps & 1u);
    return *this;
  }

  CUTE_DSL_HOST_DEVICE friend constexpr bool operator==(const PipelineState& a, const PipelineState& b) {
    return a.index_ == b.index_ && a.phase_ == b.phase_ && a.count_ == b.count_;
  }

 private:
  unsigned index_ = 0;
  unsigned phase_ = 0;
  unsigned count_ = 0;
};

// The state a producer starts from: stage 0, phase 1 (all buffers start empty; see above).
template <int Stages>
CUTE_DSL_HOST_DEVICE constexpr PipelineState<Stages> make_producer_start_state() {
  return PipelineState<Stages>(0u, 1u, 0u);
}

// The state a consumer starts from: stage 0, phase 0.
template <int Stages>
CUTE_DSL_HOST_DEVICE constexpr PipelineState<Stages> make_consumer_start_state() {
  return PipelineState<Stages>(0u, 0u, 0u);
}

}  // namespace cute_dsl::pipeline
