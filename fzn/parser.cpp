#include "parser.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>

namespace propane::fzn {

namespace {

enum class Tok : std::uint8_t {
    end, ident, integer, real, string,
    dotdot, coloncolon, colon, semicolon, comma, equals,
    lparen, rparen, lbracket, rbracket, lbrace, rbrace
};

struct Token {
    Tok kind = Tok::end;
    std::string_view text;
    std::int64_t value = 0;
    double real = 0;
    std::string str; // a string literal's contents, escapes resolved
    int line = 1, column = 1;
};

std::string describe(const Token& t) {
    switch (t.kind) {
    case Tok::end: return "the end of the file";
    case Tok::string: return "a string";
    default: return "'" + std::string(t.text) + "'";
    }
}

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    Token next() {
        skip_space();
        Token t;
        t.line = line_;
        t.column = column();
        if (pos_ >= text_.size()) return t;
        const std::size_t start = pos_;
        const char c = text_[pos_];
        auto single = [&](Tok k) {
            advance(1);
            t.kind = k;
            t.text = text_.substr(start, 1);
            return t;
        };
        if (is_alpha(c) || c == '_') {
            while (pos_ < text_.size() && (is_alnum(text_[pos_]) || text_[pos_] == '_')) advance(1);
            t.kind = Tok::ident;
            t.text = text_.substr(start, pos_ - start);
            return t;
        }
        if (c == '\'') { // a quoted identifier
            advance(1);
            while (pos_ < text_.size() && text_[pos_] != '\'' && text_[pos_] != '\n') advance(1);
            if (pos_ >= text_.size() || text_[pos_] != '\'') throw SyntaxError(t.line, t.column, "unterminated quoted identifier");
            advance(1);
            t.kind = Tok::ident;
            t.text = text_.substr(start, pos_ - start);
            return t;
        }
        if (is_digit(c) || (c == '-' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) return number(t);
        if (c == '"') return string(t);
        switch (c) {
        case '.':
            if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '.') {
                advance(2);
                t.kind = Tok::dotdot;
                t.text = text_.substr(start, 2);
                return t;
            }
            break;
        case ':':
            if (pos_ + 1 < text_.size() && text_[pos_ + 1] == ':') {
                advance(2);
                t.kind = Tok::coloncolon;
                t.text = text_.substr(start, 2);
                return t;
            }
            return single(Tok::colon);
        case ';': return single(Tok::semicolon);
        case ',': return single(Tok::comma);
        case '=': return single(Tok::equals);
        case '(': return single(Tok::lparen);
        case ')': return single(Tok::rparen);
        case '[': return single(Tok::lbracket);
        case ']': return single(Tok::rbracket);
        case '{': return single(Tok::lbrace);
        case '}': return single(Tok::rbrace);
        default: break;
        }
        const auto byte = static_cast<unsigned char>(c);
        throw SyntaxError(t.line, t.column,
                          byte >= 0x20 && byte < 0x7f ? std::string("unexpected character '") + c + "'"
                                                      : "unexpected byte " + std::to_string(byte));
    }

private:
    static bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
    static bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
    static bool is_alnum(char c) noexcept { return is_alpha(c) || is_digit(c); }

    int column() const noexcept { return static_cast<int>(pos_ - line_start_) + 1; }

    void advance(std::size_t n) noexcept { pos_ += n; }

