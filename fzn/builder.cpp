#include "builder.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace propane::fzn {

namespace {

bool has_ann(const std::vector<Node>& anns, std::string_view name) {
    return std::any_of(anns.begin(), anns.end(), [&](const Node& a) { return a.is(name); });
}

// An array's literal holds as many elements as its type says.
void check_size(const Decl& d) {
    if (static_cast<std::int64_t>(d.value.items.size()) != d.type.array_size)
        throw SyntaxError(d.line, d.column, "the array '" + d.name + "' has " + std::to_string(d.value.items.size()) +
                                                " elements, not " + std::to_string(d.type.array_size));
}

// A reference to a declaration by its name, placed where it is declared.
Node name_of(const Decl& d) {
    Node n;
    n.kind = Node::Kind::ident;
    n.name = d.name;
    n.symbol = d.symbol;
    n.line = d.line;
    n.column = d.column;
    return n;
}

// output_array's index sets hold as many elements as the array: MiniZinc
// reads the printed array back by them.
void check_dims(const Decl& d, const std::vector<Node>& dims, std::size_t size) {
    std::string shape;
    std::uint64_t elements = 1; // at most size + 1
    for (const Node& dim : dims) {
        std::uint64_t n = 0;
        if (dim.kind == Node::Kind::range && !dim.real_range) {
            shape += (shape.empty() ? "" : ", ") + std::to_string(dim.lo) + ".." + std::to_string(dim.hi);
            if (dim.lo <= dim.hi) n = static_cast<std::uint64_t>(dim.hi) - static_cast<std::uint64_t>(dim.lo) + 1;
        } else if (dim.kind == Node::Kind::set && dim.elements.empty()) {
            shape += (shape.empty() ? "" : ", ") + std::string("{}");
        } else {
            throw SyntaxError(dim.line, dim.column, "output_array of '" + d.name + "': an index set that is not a range");
        }
        // Past the array's size the count only needs to stay past it.
        if (n == 0) elements = 0;
        else if (elements != 0) elements = n > size / elements ? size + 1 : elements * n;
    }
    if (dims.empty() || elements != size)
        throw SyntaxError(d.line, d.column, "output_array of '" + d.name + "' is " +
                                                (dims.empty() ? std::string("without index sets") : shape) + ", for " +
                                                std::to_string(size) + " elements");
}

} // namespace

bool IntSet::contains(std::int64_t v) const noexcept {
    const auto it = std::upper_bound(runs.begin(), runs.end(), v, [](std::int64_t w, const auto& r) { return w < r.first; });
    return it != runs.begin() && v <= std::prev(it)->second;
}

void keep_only(FznStore& s, IntVar x, const IntSet& set) {
    const std::int64_t lo = x.lo(), hi = x.hi();
    if (set.empty() || set.min() > hi || set.max() < lo) {
        (void)s.fail();
        return;
    }
    (void)s.remove_below(x, static_cast<int>(std::max(set.min(), lo)));
    (void)s.remove_above(x, static_cast<int>(std::min(set.max(), hi)));
    // The gaps between consecutive runs (a gap lies strictly between two
    // elements, so its ends never overflow), each in one update.
    for (std::size_t k = 1; k < set.runs.size(); ++k)
        (void)s.remove_range(x, set.runs[k - 1].second + 1, set.runs[k].first - 1);
}

Builder::Builder(const Model& m, FznStore& s) : m_(m), s_(s), named_(static_cast<std::size_t>(m.symbols)) {}

void Builder::fail(const Node& at, const std::string& what) const { throw SyntaxError(at.line, at.column, what); }

const Node& Builder::resolve(const Node& n) const {
    if (n.kind == Node::Kind::ident)
        if (const Decl* p = param_of(n)) return p->value;
    return n;
}

int Builder::root(int v) const {
    while (vars_[static_cast<std::size_t>(v)].alias >= 0) v = vars_[static_cast<std::size_t>(v)].alias;
    return v;
}

int Builder::var_index(const Node& n) const {
    if (n.kind == Node::Kind::ident) {
        const Named* x = named(n);
        return x && x->var >= 0 ? root(x->var) : -1;
    }
    if (n.kind == Node::Kind::access) {
        const std::vector<Node>* items = array_of(n);
        if (!items) return -1;
        if (n.value < 1 || n.value > static_cast<std::int64_t>(items->size()))
            fail(n, "index " + std::to_string(n.value) + " out of range for array '" + n.name + "'");
        return var_index((*items)[static_cast<std::size_t>(n.value - 1)]);
    }
    return -1;
}

