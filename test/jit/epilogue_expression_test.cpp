// The epilogue language's front end (cute_dsl/jit/epilogue_expression.hpp): what programs mean
// (inputs and their kinds, outputs, one node per leaf, canonical form), what they evaluate to on
// the host, and the errors, each pointing at its column.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cute_dsl/jit/epilogue_expression.hpp"

namespace {

namespace ep = cute_dsl::jit::epilogue;

ep::Program parse_ok(const std::string& text) {
  auto p = ep::parse_epilogue(text);
  EXPECT_TRUE(p.has_value()) << text << "\n" << (p ? "" : p.error().message + "\n" + p.error().log);
  return p ? *p : ep::Program{};
}

// The error of `text`: its message must name `column`, and the caret line must point at it.
void expect_error(const std::string& text, int column, const std::string& fragment) {
  auto p = ep::parse_epilogue(text);
  ASSERT_FALSE(p.has_value()) << text;
  EXPECT_EQ(p.error().kind, cute_dsl::jit::JitErrorKind::invalid_spec);
  EXPECT_NE(p.error().message.find("column " + std::to_string(column) + ":"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find(fragment), std::string::npos) << p.error().message;
  const std::string& log = p.error().log;
  const auto caret = log.find('^');
  ASSERT_NE(caret, std::string::npos) << log;
  EXPECT_EQ(int(caret - log.find('\n') - 1), column - 1) << log;  // the caret under the column (one-line text)
}

TEST(EpilogueExpression, BiasGelu) {
  const ep::Program p = parse_ok("gelu(alpha * acc + bias[col])");
  ASSERT_EQ(p.inputs.size(), 2u);
  EXPECT_EQ(p.inputs[0].name, "alpha");
  EXPECT_EQ(p.inputs[0].kind, ep::InputKind::scalar);
  EXPECT_EQ(p.inputs[1].name, "bias");
  EXPECT_EQ(p.inputs[1].kind, ep::InputKind::col_vector);
  EXPECT_EQ(p.inputs[1].column, 20);
  ASSERT_EQ(p.outputs.size(), 1u);
  EXPECT_EQ(p.outputs[0].kind, ep::OutputKind::d);
  EXPECT_EQ(ep::canonical(p, p.outputs[0].root), "gelu(((alpha * acc) + bias[col]))");
}

TEST(EpilogueExpression, PrecedenceAndUnaryMinus) {
  const ep::Program p = parse_ok("-acc * 2 + c / 4 - 1.5e-1");
  EXPECT_EQ(ep::canonical(p, p.outputs[0].root), "((((-acc) * 2) + (c / 4)) - 0.15)");
  ep::HostElement e;
  e.acc = 3, e.c = 8;
  EXPECT_DOUBLE_EQ(ep::evaluate(p, p.outputs[0].root, e), -6 + 2 - 0.15);
}

// Every use of an input, of acc and of c is the same node: one load per element.
TEST(EpilogueExpression, EachLeafIsOneNode) {
  const ep::Program p = parse_ok("let z = acc * s + bias[col]; d = max(z, 0) + z * s + acc + c * c; store pre = bias[col]");
  int acc = 0, c = 0, s = 0, bias = 0;
  for (const ep::Node& n : p.nodes) {
    acc += n.kind == ep::NodeKind::acc;
    c += n.kind == ep::NodeKind::c_source;
    if (n.kind == ep::NodeKind::input) (p.inputs[std::size_t(n.index)].name == "s" ? s : bias) += 1;
  }
  EXPECT_EQ(acc, 1);
  EXPECT_EQ(c, 1);
  EXPECT_EQ(s, 1);
  EXPECT_EQ(bias, 1);
  // Operands come before the nodes that use them.
  for (std::size_t i = 0; i < p.nodes.size(); ++i)
    for (int a : p.nodes[i].args) EXPECT_LT(std::size_t(a), i);
}

TEST(EpilogueExpression, StatementsOutputsAndReductions) {
  const ep::Program p = parse_ok(
      "let z = alpha * acc + beta * c + bias[col];  # pre-activation\n"
      "store pre = z;\n"
      "d = gelu(z);\n"
      "row_absmax amax = d;\n"
      "col_sum dbias = grad[row, col];\n"
      "sum total = z * scale[row];");
  ASSERT_EQ(p.outputs.size(), 5u);
  EXPECT_EQ(p.outputs[0].kind, ep::OutputKind::d);  // D first, whatever the order written
  EXPECT_EQ(p.outputs[1].kind, ep::OutputKind::store);
  EXPECT_EQ(p.outputs[1].name, "pre");
  EXPECT_EQ(p.outputs[2].kind, ep::OutputKind::row_absmax);
  EXPECT_EQ(p.outputs[3].kind, ep::OutputKind::col_sum);
  EXPECT_EQ(p.outputs[4].kind, ep::OutputKind::sum);
  ASSERT_EQ(p.inputs.size(), 5u);
  EXPECT_EQ(p.inputs[3].kind, ep::InputKind::tensor);
  EXPECT_EQ(p.inputs[4].kind, ep::InputKind::row_vector);
  const std::string d = ep::describe(p);
  EXPECT_NE(d.find("input grad: tensor"), std::string::npos) << d;
  EXPECT_NE(d.find("store pre = (((alpha * acc) + (beta * c)) + bias[col])"), std::string::npos) << d;
}

// The host values of every function, at one element whose inputs depend on (row, col).
TEST(EpilogueExpression, HostEvaluationOfEveryFunction) {
  // At row 3, column 5: the scalar s is 0.5; v[row] is 30, v[col] 5, v[row, col] 35.
  auto value = [&](const std::string& text) {
    const ep::Program p = parse_ok(text);
    ep::HostElement e;
    e.acc = 0.75, e.c = -2, e.row = 3, e.col = 5;
    e.input = [&p](int index, int row, int col) {
      switch (p.inputs[std::size_t(index)].kind) {
        case ep::InputKind::scalar: return 0.5;
        case ep::InputKind::row_vector: return double(row * 10);
        case ep::InputKind::col_vector: return double(col);
        case ep::InputKind::tensor: return double(row * 10 + col);
      }
      return 0.0;
    };
    return ep::evaluate(p, p.outputs[0].root, e);
  };
  const double x = 0.75;
  EXPECT_DOUBLE_EQ(value("relu(-acc)"), 0.0);
  EXPECT_DOUBLE_EQ(value("relu(acc)"), x);
  EXPECT_NEAR(value("gelu(acc)"), 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))), 1e-15);
  EXPECT_NEAR(value("gelu_tanh(acc)"), 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))), 1e-15);
  EXPECT_NEAR(value("silu(acc)"), x / (1 + std::exp(-x)), 1e-15);
  EXPECT_NEAR(value("sigmoid(acc)"), 1 / (1 + std::exp(-x)), 1e-15);
  EXPECT_NEAR(value("tanh(acc)"), std::tanh(x), 1e-15);
  EXPECT_NEAR(value("exp(acc)"), std::exp(x), 1e-15);
  EXPECT_DOUBLE_EQ(value("abs(c)"), 2.0);
  EXPECT_DOUBLE_EQ(value("max(acc, c)"), x);
  EXPECT_DOUBLE_EQ(value("min(acc, c)"), -2.0);
  EXPECT_DOUBLE_EQ(value("leaky_relu(c, s)"), -1.0);
  EXPECT_DOUBLE_EQ(value("clamp(v[row, col], 0, 20)"), 20.0);  // 35 clamped
  EXPECT_DOUBLE_EQ(value("fma(acc, v[row], c)"), x * 30 - 2);
  EXPECT_DOUBLE_EQ(value("v[col] / 2"), 2.5);
  EXPECT_DOUBLE_EQ(value("drelu(acc, c)"), 0.0);                // pre-activation c < 0
  EXPECT_DOUBLE_EQ(value("drelu(acc, s)"), x);
  const double pre = -2, pdf = std::exp(-0.5 * pre * pre) / std::sqrt(2 * M_PI);
  EXPECT_NEAR(value("dgelu(acc, c)"), x * (0.5 * (1 + std::erf(pre / std::sqrt(2.0))) + pre * pdf), 1e-15);
}