    void skip_space() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '\n') {
                ++pos_;
                ++line_;
                line_start_ = pos_;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++pos_;
            } else if (c == '%') {
                while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
            } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
                const int line = line_, col = column();
                pos_ += 2;
                for (;;) {
                    if (pos_ + 1 >= text_.size()) throw SyntaxError(line, col, "unterminated comment");
                    if (text_[pos_] == '*' && text_[pos_ + 1] == '/') break;
                    if (text_[pos_] == '\n') {
                        ++line_;
                        line_start_ = pos_ + 1;
                    }
                    ++pos_;
                }
                pos_ += 2;
            } else {
                return;
            }
        }
    }

    Token number(Token& t) {
        const std::size_t start = pos_;
        if (text_[pos_] == '-') advance(1);
        bool real = false;
        int radix = 10;
        if (text_[pos_] == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'o')) {
            radix = text_[pos_ + 1] == 'x' ? 16 : 8;
            advance(2);
            while (pos_ < text_.size() && (is_alnum(text_[pos_]))) advance(1);
        } else {
            while (pos_ < text_.size() && is_digit(text_[pos_])) advance(1);
            // "1..3" is a range, not the real "1." followed by ".3".
            if (pos_ + 1 < text_.size() && text_[pos_] == '.' && is_digit(text_[pos_ + 1])) {
                real = true;
                advance(1);
                while (pos_ < text_.size() && is_digit(text_[pos_])) advance(1);
            }
            if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
                std::size_t p = pos_ + 1;
                if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
                if (p < text_.size() && is_digit(text_[p])) {
                    real = true;
                    pos_ = p;
                    while (pos_ < text_.size() && is_digit(text_[pos_])) advance(1);
                }
            }
        }
        t.text = text_.substr(start, pos_ - start);
        if (pos_ < text_.size() && (is_alpha(text_[pos_]) || text_[pos_] == '_'))
            throw SyntaxError(t.line, t.column, "malformed number '" + std::string(t.text) + text_[pos_] + "...'");
        if (real) {
            t.kind = Tok::real;
            const std::string s(t.text);
            errno = 0;
            t.real = std::strtod(s.c_str(), nullptr);
            if (errno == ERANGE) throw SyntaxError(t.line, t.column, "real number out of range: " + s);
            return t;
        }
        t.kind = Tok::integer;
        std::string_view digits = t.text;
        const bool negative = digits.front() == '-';
        if (negative) digits.remove_prefix(1);
        if (radix != 10) digits.remove_prefix(2);
        std::uint64_t magnitude = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, radix);
        const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
        if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || magnitude > limit)
            throw SyntaxError(t.line, t.column,
                              ec == std::errc::result_out_of_range || magnitude > limit
                                  ? "integer out of range: " + std::string(t.text)
                                  : "malformed integer '" + std::string(t.text) + "'");
        t.value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
        return t;
    }

    Token string(Token& t) {
        const std::size_t start = pos_;
        advance(1);
        for (;;) {
            if (pos_ >= text_.size() || text_[pos_] == '\n') throw SyntaxError(t.line, t.column, "unterminated string");
            const char c = text_[pos_];
            if (c == '"') break;
            if (c == '\\') {
                if (pos_ + 1 >= text_.size()) throw SyntaxError(t.line, t.column, "unterminated string");
                const char e = text_[pos_ + 1];
                t.str += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                advance(2);
            } else {
                t.str += c;
                advance(1);
            }
        }
        advance(1);
        t.kind = Tok::string;
        t.text = text_.substr(start, pos_ - start);
        return t;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t line_start_ = 0;
    int line_ = 1;
};

// Nesting deeper than this is refused: the parser recurses, and a file of
// a million '[' must be an error, not a stack overflow.
constexpr int max_depth = 200;

class Parser {
public:
    explicit Parser(std::string_view text) : lex_(text) { tok_ = lex_.next(); }

    Model model() {
        Model m;
        bool solved = false;
        while (tok_.kind != Tok::end) {
            if (solved) error("nothing may follow the solve item");
            if (word("predicate")) {
                skip_predicate();
            } else if (word("constraint")) {
                m.constraints.push_back(constraint());
            } else if (word("solve")) {
                m.solve = solve();
                solved = true;
            } else {
                m.decls.push_back(decl());
            }
        }
        if (!solved) error("the model has no solve item");
        m.symbols = static_cast<int>(symbols_.size());
        return m;
    }

private:
    [[noreturn]] void error(const std::string& what) const { throw SyntaxError(tok_.line, tok_.column, what); }
    [[noreturn]] void expected(const std::string& what) const {
        error("expected " + what + ", found " + describe(tok_));
    }