std::int64_t Builder::integer(const Node& n0) const {
    const Node& n = resolve(n0);
    if (n.kind == Node::Kind::integer || n.kind == Node::Kind::boolean) return n.value;
    if (n.kind == Node::Kind::access && !array_of(n)) {
        if (const Decl* p = param_of(n)) {
            const Node& a = p->value;
            if (a.kind == Node::Kind::array && n.value >= 1 && n.value <= static_cast<std::int64_t>(a.items.size()))
                return integer(a.items[static_cast<std::size_t>(n.value - 1)]);
        }
    }
    const int v = var_index(n);
    if (v >= 0) {
        const VarInfo& info = vars_[static_cast<std::size_t>(v)];
        if (info.constant) return *info.constant;
    }
    fail(n0, "expected an integer constant");
}

std::vector<std::int64_t> Builder::integers(const Node& n0) const {
    const Node& n = resolve(n0);
    if (n.kind != Node::Kind::array) fail(n0, "expected an array of integer constants");
    std::vector<std::int64_t> out;
    out.reserve(n.items.size());
    for (const Node& item : n.items) out.push_back(integer(item));
    return out;
}

IntSet Builder::set(const Node& n0) const {
    const Node& n = resolve(n0);
    IntSet out;
    if (n.kind == Node::Kind::range && !n.real_range) {
        if (n.lo <= n.hi) out.runs.emplace_back(n.lo, n.hi);
        return out;
    }
    if (n.kind == Node::Kind::set) {
        std::vector<std::int64_t> values = n.elements;
        std::sort(values.begin(), values.end());
        for (const std::int64_t v : values) {
            if (!out.runs.empty() && v <= out.runs.back().second) continue; // a repeat
            if (!out.runs.empty() && out.runs.back().second + 1 == v) out.runs.back().second = v;
            else out.runs.emplace_back(v, v);
        }
        return out;
    }
    fail(n0, "expected a constant set of integers");
}

Term Builder::term(const Node& n0) const {
    const Node& n = resolve(n0);
    if (n.kind == Node::Kind::integer || n.kind == Node::Kind::boolean) return {true, n.value, {}};
    const int v = var_index(n);
    if (v >= 0) {
        const VarInfo& info = vars_[static_cast<std::size_t>(v)];
        if (info.constant) return {true, *info.constant, {}};
        return {false, 0, info.var};
    }
    if (n.kind == Node::Kind::access || n.kind == Node::Kind::ident) {
        if (n.kind == Node::Kind::ident && array_of(n)) fail(n0, "expected a scalar, found the array '" + n.name + "'");
        if (n.kind == Node::Kind::ident && !param_of(n)) fail(n0, "unknown name '" + n.name + "'");
        return {true, integer(n), {}};
    }
    if (n.kind == Node::Kind::floating) throw Unsupported("float values are not supported", n0.line, n0.column);
    fail(n0, "expected an integer or Boolean variable or constant");
}

std::vector<Term> Builder::terms(const Node& n0) const {
    const Node* n = &resolve(n0);
    if (n->kind == Node::Kind::ident) {
        const std::vector<Node>* items = array_of(*n);
        if (!items) fail(n0, "expected an array, found '" + n->name + "'");
        std::vector<Term> out;
        out.reserve(items->size());
        for (const Node& item : *items) out.push_back(term(item));
        return out;
    }
    if (n->kind != Node::Kind::array) fail(n0, "expected an array");
    std::vector<Term> out;
    out.reserve(n->items.size());
    for (const Node& item : n->items) out.push_back(term(item));
    return out;
}

IntVar Builder::var(const Term& t) {
    if (!t.fixed) return t.var;
    if (t.value < std::numeric_limits<int>::min() || t.value > std::numeric_limits<int>::max())
        throw Unsupported("the constant " + std::to_string(t.value) + " does not fit in 32 bits");
    const auto it = constants_.find(t.value);
    if (it != constants_.end()) return it->second;
    const IntVar x = s_.int_var(static_cast<int>(t.value), static_cast<int>(t.value));
    constants_.emplace(t.value, x);
    return x;
}

