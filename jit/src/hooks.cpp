// The example hooks of hooks.hpp and their command-line spelling.
#include "cute_dsl/jit/hooks.hpp"

#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/log.hpp"

#include <charconv>
#include <cstdlib>

namespace cute_dsl::jit {

JitError hook_error(std::string_view hook, const HookContext& where, std::string message, std::string hint) {
  return JitError{JitErrorKind::hook,
                  "hook '" + std::string(hook) + "' rejected " + std::string(where.kernel) + " for " +
                      std::string(where.arch) + ": " + std::move(message),
                  {}, {}, std::move(hint)};
}

namespace {

// A budget hook's verdict: an error (reject) or a warning in the log and success (warn).
HookResult verdict(HookAction action, std::string_view hook, const HookContext& where, std::string message,
                   std::string hint) {
  if (action == HookAction::reject) return unexpected(hook_error(hook, where, std::move(message), std::move(hint)));
  log(LogLevel::warn, "hook '" + std::string(hook) + "': " + std::string(where.kernel) + " for " +
                          std::string(where.arch) + ": " + message);
  return Ok{};
}

std::string_view action_suffix(HookAction a) { return a == HookAction::warn ? ",warn" : ""; }

// Registers and shared memory one SM holds, by arch (the CUDA programming guide's table).
long long shared_per_sm(std::string_view arch) {
  const int sm = std::atoi(std::string(arch.substr(3)).c_str());
  if (sm == 80 || sm == 87) return 164 << 10;
  if (sm == 86 || sm == 89 || sm >= 120) return 100 << 10;
  if (sm >= 90) return 228 << 10;
  return 96 << 10;
}
constexpr long long kRegistersPerSm = 64 << 10;

// Registers are allocated per warp in units of 256.
long long blocks_by_registers(int registers, int threads) {
  const long long warps = (threads + 31) / 32;
  const long long per_warp = (registers * 32LL + 255) / 256 * 256;
  return per_warp == 0 ? 1 << 30 : kRegistersPerSm / (warps * per_warp);
}

// Counts PTX's .local declarations ("\t.local .align 4 .b8 __local_depot0[16];").
std::size_t local_declarations(std::string_view ptx) {
  std::size_t n = 0;
  for (std::size_t at = ptx.find(".local "); at != std::string_view::npos; at = ptx.find(".local ", at + 1))
    if (at == 0 || ptx[at - 1] == '\t' || ptx[at - 1] == ' ' || ptx[at - 1] == '\n') ++n;
  return n;
}

}  // namespace

namespace hooks {

namespace {

// GCC 12 warns (-Wrestrict, a false positive: its bug 105329) on assigning a literal to a
// std::string; hooks are built from constructed strings instead.
Hook named(std::string name, std::string version) {
  Hook h;
  h.name = std::move(name);
  h.version = std::move(version);
  return h;
}

}  // namespace

Hook prepend_source(std::string name, std::string text) {
  Hook h = named("prepend:" + name, "1:" + hash128(text).hex());  // the text is the behaviour: edited, new key
  h.on_source = [text = std::move(text)](std::string& source, const HookContext&) -> HookResult {
    source.insert(0, text.ends_with('\n') || text.empty() ? text : text + "\n");
    return Ok{};
  };
  return h;
}

Hook forbid_local_memory(HookAction action) {
  Hook h = named(std::string("forbid-local-memory").append(action_suffix(action)), std::string(1, '1'));
  const std::string name = h.name;
  h.on_ptx = [name, action](std::string& ptx, const HookContext& where) -> HookResult {
    if (const std::size_t n = local_declarations(ptx))
      return verdict(action, name, where, "its PTX declares local memory (" + std::to_string(n) + " .local declaration" +
                                              (n == 1 ? "" : "s") + ": an array on the stack)",
                     "keep per-thread arrays indexed by constants, so that they live in registers");
    return Ok{};
  };
  h.on_cubin = [name, action](std::string_view cubin, const HookContext& where) -> HookResult {
    auto usage = read_resource_usage(cubin, where.lowered_name);
    if (!usage) return unexpected(usage.error());
    if (usage->local_bytes > 0)
      return verdict(action, name, where, "ptxas spilled: a stack frame of " + std::to_string(usage->local_bytes) +
                                              " bytes per thread (" + std::to_string(usage->registers) + " registers)",
                     "lower the register pressure (smaller tiles, fewer live values) or raise max_registers");
    return Ok{};
  };
  return h;
}

Hook resource_budget(ResourceBudget budget, HookAction action) {
  Hook h = named(std::string("resource-budget"), std::string(1, '1'));
  char sep = '(';
  auto part = [&](const char* what, long long v) {
    if (v <= 0) return;
    h.name.append(1, sep).append(what).append(1, '=').append(std::to_string(v));
    sep = ',';
  };
  part("registers", budget.max_registers);
  part("shared", budget.max_shared_bytes);
  part("blocks-per-sm", budget.min_blocks_per_sm);
  part("threads", budget.block_threads);
  if (sep == ',') h.name.append(1, ')');
  h.name.append(action_suffix(action));
  const std::string name = h.name;
  h.on_cubin = [name, budget, action](std::string_view cubin, const HookContext& where) -> HookResult {
    auto u = read_resource_usage(cubin, where.lowered_name);
    if (!u) return unexpected(u.error());
    if (budget.max_registers > 0 && u->registers > budget.max_registers)
      return verdict(action, name, where, std::to_string(u->registers) + " registers per thread, over the budget of " +
                                              std::to_string(budget.max_registers),
                     "CompileOptions::max_registers (--max-registers) makes ptxas keep to a cap, spilling if it must");
    if (budget.max_shared_bytes > 0 && u->shared_bytes > budget.max_shared_bytes)
      return verdict(action, name, where, std::to_string(u->shared_bytes) + " bytes of static shared memory, over the budget of " +
                                              std::to_string(budget.max_shared_bytes), {});
    if (budget.min_blocks_per_sm > 0) {
      const int threads = budget.block_threads > 0 ? budget.block_threads : u->max_threads;
      if (threads <= 0)
        return unexpected(hook_error(name, where, "the occupancy budget needs the block's threads",
                                     "give ResourceBudget::block_threads (threads=T), or __launch_bounds__ in the kernel"));
      long long blocks = blocks_by_registers(u->registers, threads);
      if (u->shared_bytes > 0) blocks = std::min(blocks, shared_per_sm(where.arch) / u->shared_bytes);
      if (blocks < budget.min_blocks_per_sm)
        return verdict(action, name, where,
                       std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s") + " of " + std::to_string(threads) +
                           " threads fit on one SM (" + std::to_string(u->registers) + " registers, " +
                           std::to_string(u->shared_bytes) + " bytes of static shared), fewer than " +
                           std::to_string(budget.min_blocks_per_sm),
                       "dynamic shared memory is not counted: it is chosen at launch");
    }
    return Ok{};
  };
  return h;
}

}  // namespace hooks

Expected<Hook, JitError> parse_hook(std::string_view text) {
  auto bad = [&](std::string why) {
    return unexpected(JitError{JitErrorKind::invalid_option, "hook '" + std::string(text) + "': " + std::move(why), {}, {},
                               "hooks: forbid-local-memory[,warn], max-registers=N[,warn], max-shared=BYTES[,warn], "
                               "min-blocks-per-sm=N[,threads=T][,warn], prepend-file=PATH"});
  };
  if (text.starts_with("prepend-file")) {  // the path may hold commas: no options after it
    if (!text.starts_with("prepend-file=") || text.size() == 13) return bad("needs a file: prepend-file=PATH");
    auto file = load_header_file(std::string(text.substr(13)));
    if (!file) return unexpected(file.error());
    return hooks::prepend_source(file->name, std::move(file->contents));
  }
  // NAME[=VALUE], then ",threads=T" and ",warn" in any order.
  const std::string_view head = text.substr(0, text.find(','));
  std::string_view options = text.size() > head.size() ? text.substr(head.size() + 1) : std::string_view();
  const auto eq = head.find('=');
  const std::string_view name = head.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? std::string_view() : head.substr(eq + 1);
  auto number = [](std::string_view s, long long& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out > 0;
  };
  HookAction action = HookAction::reject;
  int threads = 0;
  while (!options.empty()) {
    const std::string_view item = options.substr(0, options.find(','));
    long long t = 0;
    if (item == "warn") action = HookAction::warn;
    else if (item.starts_with("threads=") && number(item.substr(8), t) && t <= 1024) threads = static_cast<int>(t);
    else return bad(std::string(1, '\'').append(item).append("' is neither warn nor threads=T (1..1024)"));
    options.remove_prefix(std::min(options.size(), item.size() + 1));
  }
  if (name == "forbid-local-memory") {
    if (eq != std::string_view::npos) return bad("takes no value");
    return hooks::forbid_local_memory(action);
  }
  long long n = 0;
  if (!number(value, n)) return bad("needs a positive decimal number");
  hooks::ResourceBudget budget;
  if (name == "max-registers" && n <= 255) budget.max_registers = static_cast<int>(n);
  else if (name == "max-shared" && n <= (1LL << 30)) budget.max_shared_bytes = n;
  else if (name == "min-blocks-per-sm" && n <= 64) budget.min_blocks_per_sm = static_cast<int>(n);
  else if (name == "max-registers" || name == "max-shared" || name == "min-blocks-per-sm") return bad("out of range");
  else return bad("no such hook");
  budget.block_threads = threads;
  return hooks::resource_budget(budget, action);
}

}  // namespace cute_dsl::jit
