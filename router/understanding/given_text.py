"""What text a question hands over to be worked on, and whose words are inside it.

A request often comes with its material: a pasted email, records, a list after a colon. Its greetings,
dates and news words are the text's, not the request's ("turn this into a formal email: hey boss, ...").
Lettered options ("A. ... B. ...") are a question to answer, not a text to work on.
"""

from __future__ import annotations

import re

OPTION_LINES = re.compile(r"\n\s*\(?A[.)）]\s*\S[^\n]*\n\s*\(?B[.)）][^\n]*\n\s*\(?C[.)）]")
_QUOTED = re.compile(r"[\"“'‘「][^\"”’」\n]{30,}[\"”'’」]")
QUESTION_HANDED = ("following question", "following multiple-choice question", "following multiple choice question",
                   "question below", "questions below", "question:", "以下问题", "下面的问题", "下面这道题", "以下题目",
                   "下面的题目", "问题：", "题目：")
"""A question handed over to be answered (its kind is the question's own), not a text to operate on."""
REFERENCES = ("here are", "here is", "below", "following", "this text", "the text", "passage", "paragraph", "these ", "this email",
              "this note", "this article", "the article", "sentences", "records", "reviews", "given",
              "this clause", "the clause", "this section", "this provision", "以下", "下面",
              "下列", "如下", "这段", "这篇", "这几", "这条", "这封", "这些", "这份", "这张", "文中", "原文", "材料")
"""Words that point at a text the question hands over (read with a block of text after a colon or newline)."""
SUMMARY_OBJECTS = ("this", "these", "the following", "below", "above", "my ", "our ", "that ", "the text", "the article",
                   "这段", "这篇", "以下", "下面", "上面", "这个", "这些", "文章", "全文", "内容", "：", ":")
"""What "summarise" must point at to be a rewrite of a given text ("summarise this", "概括一下这段")."""
IN_TEXT = ("里的", "中的", "里面的", "里有", "中有", "in this email", "in this message", "in this text", "in the email",
           "in the message", "in this receipt", "in this note", "in this letter")
"""A question asked of the handed-over text ("这条短信里的验证码是多少：..."): its answer is a field of the text."""
_GREETING_WORDS = 12
"""A greeting or thanks opens a message: only the first words are read for one."""
_QUOTE_OPENS = re.compile(r"(?:^|\s)[\"'“‘「]")
"""A quotation opening (not an apostrophe): a greeting after one is the quoted text's."""

_FIELD_ASK = re.compile(r"\b(?:who|what|which|name|list|give me|tell me|pull|find|get|identify|mark|show)\b")
_FIELD_AND = re.compile(r"\b(?:and|&)\b")
_FIELD_POINTER = re.compile(r"\b(?:here|in this|in these|in it|from this|from these|from it|below|above|"
                            r"(?:out of|from) (?:my|our|the|these|those|this))\b")
_NOT_FIELDS = re.compile(r"\b(?:think|feel|opinion|explain|why|how|mean|meaning|summari[sz]e|translate)\b")
_EACH_WITH_ITS = re.compile(r"\b(?:each|every|all)(?: the| of the)? [\w-]+(?: [\w-]+)? (?:with|and|plus|along with) (?:its|their) [\w-]+")
_ZH_FIELDS = re.compile(r"(?:这份|这段|这篇|这些|下面|以下|这张|这条|文中)[^、和与及]{0,12}?[、和与及].{1,12}?"
                        r"(?:是谁|是什么|分别|是哪|有哪些|有什么|多少)")
_ZH_SPACED = "[^\\s、和与及把帮我请给你的都：:，,。]{1,6}"
_ZH_SPACED_FIELDS = re.compile(
    rf"(?:{_ZH_SPACED}[ 、]){{1,5}}{_ZH_SPACED} ?(?:帮我|给我|都)?(?:拎|提|挑|摘|抽|找|列|整理)出|"
    r"(?:(?:拎|提|挑|摘|抽|找|列|整理)出来?|整理成) (?:[^\s、和与及：:，,。]{1,8}[ 、]){1,5}[^\s、和与及：:，,。]{1,8} ?$"
)
"""Field names in a row, spaced as on a phone: "客户 品名 数量拎出来：...", "挑出 姓名 工号 想参加的项目：..."."""
_FIELDS_HEAD = 160
"""The request that names the fields is one short line before the record's colon."""


