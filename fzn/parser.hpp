#ifndef PROPANE_FZN_PARSER_HPP
#define PROPANE_FZN_PARSER_HPP

// The FlatZinc text format (MiniZinc 2.6's specification) read into a
// syntax tree, and nothing more: what the names mean is the builder's
// (builder.hpp). Written by hand for the small grammar, with no dependency;
// every error names its line and column.
//
// The parser is lenient about item order (FlatZinc puts predicates, then
// parameters, variables, constraints and the solve item; MiniZinc keeps to
// it, hand-written files may not) and strict about everything else.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace propane::fzn {

// A syntax error, or an error the builder finds at a place in the file.
class SyntaxError : public std::runtime_error {
public:
    SyntaxError(int line, int column, const std::string& what)
        : std::runtime_error(std::to_string(line) + ":" + std::to_string(column) + ": " + what),
          line_(line), column_(column) {}
    int line() const noexcept { return line_; }
    int column() const noexcept { return column_; }

private:
    int line_;
    int column_;
};

struct Node {
    enum class Kind : std::uint8_t {
        boolean,   // value: 0 or 1
        integer,   // value
        floating,  // real
        range,     // lo..hi (an integer set or, with reals, a float range)
        set,       // {elements}
        ident,     // name
        access,    // name[value]
        array,     // [items]
        string,    // name holds the text
        call       // name(items): an annotation
    };
    Kind kind = Kind::integer;
    bool real_range = false; // a range of floats (bounds in real_lo, real)
    std::int64_t value = 0;
    std::int64_t lo = 0, hi = 0;
    double real = 0, real_lo = 0;
    std::string name;
    std::vector<std::int64_t> elements;
    std::vector<Node> items;
    int line = 0, column = 0;
    // An ident or access: its name's number, the same for every occurrence
    // (Model::symbols), so that a reader looks names up by index, not by
    // hashing the string at each use.
    int symbol = -1;

    // The annotation's name, for an ident or a call.
    bool is(std::string_view n) const noexcept { return (kind == Kind::ident || kind == Kind::call) && name == n; }
};

// The type of a declaration. A domain, where given, is a range or a set
// (in `domain`); `set of int` variables keep theirs too.
struct Type {
    enum class Base : std::uint8_t { int_, bool_, float_, set_of_int };
    Base base = Base::int_;
    bool is_var = false;
    bool is_array = false;
    std::int64_t array_size = 0; // array [1..n]
    bool has_domain = false;
    Node domain;
};

struct Decl {
    Type type;
    std::string name;
    int symbol = -1; // its name's number, as Node::symbol
    std::vector<Node> annotations;
    bool has_value = false;
    Node value;
    int line = 0, column = 0;
};

struct ConstraintItem {
    std::string name;
    std::vector<Node> args;
    std::vector<Node> annotations;
    int line = 0, column = 0;
};

struct SolveItem {
    enum class Kind : std::uint8_t { satisfy, minimize, maximize };
    Kind kind = Kind::satisfy;
    Node objective;
    std::vector<Node> annotations;
    int line = 0, column = 0;
};

struct Model {
    std::vector<Decl> decls; // parameters and variables, in file order
    std::vector<ConstraintItem> constraints;
    SolveItem solve;
    int symbols = 0; // the distinct names of declarations, idents and accesses: 0 .. symbols - 1
};

// Throws SyntaxError.
Model parse(std::string_view text);

} // namespace propane::fzn

#endif
