"""Reading the text protocol (re-exported by protocol_check.py as
pc.read_lines, pc.interval_blocks, pc.text_part, pc.text_parameters,
pc.text_warnings): its Parameters, its intervals and the parts of each.

The text protocol (spec/protocol.md): 'Label : value' Parameters lines
(their continuation lines indented by three blanks), then one block per
interval from its header line '==== Interval N ...', made of parts, each
from a line '--- Title ---'.
"""

import re

from protocol_base import fail


def read_lines(path):
    """The lines of the text file at path, a line the protocol broke to
    keep within 160 characters joined again (unwrap)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return unwrap(f.read().splitlines())


def unwrap(lines):
    """Lines broken as '\\' + newline + six blanks joined again."""
    out = []
    for ln in lines:
        if out and out[-1].endswith("\\") and ln.startswith("      "):
            out[-1] = out[-1][:-1] + ln[6:]
        else:
            out.append(ln)
    return out


def interval_blocks(lines):
    """{interval id: its lines, from its header '==== Interval N' to the
    next section header ('==== ...': an interval's, or the Communication
    matrix's after the last)}."""
    heads = [(i, re.match(r"^==== Interval (\d+)\b", ln))
             for i, ln in enumerate(lines)]
    heads = [(i, int(m.group(1))) for i, m in heads if m]
    blocks = {}
    for i, iid in heads:
        end = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("==== ")), len(lines))
        blocks[iid] = lines[i:end]
    return blocks


def text_part(block, head, where="an interval"):
    """The lines of the part of block (an interval's lines) that starts
    with the line head ('--- Hardware counters ---'), up to the next part;
    fails when there is no such part."""
    try:
        start = block.index(head)
    except ValueError:
        fail("%s has no '%s'" % (where, head))
    out = []
    for ln in block[start + 1:]:
        if ln.startswith("---") or ln.startswith("===="):
            break
        out.append(ln)
    return out


def text_parameters(lines):
    """{label: (value, [continuation lines])} of the Parameters section
    (the continuation lines without their three blanks)."""
    out, label = {}, None
    for ln in lines:
        if ln.startswith("===="):
            break
        m = re.match(r"^(\S[^:]*?)\s*: (.*)$", ln)
        if m and not ln.startswith(" "):
            label = m.group(1)
            out[label] = (m.group(2), [])
        elif label and ln.startswith("   "):
            out[label][1].append(ln[3:])
    return out


def text_warnings(path):
    """The Warnings lines of the text protocol at path (indented under
    'Warnings :'), stripped."""
    out, inside = [], False
    for ln in read_lines(path):
        if re.match(r"^Warnings\s*:", ln):
            inside = True
            continue
        if inside:
            if not ln.startswith("   "):
                break
            out.append(ln.strip())
    return out
