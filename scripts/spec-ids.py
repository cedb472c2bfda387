#!/usr/bin/env python3
"""Which requirement ids of a spec chapter the tests name, in their display names.

    scripts/spec-ids.py                       POD ids of ../shared/spec/pods.md
    scripts/spec-ids.py --missing             ... and list the ids no test names, by section
    scripts/spec-ids.py --prefix DEP --spec ../shared/spec/deployments.md

An id counts when it appears in a test's display name: @DisplayName("..."), @ParameterizedTest(name = "..."), or
the first string of an Arguments.of(...) row (the name its parameterized test shows). Ids in comments or assertion
messages do not count. Reads every */src/test/**/*.java under the repository root.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
STRING = r'"(?:[^"\\]|\\.)*"'
# a display name: the annotation or row start, then string literals joined by +
NAMED = re.compile(r'(?:@DisplayName\(\s*|@ParameterizedTest\(\s*name\s*=\s*|Arguments\.of\(\s*)'
                   r'(' + STRING + r'(?:\s*\+\s*' + STRING + r')*)', re.S)


def named_ids(prefix):
    ids = {}
    pattern = re.compile(re.escape(prefix) + r'-\d+\.\d+')
    for path in sorted(ROOT.glob('*/src/test/**/*.java')):
        text = path.read_text(encoding='utf-8', errors='replace')
        for m in NAMED.finditer(text):
            for i in pattern.findall(m.group(1)):
                ids.setdefault(i, set()).add(path.stem)
    return ids


def spec_ids(prefix, spec):
    text = spec.read_text(encoding='utf-8')
    seen = []
    for i in re.findall(r'\*\*(' + re.escape(prefix) + r'-\d+\.\d+)\*\*', text):
        if i not in seen:
            seen.append(i)
    return seen


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--prefix', default='POD')
    p.add_argument('--spec', default=str(ROOT.parent.parent / 'shared' / 'spec' / 'pods.md')
                   if (ROOT.parent.parent / 'shared').exists() else str(ROOT.parent / 'shared' / 'spec' / 'pods.md'))
    p.add_argument('--missing', action='store_true')
    a = p.parse_args()
    spec = spec_ids(a.prefix, pathlib.Path(a.spec))
    named = named_ids(a.prefix)
    inside = [i for i in spec if i in named]
    unknown = sorted(set(named) - set(spec))
    print(f'{a.prefix} ids in {a.spec}: {len(spec)}')
    print(f'named by a test display name: {len(inside)} ({100 * len(inside) // max(1, len(spec))}%)')
    if unknown:
        print(f'named but not in the spec: {" ".join(unknown)}')
    if a.missing:
        missing = [i for i in spec if i not in named]
        by_section = {}
        for i in missing:
            by_section.setdefault(i.split('.')[0], []).append(i)
        print(f'not named ({len(missing)}):')
        for section, ids in by_section.items():
            print(f'  {section}: {" ".join(i.split(".", 1)[1] for i in ids)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