def has_material(body: str, lettered: bool, has_cjk: bool) -> bool:
    """A block of text follows the request: after a newline, a colon or inside a long quotation. Lettered
    options ("A. ... B. ...") are a question to answer, not a text to work on."""
    if lettered:
        return False
    for mark in ("\n", ":", "："):
        at = body.find(mark)
        if at != -1 and len(body) - at > (12 if has_cjk else 20):  # a Chinese line says more per character
            return True
    return _QUOTED.search(body) is not None


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_ASKED_OF_IT = re.compile(r"(?:(?:so|and|then|but|ok|okay),? )?(?:does|do|is|are|am|can|could|would|will|did|was|were|what|which|"
                          r"who|when|how long|how much|how many|how often)\b", re.IGNORECASE)
_QUOTE_HANDED = re.compile(r"[:：]\s*[\"“'‘「]")
_CLOSERS = {'"': '"', "“": "”", "‘": "’", "「": "」"}
_APOSTROPHE_CLOSE = re.compile(r"[.!?;]'(?=\s|$)")
_SPEAKERS = re.compile(r"\b(?:says|said|claims|replies|answers)\s*[:：]|说[:：]")
_REWORKED = re.compile(r"\b(?:rewrite|rephrase|reword|translate|shorten|polish|summari[sz]e|make (?:it|this)|turn (?:it|this)|"
                       r"write|draft|fix|edit|improve|proofread)\b", re.IGNORECASE)
_QUESTION_THEN_QUOTE = re.compile(r"([^\n]{4,120}[?？])[ \t]*\n\s*([\"“「])")
_POINTS_AT_QUOTE = re.compile(r"这段|这条|这句|这一条|这款|这里|\b(?:this|the|that|here'?s (?:the|a|our)) (?:[\w-]+ ){0,2}(?:clause|"
                              r"section|paragraph|part|passage|rule|line|sentence|wording|policy|terms)\b", re.IGNORECASE)


def handed_quote(body: str) -> tuple[int, int, str] | None:
    """The one quotation a question hands over, or None: its span (marks included) and the question asked of it
    before it, if any. Handed over after a colon ("Here's the warranty text: '...'"), closed by its own mark (an
    apostrophe inside it ends nothing unless a sentence ends there), at least 30 characters long; or ending the text
    after a question that points at it ("市场规定里这段说迟交摊位费会怎么样？\n“第九条：...”"). Two quotations
    handed over, or a speaker's ("A says: 'B is lying.'"), are a puzzle's statements, not a text to read."""
    if (first := _QUESTION_THEN_QUOTE.match(body)) is not None and _POINTS_AT_QUOTE.search(first.group(1)):
        opener = first.group(2)
        closer = _CLOSERS[opener]
        if body.rstrip().endswith(closer) and body.count(closer) == (2 if closer == opener else 1):
            return first.start(2), len(body.rstrip()), first.group(1).strip()
    handed = list(_QUOTE_HANDED.finditer(body))
    if len(handed) != 1 or _SPEAKERS.search(body):
        return None  # "A says: 'B is lying.' ...", "Caterer: '...' DJ: '...'": a puzzle's statements, reasoned about
    start = handed[0].end()
    opener = body[start - 1]
    if opener == "'":  # an apostrophe may be inside the quotation: it ends on one after a full stop
        close = _APOSTROPHE_CLOSE.search(body, start)
        end = close.end() if close else -1
    else:
        end = body.find(_CLOSERS[opener], start) + 1
    if end <= 0 or end - start < 30:
        return None
    return start - 1, end, ""


def figures_quoted(body: str) -> bool:
    """Whether the figures of a question lie in a quotation it hands over ("Here's the SLA clause: '... within 4
    hours ... 5% of monthly fees ...' Does the cap apply per priority level?"): outside the quotes two numbers
    are not left, so nothing is computed from them; the question is asked of the quoted text. A story's sign that
    reads "..." is the story's own: no quotation is handed over."""
    if (quoted := handed_quote(body)) is None:
        return False
    outside = body[: quoted[0]] + body[quoted[1]:]
    return len(_DIGITS.findall(body[quoted[0]:quoted[1]])) >= 2 and len(_DIGITS.findall(outside)) < 2


def asked_of_quote(body: str) -> str | None:
    """A question asked of a quotation handed over, after it ("Here's the warranty text: '... does not cover paint
    ...' Customer's paint is bubbling. Does this cover it?") or before it: the text is read to answer it, whatever
    its own "or"s and figures; a rework asked of it ("can you make it friendlier?") is not this."""
    if (quoted := handed_quote(body)) is None:
        return None
    if quoted[2]:
        return None if _REWORKED.search(quoted[2]) else quoted[2]
    after = body[quoted[1]:].strip()
    question = after.rsplit(". ", 1)[-1].strip()
    asked = _ASKED_OF_IT.match(question) or _ASKED_OF_IT.match(question.rsplit(", ", 1)[-1])  # "so if ..., who pays?"
    if not after.endswith("?") or not asked or _REWORKED.search(after):
        return None
    return question