    void advance() { tok_ = lex_.next(); }
    bool at(Tok k) const noexcept { return tok_.kind == k; }
    bool word(std::string_view w) const noexcept { return tok_.kind == Tok::ident && tok_.text == w; }
    bool accept(Tok k) {
        if (!at(k)) return false;
        advance();
        return true;
    }
    void expect(Tok k, const char* what) {
        if (!accept(k)) expected(what);
    }
    void expect_word(std::string_view w) {
        if (!word(w)) expected("'" + std::string(w) + "'");
        advance();
    }
    std::string ident(const char* what) {
        if (!at(Tok::ident)) expected(what);
        std::string s(tok_.text);
        advance();
        return s;
    }
    // item (',' item)* up to `close`, which it takes; empty when `close`
    // comes first.
    template <class Item>
    void list(Tok close, const char* closing, Item&& item) {
        if (!at(close)) {
            do item(); while (accept(Tok::comma));
        }
        expect(close, closing);
    }

    std::int64_t integer(const char* what) {
        if (!at(Tok::integer)) expected(what);
        const std::int64_t v = tok_.value;
        advance();
        return v;
    }

    void skip_predicate() {
        advance();
        ident("a predicate name");
        expect(Tok::lparen, "'('");
        int depth = 1;
        while (depth > 0) {
            if (at(Tok::end)) expected("')'");
            if (at(Tok::lparen)) ++depth;
            if (at(Tok::rparen)) --depth;
            advance();
        }
        expect(Tok::semicolon, "';'");
    }

    ConstraintItem constraint() {
        ConstraintItem c;
        c.line = tok_.line;
        c.column = tok_.column;
        advance();
        c.name = ident("a constraint name");
        expect(Tok::lparen, "'('");
        list(Tok::rparen, "')' or ','", [&] { c.args.push_back(expr(0)); });
        c.annotations = annotations();
        expect(Tok::semicolon, "';'");
        return c;
    }

    SolveItem solve() {
        SolveItem s;
        s.line = tok_.line;
        s.column = tok_.column;
        advance();
        s.annotations = annotations();
        if (word("satisfy")) {
            advance();
        } else if (word("minimize") || word("maximize")) {
            s.kind = word("minimize") ? SolveItem::Kind::minimize : SolveItem::Kind::maximize;
            advance();
            s.objective = expr(0);
        } else {
            expected("'satisfy', 'minimize' or 'maximize'");
        }
        expect(Tok::semicolon, "';'");
        return s;
    }

    Decl decl() {
        Decl d;
        d.line = tok_.line;
        d.column = tok_.column;
        if (word("array")) {
            advance();
            expect(Tok::lbracket, "'['");
            const int line = tok_.line, col = tok_.column;
            if (integer("the array's index set 1..n") != 1)
                throw SyntaxError(line, col, "an array's index set must start at 1");
            expect(Tok::dotdot, "'..'");
            d.type.array_size = integer("the array's size");
            if (d.type.array_size < 0) throw SyntaxError(line, col, "an array's index set must be 1..n with n >= 0");
            expect(Tok::rbracket, "']'");
            expect_word("of");
            d.type.is_array = true;
        }
        if (word("var")) {
            advance();
            d.type.is_var = true;
        }
        base_type(d.type);
        expect(Tok::colon, "':'");
        d.line = tok_.line;
        d.column = tok_.column;
        d.name = ident("a name");
        d.symbol = intern(d.name);
        d.annotations = annotations();
        if (accept(Tok::equals)) {
            d.has_value = true;
            d.value = expr(0);
        }
        expect(Tok::semicolon, "';'");
        return d;
    }

