#!/usr/bin/env python3
"""Checks that every test docs/reference-coverage.md cites exists: each Class (a *Test or *IT class
of the project) and each method named after it (Class.method, Class.method, other) is declared;
and that every decision a row names ("decision: <name>") is a bold-named decision in
docs/design-decisions.md.

Prints each citation that names nothing and exits 1 when there is one. Whether a cited test asserts
the behaviour is for review and for the mutation command (CONTRIBUTING.md: Mutation testing)."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
sources = {}
for path in root.rglob('*.java'):
    if 'target' in path.parts or not path.stem.endswith(('Test', 'IT')):
        continue
    sources.setdefault(path.stem, []).append(path)

decisions = [name.strip().rstrip('.').lower() for name in
             re.findall(r'^- \*\*([^*]+)\*\*', (root / 'docs' / 'design-decisions.md').read_text(encoding='utf-8'), re.M)]

missing = []
rows = 0
for line in (root / 'docs' / 'reference-coverage.md').read_text(encoding='utf-8').splitlines():
    row = re.match(r'\| (\d+) \|.*\| (.*) \|$', line)
    if not row:
        continue
    rows += 1
    number, cell = row.groups()
    for named in re.findall(r'[Dd]ecision: ([^;(|]+)', cell):
        name = named.strip().rstrip('.').lower()
        if not any(name.startswith(decision) or decision.startswith(name) for decision in decisions):
            missing.append(f'row {number}: no decision named "{named.strip()}" in design-decisions.md')
    cell = re.sub(r'\([^()]*\)', '', cell)  # remarks in parentheses name no test
    for citation in re.finditer(r'\b([A-Z]\w*(?:Test|IT))\b((?:\.\w+)?(?:, [a-z]\w+)*)', cell):
        name, methods = citation.groups()
        if name not in sources:
            missing.append(f'row {number}: no test class {name}')
            continue
        text = ''.join(path.read_text(encoding='utf-8') for path in sources[name])
        for method in re.findall(r'[.,] ?([a-z]\w+)', methods):
            if not re.search(r'\bvoid ' + method + r'\s*\(', text):
                missing.append(f'row {number}: {name} declares no test method {method}')

for problem in missing:
    print(problem)
print(f'reference coverage: {rows} rows, {len(missing)} citations naming nothing')
sys.exit(1 if missing or rows == 0 else 0)
