#!/usr/bin/env python3
"""The mutation score of each module PIT ran on, per package, against the project's target.

    scripts/mutation-score.py [--threshold PERCENT] [--equivalents FILE] [--markdown FILE] MODULE_DIR...

Reads MODULE_DIR/target/pit-reports/mutations.xml of each module. A mutant counts as killed when a
test failed (KILLED), hung (TIMED_OUT) or ran out of memory (MEMORY_ERROR), as PIT counts it. A
surviving mutant listed in the equivalents file (default: mutation-equivalents.tsv beside this
script's folder) is an equivalent mutant: it changes nothing a caller can observe, and is left out
of the score. The file has one mutant a line, tab-separated: class, method, line, mutator (PIT's
short name, such as NegateConditionalsMutator) and the reason; lines starting with # are comments.
When no survivor has the entry's line, the one survivor of its class, method and mutator matches it
(the code above it moved; the new line is printed).
An entry of a class PIT mutated that matches no surviving mutant is reported (it went stale).

Prints the score per package and per module, then every surviving mutant; writes the survivors to
MODULE_DIR/target/pit-reports/survivors.txt, and with --markdown the scores and survivors of every
module to one Markdown file (docs/mutation-survivors.md is one). Exits 1 when a module's score is below the threshold
(default 85) or an equivalents entry is stale.
"""
import argparse
import collections
import os
import sys
import xml.etree.ElementTree as ET

DETECTED = {"KILLED", "TIMED_OUT", "MEMORY_ERROR"}


def read_equivalents(path):
    entries = {}
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) < 5 or not fields[4].strip():
                sys.exit(f"{path}:{number}: expected class, method, line, mutator and a reason, tab-separated: {line!r}")
            entries[(fields[0], fields[1], fields[2], fields[3])] = fields[4]
    return entries


def mutants(module):
    report = os.path.join(module, "target", "pit-reports", "mutations.xml")
    if not os.path.exists(report):
        sys.exit(f"{report} is missing: run PIT on {module} first (./mooring mutation)")
    for m in ET.parse(report).getroot():
        yield {
            "class": m.findtext("mutatedClass"),
            "method": m.findtext("mutatedMethod"),
            "line": m.findtext("lineNumber"),
            "mutator": m.findtext("mutator").rsplit(".", 1)[-1],
            "description": m.findtext("description"),
            "status": m.get("status"),
        }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Mutation score per module and package")
    parser.add_argument("--threshold", type=float, default=85.0)
    parser.add_argument("--equivalents", default=os.path.join(here, "..", "mutation-equivalents.tsv"))
    parser.add_argument("--markdown", help="also write the scores and every mutant not killed to this Markdown file")
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()
    markdown = []

    equivalents = read_equivalents(args.equivalents)
    used = set()
    mutated = set()
    failed = False
    by_module = {module: list(mutants(module)) for module in args.modules}
    # an entry names a surviving mutant by class, method, line and mutator; when code above it moved, the one
    # survivor of the same class, method and mutator is the same mutant on another line
    undetected = [m for ms in by_module.values() for m in ms if m["status"] not in DETECTED]
    matched = {}
    for entry in equivalents:
        same = [m for m in undetected if (m["class"].split("$")[0], m["method"], m["mutator"]) == (entry[0], entry[1], entry[3])
                and id(m) not in matched]
        exact = [m for m in same if m["line"] == entry[2]]
        pick = exact[0] if exact else (same[0] if len(same) == 1 else None)
        if pick is not None:
            matched[id(pick)] = entry
            if not exact:
                print("equivalents entry moved: " + "\t".join(entry) + f" is now at line {pick['line']}")
    for module in args.modules:
        by_package = collections.defaultdict(collections.Counter)
        survivors = []
        for m in by_module[module]:
            package = m["class"].rsplit(".", 1)[0]
            key = (m["class"].split("$")[0], m["method"], m["line"], m["mutator"])
            mutated.add(key[0])
            if m["status"] in DETECTED:
                outcome = "killed"
            elif id(m) in matched:
                outcome = "equivalent"
                used.add(matched[id(m)])
            else:
                outcome = "survived" if m["status"] == "SURVIVED" else "uncovered"
                survivors.append(m)
            by_package[package][outcome] += 1
        total = collections.Counter()
        print(f"{module}:")
        print(f"  {'package':48} {'mutants':>7} {'killed':>6} {'surv.':>5} {'uncov.':>6} {'equiv.':>6} {'score':>6}")
        for package in sorted(by_package):
            c = by_package[package]
            total.update(c)
            print(f"  {package:48} {sum(c.values()):7} {c['killed']:6} {c['survived']:5} {c['uncovered']:6} {c['equivalent']:6} "
                  f"{score(c):5.1f}%")
        print(f"  {'all':48} {sum(total.values()):7} {total['killed']:6} {total['survived']:5} {total['uncovered']:6} "
              f"{total['equivalent']:6} {score(total):5.1f}%  (target {args.threshold:g}%)")
        listing = os.path.join(module, "target", "pit-reports", "survivors.txt")
        with open(listing, "w", encoding="utf-8") as f:
            for m in sorted(survivors, key=lambda m: (m["class"], int(m["line"] or 0))):
                f.write(f"{m['class']}\t{m['method']}\t{m['line']}\t{m['mutator']}\t{m['status']}\t{m['description']}\n")
        print(f"  {len(survivors)} mutants not killed: {listing}")
        markdown.append(f"## `{os.path.basename(os.path.normpath(module))}`: {score(total):.1f} % ({total['killed']} of "
                        f"{total['killed'] + total['survived'] + total['uncovered']} killed, {total['equivalent']} equivalent left out)\n")
        markdown.append("| package | mutants | killed | score |\n|---|---|---|---|")
        for package in sorted(by_package):
            c = by_package[package]
            markdown.append(f"| `{package}` | {sum(c.values())} | {c['killed']} | {score(c):.1f} % |")
        markdown.append("\n| class | method | line | mutator | status | what PIT changed |\n|---|---|---|---|---|---|")
        for m in sorted(survivors, key=lambda m: (m["class"], int(m["line"] or 0))):
            markdown.append(f"| `{m['class']}` | `{m['method']}` | {m['line']} | {m['mutator'].replace('Mutator', '')} | "
                            f"{m['status']} | {m['description']} |")
        markdown.append("")
        if score(total) < args.threshold:
            print(f"  BELOW TARGET: {score(total):.1f}% < {args.threshold:g}%")
            failed = True
    # an entry goes stale only when PIT mutated its class and it matched no survivor: a run of some packages
    # (PIT's targetClasses) says nothing about the classes it left out
    stale = [key for key in equivalents if key not in used and key[0] in mutated]
    for key in stale:
        print("stale equivalents entry (no such surviving mutant): " + "\t".join(key))
    if stale and all(os.path.exists(os.path.join(m, "target", "pit-reports", "mutations.xml")) for m in args.modules):
        failed = True
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(markdown) + "\n")
    return 1 if failed else 0


def score(counts):
    scored = counts["killed"] + counts["survived"] + counts["uncovered"]
    return 100.0 * counts["killed"] / scored if scored else 100.0


if __name__ == "__main__":
    sys.exit(main())
