#ifndef PROPANE_FZN_BUILDER_HPP
#define PROPANE_FZN_BUILDER_HPP

// A parsed FlatZinc model turned into a propane store: its variables (with
// bounds inferred where the file gives none), its constraints through the
// builtin table (builtins.hpp), and what the search and the printer need:
// the output items, the objective, the search annotations.
//
// Every variable lives in one Store<BitDomain<dynamic>>: FlatZinc mixes
// Booleans with domains of thousands or billions of values, and a store has
// one domain type. Each domain takes the form its size calls for
// (Representation::automatic): a bitset while it is small, bounds and
// holes past that, whose memory grows with the values removed, not with
// the width.
//
// fzn-propane's integers are 32-bit, as Gecode's are: every variable lies
// in var_min..var_max. A `var int` the constraints do not bound, or bound
// only on one side, takes that range on its open sides, and the search
// claims completeness over it. A domain the file declares past that range
// is refused (Unsupported, placed at the declaration) unless the
// constraints alone keep the variable within it: cutting it would let a
// search that ends report no solution, or a worse optimum, where the cut
// values hold one.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <propane/propane.hpp>

#include "builtins.hpp"
#include "parser.hpp"

namespace propane::fzn {

using FznStore = Store<BitDomain<dynamic>>;

// The values a variable can take: every int but INT_MIN, so that -x and
// |x| of each of them is one too (a view or a propagator negating a value
// never overflows), and a domain over all of them, 2^32 - 1 values, fits
// the interval form's capacity.
inline constexpr std::int64_t var_min = -std::int64_t{std::numeric_limits<int>::max()};
inline constexpr std::int64_t var_max = std::numeric_limits<int>::max();

// Bounds before the store exists (infer_bounds.cpp): +-2^50 stands for no
// bound, far from any overflow, and a bound past it is as good as none.
inline constexpr std::int64_t far = std::int64_t{1} << 50;
inline std::int64_t clamp_far(std::int64_t v) noexcept { return v < -far ? -far : (v > far ? far : v); }

// A model fzn-propane cannot run: a float or set variable, a builtin it
// does not know. Not the model's fault, so reported apart from errors;
// placed (line and column from 1) where the file says what it cannot run,
// or unplaced (0) until the builder places it at the constraint it posts.
class Unsupported : public std::runtime_error {
public:
    explicit Unsupported(const std::string& what, int line = 0, int column = 0)
        : std::runtime_error(what), line_(line), column_(column) {}
    int line() const noexcept { return line_; }
    int column() const noexcept { return column_; }

private:
    int line_;
    int column_;
};

// An argument: a variable, or a constant where FlatZinc allows one.
struct Term {
    bool fixed = true;
    std::int64_t value = 0;
    IntVar var;
};

// An integer set from the file, as its maximal runs of consecutive values
// (sorted, disjoint, never adjacent): a range is one run however wide, up
// to the ends of 64 bits.
struct IntSet {
    std::vector<std::pair<std::int64_t, std::int64_t>> runs;
    bool empty() const noexcept { return runs.empty(); }
    std::int64_t min() const noexcept { return runs.front().first; }
    std::int64_t max() const noexcept { return runs.back().second; }
    bool contains(std::int64_t v) const noexcept;
};

// Keeps x's values that are in `set` (a failure when none is).
void keep_only(FznStore& s, IntVar x, const IntSet& set);

struct OutputItem {
    std::string name;
    bool is_bool = false;
    bool is_array = false;
    std::vector<Node> dims; // the ranges of output_array
    std::vector<Term> terms;
};

// One search annotation (int_search or bool_search), or the default
// search of the variables no annotation names.
struct Phase {
    int line = 0, column = 0; // of the annotation
    std::vector<IntVar> vars;
    std::string var_choice = "input_order";
    std::string val_choice = "indomain_min";
};

struct Program {
    std::vector<OutputItem> outputs;
    SolveItem::Kind kind = SolveItem::Kind::satisfy;
    Term objective;
    std::vector<Phase> phases;     // from the solve item's annotations, in order
    Restarts restarts;             // restart_luby, _geometric, _constant, _linear on the solve item
    // relax_and_reconstruct(vars, percent) on the solve item: at each
    // restart, each of vars keeps its value in the best solution with
    // probability percent / 100.
    struct Relax {
        std::vector<IntVar> vars;
        int percent = 0;
    };
    std::optional<Relax> relax;
    std::vector<IntVar> decision;   // the model's own variables (those defined by a constraint last)
    std::vector<IntVar> introduced; // the variables MiniZinc introduced
    std::vector<std::string> profile_names; // per propagator id: the builtin that posted it
};

class Builder {
public:
    Builder(const Model& m, FznStore& s);

    // Posts everything; throws SyntaxError (with the place in the file),
    // Unsupported, or model_error from propane.
    Program build();

    // ---- for the posters (builtins.cpp) --------------------------------------
    FznStore& store() noexcept { return s_; }
    std::int64_t integer(const Node& n) const;
    std::vector<std::int64_t> integers(const Node& n) const;
    IntSet set(const Node& n) const;
    Term term(const Node& n) const;
    std::vector<Term> terms(const Node& n) const;
    // A variable for a term: constants become fixed variables, one per value.
    IntVar var(const Node& n);
    IntVar var(const Term& t);
    std::vector<IntVar> vars(const Node& n);
    [[noreturn]] void fail(const Node& at, const std::string& what) const;

private:
    struct VarInfo {
        std::string name;
        int line = 0, column = 0; // of the declaration
        bool introduced = false; // var_is_introduced
        bool defined = false;    // is_defined_var
        bool declared = false;          // the file gives its domain (a Boolean's is 0..1)
        bool bounded = false;           // both bounds known (within +-far)
        std::int64_t lo = -far, hi = far;
        std::int64_t file_lo = 0, file_hi = 0; // the declared domain's ends, as the file has them
        IntSet holes_from; // a set domain: the values kept
        bool has_set = false;
        IntVar var;
        std::optional<std::int64_t> constant; // var ... = constant
        int alias = -1;                       // var ... = another variable
    };

    const Node& resolve(const Node& n) const;
    int var_index(const Node& n) const; // -1: not a scalar variable
    int root(int v) const;

    void declare();
    void infer_bounds();
    void create_vars();
    void post_constraints(Program& p);
    void collect_outputs(Program& p);
    void restarts_of(const Node& ann, Restarts& r) const;
    void collect_search(Program& p);
    Phase phase_of(const Node& ann) const;

    const Model& m_;
    FznStore& s_;
    // What each name (Node::symbol) is declared as, once declare() has
    // reached it: a parameter, a variable, or a variable array (its
    // literal's items). By index, as every argument of every constraint is
    // looked up, in infer_bounds() several times over.
    struct Named {
        const Decl* param = nullptr;
        int var = -1;
        const std::vector<Node>* array = nullptr;
    };
    std::vector<Named> named_;
    const Named* named(const Node& n) const {
        return n.symbol >= 0 && n.symbol < static_cast<int>(named_.size()) ? &named_[static_cast<std::size_t>(n.symbol)]
                                                                           : nullptr;
    }
    const Decl* param_of(const Node& n) const {
        const Named* x = named(n);
        return x ? x->param : nullptr;
    }
    const std::vector<Node>* array_of(const Node& n) const {
        const Named* x = named(n);
        return x ? x->array : nullptr;
    }
    std::vector<VarInfo> vars_;
    std::map<std::int64_t, IntVar> constants_;
};

} // namespace propane::fzn

#endif
