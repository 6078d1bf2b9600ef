"""Names the cue tables share: languages, kinds of piece, currency codes."""

from __future__ import annotations

LANGS = (
    "english chinese mandarin cantonese french german spanish italian japanese korean russian portuguese arabic "
    "hindi dutch swedish polish turkish vietnamese thai latin greek"
)
ZH_LANGS = "英文|英语|中文|汉语|普通话|粤语|法语|法文|德语|德文|日语|日文|韩语|韩文|俄语|西班牙语|意大利语|葡萄牙语|阿拉伯语|文言文|白话文"
LANG_RE = LANGS.replace(" ", "|")
GENRES = "quote|quotes|pun|puns|one-liner|one-liners|poem|poems|haiku|limerick|sonnet|story|stories|song|rap|toast|speech|essay|joke|jokes|caption|captions|slogan|slogans|tagline|bio|lyrics|ode|ballad|eulogy|riddle|intro|outro|shoutout|shout-out|announcement|blurb|newsletter|invitation|description"
"""Kinds of piece: named first with what it is about ("poem about monday"), the name is the request."""
CURRENCIES = "usd|eur|gbp|jpy|cny|rmb|hkd|krw|aud|cad|chf|inr|sgd|nzd|sek|nok|dkk|mxn|brl|zar|thb|twd|idr|myr|pln|huf|czk|ils|aed|sar"
"""ISO 4217 codes of the most traded currencies (a code pair "usd to inr" asks for a rate)."""

