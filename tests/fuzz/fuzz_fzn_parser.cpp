// libFuzzer target: fzn-propane's FlatZinc reader on arbitrary bytes.
//
// The bytes are parsed; a model that parses is built into a store as
// fzn-propane builds it (each domain whole: past 2^16 values it is kept as
// bounds and holes, so no width asks for gigabytes) and searched for at
// most 300 branches with its own search annotations. Any outcome is
// allowed but a crash, a sanitizer report, or an exception other than the
// three a bad model may raise (a SyntaxError with its place in the file, an
// Unsupported feature, a model_error from propane). A SyntaxError must
// name a line and column inside the input, as must an Unsupported that
// names a place. Every solution the search reports must fix every
// variable of the store; a satisfaction model is also searched as -a
// searches it, on its output variables alone, and each solution there
// must fix every output variable.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "../../fzn/builder.hpp"
#include "../../fzn/parser.hpp"
#include "../../fzn/phases.hpp"

namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz_fzn_parser: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

int lines_of(std::string_view text) {
    int n = 1;
    for (const char c : text) n += c == '\n';
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    using namespace propane::fzn;
    try {
        const Model model = parse(text);
        FznStore store;
        Builder builder(model, store);
        const Program program = builder.build();
        const auto plan = make_plan(store, program, false);
        const PhaseStrategy strategy = strategy_of(plan, 1);
        const propane::Limits limits{.solutions = 5, .branches = 300};
        const auto check = [&](const auto& sol) {
            for (int v = 0; v < sol.store().num_vars(); ++v)
                if (!sol.store().domain(v).fixed()) fail("a solution with an open variable");
        };
        if (program.kind == SolveItem::Kind::satisfy) {
            (void)propane::solve(store, plan->views, strategy, limits, check);
            const auto outputs = make_plan(store, program, false, true);
            PhaseStrategy enumerate = strategy_of(outputs, 1);
            enumerate.assign_all = false;
            (void)propane::solve(store, outputs->views, enumerate, limits, [&](const auto& sol) {
                for (const OutputItem& item : program.outputs)
                    for (const Term& t : item.terms)
                        if (!t.fixed && !t.var.fixed(sol.store())) fail("an enumerated solution with an open output");
            });
        } else if (program.objective.fixed) {
            (void)propane::solve(store, plan->views, strategy, limits, check);
        } else if (program.kind == SolveItem::Kind::minimize) {
            (void)propane::minimize(store, plan->views, strategy, limits, program.objective.var, check);
        } else {
            (void)propane::maximize(store, plan->views, strategy, limits, program.objective.var, check);
        }
    } catch (const SyntaxError& e) {
        if (e.line() < 1 || e.line() > lines_of(text) || e.column() < 1)
            fail("a syntax error at " + std::to_string(e.line()) + ":" + std::to_string(e.column()) +
                 ", outside the input of " + std::to_string(lines_of(text)) + " lines");
    } catch (const Unsupported& e) {
        if (e.line() < 0 || e.line() > lines_of(text) || (e.line() > 0 && e.column() < 1))
            fail("unsupported at " + std::to_string(e.line()) + ":" + std::to_string(e.column()) +
                 ", outside the input of " + std::to_string(lines_of(text)) + " lines");
    } catch (const propane::model_error&) {
    }
    return 0;
}