def opens(term: str, low: str, tokens: list[str]) -> bool:
    """Whether a greeting term is among the first words of the text (a Chinese one: its first characters)."""
    # "turn this into a formal email: hey boss, ...": a greeting after the colon is the text's
    colon = earliest(low, (":", "："))
    if colon != -1 and _opens_after(term, low, colon):
        return False
    at = low.find(term)
    if at > 0 and _QUOTE_OPENS.search(low, 0, at):  # "what's the japanese for 'thank you ...'": the quote's words
        return False
    if at > 0 and low[max(0, at - 4):at].endswith(("a ", "an ", "the ", "my ")):
        return False  # "write a thank you note", "a good morning text": the kind of a piece, no greeting
    if " " in term:
        return True
    if term.isascii():
        return term in tokens[:_GREETING_WORDS]
    return 0 <= at < _GREETING_WORDS


def _opens_after(term: str, low: str, colon: int) -> bool:
    """Whether the greeting's first occurrence as a word comes after the colon."""
    at = re.search(rf"(?<![a-z]){re.escape(term)}(?![a-z])", low)
    return at is not None and at.start() > colon


def earliest(low: str, terms: tuple[str, ...]) -> int:
    """Where the first of ``terms`` to occur in ``low`` starts, -1 when none does."""
    return min((at for at in map(low.find, terms) if at != -1), default=-1)


_PIPED_COLUMNS = re.compile(r"[\w#.]+(?: [\w#.]+){0,2} ?\| ?[\w#.]+(?: [\w#.]+){0,2} ?\| ?[\w#.]+(?: [\w#.]+){0,2}\)?\s*$")
"""Column names separated by pipes, ending the request line: the record's fields."""
_COLUMNS_NAMED = re.compile(r"\b(?:columns?|table|spreadsheet|csv|fields)\b")
_PAREN_COLUMNS = re.compile(r"\(\s*[\w#.]+(?: [\w#.]+){0,2}(?:\s*,\s*[\w#.]+(?: [\w#.]+){0,2}){2,}\s*\)\s*$")
"""Columns named in parentheses with commas, ending the request line: "put them in columns (hive, date, queen seen):"."""
"""The request line says the names after its colon are columns ("into columns: a | b | c")."""
_LISTED_COLUMNS = re.compile(r"\s*[\w#.]+(?: [\w#.]+){0,2}(?:\s*,\s*(?:and )?[\w#.]+(?: [\w#.]+){0,2}){2,}\s*\.?\s*$")
"""Three or more names listed with commas, ending the line: "split these signature blocks into columns: name,
company, phone, email."."""
_ZH_LISTED_COLUMNS = re.compile(r"\s*[\u4e00-\u9fffa-z]{1,8}(?:[、，,/][\u4e00-\u9fffa-z]{1,8}){2,}\s*[。]?\s*$")
_ZH_COLUMNS_NAMED = re.compile(r"[几两三四五六七八九十\d]列|表格|列成|分列|做成表|整理成表")


def fields_asked(low: str, has_cjk: bool) -> str | None:
    """The fields of a record named before a colon, the record after it: "who is the buyer and the seller in
    this contract: ...", "each tool with its quantity: ...", "这份判决书的原告、被告是谁：..." (the request
    line, or None). Read on the short line before the colon only, so a long paste costs nothing."""
    colon = earliest(low, (":", "："))
    if colon == -1 or colon > _FIELDS_HEAD or "\n" in low[:colon]:
        return None
    head = low[:colon]
    if has_cjk and (zh := _ZH_FIELDS.search(head)) is not None and colon - zh.end() <= 6:
        return zh.group(0)
    if has_cjk and (spaced := _ZH_SPACED_FIELDS.search(head)) is not None and colon - spaced.end() <= 4:
        return spaced.group(0)
    if (each := _EACH_WITH_ITS.search(head)) is not None and colon - each.end() <= 20:
        return each.group(0)
    if head.count(",") >= 2 and _COLUMNS_NAMED.search(head) and (columns := _PAREN_COLUMNS.search(head)) is not None:
        return columns.group(0)
    if head.count("|") >= 2 and (columns := _PIPED_COLUMNS.search(head)) is not None:
        return columns.group(0)  # "put into vendor | invoice # | amount: Sysco inv 44821 $1,203.50; ...": columns
    line = low[colon + 1 : (low.find("\n", colon) + 1 or len(low) + 1) - 1]
    if (line.count("|") >= 2 and _COLUMNS_NAMED.search(head) is not None
            and (columns := _PIPED_COLUMNS.search(line)) is not None):
        return columns.group(0)  # "format these notes into columns: version | date | changes\n...": the same, after
    if _COLUMNS_NAMED.search(head) is not None and "," in line and (listed := _LISTED_COLUMNS.match(line)) is not None:
        return listed.group(0).strip()  # "into columns: name, company, phone, email.\n\nMike Trent | ...": the same
    if has_cjk and _ZH_COLUMNS_NAMED.search(head) is not None and (listed := _ZH_LISTED_COLUMNS.match(line)) is not None:
        return listed.group(0).strip()  # "帮我列成三列：型号、折射率、价格\n\n“...”": the same
    ask = _FIELD_ASK.search(head, 0, 60)
    if ask is None or _NOT_FIELDS.search(head) is not None:
        return None
    joined = _FIELD_AND.search(head, ask.end())
    if joined is None or joined.start() - ask.end() > 60:
        return None
    pointer = _FIELD_POINTER.search(head, joined.end())
    return head if pointer is not None and colon - pointer.end() <= 40 else None