    void base_type(Type& t) {
        if (word("int")) {
            advance();
        } else if (word("bool")) {
            advance();
            t.base = Type::Base::bool_;
        } else if (word("float")) {
            advance();
            t.base = Type::Base::float_;
        } else if (word("set")) {
            advance();
            expect_word("of");
            t.base = Type::Base::set_of_int;
            if (word("int")) {
                advance();
            } else {
                t.has_domain = true;
                t.domain = domain();
            }
        } else {
            t.has_domain = true;
            t.domain = domain();
            if (t.domain.real_range) t.base = Type::Base::float_;
        }
    }

    // A domain: lo..hi (integers or reals) or {a, b, ...}.
    Node domain() {
        if (!at(Tok::integer) && !at(Tok::real) && !at(Tok::lbrace)) expected("a type");
        Node n = expr(0);
        if (n.kind != Node::Kind::range && n.kind != Node::Kind::set)
            throw SyntaxError(n.line, n.column, "expected a domain (lo..hi or a set)");
        return n;
    }

    std::vector<Node> annotations() {
        std::vector<Node> anns;
        while (accept(Tok::coloncolon)) anns.push_back(expr(0));
        return anns;
    }

    Node expr(int depth) {
        if (depth > max_depth) error("nesting deeper than " + std::to_string(max_depth) + " levels");
        Node n;
        n.line = tok_.line;
        n.column = tok_.column;
        switch (tok_.kind) {
        case Tok::integer: {
            n.value = tok_.value;
            advance();
            if (accept(Tok::dotdot)) {
                n.kind = Node::Kind::range;
                n.lo = n.value;
                n.hi = integer("an integer after '..'");
            }
            return n;
        }
        case Tok::real: {
            n.kind = Node::Kind::floating;
            n.real = tok_.real;
            advance();
            if (accept(Tok::dotdot)) {
                if (!at(Tok::real) && !at(Tok::integer)) expected("a number after '..'");
                n.kind = Node::Kind::range;
                n.real_range = true;
                n.real_lo = n.real;
                n.real = at(Tok::real) ? tok_.real : static_cast<double>(tok_.value);
                advance();
            }
            return n;
        }
        case Tok::string:
            n.kind = Node::Kind::string;
            n.name = tok_.str;
            advance();
            return n;
        case Tok::lbrace:
            advance();
            n.kind = Node::Kind::set;
            list(Tok::rbrace, "'}' or ','", [&] { n.elements.push_back(integer("an integer in the set")); });
            return n;
        case Tok::lbracket:
            advance();
            n.kind = Node::Kind::array;
            list(Tok::rbracket, "']' or ','", [&] { n.items.push_back(expr(depth + 1)); });
            return n;
        case Tok::ident: {
            n.name = std::string(tok_.text);
            advance();
            if (n.name == "true" || n.name == "false") {
                n.kind = Node::Kind::boolean;
                n.value = n.name == "true";
                n.name.clear();
                return n;
            }
            if (accept(Tok::lbracket)) {
                n.kind = Node::Kind::access;
                n.symbol = intern(n.name);
                n.value = integer("an index");
                expect(Tok::rbracket, "']'");
                return n;
            }
            if (accept(Tok::lparen)) {
                n.kind = Node::Kind::call;
                list(Tok::rparen, "')' or ','", [&] { n.items.push_back(expr(depth + 1)); });
                return n;
            }
            n.kind = Node::Kind::ident;
            n.symbol = intern(n.name);
            return n;
        }
        default: expected("an expression");
        }
    }

    int intern(const std::string& name) {
        return symbols_.try_emplace(name, static_cast<int>(symbols_.size())).first->second;
    }

    Lexer lex_;
    Token tok_;
    std::unordered_map<std::string, int> symbols_;
};

} // namespace

Model parse(std::string_view text) { return Parser(text).model(); }

} // namespace propane::fzn
