"""Read OFX, QFX or QBO files with ofxparse and print what it found as JSON.

Usage: python3 ofxread.py FILE...  (Debian's python3 with python3-ofxparse)

ofxparse does not read BALLIST, so the opening balance (a BAL named
"Opening balance") is found in the file's text, per STMTRS in order.
"""
import json
import re
import sys

import ofxparse


def read(path):
    with open(path, "rb") as fh:
        ofx = ofxparse.OfxParser.parse(fh)
    with open(path, "rb") as fh:
        raw = fh.read().decode("latin-1")
    openings = [m.group(1) for m in re.finditer(
        r"<NAME>Opening balance.*?<VALUE>([-0-9.]+)", raw, re.S)]
    out = {"intu_bid": ofx.signon.intu_bid if ofx.signon else None, "accounts": []}
    for i, acct in enumerate(ofx.accounts):
        st = acct.statement
        out["accounts"].append({
            "id": acct.account_id,
            "routing": acct.routing_number,
            "curdef": acct.curdef,
            "start": st.start_date.strftime("%Y-%m-%d"),
            "end": st.end_date.strftime("%Y-%m-%d"),
            "balance": str(st.balance),
            "balance_date": st.balance_date.strftime("%Y-%m-%d"),
            "opening": openings[i] if i < len(openings) else None,
            "transactions": [{
                "id": t.id,
                "date": t.date.strftime("%Y-%m-%d"),
                "amount": str(t.amount),
                "type": t.type,
                "payee": t.payee,
                "memo": t.memo,
            } for t in st.transactions],
        })
    return out


print(json.dumps({p: read(p) for p in sys.argv[1:]}))
