// Operand-list tables for the wgmma wrappers (arch/sm90/wgmma.hpp): inline asm needs its
// template text as a string literal and one constraint per register, so the 4..128 accumulator
// registers of m64nNk16 (N/2 floats per thread) are spelled out here once, by the preprocessor,
// instead of in 32 hand-written asm statements per instruction.
//
//   CUTE_DSL_WGMMA_D<R>        "%0, %1, ..., %(R-1)": the accumulator registers in the PTX text
//   CUTE_DSL_WGMMA_OPS<R>(d)   "+f"(d[0]), ..., "+f"(d[R-1]): the matching asm outputs
//   CUTE_DSL_WGMMA_AFTER<R>(F, args...)
//                              F(args..., R, R+1, ..., R+8): the numbers of the (up to 9) input
//                              operands that follow R outputs (asm numbers outputs first)
//
// R is a multiple of 4 (N is a multiple of 8). Each table extends the previous entry by four, so
// a typo shows up in every larger N at once (test/mma_atom checks N = 8 .. 256 through ptxas).
#pragma once

#include "cute_dsl/config.hpp"  // the C++20 check, like every public header

#define CUTE_DSL_WGMMA_D4 "%0, %1, %2, %3"
#define CUTE_DSL_WGMMA_D8 CUTE_DSL_WGMMA_D4 ", %4, %5, %6, %7"
#define CUTE_DSL_WGMMA_D12 CUTE_DSL_WGMMA_D8 ", %8, %9, %10, %11"
#define CUTE_DSL_WGMMA_D16 CUTE_DSL_WGMMA_D12 ", %12, %13, %14, %15"
#define CUTE_DSL_WGMMA_D20 CUTE_DSL_WGMMA_D16 ", %16, %17, %18, %19"
#define CUTE_DSL_WGMMA_D24 CUTE_DSL_WGMMA_D20 ", %20, %21, %22, %23"
#define CUTE_DSL_WGMMA_D28 CUTE_DSL_WGMMA_D24 ", %24, %25, %26, %27"
#define CUTE_DSL_WGMMA_D32 CUTE_DSL_WGMMA_D28 ", %28, %29, %30, %31"
#define CUTE_DSL_WGMMA_D36 CUTE_DSL_WGMMA_D32 ", %32, %33, %34, %35"
#define CUTE_DSL_WGMMA_D40 CUTE_DSL_WGMMA_D36 ", %36, %37, %38, %39"
#define CUTE_DSL_WGMMA_D44 CUTE_DSL_WGMMA_D40 ", %40, %41, %42, %43"
#define CUTE_DSL_WGMMA_D48 CUTE_DSL_WGMMA_D44 ", %44, %45, %46, %47"
#define CUTE_DSL_WGMMA_D52 CUTE_DSL_WGMMA_D48 ", %48, %49, %50, %51"
#define CUTE_DSL_WGMMA_D56 CUTE_DSL_WGMMA_D52 ", %52, %53, %54, %55"
#define CUTE_DSL_WGMMA_D60 CUTE_DSL_WGMMA_D56 ", %56, %57, %58, %59"
#define CUTE_DSL_WGMMA_D64 CUTE_DSL_WGMMA_D60 ", %60, %61, %62, %63"
#define CUTE_DSL_WGMMA_D68 CUTE_DSL_WGMMA_D64 ", %64, %65, %66, %67"
#define CUTE_DSL_WGMMA_D72 CUTE_DSL_WGMMA_D68 ", %68, %69, %70, %71"
#define CUTE_DSL_WGMMA_D76 CUTE_DSL_WGMMA_D72 ", %72, %73, %74, %75"
#define CUTE_DSL_WGMMA_D80 CUTE_DSL_WGMMA_D76 ", %76, %77, %78, %79"
#define CUTE_DSL_WGMMA_D84 CUTE_DSL_WGMMA_D80 ", %80, %81, %82, %83"
#define CUTE_DSL_WGMMA_D88 CUTE_DSL_WGMMA_D84 ", %84, %85, %86, %87"
#define CUTE_DSL_WGMMA_D92 CUTE_DSL_WGMMA_D88 ", %88, %89, %90, %91"
#define CUTE_DSL_WGMMA_D96 CUTE_DSL_WGMMA_D92 ", %92, %93, %94, %95"
#define CUTE_DSL_WGMMA_D100 CUTE_DSL_WGMMA_D96 ", %96, %97, %98, %99"
#define CUTE_DSL_WGMMA_D104 CUTE_DSL_WGMMA_D100 ", %100, %101, %102, %103"
#define CUTE_DSL_WGMMA_D108 CUTE_DSL_WGMMA_D104 ", %104, %105, %106, %107"
#define CUTE_DSL_WGMMA_D112 CUTE_DSL_WGMMA_D108 ", %108, %109, %110, %111"
#define CUTE_DSL_WGMMA_D116 CUTE_DSL_WGMMA_D112 ", %112, %113, %114, %115"
#define CUTE_DSL_WGMMA_D120 CUTE_DSL_WGMMA_D116 ", %116, %117, %118, %119"
#define CUTE_DSL_WGMMA_D124 CUTE_DSL_WGMMA_D120 ", %120, %121, %122, %123"
#define CUTE_DSL_WGMMA_D128 CUTE_DSL_WGMMA_D124 ", %124, %125, %126, %127"
#define CUTE_DSL_WGMMA_OPS4(d) "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
#define CUTE_DSL_WGMMA_OPS8(d) CUTE_DSL_WGMMA_OPS4(d), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
#define CUTE_DSL_WGMMA_OPS12(d) CUTE_DSL_WGMMA_OPS8(d), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
#define CUTE_DSL_WGMMA_OPS16(d) CUTE_DSL_WGMMA_OPS12(d), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define CUTE_DSL_WGMMA_OPS20(d) CUTE_DSL_WGMMA_OPS16(d), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19])
#define CUTE_DSL_WGMMA_OPS24(d) CUTE_DSL_WGMMA_OPS20(d), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
#define CUTE_DSL_WGMMA_OPS28(d) CUTE_DSL_WGMMA_OPS24(d), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27])
#define CUTE_DSL_WGMMA_OPS32(d) CUTE_DSL_WGMMA_OPS28(d), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define CUTE_DSL_WGMMA_OPS36(d) CUTE_DSL_WGMMA_OPS32(d), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
#define CUTE_DSL_WGMMA_OPS40(d) CUTE_DSL_WGMMA_OPS36(d), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
#define CUTE_DSL_WGMMA_OPS44(d) CUTE_DSL_WGMMA_OPS40(d), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43])
#define CUTE_DSL_WGMMA_OPS48(d) CUTE_DSL_WGMMA_OPS44(d), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
#define CUTE_DSL_WGMMA_OPS52(d) CUTE_DSL_WGMMA_OPS48(d), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51])
#define CUTE_DSL_WGMMA_OPS56(d) CUTE_DSL_WGMMA_OPS52(d), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
#define CUTE_DSL_WGMMA_OPS60(d) CUTE_DSL_WGMMA_OPS56(d), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59])
#define CUTE_DSL_WGMMA_OPS64(d) CUTE_DSL_WGMMA_OPS60(d), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define CUTE_DSL_WGMMA_OPS68(d) CUTE_DSL_WGMMA_OPS64(d), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67])
#define CUTE_DSL_WGMMA_OPS72(d) CUTE_DSL_WGMMA_OPS68(d), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
#define CUTE_DSL_WGMMA_OPS76(d) CUTE_DSL_WGMMA_OPS72(d), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75])
#define CUTE_DSL_WGMMA_OPS80(d) CUTE_DSL_WGMMA_OPS76(d), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
#define CUTE_DSL_WGMMA_OPS84(d) CUTE_DSL_WGMMA_OPS80(d), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83])
#define CUTE_DSL_WGMMA_OPS88(d) CUTE_DSL_WGMMA_OPS84(d), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
#define CUTE_DSL_WGMMA_OPS92(d) CUTE_DSL_WGMMA_OPS88(d), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91])
#define CUTE_DSL_WGMMA_OPS96(d) CUTE_DSL_WGMMA_OPS92(d), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
#define CUTE_DSL_WGMMA_OPS100(d) CUTE_DSL_WGMMA_OPS96(d), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99])
#define CUTE_DSL_WGMMA_OPS104(d) CUTE_DSL_WGMMA_OPS100(d), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103])
#define CUTE_DSL_WGMMA_OPS108(d) CUTE_DSL_WGMMA_OPS104(d), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107])
#define CUTE_DSL_WGMMA_OPS112(d) CUTE_DSL_WGMMA_OPS108(d), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111])
#define CUTE_DSL_WGMMA_OPS116(d) CUTE_DSL_WGMMA_OPS112(d), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115])
#define CUTE_DSL_WGMMA_OPS120(d) CUTE_DSL_WGMMA_OPS116(d), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119])
#define CUTE_DSL_WGMMA_OPS124(d) CUTE_DSL_WGMMA_OPS120(d), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123])
#define CUTE_DSL_WGMMA_OPS128(d) CUTE_DSL_WGMMA_OPS124(d), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
#define CUTE_DSL_WGMMA_AFTER4(F, ...) F(__VA_ARGS__, 4, 5, 6, 7, 8, 9, 10, 11, 12)
#define CUTE_DSL_WGMMA_AFTER8(F, ...) F(__VA_ARGS__, 8, 9, 10, 11, 12, 13, 14, 15, 16)
#define CUTE_DSL_WGMMA_AFTER12(F, ...) F(__VA_ARGS__, 12, 13, 14, 15, 16, 17, 18, 19, 20)
#define CUTE_DSL_WGMMA_AFTER16(F, ...) F(__VA_ARGS__, 16, 17, 18, 19, 20, 21, 22, 23, 24)
#define CUTE_DSL_WGMMA_AFTER20(F, ...) F(__VA_ARGS__, 20, 21, 22, 23, 24, 25, 26, 27, 28)
#define CUTE_DSL_WGMMA_AFTER24(F, ...) F(__VA_ARGS__, 24, 25, 26, 27, 28, 29, 30, 31, 32)
#define CUTE_DSL_WGMMA_AFTER28(F, ...) F(__VA_ARGS__, 28, 29, 30, 31, 32, 33, 34, 35, 36)
#define CUTE_DSL_WGMMA_AFTER32(F, ...) F(__VA_ARGS__, 32, 33, 34, 35, 36, 37, 38, 39, 40)
#define CUTE_DSL_WGMMA_AFTER36(F, ...) F(__VA_ARGS__, 36, 37, 38, 39, 40, 41, 42, 43, 44)
#define CUTE_DSL_WGMMA_AFTER40(F, ...) F(__VA_ARGS__, 40, 41, 42, 43, 44, 45, 46, 47, 48)
#define CUTE_DSL_WGMMA_AFTER44(F, ...) F(__VA_ARGS__, 44, 45, 46, 47, 48, 49, 50, 51, 52)
#define CUTE_DSL_WGMMA_AFTER48(F, ...) F(__VA_ARGS__, 48, 49, 50, 51, 52, 53, 54, 55, 56)
#define CUTE_DSL_WGMMA_AFTER52(F, ...) F(__VA_ARGS__, 52, 53, 54, 55, 56, 57, 58, 59, 60)
#define CUTE_DSL_WGMMA_AFTER56(F, ...) F(__VA_ARGS__, 56, 57, 58, 59, 60, 61, 62, 63, 64)
#define CUTE_DSL_WGMMA_AFTER60(F, ...) F(__VA_ARGS__, 60, 61, 62, 63, 64, 65, 66, 67, 68)
#define CUTE_DSL_WGMMA_AFTER64(F, ...) F(__VA_ARGS__, 64, 65, 66, 67, 68, 69, 70, 71, 72)
#define CUTE_DSL_WGMMA_AFTER68(F, ...) F(__VA_ARGS__, 68, 69, 70, 71, 72, 73, 74, 75, 76)
#define CUTE_DSL_WGMMA_AFTER72(F, ...) F(__VA_ARGS__, 72, 73, 74, 75, 76, 77, 78, 79, 80)
#define CUTE_DSL_WGMMA_AFTER76(F, ...) F(__VA_ARGS__, 76, 77, 78, 79, 80, 81, 82, 83, 84)
#define CUTE_DSL_WGMMA_AFTER80(F, ...) F(__VA_ARGS__, 80, 81, 82, 83, 84, 85, 86, 87, 88)
#define CUTE_DSL_WGMMA_AFTER84(F, ...) F(__VA_ARGS__, 84, 85, 86, 87, 88, 89, 90, 91, 92)
#define CUTE_DSL_WGMMA_AFTER88(F, ...) F(__VA_ARGS__, 88, 89, 90, 91, 92, 93, 94, 95, 96)
#define CUTE_DSL_WGMMA_AFTER92(F, ...) F(__VA_ARGS__, 92, 93, 94, 95, 96, 97, 98, 99, 100)
#define CUTE_DSL_WGMMA_AFTER96(F, ...) F(__VA_ARGS__, 96, 97, 98, 99, 100, 101, 102, 103, 104)
#define CUTE_DSL_WGMMA_AFTER100(F, ...) F(__VA_ARGS__, 100, 101, 102, 103, 104, 105, 106, 107, 108)
#define CUTE_DSL_WGMMA_AFTER104(F, ...) F(__VA_ARGS__, 104, 105, 106, 107, 108, 109, 110, 111, 112)
#define CUTE_DSL_WGMMA_AFTER108(F, ...) F(__VA_ARGS__, 108, 109, 110, 111, 112, 113, 114, 115, 116)
#define CUTE_DSL_WGMMA_AFTER112(F, ...) F(__VA_ARGS__, 112, 113, 114, 115, 116, 117, 118, 119, 120)
#define CUTE_DSL_WGMMA_AFTER116(F, ...) F(__VA_ARGS__, 116, 117, 118, 119, 120, 121, 122, 123, 124)
#define CUTE_DSL_WGMMA_AFTER120(F, ...) F(__VA_ARGS__, 120, 121, 122, 123, 124, 125, 126, 127, 128)
#define CUTE_DSL_WGMMA_AFTER124(F, ...) F(__VA_ARGS__, 124, 125, 126, 127, 128, 129, 130, 131, 132)
#define CUTE_DSL_WGMMA_AFTER128(F, ...) F(__VA_ARGS__, 128, 129, 130, 131, 132, 133, 134, 135, 136)
