#!/usr/bin/env bash
# Checks that every relative link and #anchor in the documentation resolves: README.md,
# CONTRIBUTING.md, docs/*.md, docs/commands/*.md and examples/**/*.md (or the files given). A
# link resolves when its file or directory exists in the tree and, for a link into a Markdown file, when that file has a
# heading (or an <a id=...>/<a name=...>) whose GitHub anchor is the #fragment. GitHub's anchor
# rules: the heading's rendered text, lower-cased, every character that is not a letter, digit,
# space, '-' or '_' removed, spaces turned into '-', and repeated anchors suffixed -1, -2, ...
# Links inside fenced code blocks and inline code are not links. http(s) and mailto links are not
# fetched (no network in CI).
# Usage: scripts/check-links.sh [FILE.md ...]      exit 0 all resolve, 1 a link is broken
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# == 0)); then
  set -- README.md CONTRIBUTING.md docs/*.md docs/commands/*.md
  while IFS= read -r f; do set -- "$@" "$f"; done < <(find examples -name '*.md' | sort)
fi
exec python3 - "$@" <<'PY'
import os, re, sys, unicodedata

FENCE = re.compile(r'^\s{0,3}(`{3,}|~{3,})')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
INLINE_LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
REF_DEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$')
HTML_ANCHOR = re.compile(r'<a\s+[^>]*(?:id|name)\s*=\s*"([^"]+)"', re.I)
CODE_SPAN = re.compile(r'(`+)(.+?)\1')


def strip_code_spans(line):
    return CODE_SPAN.sub(lambda m: ' ' * len(m.group(0)), line)


def slug(heading):
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)           # code spans keep their text
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)          # links keep their text
    text = re.sub(r'<[^>]+>', '', text)                             # inline HTML tags go
    text = text.replace('*', '')                                    # emphasis markers go
    out = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in ' -_' or cat[0] in 'LN' or cat == 'Mn':
            out.append('-' if ch == ' ' else ch)
    return ''.join(out)


def scan(path):
    """Returns (anchors, links): the file's anchors and its [(line, target)] outside code."""
    anchors, seen, links = set(), {}, []
    in_fence = None
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            fence = FENCE.match(line)
            if fence:
                marker = fence.group(1)
                if in_fence is None:
                    in_fence = marker[0] * len(marker)
                elif marker.startswith(in_fence):
                    in_fence = None
                continue
            if in_fence is not None:
                continue
            heading = HEADING.match(line)
            if heading:
                base = slug(heading.group(2))
                n = seen.get(base, 0)
                anchors.add(base if n == 0 else f'{base}-{n}')
                seen[base] = n + 1
            anchors.update(HTML_ANCHOR.findall(line))
            text = strip_code_spans(line)
            for m in INLINE_LINK.finditer(text):
                links.append((number, m.group(1)))
            ref = REF_DEF.match(text)
            if ref:
                links.append((number, ref.group(1)))
    return anchors, links


cache = {}


def anchors_of(path):
    if path not in cache:
        cache[path] = scan(path)[0]
    return cache[path]


broken = checked = 0
for doc in sys.argv[1:]:
    if not os.path.isfile(doc):
        print(f'{doc}: no such file')
        broken += 1
        continue
    for number, target in scan(doc)[1]:
        if not target or re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
            continue  # absolute URLs (https:, mailto:) are not fetched
        checked += 1
        file_part, _, fragment = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(doc), file_part)) if file_part else doc
        if not os.path.exists(dest):
            print(f'{doc}:{number}: broken link: {target} ({dest} does not exist)')
            broken += 1
        elif fragment and dest.endswith('.md'):
            if fragment.lower() not in anchors_of(dest):
                print(f'{doc}:{number}: broken anchor: {target} (no heading in {dest} '
                      f'has the anchor #{fragment})')
                broken += 1
print(f'check-links: {checked} relative links in {len(sys.argv) - 1} files, {broken} broken')
sys.exit(1 if broken else 0)
PY
