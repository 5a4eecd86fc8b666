// gemm: C += A * B on register tensors, in CuTe's convention: A is (M,K), B is (N,K) (both
// K-last), C is (M,N), and C(m,n) += sum_k A(m,k) * B(n,k).
//
//   gemm(A, B, C)                       the universal FMA fallback, any element types that
//                                       multiply and add; ranks:
//                                         (M) x (N) => (M,N)        outer product
//                                         (M,K) x (N,K) => (M,N)
//   gemm(mma_atom, A, B, C)             dispatch to an MMA atom (below)
//   gemm(mma_atom, D, A, B, C)          D = A * B + C
//
// The MMA hook. An atom is any non-tensor object with a member
//     template <class TD, class TA, class TB, class TC>
//     void call(TD&& D, TA const& A, TB const& B, TC const& C) const;   // D = A * B + C
// that consumes one instruction's fragments: A, B, C, D are the value ("V") modes of the
// partitioned register tensors. gemm walks the other modes:
//     (V) x (V) => (V)                  one call
//     (V,M) x (V,N) => (V,M,N)          a call per (m, n)
//     (V,M,K) x (V,N,K) => (V,M,N)      for each k, a call per (m, n)
// The (m, n) loop runs n in serpentine order (n reversed on odd m) so that consecutive calls
// share a B fragment, as CuTe does to let the register allocator reuse it. MMA atoms
// (atom/mma*.hpp) provide call(); this header does not know any of them.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

// ---- the universal FMA fallback ----------------------------------------------------------------

template <class TA, class TB, class TC>
  requires(is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
CUTE_DSL_HOST_DEVICE constexpr void gemm(TA const& A, TB const& B, TC&& C) {
  constexpr int ra = remove_cvref_t<TA>::rank, rb = remove_cvref_t<TB>::rank, rc = remove_cvref_t<TC>::rank;
  static_assert(rc == 2, "gemm: C must be (M,N)");
  static_assert((ra == 1 && rb == 1) || (ra == 2 && rb == 2), "gemm: A and B must be (M) and (N), or (M,K) and (N,K)");
  const int M = int(size<0>(C)), N = int(size<1>(C));
  if constexpr (ra == 1) {
    CUTE_DSL_UNROLL
    for (int m = 0; m < M; ++m) {
      CUTE_DSL_UNROLL
      for (int n = 0; n < N; ++n) C(m, n) += A(m) * B(n);
    }
  } else {
    const int K = int(size<1>(A));
    CUTE_DSL_UNROLL
    for (int k = 0; k < K; ++k) {
      CUTE_DSL_UNROLL
      for (int m = 0; m < M; ++m) {
        CUTE_DSL_UNROLL
        for (int n = 0; n < N; ++n) C(m, n) += A(m, k) * B(n, k);
      }
    }
  }
}

// ---- the MMA-atom hook ---------------------------------------------------------------------------

template <class Atom, class TD, class TA, class TB, class TC>
  requires(!is_tensor_v<Atom> && is_tensor_v<TD> && is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
CUTE_DSL_HOST_DEVICE constexpr void gemm(Atom const& atom, TD&& D, TA const& A, TB const& B, TC const& C) {
  constexpr int ra = remove_cvref_t<TA>::rank, rb = remove_cvref_t<TB>::rank, rd = remove_cvref_t<TD>::rank;
  if constexpr (ra == 1) {
    static_assert(rb == 1 && rd == 1, "gemm(atom): (V) x (V) => (V) needs rank-1 B, C and D");
    atom.call(D, A, B, C);
  } else if constexpr (ra == 2) {
    static_assert(rb == 2 && rd == 3, "gemm(atom): (V,M) x (V,N) => (V,M,N)");
    const int M = int(size<1>(A)), N = int(size<1>(B));
    CUTE_DSL_UNROLL
    for (int m = 0; m < M; ++m) {
      CUTE_DSL_UNROLL
      for (int i = 0; i < N; ++i) {
        const int n = (m & 1) ? N - 1 - i : i;  // serpentine: keep B(_, n) live across m
        atom.call(D(_, m, n), A(_, m), B(_, n), C(_, m, n));
      }
    }
  } else {
    static_assert(ra == 3 && rb == 3 && rd == 3, "gemm(atom): (V,M,K) x (V,N,K) => (V,M,N)");
    const int K = int(size<2>(A));
    CUTE_DSL_UNROLL
    for (int k = 0; k < K; ++k) {
      // After the first k-block the accumulator is D itself.
      if (k == 0) gemm(atom, D, A(_, _, k), B(_, _, k), C);
      else gemm(atom, D, A(_, _, k), B(_, _, k), D);
    }
  }
}

template <class Atom, class TA, class TB, class TC>
  requires(!is_tensor_v<Atom> && is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
CUTE_DSL_HOST_DEVICE constexpr void gemm(Atom const& atom, TA const& A, TB const& B, TC&& C) {
  gemm(atom, C, A, B, C);
}

}  // namespace cute_dsl
