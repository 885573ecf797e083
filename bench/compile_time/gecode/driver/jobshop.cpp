// Job shop through Gecode's driver: the model of ../jobshop.cpp (starts over
// 0..horizon, precedences inside each job, one order Boolean per pair of
// operations on a machine with both orders half reified, the makespan
// minimised; branching on the order Booleans, then the starts, then the
// makespan, first unbound / min value), reading the same instance files the
// same way (a line "jobs machines", then one line per job of
// machine/duration pairs; '#' starts a comment), run by Script::run with
// the command line of Gecode's InstanceOptions, as the Gecode counterpart
// of examples/jobshop.cpp's command line, for bench/compile_time/run.py.
//
// Usage: jobshop [driver options] FILE   (-help lists them all)
//   examples/jobshop.cpp     Gecode's driver
//   FILE                     FILE (the instance, last on the line; no '-')
//   --time-limit SECONDS     -time MILLISECONDS
//   --threads K              -threads K (0: all hardware threads)
//   --output FILE            -file-sol FILE (-file-stat FILE: the statistics)
//   --quiet                  -print-last 1 (only the final schedule)
//   --json                   none (-mode stat prints only the statistics)
#include <gecode/driver.hh>
#include <gecode/int.hh>
#include <gecode/minimodel.hh>

#include <cstddef>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace Gecode;

struct Instance {
    int jobs = 0, machines = 0;
    std::vector<std::vector<std::pair<int, int>>> ops; // [job][k] = (machine, duration)
    int horizon() const {
        int h = 0;
        for (const auto& job : ops)
            for (const auto& op : job) h += op.second;
        return h;
    }
};

// The driver's options with the instance read from the file they name: the
// script is built from its options alone.
class JobShopOptions : public InstanceOptions {
public:
    Instance data;
    explicit JobShopOptions(const char* name) : InstanceOptions(name) {}
};

class JobShop : public IntMinimizeScript {
public:
    int jobs, machines;
    IntVarArray start; // job-major
    IntVar makespan;
    BoolVarArray order;

    explicit JobShop(const JobShopOptions& opt)
        : IntMinimizeScript(opt), jobs(opt.data.jobs), machines(opt.data.machines),
          start(*this, opt.data.jobs * opt.data.machines, 0, opt.data.horizon()),
          makespan(*this, 0, opt.data.horizon()) {
        const Instance& in = opt.data;
        const auto s = [&](int j, int k) { return start[j * in.machines + k]; };
        const auto d = [&](int j, int k) { return in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].second; };
        for (int j = 0; j < in.jobs; ++j) {
            for (int k = 0; k + 1 < in.machines; ++k)
                linear(*this, IntArgs({1, -1}), IntVarArgs({s(j, k), s(j, k + 1)}), IRT_LQ, -d(j, k));
            linear(*this, IntArgs({1, -1}), IntVarArgs({s(j, in.machines - 1), makespan}), IRT_LQ,
                   -d(j, in.machines - 1));
        }
        std::vector<std::vector<std::pair<int, int>>> on(static_cast<std::size_t>(in.machines));
        for (int j = 0; j < in.jobs; ++j)
            for (int k = 0; k < in.machines; ++k)
                on[static_cast<std::size_t>(in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)].first)]
                    .push_back({j, k});
        BoolVarArgs bs;
        for (const auto& ops : on)
            for (std::size_t x = 0; x < ops.size(); ++x)
                for (std::size_t y = x + 1; y < ops.size(); ++y) {
                    const int ja = ops[x].first, ka = ops[x].second, jb = ops[y].first, kb = ops[y].second;
                    const BoolVar b(*this, 0, 1), nb(*this, 0, 1);
                    rel(*this, b, IRT_NQ, nb);
                    linear(*this, IntArgs({1, -1}), IntVarArgs({s(ja, ka), s(jb, kb)}), IRT_LQ, -d(ja, ka),
                           Reify(b, RM_IMP));
                    linear(*this, IntArgs({1, -1}), IntVarArgs({s(jb, kb), s(ja, ka)}), IRT_LQ, -d(jb, kb),
                           Reify(nb, RM_IMP));
                    bs << b;
                }
        order = BoolVarArray(*this, bs);
        branch(*this, order, BOOL_VAR_NONE(), BOOL_VAL_MIN());
        branch(*this, start, INT_VAR_NONE(), INT_VAL_MIN());
        branch(*this, makespan, INT_VAL_MIN());
    }
    JobShop(JobShop& other) : IntMinimizeScript(other), jobs(other.jobs), machines(other.machines) {
        start.update(*this, other.start);
        makespan.update(*this, other.makespan);
        order.update(*this, other.order);
    }
    Space* copy() override { return new JobShop(*this); }
    IntVar cost() const override { return makespan; }
    // The makespan, then per job the start of each operation in its order.
    void print(std::ostream& os) const override {
        os << "makespan " << makespan.val() << std::endl;
        for (int j = 0; j < jobs; ++j) {
            os << "  job " << j << ":";
            for (int k = 0; k < machines; ++k) os << ' ' << start[j * machines + k].val();
            os << std::endl;
        }
    }
};

static bool read(const char* file, Instance& in) {
    std::ifstream f(file);
    std::string line;
    std::vector<int> numbers;
    while (std::getline(f, line)) {
        std::istringstream words(line.substr(0, line.find('#')));
        for (int v; words >> v;) numbers.push_back(v);
    }
    if (numbers.size() < 2) return false;
    in.jobs = numbers[0];
    in.machines = numbers[1];
    if (in.jobs < 1 || in.machines < 1 ||
        numbers.size() != 2 + 2 * static_cast<std::size_t>(in.jobs) * static_cast<std::size_t>(in.machines))
        return false;
    std::size_t i = 2;
    in.ops.assign(static_cast<std::size_t>(in.jobs), {});
    for (auto& job : in.ops)
        for (int k = 0; k < in.machines; ++k, i += 2) job.push_back({numbers[i], numbers[i + 1]});
    return true;
}

int main(int argc, char* argv[]) {
    JobShopOptions opt("jobshop");
    opt.solutions(0); // every improvement, down to the optimum
    opt.parse(argc, argv);
    if (opt.instance() == nullptr || !read(opt.instance(), opt.data)) {
        std::cerr << "usage: jobshop [driver options] FILE (try -help)" << std::endl;
        return 2;
    }
    IntMinimizeScript::run<JobShop, BAB, JobShopOptions>(opt);
    return 0;
}
