#!/usr/bin/env python3
"""Checks binary property lists written by SeedKit against Python's plistlib, an independent
implementation whose binary writer lays files out as Core Foundation does.

For each file given: plistlib loads it, writes the value again (FMT_BINARY, keys sorted), and the
two byte strings are compared. One line per file:
  SAME <file>               plistlib read it and writes exactly the same bytes
  DIFFERENT <file> <hex>    plistlib read it but writes other bytes (given in hex)
  UNREADABLE <file> <why>   plistlib could not read it
Exit status 0 when every file is SAME, 1 otherwise.

Used by Tests/PropertyListsTests/PlistlibInteropTests.swift; see docs/PropertyLists.md.
"""
import plistlib
import sys


def check(path):
    with open(path, "rb") as handle:
        original = handle.read()
    try:
        value = plistlib.loads(original, fmt=plistlib.FMT_BINARY)
    except Exception as error:  # plistlib raises several types; any of them means unreadable
        return False, f"UNREADABLE {path} {type(error).__name__}: {error}"
    rewritten = plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=True)
    if rewritten == original:
        return True, f"SAME {path}"
    return False, f"DIFFERENT {path} {rewritten.hex()}"


def main(paths):
    if not paths:
        print("usage: plistlib_check.py FILE.bplist ...", file=sys.stderr)
        return 2
    results = [check(path) for path in paths]
    for _, line in results:
        print(line)
    return 0 if all(same for same, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
