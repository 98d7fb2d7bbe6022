#!/usr/bin/env python3
"""Generate the benchmark catalog of docs/Performance.md in CSV, JSON, NDJSON and XML.

Usage:
    python3 tools/generate_catalog.py 1000000 --seed 1 --out .bench/data-1000000
    python3 tools/generate_catalog.py 20000 --out /tmp/cat --formats csv,xml
    python3 tools/generate_catalog.py 1000000 --shuffle --out .bench/data-1000000-shuffled

The data set: ~20 units, ~100 locations (aisles), 500 tags, N items (unique `sku`, name,
price, quantity, listed, added, notes — empty for most items — a unit, a location and 0–3
tags) and N/100 shopping lists (unique `code`, title, created, 1–20 item skus in order).
About 3.5 % of item names and list titles are awkward: quotes, commas, embedded newlines,
tabs, non-ASCII (é, ß, 日本) and XML specials (<>&'"), escaped as each format requires.

Files written to OUT, with exactly the shapes of SeedData/Catalog so the same plans work:
    csv     items.csv, lists.csv (RFC 4180 quoting; tags and list items `;`-separated)
    json    catalog.json (one document with `items` and `lists` arrays)
    ndjson  items.ndjson, lists.ndjson (one record per line)
    xml     catalog.xml (item attributes, <name>/<notes>/<tag> children; <list> elements
            with <entry sku=…/> children)
plus Catalog.yaml and the plans catalog-csv.yaml, catalog-json.yaml, catalog-xml.yaml copied
from SeedData/Catalog, and catalog-ndjson.yaml (all paths relative to OUT).

The output depends only on N and the seed (not on --formats), items never depend on N (so
the first M items of a catalog of N > M are those of the catalog of M), and files are
written in chunks, so memory stays small whatever N. With --shuffle the items come in a random
order of their skus (the same skus, the k-th item written taking the sku of a keyed permutation
of k, so nothing is held in memory to shuffle); lists name the same skus either way.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import NamedTuple, TextIO

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "SeedData" / "Catalog"
FORMATS = ("csv", "json", "ndjson", "xml")
CHUNK = 5000
AWKWARD_SHARE = 0.035
NOTES_SHARE = 0.3
LISTED_SHARE = 0.8
FIRST_DAY = 18262  # 2020-01-01, in days since 1970-01-01
DAYS = 2557  # seven years of dates

UNITS = ("kg", "g", "l", "ml", "pack", "piece", "box", "bottle", "can", "jar", "bag", "dozen",
         "bunch", "tray", "crate", "roll", "tube", "sachet", "carton", "tin")
ADJECTIVES = ("Fresh", "Organic", "Smoked", "Sweet", "Spicy", "Frozen", "Dried", "Roasted",
              "Wild", "Golden", "Red", "Green", "Whole", "Light", "Dark", "Classic", "Mild",
              "Crunchy", "Creamy", "Salted", "Plain", "Mixed", "Baby", "Large", "Small",
              "Premium", "Rustic", "Tender", "Young", "Aged", "Sliced", "Ground", "Pickled",
              "Toasted", "Raw", "Soft", "Hard", "Sparkling", "Still", "Local")
NOUNS = ("Apples", "Bananas", "Bread", "Butter", "Cheese", "Milk", "Yogurt", "Eggs", "Rice",
         "Pasta", "Beans", "Lentils", "Tomatoes", "Potatoes", "Onions", "Garlic", "Carrots",
         "Peppers", "Salmon", "Tuna", "Chicken", "Beef", "Ham", "Sausages", "Coffee", "Tea",
         "Juice", "Water", "Cider", "Chocolate", "Biscuits", "Crackers", "Honey", "Jam",
         "Olives", "Nuts", "Almonds", "Oats", "Flour", "Sugar", "Salt", "Pepper", "Vinegar",
         "Oil", "Mustard", "Ketchup", "Soup", "Noodles", "Tofu", "Mushrooms", "Spinach",
         "Lettuce", "Cabbage", "Pears", "Grapes", "Lemons", "Oranges", "Plums", "Cherries",
         "Melons")
AWKWARD = ("Milk, whole", 'Keep "cold"', "Two\nlines", "Crème fraîche", "Weißbier Straße",
           "日本茶 (green tea)", "Salt & <Pepper>", "O'Brien's \"best\", <mild> & sweet",
           "Tab\tseparated", "Ünïcödé ☕ café", " padded ", "a;b, c\n\"d\" <e> & 'f'")
NOTES = ("Fair trade", "Keep refrigerated", "Seasonal", "Limited stock", "New supplier",
         "Best before end of month", 'Keep "cold"', "Two\nlines", "Contains nuts & seeds",
         "Ask at the <deli> counter", "Prix spécial", "Preis pro Stück, Größe M")
TAG_WORDS = ("fresh", "fruit", "dairy", "bakery", "frozen", "vegan", "organic", "local",
             "sale", "new", "bulk", "snack", "drink", "spice", "meat", "fish", "deli",
             "pantry", "breakfast", "baby", "pet", "household", "gluten-free", "café",
             "日本")
TITLES = ("Weekly shop", "Breakfast", "Party", "Barbecue", "Camping", "Picnic", "Dinner",
          "Lunch boxes", "Holiday", "Baking day")


class Text(NamedTuple):
    """One string in the escaped form each format needs."""

    csv: str  # a CSV field, quoted when needed
    json: str  # a JSON string literal, with its quotes
    xml: str  # element text
    attr: str  # an attribute value (without its quotes)


def csv_field(value: str) -> str:
    """Quote a CSV field per RFC 4180 when it holds a comma, quote or line break."""
    if any(c in value for c in ',"\n\r'):
        return '"' + value.replace('"', '""') + '"'
    return value


def xml_text(value: str) -> str:
    """Escape element text (all five XML specials, so `'` and `"` are exercised too)."""
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&apos;"))


def xml_attr(value: str) -> str:
    """Escape an attribute value; line breaks and tabs as character references so they survive
    attribute-value normalisation."""
    return xml_text(value).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")


def text(value: str) -> Text:
    """All escaped forms of `value`."""
    return Text(csv_field(value), json.dumps(value, ensure_ascii=False), xml_text(value),
                xml_attr(value))


def plain_pool(values: list[str]) -> list[Text]:
    """Escaped forms for each value."""
    return [text(value) for value in values]


class Pools(NamedTuple):
    """Precomputed values (and their escaped forms) the records are drawn from."""

    names: list[Text]
    awkward_names: list[Text]
    notes: list[Text]
    titles: list[Text]
    awkward_titles: list[Text]
    tags: list[str]
    locations: list[str]
    days: list[str]
    times: list[str]


def make_pools() -> Pools:
    """Build the value pools (deterministic, independent of the seed)."""
    names = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS]
    awkward_names = [f"{w} {n}" for w in AWKWARD for n in NOUNS]
    titles = [f"{t} {k}" for t in TITLES for k in range(1, 21)]
    awkward_titles = [f"{w} {t}" for w in AWKWARD for t in TITLES]
    tags = [f"{w}-{k}" for w in TAG_WORDS for k in range(1, 21)]
    locations = [f"{chr(ord('A') + row)}{col}" for row in range(10) for col in range(1, 11)]
    days = [time.strftime("%Y-%m-%d", time.gmtime((FIRST_DAY + d) * 86400)) for d in range(DAYS)]
    times = [f"T{h:02d}:{m:02d}:{s:02d}Z" for h in range(24) for m in range(60) for s in range(60)]
    return Pools(plain_pool(names), plain_pool(awkward_names), plain_pool(list(NOTES)),
                 plain_pool(titles), plain_pool(awkward_titles), tags, locations, days, times)


class Writers:
    """The open output files of the chosen formats, buffered chunk by chunk."""

    def __init__(self, out: Path, formats: set[str]) -> None:
        """Open the files of `formats` in `out` and write their headers."""
        self.files: dict[str, TextIO] = {}
        self.buffers: dict[str, list[str]] = {}
        names = {"csv": ["items.csv", "lists.csv"], "json": ["catalog.json"],
                 "ndjson": ["items.ndjson", "lists.ndjson"], "xml": ["catalog.xml"]}
        for fmt in FORMATS:
            if fmt in formats:
                for name in names[fmt]:
                    self.files[name] = open(out / name, "w", encoding="utf-8", newline="",
                                            buffering=1 << 20)
                    self.buffers[name] = []
        self.emit("items.csv", "sku,name,price,quantity,listed,added,notes,unit,location,tags\n")
        self.emit("lists.csv", "code,title,created,items\n")
        self.emit("catalog.json", '{\n  "items": [\n')
        self.emit("catalog.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<catalog>\n')

    def emit(self, name: str, chunk: str) -> None:
        """Queue `chunk` for file `name` if that file is being written."""
        buffer = self.buffers.get(name)
        if buffer is not None:
            buffer.append(chunk)

    def flush(self) -> None:
        """Write out everything queued."""
        for name, buffer in self.buffers.items():
            if buffer:
                self.files[name].write("".join(buffer))
                buffer.clear()

    def close(self) -> None:
        """Flush and close every file."""
        self.flush()
        for file in self.files.values():
            file.close()


class Permutation:
    """A bijection of 0..<count chosen by a key: a four-round Feistel network over the smallest
    power of four covering `count`, walked until it lands below `count` (constant memory)."""

    def __init__(self, count: int, key: int) -> None:
        """The permutation of `count` numbers for `key`."""
        self.count = count
        self.half_bits = max(1, (max(count - 1, 1).bit_length() + 1) // 2)
        self.mask = (1 << self.half_bits) - 1
        keys = random.Random(key)
        self.round_keys = [keys.getrandbits(32) for _ in range(4)]

    def __call__(self, value: int) -> int:
        """The number `value` goes to."""
        while True:
            left, right = value >> self.half_bits, value & self.mask
            for round_key in self.round_keys:
                mixed = ((right * 0x9E3779B1) ^ round_key) & 0xFFFFFFFF
                mixed ^= mixed >> 15
                left, right = right, (left ^ mixed) & self.mask
            value = (left << self.half_bits) | right
            if value < self.count:
                return value


def write_items(count: int, rng: random.Random, pools: Pools, writers: Writers,
                order: Permutation | None = None) -> None:
    """Write `count` items to every open format (in the sku order `order` gives, else in order)."""
    r = rng.random
    names, awkward, notes_pool = pools.names, pools.awkward_names, pools.notes
    tags, locations, days, times = pools.tags, pools.locations, pools.days, pools.times
    csv_rows = [] if "items.csv" in writers.buffers else None
    json_rows = [] if ("catalog.json" in writers.buffers or "items.ndjson" in writers.buffers) else None
    xml_rows = [] if "catalog.xml" in writers.buffers else None
    for start in range(0, count, CHUNK):
        for index in range(start, min(count, start + CHUNK)):
            sku = f"SKU-{order(index) if order else index:07d}"
            name = (awkward[int(r() * len(awkward))] if r() < AWKWARD_SHARE
                    else names[int(r() * len(names))])
            cents = 1 + int(r() * 99_999)
            price = f"{cents // 100}.{cents % 100:02d}"
            quantity = str(int(r() * 10_000))
            listed = r() < LISTED_SHARE
            added = days[int(r() * DAYS)] + times[int(r() * 86_400)]
            note = notes_pool[int(r() * len(notes_pool))] if r() < NOTES_SHARE else None
            unit = UNITS[int(r() * len(UNITS))]
            location = locations[int(r() * len(locations))]
            item_tags: list[str] = []
            for _ in range(int(r() * 4)):
                tag = tags[int(r() * len(tags))]
                if tag not in item_tags:
                    item_tags.append(tag)
            if csv_rows is not None:
                csv_rows.append(f"{sku},{name.csv},{price},{quantity},{'yes' if listed else 'no'},"
                                f"{added},{note.csv if note else ''},{unit},{location},"
                                f"{';'.join(item_tags)}\n")
            if json_rows is not None:
                tag_list = ", ".join(f'"{t}"' for t in item_tags)
                json_rows.append(f'{{"sku": "{sku}", "name": {name.json}, "price": {price}, '
                                 f'"quantity": {quantity}, "listed": {"true" if listed else "false"}, '
                                 f'"added": "{added}", "notes": {note.json if note else "null"}, '
                                 f'"unit": "{unit}", "location": "{location}", "tags": [{tag_list}]}}')
            if xml_rows is not None:
                xml_rows.append(f'  <item sku="{sku}" price="{price}" quantity="{quantity}" '
                                f'listed="{"true" if listed else "false"}" added="{added}" '
                                f'unit="{unit}" location="{location}">\n    <name>{name.xml}</name>'
                                + (f"<notes>{note.xml}</notes>" if note else "")
                                + "".join(f"<tag>{t}</tag>" for t in item_tags) + "\n  </item>\n")
        if csv_rows is not None:
            writers.emit("items.csv", "".join(csv_rows))
            csv_rows.clear()
        if json_rows is not None:
            separator = ",\n    " if start else "    "
            writers.emit("catalog.json", separator + ",\n    ".join(json_rows))
            writers.emit("items.ndjson", "\n".join(json_rows) + "\n")
            json_rows.clear()
        if xml_rows is not None:
            writers.emit("catalog.xml", "".join(xml_rows))
            xml_rows.clear()
        writers.flush()


def write_lists(count: int, items: int, rng: random.Random, pools: Pools, writers: Writers) -> None:
    """Write `count` shopping lists of 1–20 distinct skus drawn from `items` items."""
    r = rng.random
    writers.emit("catalog.json", "\n  ],\n  \"lists\": [\n")
    for index in range(count):
        code = f"L-{index:06d}"
        title = (pools.awkward_titles[int(r() * len(pools.awkward_titles))] if r() < AWKWARD_SHARE
                 else pools.titles[int(r() * len(pools.titles))])
        created = pools.days[int(r() * DAYS)] + pools.times[int(r() * 86_400)]
        skus = [f"SKU-{i:07d}" for i in rng.sample(range(items), min(items, 1 + int(r() * 20)))]
        writers.emit("lists.csv", f"{code},{title.csv},{created},{';'.join(skus)}\n")
        record = (f'{{"code": "{code}", "title": {title.json}, "created": "{created}", '
                  f'"items": [{", ".join(chr(34) + s + chr(34) for s in skus)}]}}')
        writers.emit("catalog.json", (",\n    " if index else "    ") + record)
        writers.emit("lists.ndjson", record + "\n")
        writers.emit("catalog.xml", f'  <list code="{code}" title="{title.attr}" created="{created}">\n    '
                     + "".join(f'<entry sku="{s}"/>' for s in skus) + "\n  </list>\n")
        if index % CHUNK == CHUNK - 1:
            writers.flush()
    writers.emit("catalog.json", "\n  ]\n}\n")
    writers.emit("catalog.xml", "</catalog>\n")


def write_plans(out: Path) -> None:
    """Copy the model and the sample plans, and write the NDJSON plan."""
    for name in ("Catalog.yaml", "catalog-csv.yaml", "catalog-json.yaml", "catalog-xml.yaml"):
        shutil.copyfile(SAMPLE / name, out / name)
    json_plan = (SAMPLE / "catalog-json.yaml").read_text(encoding="utf-8")
    ndjson_plan = (json_plan
                   .replace("# Imports the same catalog from one JSON document with `items` and "
                            "`lists` arrays.",
                            "# Imports the same catalog from NDJSON: items.ndjson, then lists.ndjson.")
                   .replace('  - file: catalog.json\n    records: "items[*]"\n', "  - file: items.ndjson\n")
                   .replace('  - file: catalog.json\n    records: "lists[*]"\n', "  - file: lists.ndjson\n"))
    if "catalog.json" in ndjson_plan:
        raise SystemExit("generate_catalog: SeedData/Catalog/catalog-json.yaml changed shape; "
                         "update write_plans")
    (out / "catalog-ndjson.yaml").write_text(ndjson_plan, encoding="utf-8")


def generate(count: int, seed: int, out: Path, formats: set[str], shuffle: bool = False) -> None:
    """Write the catalog of `count` items for `seed` into `out` in `formats` (items in a random
    order of their skus with `shuffle`)."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    pools = make_pools()
    writers = Writers(out, formats)
    try:
        write_items(count, rng, pools, writers, Permutation(count, seed) if shuffle else None)
        write_lists(count // 100, count, rng, pools, writers)
    finally:
        writers.close()
    write_plans(out)


def main() -> None:
    """Parse the command line and generate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("items", type=int, help="number of items (N); lists are N/100")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    parser.add_argument("--formats", default=",".join(FORMATS),
                        help="comma-separated subset of csv,json,ndjson,xml (default: all)")
    parser.add_argument("--shuffle", action="store_true",
                        help="write the items in a random order of their skus (fixed by the seed)")
    args = parser.parse_args()
    formats = {f.strip() for f in args.formats.split(",") if f.strip()}
    if not formats <= set(FORMATS) or args.items < 1:
        parser.error(f"formats must be a subset of {','.join(FORMATS)}; items at least 1")
    start = time.monotonic()
    generate(args.items, args.seed, args.out, formats, args.shuffle)
    print(f"generate_catalog: {args.items} items{' (shuffled)' if args.shuffle else ''}, {args.items // 100} lists, "
          f"{','.join(f for f in FORMATS if f in formats)} in {args.out} "
          f"({time.monotonic() - start:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