IntVar Builder::var(const Node& n) { return var(term(n)); }

std::vector<IntVar> Builder::vars(const Node& n) {
    std::vector<IntVar> out;
    for (const Term& t : terms(n)) out.push_back(var(t));
    return out;
}

// ---- declarations ---------------------------------------------------------------

void Builder::declare() {
    for (const Decl& d : m_.decls) {
        Named& self = named_[static_cast<std::size_t>(d.symbol)];
        if (self.param || self.var >= 0 || self.array)
            throw SyntaxError(d.line, d.column, "'" + d.name + "' is declared twice");
        if (d.type.base == Type::Base::float_ && d.type.is_var)
            throw Unsupported("float variables are not supported ('" + d.name + "')", d.line, d.column);
        if (d.type.base == Type::Base::set_of_int && d.type.is_var)
            throw Unsupported("set variables are not supported ('" + d.name + "')", d.line, d.column);
        if (!d.type.is_var) {
            if (!d.has_value) throw SyntaxError(d.line, d.column, "the parameter '" + d.name + "' has no value");
            if (d.type.is_array && d.value.kind == Node::Kind::array) check_size(d);
            self.param = &d;
            continue;
        }
        const bool is_bool = d.type.base == Type::Base::bool_;
        if (d.type.is_array) {
            if (!d.has_value || d.value.kind != Node::Kind::array)
                throw SyntaxError(d.line, d.column, "the variable array '" + d.name + "' needs a literal value");
            check_size(d);
            for (const Node& item : d.value.items)
                if (item.kind == Node::Kind::ident && !param_of(item) && (!named(item) || named(item)->var < 0))
                    fail(item, "unknown variable '" + item.name + "'");
            self.array = &d.value.items;
            continue;
        }
        VarInfo v;
        v.name = d.name;
        v.line = d.line;
        v.column = d.column;
        v.introduced = has_ann(d.annotations, "var_is_introduced");
        v.defined = has_ann(d.annotations, "is_defined_var");
        if (is_bool) {
            v.bounded = true;
            v.lo = 0;
            v.hi = 1;
        } else if (d.type.has_domain) {
            const Node& dom = d.type.domain;
            v.bounded = true;
            v.declared = true;
            if (dom.kind == Node::Kind::range) {
                v.lo = dom.lo;
                v.hi = dom.hi;
            } else {
                v.holes_from = set(dom);
                v.has_set = true;
                if (v.holes_from.empty()) {
                    v.lo = 1;
                    v.hi = 0;
                } else {
                    v.lo = v.holes_from.min();
                    v.hi = v.holes_from.max();
                }
            }
            if (v.lo > v.hi) throw SyntaxError(d.line, d.column, "the variable '" + d.name + "' has an empty domain");
            v.file_lo = v.lo;
            v.file_hi = v.hi;
            // No bound reaches 2^50 (one past the 32-bit range is refused
            // anyway, create_vars), and within it no width overflows.
            v.lo = clamp_far(v.lo);
            v.hi = clamp_far(v.hi);
        }
        if (d.has_value) {
            const Node& val = resolve(d.value);
            if (val.kind == Node::Kind::integer || val.kind == Node::Kind::boolean) {
                if ((val.kind == Node::Kind::boolean) != is_bool)
                    fail(d.value, std::string("the ") + (is_bool ? "Boolean" : "integer") + " variable '" + d.name +
                                      "' set to " + (is_bool ? "the integer " + std::to_string(val.value)
                                                             : std::string(val.value ? "true" : "false")));
                v.constant = val.value;
            } else {
                const int target = var_index(val);
                if (target < 0) fail(d.value, "expected a variable or a constant as the value of '" + d.name + "'");
                v.alias = target;
            }
        }
        self.var = static_cast<int>(vars_.size());
        vars_.push_back(std::move(v));
    }
}