TEST(EpilogueExpression, ConversionsRoundToNearestEvenAndSaturate) {
  ep::HostElement e;
  auto value = [&](const std::string& text, double acc) {
    e.acc = acc;
    const ep::Program p = parse_ok(text);
    return ep::evaluate(p, p.outputs[0].root, e);
  };
  EXPECT_EQ(value("to_bf16(acc)", 1.0 + 1.0 / 256), 1.0);             // the tie goes to even
  EXPECT_EQ(value("to_bf16(acc)", 1.0 + 3.0 / 256), 1.0 + 2.0 / 128);  // the tie goes to even (up)
  EXPECT_EQ(value("to_f16(acc)", 65520.0), 65504.0);                   // past f16's range: saturates
  EXPECT_EQ(value("to_f16(acc)", 1.0 + 1.0 / 4096), 1.0);
  EXPECT_EQ(value("to_f16(acc)", std::ldexp(1.0, -24)), std::ldexp(1.0, -24));  // the least subnormal
  EXPECT_EQ(value("to_e4m3(acc)", 1000.0), 448.0);                     // saturates
  EXPECT_EQ(value("to_e4m3(acc)", -1000.0), -448.0);
  EXPECT_EQ(value("to_e4m3(acc)", 1.0625), 1.0);                       // 3 fraction bits: the tie to even
  EXPECT_EQ(value("to_e5m2(acc)", 1e6), 57344.0);
  EXPECT_EQ(value("to_e5m2(acc)", 1.375), 1.5);                        // 2 fraction bits: 1.25 | 1.5, tie to even
}

TEST(EpilogueExpression, ErrorsPointAtTheirColumn) {
  expect_error("gelu(alpha * acc + bias[col]", 29, "expected ')'");
  expect_error("gelu(acc, c)", 1, "gelu takes 1 argument, not 2");
  expect_error("geluu(acc)", 1, "unknown function 'geluu'");
  expect_error("acc + bias[col] * bias", 19, "'bias' is used here as a scalar but at column 7 as a column vector");
  expect_error("acc + t[col, row]", 14, "a tensor is indexed [row, col]");
  expect_error("acc + t[k]", 9, "an index is [row], [col] or [row, col]");
  expect_error("acc $ c", 5, "unexpected character '$'");
  expect_error("relu + acc", 1, "'relu' is a function");
  expect_error("d = acc; d = c", 10, "'d' is already an output");
  expect_error("let acc = c; d = acc", 5, "'acc' is a reserved word");
  expect_error("let z = acc; d = z[row]", 19, "'z' is a 'let' binding");
  expect_error("acc * 2; store x = c", 1, "D is written 'd = ...'");
  expect_error("store x = c", 12, "no statement defines D");
  expect_error("d = acc c", 9, "expected ';' or the end");
  expect_error("leaky_relu(acc, c)", 17, "leaky_relu's slope must be a number or a scalar input");
  expect_error("row_max m = d; d = acc", 13, "'d' cannot be used as a value here");  // D used before it is defined
  expect_error("d = acc; store x = c; store x = d", 29, "'x' is already an output");
  expect_error("", 1, "empty epilogue");
  expect_error("let s = acc; d = s; store s2 = s * bias[row]; col_sum s = c", 55, "'s' is already bound by 'let'");
}

}  // namespace