_CONDITION_EN = re.compile(
    r"\bwhich (?:of (?:these|them|those|my|our|your|the (?:following|above|below|list))|ones)\b|"
    r"\bwho (?:on|in|from) (?:this|the|my|our) (?:list|roster|sheet|group|team|class|table)\b|\bwho of (?:these|them|those)\b|"
    r"\b(?:who|which ones?)(?:'s| is| are)? (?:above|below|over|under|at least|more than|less than|higher than|lower than)\b|"
    r"\bwhich [a-z-]+ (?:are|is|were|was) (?:over|under|above|below|more than|less than|at least|longer than|shorter than|"
    r"heavier than|lighter than|bigger than|smaller than)\b|"
    r"\bwhich (?:[a-z-]+ ){1,3}(?:in|on|from|of) (?:this|these|that|those|the following|the above|the list|my)\b|"
    r"\b(?:these|this list|the following|below)\b.{0,40}\bwhich [a-z-]+ (?:are|is|have|has|need|were|was|went)\b|"
    r"\b(?:only|just) (?:the|those|ones)\b|\bonly (?:give|show|tell|send) me\b|\b(?:keep|leave|show|list|give me) (?:only|just)\b|\bonly (?:keep|show|list)\b|\b(?:pick|filter|weed|single) out\b|\bfilter (?:the|these|this|for|by|to)\b|"
    r"\b(?:the ones|those|any|anything|anyone|everything|everyone|all (?:the )?[a-z-]+) (?:that|who|which|where) "
    r"(?!i |you |we )|"
    r"\b(?:give|get|send|tell) me (?:only |just )?(?:the |any )[a-z-]+(?: [a-z-]+){0,4} (?:that|who|which|where) (?!i |you |we )|"
    r"\b(?:find|list|show|pull|mark|highlight|flag) (?:out )?(?:all |every |only )?(?:the |any )?"
    r"[a-z-]+(?: [a-z-]+){0,5} (?:that|who|which|where) (?!i |you |we )|"
    # "from this forecast, which nights have cloud under 20%": the items named after the text they come from
    r"\b(?:from|in|of) (?:this|these|the following|the above|that) [\w-]+(?: [\w-]+)?, which [\w-]+ (?:are|is|have|has|had|were|was|need|got)\b|"
    # "what does this clause say about refunds? '...'": the text read against one question, nothing to fill in
    r"\bwhat (?:does|do|did) (?:this|the|these|that|my|our) (?:[\w-]+ ){1,3}(?:actually |really )?"
    r"(?:say|state|provide|require|allow)s? (?:about|on|regarding|if|when|for)\b|"
    r"\bwhat (?:does|do|did) (?:it|they) (?:actually |really )?say (?:about|on|regarding|if|when|for)\b"
)
_CONDITION_ZH = re.compile(
    r"谁[^，,。？?\n]{0,8}(?:超过|不到|低于|高于|少于|多于|以上|以下|不满)|关于[^，,。？?]{1,16}?(?:是怎么|是如何|怎么|如何)(?:规定|约定|说|写)的?|(?<![有些])哪(?:些|几)|的(?:都|全|全部|统统)?(?:帮我|给我)?(?:挑|找|选|筛|拎|摘|标|列)出|把[^，,。：:\s]{1,10}(?:挑|筛|拣)出|(?:挑|找|筛|拣|选)出[^，,。：:\s]{1,12}的那?(?:几|些)|提到的|只(?:给我|帮我|要)?(?:要|把|列|挑|留|看|保留)|筛选|筛出|筛一下|过滤|"
    r"(?:符合|满足|属于|包含|含有?|提到|涉及|超过|低于|高于|不到|大于|小于|没有?|还没|未)[^，,。：:\s]{1,12}的"
)
_BOUND_ZH = re.compile(r"[^，,。？?\n]{0,4}(?:低于|高于|超过|不到|少于|多于|不超过|在\d)")
"""A bound right after 哪家 ("哪家低于4000"): the items that meet it are asked, not the best of them."""
_CHOICE = re.compile(r"\b(?:should|best|better|worth|recommend|prefer|would you|go with|choose|cheapest|safest)\b|"
                     r"选哪|哪个好|哪家|推荐|值得|应该|更好|最好|划算|合适|买哪|比较")