// Each variable over its bounds (inferred, or declared and then tightened),
// in the form its width calls for. An open side takes the end of the
// 32-bit range (var_min, var_max). A declared domain still past it is
// refused rather than cut: a cut would make a search that ends claim too
// much. So is a variable its constraints put wholly past it.
void Builder::create_vars() {
    const std::string range = std::to_string(var_min) + ".." + std::to_string(var_max);
    for (VarInfo& v : vars_) {
        if (v.alias >= 0 || v.constant) continue;
        if (v.declared && (v.lo < var_min || v.hi > var_max))
            throw Unsupported("the domain of '" + v.name + "', " + std::to_string(v.file_lo) + ".." +
                                  std::to_string(v.file_hi) + ", reaches past " + range +
                                  ", the values fzn-propane's variables take, and its constraints do not rule out "
                                  "those past it",
                              v.line, v.column);
        if (v.lo > var_max || v.hi < var_min)
            throw Unsupported("the constraints on '" + v.name + "' leave it only values " +
                                  (v.lo > var_max ? "of at least " + std::to_string(v.lo)
                                                  : "of at most " + std::to_string(v.hi)) +
                                  ", past " + range + ", the values fzn-propane's variables take",
                              v.line, v.column);
        const std::int64_t lo = std::max(v.lo, var_min), hi = std::min(v.hi, var_max);
        v.var = s_.int_var(static_cast<int>(lo), static_cast<int>(hi), Representation::automatic);
        if (v.has_set) keep_only(s_, v.var, v.holes_from);
    }
    // Aliases: var int: x = y takes y's variable, narrowed to x's domain.
    for (VarInfo& v : vars_) {
        if (v.alias < 0 && !v.constant) continue;
        if (v.constant) continue;
        const VarInfo& target = vars_[static_cast<std::size_t>(root(v.alias))];
        if (target.constant) {
            v.constant = target.constant;
            continue;
        }
        v.var = target.var;
    }
}

void Builder::post_constraints(Program& p) {
    for (const ConstraintItem& c : m_.constraints) {
        const int before = s_.num_propagators();
        try {
            post_builtin(*this, c);
        } catch (const model_error& e) {
            throw SyntaxError(c.line, c.column, c.name + ": " + e.what());
        } catch (const Unsupported& e) {
            if (e.line() > 0) throw;
            throw Unsupported(c.name + ": " + e.what(), c.line, c.column);
        }
        for (int k = before; k < s_.num_propagators(); ++k) p.profile_names.push_back(c.name);
    }
    // Declared domains of aliases and constants: `var 1..5: x = y` narrows
    // y, `var 1..5: x = 7` fails.
    for (const VarInfo& v : vars_) {
        if (v.alias < 0 && !v.constant) continue;
        if (!v.bounded && !v.has_set) continue;
        if (v.constant) {
            const bool in = *v.constant >= v.lo && *v.constant <= v.hi && (!v.has_set || v.holes_from.contains(*v.constant));
            if (!in) (void)s_.fail();
            continue;
        }
        if (v.has_set) {
            keep_only(s_, v.var, v.holes_from);
        } else {
            (void)s_.remove_below(v.var, static_cast<int>(std::max<std::int64_t>(v.lo, std::numeric_limits<int>::min())));
            (void)s_.remove_above(v.var, static_cast<int>(std::min<std::int64_t>(v.hi, std::numeric_limits<int>::max())));
        }
    }
}

void Builder::collect_outputs(Program& p) {
    for (const Decl& d : m_.decls) {
        if (!d.type.is_var && !d.type.is_array) {
            if (!has_ann(d.annotations, "output_var")) continue;
        }
        OutputItem out;
        out.name = d.name;
        out.is_bool = d.type.base == Type::Base::bool_;
        bool wanted = false;
        for (const Node& a : d.annotations) {
            if (a.is("output_var")) {
                wanted = true;
            } else if (a.is("output_array") && a.kind == Node::Kind::call && a.items.size() == 1 &&
                       a.items[0].kind == Node::Kind::array) {
                wanted = true;
                out.is_array = true;
                out.dims = a.items[0].items;
            }
        }
        if (!wanted) continue;
        if (out.is_array) {
            out.terms = terms(name_of(d));
            check_dims(d, out.dims, out.terms.size());
        } else {
            out.terms.push_back(term(name_of(d)));
        }
        p.outputs.push_back(std::move(out));
    }
}

