#!/usr/bin/env bash
# The README's code blocks that are whole programs are the example sources,
# word for word, so what a reader copies is what CI builds and runs: the
# block under "## Building a model" is examples/send_more.cpp, the one under
# "## Booleans and reification" examples/talks.cpp, the one under
# "## Writing your own constraint" examples/custom_constraint.cpp.
# Usage: readme_examples_test.sh path/to/README.md path/to/examples
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: readme_examples_test.sh README.md examples/" >&2; exit 2; }
python3 - "$1" "$2" <<'PY'
import pathlib, re, sys
readme = pathlib.Path(sys.argv[1]).read_text()
examples = pathlib.Path(sys.argv[2])
bad = 0
for heading, source in [("Building a model", "send_more.cpp"), ("Booleans and reification", "talks.cpp"),
                        ("Writing your own constraint", "custom_constraint.cpp")]:
    section = re.search(r"^## " + re.escape(heading) + r"\n(.*?)(?=^## |\Z)", readme, re.M | re.S)
    block = section and re.search(r"^```cpp\n(.*?)^```$", section.group(1), re.M | re.S)
    if not block:
        print(f"README.md: no cpp block under '## {heading}'")
        bad += 1
        continue
    if block.group(1) != (examples / source).read_text():
        print(f"README.md: the block under '## {heading}' differs from examples/{source}")
        bad += 1
    else:
        print(f"ok: '## {heading}' is examples/{source}")
sys.exit(1 if bad else 0)
PY