_ITEMS_AFTER = re.compile(r"(?<!\d):(?!\d(?![.、)）]))|(?<=\d):(?= )|(?<!\d)：|[?？\n]")
"""A colon, a question mark or a line break before the items; a colon before a numbered list (":1.") too, and a
full-width colon before any digit: "挑出来：3-201欠2个月 ..." lists rooms, where "3:30" is a time; a colon after a
figure and before a space ("who's above 1.2: jay 1.05, ...") too."""
_TRAILING_CONDITION = re.compile(r"(?:[.;?]\s+|\n\s*)(?:so |and |now )?(?:which ones|which of (?:them|these|those))\b[^.?\n]{0,40}?"
                                 r"\b(?:under|over|above|below|more than|less than|at least|at most|within|past|before|after)\b"
                                 r"[^.?\n]{1,60}[?.]?\s*$")
"""A list first, then the condition asked of its items in a closing sentence."""
_ITEM_BREAKS = re.compile(r"[\n、，,；; 「“|]")
"""What separates the items of a list handed over (a remark after the question has none)."""
_SELECTION_HEAD = 160
"""The condition is stated in the request line, before the items it is applied to."""


_INTRODUCED = re.compile(r"(?:下面|以下|这|附上)[^，,。：:？?\n]{0,14}$|\b(?:here'?s|here is|below is|this|these|the attached|our)\b[^,.:?\n]{0,30}$")
"""What points at the text handed over, just before a word for a list or a table ("下面是学校给的课后服务清单")."""


def names_material(low: str, word: str) -> bool:
    """Whether a format word (a list, a table) names the text handed over rather than the output asked for."""
    at = low.find(word)
    # "库存清单里找出...": the list the items are found in
    return at >= 0 and (low[at + len(word):at + len(word) + 1] in ("里", "中") or (at > 0 and _INTRODUCED.search(low, 0, at) is not None))


def choice_asked(low: str) -> str | None:
    """The words that ask for a choice ("should", "which is better", "选哪"), or None."""
    found = _CHOICE.search(low)
    return found.group(0) if found is not None else None


def condition_asked(body: str, low: str, has_cjk: bool) -> str | None:
    """The condition a request keeps items of a given text by ("which of these invoices are overdue? INV-101
    ...", "把收货地址在浙江的挑出来：1. ..."), or None. Picking items out by a condition is reading each item
    against it, not filling a record per item; a choice among them ("which of these should I buy") is a
    decision, never a selection. The items must follow the request line (after a colon, a question mark or
    a newline)."""
    marker = _ITEMS_AFTER.search(low, 0, _SELECTION_HEAD)
    if marker is None or len(body) - marker.end() < (12 if has_cjk else 20):
        return None
    head = low[:marker.end()]
    if (choice := _CHOICE.search(head)) is not None:
        bound = _BOUND_ZH.match(head, choice.end()) if has_cjk and choice.group(0) == "哪家" else None
        if bound is None or len(_ITEM_BREAKS.findall(body, marker.end())) < 2:
            return None
        return choice.group(0) + bound.group(0)  # "这几家驾校哪家低于4000还包接送？": the ones within a bound, no choice
    if has_cjk and len(_ITEM_BREAKS.findall(body, marker.end())) < 2:
        return None  # "今天有没有眼镜行业的新闻？听说验光员职业资格又有新政策": a remark follows, no items
    found = _CONDITION_EN.search(head) or (_CONDITION_ZH.search(head) if has_cjk else None)
    if found is None and not has_cjk and (tail := _TRAILING_CONDITION.search(low, marker.end())) is not None \
            and _CHOICE.search(tail.group(0)) is None:
        return tail.group(0).strip()  # "bids ...: Acme $212k, ... which ones came in under our 200k cap"
    return found.group(0).strip() if found is not None else None