Phase Builder::phase_of(const Node& ann) const {
    Phase ph;
    ph.line = ann.line;
    ph.column = ann.column;
    for (const Term& t : terms(ann.items[0]))
        if (!t.fixed) ph.vars.push_back(t.var);
    if (ann.items.size() > 1 && ann.items[1].kind == Node::Kind::ident) ph.var_choice = ann.items[1].name;
    if (ann.items.size() > 2 && ann.items[2].kind == Node::Kind::ident) ph.val_choice = ann.items[2].name;
    return ph;
}

// A restart annotation on the solve item, into r; others leave r alone.
// MiniZinc's sequences count nodes or failures as each solver decides;
// propane's budgets are failures. restart_constant(s) becomes Luby
// budgets of s: a budget that never grows would never prove a tree larger
// than it exhausted (the scale is also LNS's budget per round, run.cpp).
void Builder::restarts_of(const Node& ann, Restarts& r) const {
    const auto scale = [&](const Node& n) {
        const std::int64_t k = integer(n);
        if (k < 1) fail(ann, ann.name + ": a scale of " + std::to_string(k) + ", must be at least 1");
        return static_cast<std::uint64_t>(k);
    };
    if (ann.is("restart_none")) {
        r = {};
    } else if (ann.kind != Node::Kind::call) {
        return;
    } else if ((ann.is("restart_luby") || ann.is("restart_constant") || ann.is("restart_linear")) &&
               ann.items.size() == 1) {
        r.policy = ann.is("restart_linear") ? RestartPolicy::linear : RestartPolicy::luby;
        r.scale = scale(ann.items[0]);
    } else if (ann.is("restart_geometric") && ann.items.size() == 2) {
        const Node& base = ann.items[0];
        const double growth = base.kind == Node::Kind::floating  ? base.real
                              : base.kind == Node::Kind::integer ? static_cast<double>(base.value)
                                                                 : 0.0;
        if (!(growth > 1.0)) fail(base, "restart_geometric: a base of " + std::to_string(growth) + ", must be above 1");
        r = {RestartPolicy::geometric, scale(ann.items[1]), growth};
    }
}

void Builder::collect_search(Program& p) {
    // seq_search nests; the phases are its leaves, in order.
    auto walk = [&](auto&& self, const Node& ann) -> void {
        if (ann.is("seq_search") && ann.kind == Node::Kind::call && ann.items.size() == 1 &&
            ann.items[0].kind == Node::Kind::array) {
            for (const Node& inner : ann.items[0].items) self(self, inner);
        } else if ((ann.is("int_search") || ann.is("bool_search")) && ann.kind == Node::Kind::call &&
                   ann.items.size() >= 3) {
            p.phases.push_back(phase_of(ann));
        }
        // Other annotations (warm starts, float and set searches) are hints
        // a solver may ignore.
    };
    for (const Node& ann : m_.solve.annotations) {
        walk(walk, ann);
        restarts_of(ann, p.restarts);
        // Gecode's form with a starting solution as a third argument is
        // read as the two-argument one.
        if (ann.is("relax_and_reconstruct") && ann.kind == Node::Kind::call && ann.items.size() >= 2) {
            Program::Relax r;
            for (const Term& t : terms(ann.items[0]))
                if (!t.fixed) r.vars.push_back(t.var);
            const std::int64_t percent = integer(ann.items[1]);
            if (percent < 0 || percent > 100)
                fail(ann.items[1], "relax_and_reconstruct: " + std::to_string(percent) + "%, must be in 0..100");
            r.percent = static_cast<int>(percent);
            p.relax = std::move(r);
        }
    }

    std::vector<IntVar> defined;
    std::vector<char> seen(static_cast<std::size_t>(s_.num_vars()), 0);
    for (const VarInfo& v : vars_) {
        if (v.constant || v.alias >= 0) continue;
        auto& mark = seen[static_cast<std::size_t>(v.var.index())];
        if (mark) continue;
        mark = 1;
        (v.introduced ? p.introduced : v.defined ? defined : p.decision).push_back(v.var);
    }
    p.decision.insert(p.decision.end(), defined.begin(), defined.end());
}

Program Builder::build() {
    Program p;
    declare();
    infer_bounds();
    create_vars();
    post_constraints(p);
    collect_outputs(p);
    collect_search(p);
    p.kind = m_.solve.kind;
    if (p.kind != SolveItem::Kind::satisfy) p.objective = term(m_.solve.objective);
    return p;
}

} // namespace propane::fzn
