#!/usr/bin/env python3
"""Fills empty msgstr entries of a .po file from a JSON dict {msgid: msgstr}.
Usage: scripts/po-fill.py po/de.po translations.json  (prints what is still missing)"""
import json
import re
import sys

po_path, tr_path = sys.argv[1], sys.argv[2]
tr = json.load(open(tr_path, encoding="utf-8"))
blocks = open(po_path, encoding="utf-8").read().split("\n\n")
missing = []


def unquote(lines):
    return "".join(json.loads(l) for l in lines)


for i, block in enumerate(blocks):
    m = re.search(r'^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)', block + "\n", re.M)
    if not m:
        continue
    mid = unquote(re.findall(r'".*"', m.group(1)))
    mstr = unquote(re.findall(r'".*"', m.group(2)))
    if not mid or mstr:
        continue
    if mid in tr:
        head = block[:m.start(2)]
        blocks[i] = head + json.dumps(tr[mid], ensure_ascii=False) + block[m.end(2) - 1 if block[m.end(2) - 1:m.end(2)] == "\n" else m.end(2):].rstrip("\n")
        blocks[i] = blocks[i].rstrip("\n")
    else:
        missing.append(mid)
open(po_path, "w", encoding="utf-8").write("\n\n".join(b.rstrip("\n") for b in blocks) + "\n")
for m in missing:
    print(json.dumps(m, ensure_ascii=False))
