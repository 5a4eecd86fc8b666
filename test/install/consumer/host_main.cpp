// A host program built against the installed package: a static layout, evaluated by the compiler.
#include <cute_dsl/cute_dsl.hpp>

#include <cstdio>

int main() {
  using namespace cute_dsl;
  constexpr auto layout = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  constexpr int offset = layout(make_coord(Int<3>{}, Int<5>{}));
  static_assert(offset == 29);
  const int a = 3, b = 5;  // and at run time
  std::printf("consumer: (4,8):(8,1) at (3,5) is %d\n", int(layout(make_coord(a, b))));
  return int(layout(make_coord(a, b))) == offset ? 0 : 1;
}
