"""The vocabulary the understanding reads: cue families per kind of work, in English and Chinese.

Each family is a *kind* of evidence (translation verbs, proof verbs, live-data nouns, genre
nouns ...) written as general vocabulary, never as example sentences. A family has English
words and phrases (looked up word by word in one pass over the lowered text: a dict look-up
per word, which is what keeps a question under a millisecond), Chinese terms (substring
tests, only when the text has Chinese in it) and, for the few cues that need structure, a
regular expression over the lowered text. Everything is built on first use (``compiled()``):
``import router`` pays for none of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

_LANGS = (
    "english chinese mandarin cantonese french german spanish italian japanese korean russian portuguese arabic "
    "hindi dutch swedish polish turkish vietnamese thai latin greek"
)
_ZH_LANGS = "英文|英语|中文|汉语|普通话|粤语|法语|法文|德语|德文|日语|日文|韩语|韩文|俄语|西班牙语|意大利语|葡萄牙语|阿拉伯语|文言文|白话文"
_LANG_RE = _LANGS.replace(" ", "|")
_GENRES = "quote|quotes|pun|puns|one-liner|one-liners|poem|poems|haiku|limerick|sonnet|story|stories|song|rap|toast|speech|essay|joke|jokes|caption|captions|slogan|slogans|tagline|bio|lyrics|ode|ballad|eulogy|riddle"
"""Kinds of piece: named first with what it is about ("poem about monday"), the name is the request."""
_CURRENCIES = "usd|eur|gbp|jpy|cny|rmb|hkd|krw|aud|cad|chf|inr|sgd|nzd|sek|nok|dkk|mxn|brl|zar|thb|twd|idr|myr|pln|huf|czk|ils|aed|sar"
"""ISO 4217 codes of the most traded currencies (a code pair "usd to inr" asks for a rate)."""

# (task, family name, weight, English words and phrases "|"-separated, Chinese terms "|"-separated,
#  regex over the lowered text or "").
FAMILIES: tuple[tuple[str, str, float, str, str, str], ...] = (
    # --- translation or rewriting: the text to work on is given --------------------------------
    ("translation", "translate verb", 4.5,
     "translate|translated|translating|translation of|translation into",
     "翻译|翻成|译成|译为|翻一下", ""),
    ("translation", "say it in a language", 3.5, "", "用英文怎么说|用中文怎么说|怎么说|怎么翻|地道|成英文|成中文|为英文|为中文",
     rf"how (?:do|would|can) (?:you|i|we) say .{{1,80}} in (?:{_LANG_RE})|what does .{{1,60}} mean in (?:{_LANG_RE})|"
     rf"(?:into|to) (?:{_LANG_RE})[.:?!]?$|(?:{_ZH_LANGS})(?:里|中)?.{{0,20}}是?什么意思|"
     rf"^(?:from )?(?:{_LANG_RE}) (?:to|into|->|→) (?:{_LANG_RE})\b|what(?:'s| is) .{{1,60}} in (?:{_LANG_RE})[?.!]?$|"
     r"[“\"'‘][a-z][a-z' .,!?-]{1,60}[”\"'’]\s*(?:是什么|是啥|什么|啥)意思|"
     rf"what(?:'s| is) the (?:{_LANG_RE}) (?:word |phrase |expression )?for\b"),
    ("translation", "quoted meaning", 3.5, "", "", r"\bwhat does [“\"‘'][^\"”’]{1,60}[”\"’'] (?:mean|stand for)[?.!]*$"),
    ("translation", "rewrite verb", 3.8,
     "rewrite|re-write|rephrase|paraphrase|reword|proofread|polish this|polish my|friendlier|politer|"
     "more polite|less blunt|more formal|less formal|more professional|more casual|sound more|sound less|"
     "formal tone|polite tone|professional tone|casual tone|friendly tone|"
     "shorten this|shorten my|"
     "fix the grammar|correct the grammar|fix my grammar|check the grammar|check my grammar|grammar mistakes|"
     "grammatical errors|grammar errors|fix the spelling|correct the spelling|fix the typos|fix typos|more concise|"
     "less wordy|tighten this|tighten up|make this shorter|make it shorter|make this clearer|make it clearer|"
     "plain english|plain language|simpler words|correct this|correct the following|correct my|correct these|"
     "fix my english|correct my english|improve my english|check my english|fix my writing|fix the wording|fix my wording|"
     "fix this sentence|fix this text",
     "改写|重写|改成|润色|改得|改一下|修改一下这|换个说法|换种说法|委婉|更礼貌|更正式|正式一点|口语化|书面语|换个语气|改语气|"
     "缩写成|缩写一下|缩写这|缩写下面|缩写以下|缩短|改病句|修改病句|语病|错别字|纠正语法|语法错误",
     r"\bmake (?:this|it|that|these|my \w+)(?: (?:email|message|text|sentence|paragraph|note|reply|post|letter))? "
     r"(?:sound )?(?:more|less|a bit|a little|slightly|way|nicer|kinder|softer|gentler|warmer|friendlier|politer|"
     r"shorter|clearer|punchier|snappier|crisper)\b|"
     r"\bturn (?:this|these|it|that|my|the|our)(?: [\w-]+){0,3} into (?:a |an |one )?(?:[\w-]+ )?"
     r"(?:paragraph|paragraphs|prose|sentences|full sentences|a sentence)\b|"
     r"\bsimplify (?:this|it|that|the following)(?: [a-z]+)? for (?:a |an |my |the |kids|children|beginners|someone|readers|non-|\d)"),
    ("translation", "summarise verb", 3.8,
     "summarize|summarise|summarized|summarised|sum up|condense|tl dr|tldr|give me the gist|key points of|"
     "give me a summary|quick summary|short summary|the short version",
     "概括|摘要|总结一下|总结下|总结这|总结以下|总结下面|总结成|总结为|归纳成|归纳为|归纳一下|精简一下|提炼|要点", ""),
    # --- coding --------------------------------------------------------------------------------
    ("coding", "programming vocabulary", 3.2,
     "python|javascript|typescript|java|golang|in rust|rust code|using rust|rust function|rust program|rust crate|rust library|rust struct|rust trait|rust macro|rust project|rustc|borrow checker|c++|c#|kotlin|swift|php|ruby|scala|haskell|bash|shell script|"
     "sql|mysql|postgres|postgresql|sqlite|regex|regular expression|html|css|react|vue|angular|django|flask|node|"
     "node.js|npm|pip|docker|kubernetes|k8s|git|github|api|endpoint|json schema|compile|compiler|runtime|debug|"
     "debugging|bug|stack trace|traceback|exception|segfault|null pointer|recursion|algorithm|data structure|"
     "linked list|binary tree|hashmap|hash map|lru|unit test|refactor|deploy|frontend|backend|code|coding|"
     "programming|framework|re-render|re-renders|rerender|component|thread-safe|concurrency|concurrent|async|"
     "mutex|write a function|a function that|a class that|a script|leetcode|repo|pull request|commit|"
     "a program|the program|that program|this program|write a program|little program|small program|simple program|"
     "database|databases|database schema|create table|stored procedure|sql query|write a query|a query that|"
     "perl|lua|matlab|dart|elixir|erlang|fortran|cobol|assembly language|verilog|vhdl|powershell|groovy|clojure|"
     "ocaml|objective-c|solidity|fizzbuzz|for loop|while loop|this loop|the loop|infinite loop|list comprehension|in c|vim|emacs|linux|unix|terminal|command line|cli|gpu|cuda|pandas|numpy|"
     "dataframe|groupby|pyspark|spark|pytorch|tensorflow|jupyter|sklearn|scikit-learn|matplotlib|pyplot|jquery|"
     "next.js|nextjs|webpack|graphql|redis|kafka|nginx|terraform|ansible|cors|localhost|oauth|jwt|websocket|vue3|"
     "vue2|python3|es6|html5|css3|cron|crontab|cronjob|cron job|cron expression|datetime|strftime|strptime|unix timestamp|"
     "epoch time|vscode|vs code|intellij|xcode|kubectl|js|jsx|tsx|csharp|dotnet|.net|laravel|rails|big o|big-o|"
     "time complexity|space complexity|quicksort|mergesort|heapsort|bubble sort|binary search|hash table|grep|chmod|"
     "excel formula|in excel|google sheets|vlookup|xlookup|pivot table|countif|sumif|chown|sudo|wget|ssh|scp|rsync|awk|mkdir|apt-get|homebrew|rm -rf|in rm|the rm|cli flag|command line flag",
     "代码|编程|程序|脚本|接口|报错|编译|调试|算法|数据结构|链表|二叉树|数组|哈希|递归|并发|线程|前端|后端|数据库|正则|"
     "爬虫|单元测试|重构|部署|类型错误|内存泄漏|缓存|c语言|闭包|回调函数|协程|面向对象|多态|依赖注入|中间件|指针|懒加载|二分查找|二分法|快速排序|冒泡排序|动态规划|深度优先|广度优先|哈希表|写一个函数|写个函数|实现一个函数|字符串|编写|定时任务|时间戳|"
     "go语言|用go|go写|go里|js里|js中|用js|ts里|用ts|excel公式|excel函数|表格公式|wps公式", ""),
    ("coding", "implement", 1.8, "implement|implementing|implementation|optimized|optimise|optimize", "实现", ""),
    ("coding", "code marks", 3.0, "", "",
     r"```|`[^`\n]{2,60}`|def \w+\(|print\(|console\.log|=>|\w\(\)|import \w+|#include|select .{1,80} from |"
     r"</?[a-z]+>|[a-z]error\b|[a-z]exception\b|\{\s*$|;\s*$|[a-z_]\.[a-z_]+\(|\s--[a-z]"),
    # --- maths -----------------------------------------------------------------------------------
    ("maths", "proof verb", 3.2,
     "prove|proof|show that|demonstrate that|derive|derivation|theorem|lemma|corollary|by induction|"
     "rational|irrational",
     "证明|求证|推导|数学归纳|无理数|有理数", ""),
    ("maths", "solve/equation", 2.4,
     "solve|solving|equation|equations|the inequality|inequalities|simplify|factorise|factorize|find x|find y|find the value|"
     "find the area|find the perimeter|find the volume|find the length|find the radius|find the angle|"
     "find the minimum|find the maximum|minimum value|maximum value|integral|integrate|differentiate|derivative|"
     "limit of|matrix|eigenvalue|eigenvalues|polynomial|logarithm|modulo|divisible|integer|integers|"
     "greatest common divisor|gcd|lcm|least common multiple|common divisor|common multiple",
     "方程|求解|解方程|解出|不等式|化简|因式分解|求x|求y|求n|求值|的值|极限|导数|积分|矩阵|多项式|整除|质数|素数|整数|"
     "最小值|最大值|函数",
     r"\bprimes?\b(?! (?:minister|ministers|ministership|time|rib|video|day|member|members|suspect|location|numbers? of))"),
    ("maths", "formula marks", 2.4, "", "∫|∑|∏|√|∞|≤|≥|≠|²|³|π",
     r"\b(?:sqrt|log|ln|sin|cos|tan|lim|exp)\s*\(|[∫∑∏√∞≤≥≠²³π]|\^\s*\d|\b[a-z]\s*\^|\b\d*[a-z]\s*[+\-]\s*\d*[a-z]?\s*=|"
     r"\bf\s*\(\s*[a-z]\s*\)"),
    ("maths", "inequality", 2.4, "", "",
     r"\|\s*[a-z]\s*[+\-]\s*\d+\s*\||\b[a-z]\s*[<>]=?\s*-?\d|\d\s*[<>]=?\s*[a-z]\b"),
    ("maths", "maths vocabulary", 1.4,
     "probability|odds|area|perimeter|volume|triangle|circle|square root|fraction|ratio|average|mean of|the mean|"
     "long division|decimals|times tables|multiplication table|"
     "arithmetic mean|median|sequence|"
     "series|angle|geometry|algebra|calculus|arithmetic|sum of|product of|twice|times as|percent|percentage|"
     "expected number|expected value|variance|standard deviation|a negative times|times a negative|"
     "negative numbers|negative number|math|maths|mathematics|how many ways|in how many ways|number of ways|permutation|permutations|combination|"
     "combinations|combinatorics|arrangements|euclidean algorithm|divisor|divisors|multiple of|subset|subsets|power set|"
     "diagonal|diagonals|polygon|polygons|pentagon|hexagon|octagon|original price|the original cost|sale price|"
     "discounted price|before the discount|after the discount|after a discount",
     "概率|几率|面积|周长|体积|三角形|分数|比例|平均|数列|等差|等比|角度|速度|路程|利息|百分之|相遇|追上|浓度|鸡兔|"
     "半径|直径|圆周|数学|几何|代数|内角和|多少种|排列|组合数|排法|种方法|种不同", ""),
    ("maths", "exact finance", 1.4,
     "compound interest|compounded|compounded monthly|compounded annually|monthly payment|monthly installment|"
     "monthly repayment|mortgage|amortization|amortisation|loan payment|loan repayment|apr|annual percentage|"
     "future value|present value|npv|irr|annuity|interest rate|simple interest|interest|loan|loans|"
     "repay|repayments|installments|instalments|borrow|borrowing|borrowed",
     "复利|利滚利|等额本息|等额本金|月供|房贷|车贷|贷款|年化|利率|本息|现值|终值|每月还|每个月还", ""),
    # --- multi-step reasoning --------------------------------------------------------------------
    ("reasoning", "logic puzzle", 3.0,
     "puzzle|riddle|brain teaser|brainteaser|logic|logical|liar|liars|tells the truth|tell the truth|"
     "truth-teller|paradox|syllogism|definitely|necessarily true|must be true|deduce|infer|trick question|"
     "who is right|who is in the|find the pattern|what's the pattern|what is the pattern|next number|next term|comes next|missing number|next in the sequence|"
     "which direction|which way am i|am i facing|are you facing|am i now facing",
     "谜题|脑筋急转弯|逻辑|说谎|说真话|真话|假话|推断|悖论|谁是|哪里去了|去哪了|到底谁|找规律|下一个数|填什么数|面朝哪|朝哪个方向", ""),
    ("reasoning", "constraint puzzle", 2.4,
     "exactly one|only one of|each own|each owns|each has a different|each have a different|a different pet|"
     "without looking|labelled wrongly|labeled wrongly|wrongly labelled|wrongly labeled|all labelled|mislabelled|mislabeled|"
     "labels are wrong|labels are all wrong|labelled incorrectly|labeled incorrectly|incorrectly labelled|incorrectly labeled|"
     "all labeled|is lying|are lying|is telling the truth|who owns|who did it|which box|which door|which switch|"
     "which order|what order|in what order|measure exactly|measure out exactly|carries only|can only carry|"
     "only once|at most once|directly below|directly above|to the left of|to the right of|from the front|"
     "from the back|from the left|from the right|sits between|sitting between|weighings|balance scale|"
     "who came last|who came first|who finished last|who finished first|who is the tallest|who is the shortest|"
     "who is the oldest|who is the youngest|what position|which position|what place are you|overtake|overtakes|"
     "overtaken|how can you measure|how do you measure|how can you time|how can you tell which|tautology|"
     "contradiction|self-referential|self-contradictory|logically|argue your answer|is there any way|only one visit|"
     "one visit|in only one|not next to|is next to|sits next to|in the middle|right end|left end|where can|who sits|"
     "related to|how is a related|family relation|how is that possible|how is this possible|how can that be|"
     "how could that be|round robin|round-robin|every other team|must be false|cannot be true|could be true|"
     "left alone with|be left alone|crossings|get everything across|get them all across|get all of them across|"
     "odd one out|odd man out|does not belong|doesn't belong|do not belong|don't belong",
     "只有一人|只有一个人|只有一句|只有一个是|只能进入|只能称|只能问|各不相同|扇门|标签都是错|标签全是错|贴错|互不相同|从前往后|从后往前|从左往右|"
     "从右往左|排在第|紧挨着|坐在中间|循环赛|各是什么|分别是什么|各是哪|各是谁|分别是谁|怎么计时|如何计时|怎样计时|"
     "这个推理|推理出|推理哪里|的推理|推理题|情景推理|请推理|推理一下|逻辑题|自相矛盾|是真是假|都是假的|都是真的|"
     "坐在|相邻|天平|称几次|称三次|称两次|最少称|至少称|谁说了真话|谁在说谎|能否判断|能否确定|能不能判断|如何确定|怎样确定|怎么确定",
     r"(?<!\d )(?<!years )(?<!year )(?<!feet )(?<!foot )(?<!inches )(?<!times )(?<!minutes )(?<!points )(?:(?:taller|shorter|older|younger|heavier|lighter|faster|slower|richer|smarter) than|beats|beat|outran|"
     r"outscored|finished ahead of|finished before|is ahead of|is behind) .{1,40}"
     r"(?:(?:taller|shorter|older|younger|heavier|lighter|faster|slower|richer|smarter) than|beats|beat|outran|"
     r"outscored|finished ahead of|finished before|is ahead of|is behind)|"
     r"比[^\d，。,]{1,4}(?:高|矮|大|小|年长|年轻|重|轻|快|慢|聪明|早)[^\d]{0,12}比[^\d，。,]{1,4}(?:高|矮|大|小|年长|年轻|重|轻|快|慢|聪明|早)|"
     r"(?:daughters?|sons?|brothers?|sisters?|siblings)\b.{0,60}\bhow many (?:children|kids|brothers|sisters|siblings|sons|daughters)|"
     r"(?:brother|sister|father|mother|son|daughter|uncle|aunt|cousin|husband|wife) of .{1,30}"
     r"(?:brother|sister|father|mother|son|daughter|uncle|aunt|cousin|husband|wife) of"),
    ("reasoning", "deduction", 2.6,
     "does it follow|it follows that|follow that|can we conclude|can you conclude|what can we conclude|"
     "what can you conclude|can be concluded|can we infer|valid argument|valid reasoning|is this valid|is it valid|"
     "is this argument|fallacy|fallacies|premise|premises|syllogism|this argument|the argument is|flaw in|flawed|"
     "what is wrong with|evaluate the argument|the argument made|the argument that|would weaken|would strengthen|"
     "weakens the argument|strengthens the argument|weaken the argument|strengthen the argument|underlying assumption|"
     "unstated assumption",
     "能否推出|能推出|可以推出|推出什么|得出什么结论|可以得出|能得出|前提|三段论",
     r"\b(?:all|no|some) (?:\w+ )?\w+s are \w+.{0,60}\b(?:all|no|some) (?:\w+ )?\w+s are\b|"
     r"\b(?:every|all|no) \w+(?: \w+){0,8} (?:who|that|which) .{0,80}\b(?:does not|doesn't|is not|isn't|cannot|can't|never)\b|"
     r"\b(?:all|no|some|every) \w+ (?:can|are|is|do|have|must)\b.{0,80}\b(?:all|no|some|every) \w+ (?:can|are|is|do|have|must)\b|"
     r"\b(?:all|no|some|every) \w+(?: \w+)? (?:are|is|can|do|have|must)\b.{0,80}\b(?:do|does|are|is|can|must) (?:all|every|some|any|no) \w+|所有的?.{1,6}都.{1,20}(?:那么|是否|是不是|吗)"),
    ("reasoning", "step by step", 1.6,
     "step by step|step-by-step|each step|show your work|show the work|think through|walk me through|reason through|"
     "explain the reasoning|explain your reasoning|your reasoning|think it through|think carefully|be careful|"
     "reason carefully|reason it out|justify your answer|justify your reasoning|justify your choice",
     "一步步|一步一步|逐步|分步|写出过程|解题过程|详细过程|推理过程", ""),
    ("reasoning", "quantity comparison", 2.2, "which number", "",
     r"which is (?:heavier|lighter|larger|bigger|greater|smaller|longer|shorter|faster|slower|older|higher|lower|"
     r"more likely|closer|farther)|which (?:weighs|costs|lasts|holds|takes) (?:more|less|longer)|"
     r"(?:高|大|多|长|快|重|贵)了?还是(?:低|小|少|短|慢|轻|便宜)了?|哪个(?:更|比较)?(?:大|小|重|轻|多|少|长|短|快|慢|高|低)(?![方法])|谁(?:更)?(?:大|多|重|快|高|矮|老|年轻)"),
    # --- structured extraction -------------------------------------------------------------------
    ("extraction", "extraction request", 4.0,
     "extract|parse this|parse these|parse the following|parse out|pull out|fill in|structured|in the format|key fields|"
     "break it down into|break this down into|"
     "identify the time|identify the date|identify the people|identify the person",
     "提取|抽取|抽出|识别出|整理成|整理为|格式化|结构化|填表|拆分成|找出所有|找出全部|找出文中",
     r"turn (?:this|these|it)(?: \w+){0,2} into (?:a )?(?:table|list|json|csv|spreadsheet)|"
     r"convert (?:this|these|it)(?: \w+){0,2} (?:into|to) (?:a )?(?:table|json|csv|yaml|list)|"
     r"(?:list|find) (?:all|every) .{1,40} (?:in|from|mentioned)|every \w+(?: address| number| name)e?s? .{0,30}from|"
     r"按照?.{0,12}格式|按.{0,6}模板|"
     r"\bfrom (?:this|that|these|the following|the above|the) [\w-]+(?: [\w-]+)?,? (?:get|pull|grab|give me|list|find|take|copy)\b|"
     r"\b(?:get|pull|grab|take|copy|find|list|give me)\b[^:：\n]{1,50}\bfrom(?: this| that| these| the following| the above| below)?"
     r"(?: \w+)?\s*[:：]|"
     r"\ball (?:the |of the )?\w+(?: \w+)? (?:in|from|mentioned in|named in) (?:this|these|the following|the above)\b|"
     r"\b(?:make|create|build|give me|put together) (?:me )?(?:a |an )?(?:json|csv|yaml|table|spreadsheet)\b(?! schema)"
     r"[^:：\n]{0,60}[:：]"),
    ("extraction", "operation on items", 1.6,
     "classify|categorize|categorise|assign each|match each|put each|label each|tag each|tag it|tag this|tag the|label it|label this|annotate|rate each|score each|sort these|sort the following|"
     "group these|identify the|identify all|identify every|identify each|list every|list all|find every|find all|"
     "name every|name all|pick out|for each of|each of these|return a list|in json|as json|as a table|as yaml|"
     "mentioned in|people mentioned|person mentioned|places mentioned|dates mentioned|names mentioned|"
     "attachments mentioned|companies mentioned|named in|listed in|stated in|according to the text|"
     "according to the passage|get all|get every|grab all|grab every|pull all|pull every|collect all|collect every|"
     "gather all|out of this|from this text|from the text|from this passage|"
     "from the passage|sentiment of|the sentiment|of each|for each|count how many|how many times each|tally|"
     "are mentioned|is mentioned|were mentioned|was mentioned|are named|are listed|mark each|label them|mark them|"
     "rate them|score them|give each|sentiment score|"
     "count the number of",
     "分类|分成|归类|归为|标注|找出|列出|挑出|标出|打分|评分|返回|输出为|输出成|以json|用json", ""),
    ("extraction", "template fields", 2.0, "date and time|who what when", "字段",
     r"time\s*[,/;、]\s*(?:place\s*[,/;、]\s*)?(?:person|people|who)|person\s*[,/;、]\s*(?:event|activity)|"
     r"时间[、/，,和及与]\s*(?:地点[、/，,和及与]\s*)?人物|人物[、/，,和及与]\s*(?:事项|事件|事情)"),
    # --- writing ---------------------------------------------------------------------------------
    ("writing", "compose a piece", 3.6, "", "七言|五言|绝句|律诗|藏头诗|对联",
     r"\b(?:write|compose|draft|create|give me|make up|come up with|pen|craft|generate|produce|prepare|invent|"
     r"need|want|help me with|help me write|put together|whip up|dash off|brainstorm|suggest|think up|think of)"
     r"(?: me)?(?: up)? (?:a |an |the |some |my |"
     r"\d+ |two |three |four |five |short |long |funny |catchy )?(?:[\w-]+ ){0,3}"
     r"(?:poem|poems|haiku|sonnet|limerick|story|stories|tale|essay|letter|email|e-mail|speech|toast|"
     r"slogan|slogans|tagline|taglines|caption|captions|lyrics|song|screenplay|skit|novel|chapter|blog|post|tweet|article|"
     r"cover letter|resume|bio|eulogy|invitation|ad|advert|description|review|joke|jokes|rap|dialogue|"
     r"fable|fairy tale|monologue|announcement|newsletter|press release|pitch|vows|obituary|note|message|"
     r"greeting|wishes|ode|ballad|verse|rhyme|names|name ideas|title|titles|motto|blurb|proposal|speech|"
     r"text|copy|paragraph|opening|intro|introduction|lines|subject lines|headline|headlines|page|profile|"
     r"memo|memorandum|report|agenda|newsletter|campaign|brochure|flyer|manifesto|sketch|parody|mnemonic|shanty|"
     r"shanties|anthem|hymn|chant|carol|jingle|serenade|elegy|epigram|couplet|couplets)\b|"
     r"写(?:一|几|两|三|个|篇|首|段|封|份|条|句|些)?.{0,12}(?:诗|词|文章|故事|小说|作文|文案|邮件|信|祝福|"
     r"演讲稿|发言稿|致辞|标语|口号|广告|歌词|剧本|短文|日记|周报|总结|简历|自我介绍|段子|笑话|评论|帖子|朋友圈|"
     r"散文|随笔|游记|童话|寓言|对白|台词|主持词|串词|开场白|情书|贺词|悼词|祝酒词|宣传语|广告语|软文|推文|标题|"
     r"的话|段话|介绍|感言|寄语|留言|贺卡|读后感|观后感|文字|记叙文|议论文|说明文|邀请函|请柬|通知|倡议书|申请书|"
     r"检讨书|感谢信|推荐信|求职信|jd|职位描述|岗位描述|招聘启事|请假条|假条|便条|借条|欠条|留言条|回复|回信|答复)|写(?:一|两|几)?[篇首封]|"
     r"想.{0,10}(?:口号|标语|名字|标题|广告语|文案|宣传语)|(?:求|来|要)(?:一|几|个|篇|首|段|条|一个|一段|一首|几个)"
     r".{0,12}(?:文案|诗|祝福语|祝福|标语|口号|段子|笑话|故事|名字|店名)|(?:以|用)[“\"《].{1,20}[”\"》]为题|创作|撰写|起草|描写|"
     r"(?:起|取)(?:个|一个|几个|[\d一二三四五六七八九十]+个)?.{0,10}(?:名字|店名|名称|标题|书名|网名|昵称)|取名|命名|"
     r"\btell (?:me |us )?(?:a |an |some |another |\d+ |two |three |funny |short |bedtime |scary )(?:[\w-]+ ){0,2}"
     r"(?:joke|jokes|story|stories|tale|tales|pun|puns|poem|limerick|fable)\b"),
    ("writing", "genre request", 3.6, "", "",
     r"^(?:(?:a|an|some|one|short|little|funny|cute|sad|sweet|silly|quick|\d+)\s+){0,3}(?:[a-z-]+\s+)?"
     rf"(?:{_GENRES})(?:\s+(?:ideas?|prompts?))?\s+(?:about|on|for|where|in which|celebrating)\b"),
    ("writing", "imperative write", 2.3, "", "",
     r"(?:^|[.!?:\n]\s*)(?:please |now |could you |can you )?(?:write|compose|draft|craft|pen)\b"),
    ("writing", "genre noun", 1.2, "poem|haiku|sonnet|short story|essay|cover letter|speech|slogan|lyrics|bedtime story|"
     "blog post|limerick|fairy tale|fable|screenplay|toast|eulogy",
     "诗歌|作文|文案|祝福语|演讲稿|散文|童话|寓言|主持词|现代诗|古诗|记叙文|歌词|广告语|宣传语|口号|标语|贺词|情书", ""),
    # --- roleplay --------------------------------------------------------------------------------
    ("roleplay", "take a role", 4.2,
     "pretend to be|pretend you are|pretend you're|pretend youre|pretend ur|pretend u are|pretend u r|act as|acting as|role-play|roleplay|role play|play the role|"
     "you are now|stay in character|in character|take on the persona|take on the role|assume the role|"
     "assume the persona|embrace the role|persona of|in the role of|in your own voice|in your voice|"
     "in the first person|first-person voice|from now on you|from now on you're|dungeon master|game master|let's role|"
     "like you to be|want you to be|need you to be|like you to act|want you to act|want you to play|"
     "like you to play|channel a|channel an|talk like a|speak like a|as if you were|as though you were|act like|"
     "take the role|take the part",
     "扮演|假装你是|假设你是|你现在是|现在你是|从现在起你是|从现在开始你是|你来当|请你当|你当一|当我的|你就是|假如你是|想象你是|"
     "你是一位|你是一个|你是一名|角色扮演|第一人称",
     r"you(?:'re| are) (?:a|an|my) [\w -]{2,30}(?:\.|,|:|;| and)|以.{1,8}的(?:身份|口吻|语气)|模仿.{1,8}(?:的)?(?:口吻|语气)|"
     r"(?:imagine|suppose|pretend|picture|consider)(?: that)? (?:you are|you're|yourself as|yourself to be)"
     r" (?!in |at |on |standing|participating|given|going|walking|driving|running|trying|asked|told|stuck|lost)|"
     r"\b(?:respond|reply|answer|speak|talk|act) (?:as|like) (?!a list|json|a table|yaml|bullet)[\w' -]{2,30} would\b|"
     r"(?:^|[.!?\n] ?)play (?:a|an|the|my) (?!game|song|round|match|video|card|trick|prank)[\w' -]{2,40}?"
     r"(?:[.,;:!]| for| who| and| that|$)|"
     r"(?:^|[.!?\n] ?)be (?:my|a|an|the) [\w' -]{2,40}?(?:[.,;:!]| for| who| and| that| showing| giving| telling| "
     r"helping| answering| guiding| teaching| explaining| taking|$)|"
     r"(?:^|[.!?\n] ?)(?:now,? )?you(?:'re| are) (?!given|provided|asked|told|going|not|in |at |on |a bit|so |very |right|"
     r"correct|wrong|welcome|able|allowed|supposed)[\w' -]{3,40}?(?:[.,;:!]| who| and| from| in| at| on| with| visiting| in)"),
    # --- humanities ------------------------------------------------------------------------------
    ("humanities", "humanities vocabulary", 2.2,
     "history|historical|histories|century|dynasty|empire|emperor|king|queen|revolution|war|civil war|philosophy|"
     "philosopher|kant|plato|aristotle|nietzsche|confucius|ethics|moral|literature|novel|poet|poetry|shakespeare|"
     "hamlet|painting|painted|painter|sculpture|renaissance|baroque|religion|religious|theology|bible|mythology|"
     "culture|cultural|sociology|anthropology|politics|political|democracy|constitution|the law|civil law|common law|criminal law|international law|case law|rule of law|law school|lawyer|lawyers|legislation|legal|music|album|"
     "albums|composer|symphony|film|movie|novelist|author|plot|economics|economy|economic|inflation|gdp|"
     "central bank|central banks|monetary|fiscal|unemployment|recession|tariff|tariffs|capitalism|socialism|"
     "communism|marxism|globalization|globalisation|government|society|societies|social|civilization|civilisation|"
     "ancient|medieval|colonial|colonialism|imperialism|treaty|diplomacy|nationalism|feminism|ideology|theme|themes|"
     "symbolism|protagonist|tragedy|comedy|theatre|theater|opera|greek|roman|byzantine|ottoman|reformation|"
     "enlightenment|printing press|slavery|linguistics|etiquette|customs|traditions|documentary|documentaries|"
     "lesson plan|art|artist|artists|architecture|scripture|gospel|monarchy|parliament|election campaign|economist|"
     "economists|minimum wage|wages|labor market|labour market|employment|impressionism|expressionism|silk road|"
     "social contract|peasants|feudal|dynasties|labour|labor|family life|industrialisation|industrialization|"
     "working class|income inequality|social inequality|economic inequality|masterpiece|masterpieces|artwork|"
     "paintings|mona lisa|existentialism|existentialist|feminist|basic income|welfare|public policy|policy|policies|"
     "taxation|immigration|healthcare system|berlin wall|cold war|world war|the fall of|rise and fall|collapse of|"
     "great depression|new deal|gold standard|hyperinflation|leadership|napoleon|caesar|alexander the great|"
     "buddhism|hinduism|islam|christianity|judaism|taoism|confucianism|liberty|freedom of speech|utilitarian|"
     "magna carta|civil rights|human rights|stoicism|stoic|stoics|epicurean|epicureanism|nihilism|utilitarianism|"
     "virtue ethics|metaphysics|epistemology|ontology|phenomenology|communist|socialist|marxist|fascist|fascism|liberalism|conservatism|"
     "anarchism|manifesto|impressionist|impressionists|expressionist|cubism|cubist|surrealism|surrealist|romanticism|"
     "modernism|postmodernism|art movement",
     "历史|朝代|王朝|皇帝|秦朝|汉朝|唐朝|宋朝|元朝|明朝|清朝|三国|战国|春秋|革命|战争|哲学|孔子|孟子|老子|庄子|儒家|"
     "道家|伦理|道德|文学|小说|诗人|作家|红楼梦|西游记|水浒|绘画|艺术|宗教|神话|文化|社会学|政治|民主|宪法|法律|音乐|"
     "电影|人物形象|性格特点|重文轻武|近代史|现代史|古代史|世界史|通史|史学|史料|发展史|思想|改革|变法|文艺复兴|启蒙运动|古希腊|古罗马|中世纪|殖民|帝国|王国|社会|"
     "经济|通货膨胀|通胀|央行|货币政策|财政|主义|思潮|流派|美学|诗词|唐诗|宋词|典故|文言|古文|作品|意象|修辞|礼仪|习俗|"
     "传统|纪录片|建筑风格|统治|封建|诸侯|君主|皇权|朝廷|始皇|王朝|变革|全球化|帝|儒|诸子|百家|主题|赏析|鉴赏|解读|寓意|"
     "象征|的理解|世界大战|一战|二战|冷战|抗战|战役|理学|心学|玄学|禅宗|佛学|经学|思想家|哲学家", ""),
    ("humanities", "titled work", 1.6, "", "", r"《[^》]{1,20}》|(?:怎么|如何|怎样)理解[“\"「‘]"),
    ("humanities", "historical date", 1.6, "", "公元|世纪|年代",
     r"\b\d{1,2}(?:st|nd|rd|th)[- ]century\b|"
     r"\b(?:in|during|since|after|before|of) (?:the )?(?:1[1-9][0-9]{2}|20[0-2][0-9])s?\b"
     r"(?!\s*(?:feet|ft|miles|km|meters|metres|pieces|people|dollars|pounds|words|times|units|items|points|%))"),
    # --- knowledge / STEM facts ------------------------------------------------------------------
    ("knowledge", "science vocabulary", 2.0,
     "physics|chemistry|biology|science|scientific|atom|atoms|molecule|molecules|cell|cells|dna|gene|genes|protein|"
     "virus|viruses|bacteria|bacterium|vaccine|vaccines|immune|disease|cancer|medicine|medical|symptom|symptoms|"
     "photosynthesis|gravity|energy|quantum|relativity|electron|planet|star|galaxy|universe|climate|evolution|"
     "species|organ|bone|bones|brain|neuron|heart|blood|enzyme|acid|metal|element|chemical|reaction|engine|"
     "statistics|p-value|statistical|hypothesis|machine learning|neural network|overfitting|"
     "thermodynamics|thermodynamic|laws of thermodynamics|law of thermodynamics|laws of motion|law of gravity|"
     "entropy|information theory|magnetism|electromagnetism|electromagnetic|voltage|radiation|nuclear fusion|"
     "nuclear fission|wavelength|semiconductor|semiconductors|transistor|photon|photons|tectonic|tectonics|geology|"
     "ecosystem|ecosystems|antibiotic|antibiotics|hormone|hormones|metabolism|blockchain|cryptocurrency|"
     "artificial intelligence|sound waves|"
     "computer|internet|satellite|rocket|moon|sun|sky|ocean|volcano|earthquake",
     "物理|化学|生物|科学|原子|分子|细胞|基因|蛋白质|病毒|细菌|疫苗|免疫|疾病|癌症|医学|症状|光合作用|重力|引力|能量|"
     "量子|相对论|电子|行星|恒星|星系|宇宙|气候|进化|物种|器官|大脑|神经|心脏|血液|酶|金属|元素|化学反应|发动机|"
     "统计|机器学习|神经网络|计算机|互联网|卫星|火箭|月球|太阳|海洋|火山|地震|飞机", ""),
    ("knowledge", "explain", 1.2,
     "why is|why are|why do|why does|why did|why can|explain|what is a|what is an|what is the|what are|"
     "what causes|difference between|define|definition of|in simple terms|eli5|like i'm five|like i'm 5|"
     "like i'm ten|like i'm 10|like i'm a child|like i'm a kid|like i'm a beginner|layman's terms",
     "为什么|为何|为啥|原理|是什么|什么是|区别|解释|定义|怎么形成|如何形成",
     r"how (?:does|do|did|can) .{1,40} work|how many .{1,30} (?:are|is) (?:in|there)"),
    ("knowledge", "world facts", 1.8,
     "mountain|mountains|river|rivers|continent|continents|desert|deserts|island|islands|lake|lakes|country|countries|"
     "capital city|capital of|largest city|population of|highest mountain|longest river|official language|"
     "national animal|national bird|national flower|national dish|national sport|national anthem|flag of|geography|"
     "tallest building|largest ocean|deepest|waterfall|rainforest|glacier|glaciers",
     "", ""),
    ("knowledge", "list request", 1.6,
     "what are some|what are a few|list some|name some|suggest some|recommend some|some examples|a few examples|"
     "some recommendations|book recommendations|some suggestions|best practices|key topics|key initiatives|"
     "some resources|good resources|some references|good references",
     "", ""),
    ("knowledge", "everyday know-how", 1.5,
     "recipe|recipes|cook|cooking|bake|baking|boil|boiled|fry|fried|roast|grill|oven|stove|kitchen|ingredient|"
     "ingredients|meal|meals|menu|vegetarian|vegan|dessert|sauce|soup|bread|cake|egg|eggs|pasta|salad|spice|spices|"
     "leftovers|clean|cleaning|stain|stains|laundry|mold|mould|odor|odour|furniture|bedroom|living room|bathroom|"
     "garden|gardening|houseplant|houseplants|lawn|soil|pests|haircut|skincare|"
     "workout|workouts|stretching|posture|diet|hydrated|hiking|camping|packing|luggage|etiquette|politely|habit|habits|"
     "wedding|birthday party|dinner party|picnic",
     "", ""),
    # --- chat: talk about oneself, greetings, everyday advice -----------------------------------
    ("chat", "greeting/thanks", 3.5,
     "hi|hello|hey|good morning|good evening|good night|how's it going|how is it going|how are you|what's up|"
     "thanks|thank you|nice to meet",
     "你好|您好|嗨|哈喽|早上好|早安|晚安|谢谢|多谢|感谢你|辛苦了|在吗",
     r"^(?:good )?(?:morning|mornin|afternoon|evening|night)(?=(?: all| everyone| team| folks| guys)?\s*[!,.~])"),
    ("chat", "feelings", 2.4,
     "i feel|feel weird|feel sad|feel lonely|feel tired|feel anxious|feel stressed|feel down|feel bored|"
     "i'm tired|i'm sad|i'm bored|i'm lonely|i'm stressed|i'm anxious|i'm nervous|i'm excited|i am tired|i am sad|"
     "i miss|i hate|i love my|rough day|bad day|long day|tough day|vent|frustrated|upset|overwhelmed|burned out|"
     "burnt out|exhausted|heartbroken|homesick|cheer me up|need to talk|just want to talk|driving me nuts|"
     "driving me crazy|drives me crazy|so annoying|i keep|feeling down|a bit down|feeling low|can we talk|"
     "can we just talk|just talk|can't stop shaking|haha|lol|scared|freaking out|can't sleep|cant sleep|couldn't sleep|"
     "ugh|omg|sigh|yay|meh|lmao|lmfao|rofl|smh|worst day|best day|horrible day|terrible day|awful day|great day|crazy day",
     "哈哈|嘿嘿|呜呜|气死|气炸|好美|真美|太美了|好漂亮|好幸福|好困|好累|好烦|难过|伤心|开心|郁闷|焦虑|压力大|压力好大|压力很大|紧张|孤独|无聊|想哭|心情|失眠|陪我聊|聊会儿|聊聊天|"
     "舍不得|痛苦|崩溃|烦死|累死|困死|难受|好慌|慌|害怕|担心|激动|起不来",
     r"\bfeel(?:ing)? (?:so |really |very |kinda |pretty |super )?(?:great|good|awesome|amazing|better|worse|bad|"
     r"terrible|awful|happy|down|low|off|sick|lonely|stressed|anxious)\b"),
    ("chat", "personal advice", 2.0,
     "any tips|any advice|what should i do|is it too much|is that too much|is this too much|is that normal|"
     "is it normal|is this normal|is that ok|is that okay|is that bad|is it bad|is it healthy|is that healthy|"
     "is it safe|should i worry|should i be worried|how can i stop|how can i sleep|how can i relax|"
     "why do i always|why do i keep|my kid|my kids|my son|my daughter|my wife|my husband|my boss|my cat|my dog|"
     "my mom|my dad|my partner",
     "怎么办|正常吗|健康吗|好不好|可以吗|要紧吗|有问题吗|合理|划算吗|该怎么|有什么建议|我家|我老婆|我老公|我儿子|我女儿|"
     "我妈|我爸|我的猫|我的狗|对身体|对胃|对眼睛|对皮肤|对健康|对睡眠", ""),
    ("chat", "about me", 0.9, "i|i'm|i've|my|me", "我", ""),
    # --- live data or a tool -------------------------------------------------------------------
    ("live_data", "live-data noun", 3.0,
     "weather|forecast|temperature outside|raining|snowing|rain|snow|humidity|air quality|aqi|sunny|windy|"
     "umbrella|uv index|pollen|degrees outside|wear a coat|wear a jacket|bring a jacket|bring a coat|need a jacket|"
     "need a coat|need sunscreen|fog|foggy|storm|storms|stormy|thunderstorm|thunderstorms|hail|heatwave|heat wave|drizzle|"
     "cloudy|overcast|tornado|blizzard|wind chill|chilly",
     "天气|气温|下雨|下雪|降雨|降温|雾霾|大雾|冰雹|寒潮|沙尘暴|暴雪|霜冻|阴天|多云|有雨|有雪|有暴雨|雷阵雨|阵雨|暴雨|空气质量|刮风|台风|晴天|带伞|紫外线|冷不冷|热不热|热吗|冷吗|穿外套|零下|羽绒服|穿什么",
     r"how (?:hot|cold|warm|humid) is it|"
     r"\bis it (?:going to be |gonna be |supposed to be )?(?:hot|cold|warm|chilly|humid|freezing|raining|snowing|sunny|windy)\b"),
    ("live_data", "weather verb", 3.0, "", "",
     r"\b(?:will|is|does|did|gonna) it (?:gonna |going to |supposed to )?(?:rain|snow|freeze|frost|hail|storm|drizzle|pour)\b"),
    ("live_data", "temperature question", 1.0, "", "", r"(?:多少|几)度(?!角)"),
    ("live_data", "market data", 3.0,
     "exchange rate|stock price|share price|price of gold|price of oil|price of bitcoin|market cap|gold price|"
     "oil price|forex|stock quote|share quote|stock doing|stocks doing|premarket|pre-market|after-hours trading|after hours trading",
     "汇率|股价|行情|市值|金价|油价|币价|报价|涨跌|收盘|开盘|指数", ""),
    ("live_data", "price now", 0.8, "price|prices|priced|worth|temperature|temp", "价格|价钱|多少钱", ""),
    ("live_data", "office holder", 0.8,
     "prime minister|president|chancellor|mayor|governor|ceo|head coach|secretary general|speaker of the house",
     "总统|首相|总理|市长|州长|主席|ceo", ""),
    ("live_data", "daily value", 0.8, "sunset|sunrise|sun set|sun rise|high tide|low tide|tide times|moonrise",
     "日落|日出|涨潮|退潮|空气|pm2.5|花粉", ""),
    ("live_data", "currency pair", 2.8, "", "",
     r"\b(?:a|one|1) (?:euro|dollar|us dollar|pound|yen|yuan|rupee|peso|franc|ruble|won)s? (?:in|to|into|against) "
     r"(?:euros?|dollars?|us dollars|pounds?|yen|yuan|rupees?|pesos?|francs?|rubles?|won)\b|"
     r"一(?:美元|欧元|英镑|日元|人民币|港币|韩元)[^，。？?]{0,6}(?:换|兑|等于)|"
     rf"\b(?:{_CURRENCIES})\s*(?:to|/|vs|in|兑|换|\s)\s*(?:{_CURRENCIES})\b|"
     rf"\b(?:{_CURRENCIES}) (?:to|vs|against|into) (?:euros?|dollars?|pounds?|yen|yuan|rupees?|pesos?|francs?|rubles?|won|reais)\b|"
     rf"\b(?:euros?|dollars?|pounds?|yen|yuan|rupees?|pesos?|francs?) (?:to|vs|against|into) (?:{_CURRENCIES})\b|"
     r"\b(?:euro|dollar|pound|yen|yuan|rupee|peso|franc)s? (?:at )?(?:vs|against|versus) (?:the )?"
     r"(?:euro|dollar|pound|yen|yuan|rupee|peso|franc)s?\b"),
    ("live_data", "market asset", 0.8,
     "stock|stocks|shares|bitcoin|btc|ethereum|crypto|nasdaq|nikkei|ftse|dax|hang seng|dow jones|dow|s&p|tesla|gold|silver",
     "股票|比特币|以太坊|纳斯达克|道琼斯|大盘|a股|港股|美股|上证|深证|恒生|沪深|创业板|基金净值|黄金|白银|原油|期货", ""),
    ("live_data", "currency conversion", 2.8, "", "美元兑|欧元兑|英镑兑|日元兑|人民币兑|港币兑",
     rf"\d[\d,.]*\s*(?:{_CURRENCIES}|dollars?|euros?|pounds?|yen|yuan|pesos?|rupees?|美元|欧元|英镑|日元|人民币|港币|韩元)"
     r"[^.?？。]{0,30}(?:in|to|into|换|兑|等于|是多少|合)"
     rf"|\b(?:{_CURRENCIES}|btc)\s*(?:to|/|兑|换)\s*(?:{_CURRENCIES})\b"),
    ("live_data", "news", 3.0, "news|headline|headlines|breaking|trending|latest on|latest about|latest version|latest release|"
     "updates on|any updates|update on|latest updates|hurricane|tropical storm|typhoon|wildfire|wildfires|"
     "tsunami warning|storm warning|weather warning|flood warning|evacuation order|amber alert",
     "新闻|头条|热搜|最新消息|快讯|时事|发布会|最新版|最新的版本|最新稳定版",
     r"最新.{0,20}(?:消息|进展|动态)|\blatest (?:stable |lts |major |minor |beta )?(?:version|release)s?\b|"
     r"(?:今天|今日|最近|近期|刚刚|刚才|这两天|这几天)[^，。？?]{0,6}(?:有没有|有什么|有啥|有无|出了?什么|出没出).{0,12}(?:消息|新闻|政策|新规|通知|公告|动静)|"
     r"\b(?:any|was there an?|is there an?|was that an?|did we (?:just )?(?:have|get) an?)\s+"
     r"(?:earthquake|quake|tremor|aftershock|power outage|blackout|tornado warning)s?\b|"
     r"(?:是不是|有没有|是否)(?:发生了?)?(?:地震|余震|停电|火灾|爆炸)|(?:地震|余震|停电)了(?:吗|没)"),
    ("live_data", "clock/calendar", 3.0,
     "what time is it|current time|local time|time is it|time now|what time zone|which time zone|time zone is|"
     "what day is it|what day is today|"
     "what's the time|what is the time|the time in|"
     "today's date|what's the date|what is the date",
     "几点了|几点钟|现在几点|是几点|时间是多少|当地时间|时区|几月几号",
     r"今天(?:是)?(?:几号|星期几|周几|礼拜几)|现在.{1,8}几点"),
    ("live_data", "live status", 2.2,
     "traffic|traffic now|traffic today|traffic report|jammed|traffic jam|congestion|gridlock|road closures|backed up|flight status|delayed|score of|final score|who won|opening hours|"
     "open now|in stock|tracking|still closed|still open|still shut|still delayed|still cancelled|still canceled|"
     "still on strike|closed today|open today|outage|outages|the score|current score|live score|standings|leaderboard|"
     "league table|who's winning|who is winning|who's leading|who is leading|up or down|running normally|"
     "running on time|disruption|disruptions|on strike|a strike|walkout|down right now|down for everyone|"
     "is it on time|on time today|delays on|any delays|delays today|flight status|landed yet|arrived yet|departed yet|next bus|next train|next tram|next ferry|next flight|next departure|departure times|departures board|bus times|"
     "train times|showtimes|show times|now playing|playing tonight|showing tonight|on tonight|in theaters now|in theatres now|"
     "surf report|surf conditions|the surf|ski conditions|snow conditions|road conditions|the polls|latest polls|poll numbers|"
     "approval rating|odds for|odds on|betting odds|point spread|betting line|winning numbers|lottery results|"
     "lottery numbers|out yet|been announced|announced yet|been released|released yet",
     "路况|堵车吗|航班|比分|赛果|谁赢了|营业时间|余票|快递到哪|物流|赢了吗|输了吗|赢了没|输了没|赢没赢|战况|赛况|积分榜|"
     "停运|停飞|开门了吗|还开着吗|比赛结果|上映|热映|排片|还有票|有票吗|有没有票|还有座|还在运营|正常运营|正常运行|延误|晚点|宕机|崩了吗|挂了吗|"
     "开奖|中奖号码|民调|支持率|赔率|路面结冰|出来了吗|出来没|出来了没|公布了吗|公布了没|公布没|发布了吗|发布了没",
     r"\b(?:is|are) (?!it\b|that\b|this\b|i\b|you\b|he\b|she\b|we\b|they\b)[\w.'-]+(?: [\w.'-]+){0,3} "
     r"(?:down|offline|degraded|busy|crowded|packed|not working|not loading|closed|shut|cancelled|canceled|delayed|having (?:an? )?(?:outage|issues|problems)|"
     r"open (?:on|today|tomorrow|tonight|now|right now|this|late|at))\b|"
     r"\bnext (?:[\w'-]+ ){0,2}(?:bus|train|tram|ferry|flight|departure|shuttle|subway)\b|"
     r"\b(?:top|bottom) (?:of|in) the (?:[\w-]+ ){0,2}(?:league|table|standings|charts?|division|group)\b"),
    ("live_data", "fare search", 3.0, "", "",
     r"\b(?:cheapest|cheap|lowest) (?:[\w-]+ ){0,2}(?:flights?|fares?|airfares?|hotels?|tickets?|rooms?)\b|"
     r"\bflights? from [a-z]+(?: [a-z]+)? to [a-z]+|(?:最便宜|便宜|特价)的?(?:机票|酒店|车票|门票|航班)|(?:机票|酒店|车票)(?:现在)?多少钱"),
    ("live_data", "lookup verb", 1.8, "look up|lookup|search|search for|google it|google this|fetch|find out|browse",
     "查一下|查询|查查|查下|搜索|搜一下|帮我查|上网查|检索", ""),
    # --- schedule: an explicit request to file a dated item -------------------------------------
    ("schedule", "calendar request", 3.6,
     "remind me|reminder|to the calendar|on the calendar|in the calendar|in my calendar|to my schedule|in my diary|"
     "to my diary|add to my calendar|add this to my calendar|add it to my calendar|put it in my calendar|"
     "put it on my calendar|on my calendar|schedule a|schedule an|book a meeting|book an appointment|save the date",
     "提醒我|备忘|记一下|记下|加到日程|日程|添加到日历|帮我安排|定个闹钟", ""),
)

# Signals: word-level readings the structural rules use (task "signal", no weight of their own).
SIGNALS: tuple[tuple[str, str, str], ...] = (
    ("calculate",
     "calculate|compute|evaluate|work out|exactly|exact amount|exact figure|exact value|exact number|to the cent|"
     "to the penny|round to|rounded to|decimal places|what is|what's|how much is|equal|equals",
     "算一下|算算|帮我算|计算|等于多少|是多少|得多少|精确|位小数|多少钱"),
    ("quantity question",
     "how many|how much|how old|how long|how far|how fast|what is the probability|what is the chance|what is the total|"
     "what is the area|what is the sum|what is the average|when will|when does|at what time will|what fraction|"
     "what percentage|how much does each|how many more|calculate the total|calculate how|the total amount|the total cost|"
     "in total|altogether|in all",
     "多少|几个|几只|几颗|几岁|几天|几小时|几分钟|多长|多久|多远|多大|几倍|各有|各是多少|是几|有几|分到几"),
    ("narrative",
     "has|have|had|give|gives|gave|buy|buys|bought|sell|sells|sold|travel|travels|leave|leaves|run|runs|walk|walks|"
     "share|shares|split|each|together|remaining|left|cost|costs|spent|earn|earns|rolled|drawn|pick|picks|fill|fills|"
     "drain|drains",
     "给了|买了|卖了|用了|剩下|还剩|一共|共有|每人|每个|分给|出发|相距|同时|花了"),
    ("question word",
     "what|how|why|which|when|where|who|whom|whose|is it|are there|can you|could you|should|do i|does|did",
     "吗|呢|什么|怎么|为什么|为啥|哪|如何|是否|是不是|多少|几点|几号|几时|几月|几次|几个|几天|几岁"),
    ("format",
     "json|yaml|csv|xml|markdown|table|spreadsheet|bullet list|bulleted list|bullet points|numbered list|"
     "in the format|as a list|key-value",
     "表格|列表|格式|清单|分点|条目"),
    ("length", "briefly|tl dr|tldr|one sentence|a single sentence|one-sentence|in two sentences|in three sentences|"
     "one paragraph|in one paragraph|word limit", "一句话|简短|简要|字以内|字左右"),
    ("deictic",
     "now|right now|rn|atm|today|tonight|currently|current|latest|live|real-time|realtime|at the moment|this week|"
     "this weekend|tomorrow|tmrw|tmr|tonite|this morning|this afternoon|this evening|as of now|at present|so far today|"
     "these days|nowadays",
     "今天|现在|目前|当前|最新|实时|此刻|今晚|明天|这周|本周|今日|今早|这会儿|眼下|刚刚|刚才"),
    ("advice modal", "should|ought to|is it ok|is it okay|is it reasonable", "该|应该|合理"),
    ("conversion", "convert|unit conversion|conversion of|conversion from|conversion chart|in celsius|in fahrenheit|in kelvin|to celsius|to fahrenheit|in km|in miles|"
     "in kg|in pounds|in liters|in gallons|to km|to miles|to kg|to pounds|to liters|to gallons|how many inches|"
     "how many feet|how many cups|how many ounces|how many grams|how many centimetres|how many centimeters|"
     "how many metres|how many meters|how many kilometres|how many kilometers|how many millimetres|how many pounds|"
     "how many stone|how many tons|how many tonnes|how many kg|how many lbs|how many km|how many cm|how many ml|"
     "how many millimeters|how many kilograms|how many litres|how many liters|how many gallons|how many yards",
     "换算|转换成|等于多少公里|等于多少英里|等于多少米|等于多少斤|等于多少磅|是多少公里|是多少英里|是多少斤|是多少磅|摄氏度|华氏度"),
    ("savings growth", "grow to|grows to|will it be worth|be worth after|end up with|invest|invested|investing|"
     "compounding|per month|a month|/month|each month|every month|a week|per week|each week|every week|weekly|grows from|grow from|grows at|grow at|growing at|"
     "month over month|month-over-month|year over year|year-over-year|per annum|each year|every year|per year|a year|"
     "annually|yearly", "存|每月|每个月|定投|复利|环比|同比|每年"),
    ("ratio asked",
     "margin|margins|profit margin|markup percentage|percentage increase|percentage decrease|percent increase|"
     "percent decrease|percentage change|percent change|percentage growth|growth rate|what percent|what percentage|"
     "how many percent|roi|return on investment",
     "利润率|毛利率|净利率|占比|百分之多少|百分之几|百分比是多少|增长率|增长了多少|增幅|涨幅|降幅|跌幅|收益率|回报率|几成"),
    ("past time", "yesterday|last night|last week|last month|last year|ago|earlier today",
     "昨天|昨晚|前天|上周|上个月|去年|刚才|已经"),
    ("time word",
     "tomorrow|tonight|today|next week|next month|this weekend|this morning|this afternoon|this evening|noon|"
     "midnight|morning|afternoon|evening|weekend|after work|every day|every week|monday|tuesday|wednesday|thursday|"
     "friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|january|february|march|april|june|july|"
     "august|september|october|november|december",
     "明天|后天|大后天|今天|今晚|明早|明晚|下周|这周|本周|周一|周二|周三|周四|周五|周六|周日|周天|周末|星期|礼拜|月底|"
     "月初|年底|年初|上午|下午|中午|早上|晚上|傍晚|凌晨|清晨|当天|那天|元旦|春节|除夕|清明|端午|中秋|国庆|圣诞|情人节"),
    ("activity",
     "meeting|meet|lunch|dinner|breakfast|brunch|coffee|call|interview|appointment|tennis|golf|football|game|class|"
     "lesson|session|drinks|visit|review|sync|standup|retro|checkup|check-up|haircut|party|wedding|flight|trip|"
     "presentation|demo|workshop|yoga|gym|movie|concert|pick up|drop off|deadline|submit|practice|rehearsal|recital|"
     "shift|dentist|doctor",
     "吃饭|午饭|晚饭|早饭|聚餐|聚会|开会|会议|例会|见面|复诊|复查|看病|体检|面试|约会|打球|羽毛球|篮球|视频|通话|"
     "电话|签合同|签约|出差|上课|课|家长会|喝茶|咖啡|看电影|拜访|汇报|答辩|培训|接机|送机|婚礼|聚|旅游|爬山|跑步|"
     "健身|提交|核对|周会|晨会|早会|年会|班会"),
)

# Options to weigh (the tot mode): (name, weight, English, Chinese, regex). Their sum is the pressure.
OPTION_FAMILIES: tuple[tuple[str, float, str, str, str], ...] = (
    ("choice", 2.4,
     "which one|which option|which is better|which should|which would|which plan|which approach|which path|"
     "which is best|which is the best|which is more|which to choose|pick one|choose one|recommend one|should i choose|should i pick|should i go with|"
     "should i take|should i learn|should i buy|should i rent|should i accept|choose between|pick between|"
     "decide between|or should|what should i choose|which of|pick the best|choose the best|how should i decide|"
     "how do i decide|how do i choose|how should i choose|tell me which|which to|which first|which one first|"
     "which is worth|which one is worth|which are worth|which makes more sense|which makes the most sense|which is smarter|"
     "which would you pick|which would you go with|which would you choose|which would you recommend|what would you pick",
     "哪个|哪种|哪一个|哪家|选哪|怎么选|如何选|该选|选择哪|怎么决策|如何决策|帮我选|帮忙选|替我选",
     r"\bshould (?:i|we|our \w+|my \w+) [^?.]{1,50} or [^?.]{1,40}(?:\?|$)|^(?:[^，。？?]{0,8}?(?:给|帮|替|让)[^，。？?]{0,6}?)?(?:买|选|去|学|用|租|住|换|报|读|考|开)[^，。？?]{1,12}还是[^，。？?]{1,12}(?:[？?，,。]|$)|"
     r"^[^，。？?]{0,8}(?:买|卖|租|去|回|学|读|考|用|选|住|换|报|做|开|留|找)[^，。？?]{0,8}还是[^，。？?]{0,4}"
     r"(?:买|卖|租|去|回|学|读|考|用|选|住|换|报|做|开|留|找)|\bvs\.? [\w' .&+-]{1,25} vs\.? |^[\w' .&+-]{1,30} (?:or|vs\.?|versus) [\w' .&+-]{1,30}(?: for [\w' .&+-]{1,40})?$|"
     r"which \w+ (?:should|would|is better|to (?:choose|pick|buy|use))|^[\w' .&+-]{1,30} (?:or|vs\.?|versus) "
     r"[\w' .&+-]{1,30}[^?\n]{0,80}\?|哪[里儿]?.{0,6}(?:更?好|合适|划算)[？?呢]|选.{1,10}还是|还是.{1,12}(?:好|合适|划算|容易|适合|值得|有前途|靠谱)(?:[？?呢吗]|$)|"
     r"(?:该不该|要不要|应不应该|是否应该|是不是应该)[^，。？?]{0,6}(?:跳槽|辞职|离职|换|买|卖|搬|读|考|报|结婚|分手|出国|"
     r"创业|转行|留|去|租|学|生|投资|上|参加|报名|请|送|让|做)|"
     r"(?:该|应该|要不要|是)(?:用|选|买|去|学|报|租|住|换)?[^，。？?]{1,12}还是[^，。？?]{1,12}[？?]?$"),
    ("comparison", 2.2,
     "compare|comparison|versus|vs|vs.|pros and cons|trade-off|trade-offs|tradeoff|tradeoffs|weigh|better|worse|"
     "advantages and disadvantages|worth it|more cost-effective|strengths and weaknesses",
     "对比|优劣|利弊|优缺点|权衡|更好|划算|哪个好|孰优孰劣|值不值|比较一下", r"比较(?:哪|这|它|两|几)"),
    ("alternative", 1.0, "or|whether", "还是|或者|要不要|该不该|是否应该", ""),
    ("enumerated alternatives", 1.6, "", "",
     r"[^、，,。？?！!]{1,12}、[^、，,。？?！!]{1,12}(?:、[^、，,。？?！!]{1,12}){0,6}(?:还是|或者|或)"
     r"|\b[a-z][\w' -]{0,24}, [\w' -]{1,25},? or (?=\w)"),
    ("superlative way", 1.6, "", "",
     r"\b(?:best|smartest|cheapest|fastest|easiest|safest|wisest|most \w+) (?:way|option|approach|choice|plan|move|strategy)\b"
     r"|最.{1,4}的(?:办法|方式|方法|选择|做法)"),
    ("options/plans", 1.8,
     "options|alternatives|approaches|strategies|strategy|plans|ideas|solutions|ways to|proposals|several|"
     "multiple|various|a few|different ways|three different|two different",
     "方案|思路|办法|策略|选项|途径|路线|几种|多种|多个|不同的|出路", ""),
    ("best/rank", 1.8,
     "best|optimal|most suitable|strongest|most effective|rank|ranking|prioritise|prioritize|recommend|decide|"
     "decision|pick the|choose the|select the|most feasible|most practical|most viable|most promising|most realistic",
     "最优|最好|最佳|最合适|最划算|最有效|最可行|最靠谱|最实际|排序|排个序|排名|优先级|评估|推荐|决策|选出|选一个|选出最|挑出最", ""),
    ("decision request", 1.6,
     "help me decide|help me think|help me weigh|help me figure out whether|help me figure out if|talk me through",
     "帮我分析|帮我参谋|参谋一下|出出主意|值得吗|划不划算|帮我想想", ""),
    ("brainstorm/plan", 1.8,
     "brainstorm|propose|come up with|suggest|plan a|plan an|plan the|plan my|plan our|design a|design an|"
     "how should we|how can we|how could we|how should i|how should a|how should the|how should our",
     "头脑风暴|出主意|想办法|规划|策划|设计一个|怎样才能", r"如何(?:提高|降低|提升|减少|增加|改善|解决)"),
)

# A family's pattern runs only when one of its hints is in the text: most texts lack all of them,
# and a substring test costs far less than a regex scan.
HINTS: dict[str, tuple[str, ...]] = {
    "say it in a language": (*_LANGS.split(), *_ZH_LANGS.split("|"), "意思"),
    "quoted meaning": ("mean",),
    "greeting/thanks": ("morning", "mornin", "afternoon", "evening", "night"),
    "quantity comparison": ("which is", "which weighs", "which costs", "which lasts", "which holds", "which takes",
                            "哪个", "谁", "还是"),
    "extraction request": ("turn", "convert", "list", "find", "every", "from this", "from that", "from these", "from:",
                           "from the", "all the", "all of the", "json", "csv", "yaml", "table",
                           "spreadsheet", "按"),
    "template fields": ("time", "person", "时间", "人物"),
    "compose a piece": ("write", "tell", "brainstorm", "suggest", "think", "compose", "draft", "create", "give", "make", "come", "pen", "craft", "generate",
                        "produce", "prepare", "invent", "need", "want", "help", "put", "whip", "dash", "写", "起", "取",
                        "名", "想", "题", "创作", "撰写", "起草", "描写", "求", "文案", "祝福",
                        "段子", "口号", "标语"),
    "imperative write": ("write", "compose", "draft", "craft", "pen"),
    "genre request": tuple(_GENRES.split("|")),
    "solve/equation": ("prime", "primes"),
    "take a role": ("you", "you're", "yourself", "be", "would", "play", "以", "模仿"),
    "constraint puzzle": ("than", "beat", "beats", "outran", "outscored", "ahead", "before", "behind", "of", "比",
                          "daughter", "daughters", "son", "sons", "brother", "brothers", "sister", "sisters", "siblings"),
    "live status": ("down", "offline", "degraded", "having", "busy", "crowded", "packed", "next", "league", "table",
                    "standings", "chart", "charts", "division", "working", "loading", "closed", "shut", "cancelled", "canceled",
                    "delayed", "open"),
    "feelings": ("feel", "feeling"),
    "rewrite verb": ("make", "simplify", "turn"),
    "deduction": ("all", "no", "some", "every", "所有"),
    "currency conversion": (*_CURRENCIES.split("|"), "btc", "dollar",
                            "euro", "pound", "yen", "yuan", "美元", "欧元", "英镑", "日元", "人民币", "港币", "韩元"),
    "currency pair": ("euro", "dollar", "pound", "yen", "yuan", "rupee", "peso", "franc", "ruble", "won",
                      *_CURRENCIES.split("|"), "一"),
    "titled work": ("《", "理解"),
    "historical date": ("in", "during", "since", "after", "before", "of"),
    "explain": ("how",),
    "live-data noun": ("how", "is"),
    "fare search": ("cheapest", "cheap", "lowest", "flight", "flights", "机票", "酒店", "车票", "门票", "航班"),
    "weather verb": ("rain", "snow", "freeze", "frost", "hail", "storm", "drizzle", "pour"),
    "temperature question": ("度",),
    "news": ("最新", "latest", "消息", "政策", "新规", "通知", "公告", "动静", "新闻", "earthquake", "earthquakes", "quake",
             "tremor", "aftershock", "outage", "blackout", "tornado", "地震", "余震", "停电", "火灾", "爆炸"),
    "clock/calendar": ("今天", "现在"),
    "choice": ("which", "or", "vs", "versus", "哪", "选", "还是", "该不该", "要不要", "应不应该", "是否应该", "是不是应该"),
    "comparison": ("比较",),
    "superlative way": ("best", "smartest", "cheapest", "fastest", "easiest", "safest", "wisest", "most", "最"),
    "brainstorm/plan": ("如何",),
}
"""A hint that is one lower-case word is looked up among the text's words (one set test for all of a
family's word hints); any other hint (Chinese, punctuation, several words) is a substring test. The
currency hints stay substrings: "100usd" is one word."""
_SUBSTRING_HINTS = frozenset({"currency conversion"})

_ZH_DIGIT = "一二两三四五六七八九十百千万零半"
_MONTH_EN = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
# Structural patterns, over the lowered text (PERSON over the original: it reads capitals).
NUMBER = r"\d+(?:[.,]\d+)*(?!\d|st\b|nd\b|rd\b|th\b)"
"""Numbers with digits (ordinals are positions, not quantities); Chinese numerals apart (``ZH_NUMBER``)
so that the digits pattern starts with a character class the regex engine can skip to."""
ZH_NUMBER = (rf"[{_ZH_DIGIT}]+(?=分之|个|只|辆|本|元|块|岁|天|小时|分钟|米|公里|千米|人|次|倍|头|条|%|颗|杯|年|斤|克|公斤|千克|磅|"
             r"盎司|升|毫升|加仑|英里|英尺|英寸|尺|寸|码|亩|吨)")
_OPERATOR = (
    r"\*\*|[+*/×÷^]|\s-(?=\s*\d)|-(?=\s+\d)|x(?=\s*\d)|mod|to the power(?: of)?|raised to(?: the power of)?|times|"
    r"multiplied by|divided by|plus|minus|乘以|除以|加上|减去|乘|除|加|减"
)
EXPRESSION = rf"(?<![a-z^_])[(（]?\s*\d+(?:\.\d+)?\s*[)）]?\s*(?:{_OPERATOR})\s*[(（]?\s*\d+(?:\.\d+)?(?![a-z])"
MATH_FUNCTION = (
    r"\d+\s*to the\s*\d+(?:st|nd|rd|th)?(?:\s*power)?|\d+\s*次[方幂]|"
    r"(?:sqrt|log|ln|sin|cos|tan|exp|factorial)\s*\(?\s*\d+(?:\.\d+)?(?![a-z\d.])|(?:square root|sqrt|cube root) of \d|\d+\s*(?:squared|cubed|factorial|!)"
    r"|\d+\s*的\s*[\d一二三四五六七八九十]+\s*次方|根号\s*\d+|\d+\s*的平方根|\d+\s*的阶乘|\d+\s*的(?:平方|立方)(?!根)"
)
PERCENT_OF = (
    r"\d+(?:\.\d+)?\s*%\s*(?:[a-z]+\s+)?(?:of|from|的|tip|tax|vat|discount|off|on|interest)[^.?!。？;]{0,20}?\d"
    r"|\d+(?:\.\d+)?\s*的\s*\d+(?:\.\d+)?\s*%|百分之[\d一二三四五六七八九十]+(?:点\d+)?的\d"
    r"|打[\d一二三四五六七八九]+(?:\.\d)?折|[\d一二三四五六七八九]折(?:后|以后|之后|是多少|是几|多少钱|等于)"
    r"|\d+(?:\.\d+)?\s*的\s*[\d一二三四五六七八九]+(?:\.\d)?折"
    r"|(?<![\d.,])\d+(?:[.,]\d+)*(?:(?!after|之后|以后)[^.?!。？;\d%]){1,24}?\d+(?:\.\d+)?\s*%\s*(?:[a-z]+\s+)?"
    r"[交缴扣收付的]?(?:tip|tax|vat|discount|off|interest|fee|commission|markup|税率|税|利率|手续费|提成|小费|折扣|服务费)"
    r"|(?<![\d.,])\d+(?:[.,]\d+)*[^.?!。？;\d%]{1,12}?(?:涨价|降价|上涨|下降|下跌|增长|提高|降低|增加|减少|涨了?|降了?)\s*"
    r"\d+(?:\.\d+)?\s*%|(?<![\d.,])\d+(?:[.,]\d+)*[^.?!。？;\d%]{1,24}?(?:tip|tax|vat|fee|commission|增值税|税率|税|手续费|服务费|"
    r"社保|公积金|佣金|提成|扣掉|扣除|减去|去掉)[^.?!。？;\d%]{0,6}?\s*(?:at|of|is|为|是|[:：])?\s*\d+(?:\.\d+)?\s*%|(?:tip|tax|vat|discount|interest|commission|markup) (?:on|of|for) [$€£¥]?\d[\d,.]*\s*"
    r"(?:at|with|of)?\s*\d+(?:\.\d+)?\s*%"
)
"""A rate of an amount: the rate first ("18% of 240"), the amount first ("$186.40 with an 18% tip"; an amount
"after" a rate is the result, and asking for the original is a word problem), or an amount changed by a rate
("原价1200，先涨价10%")."""
LENGTH = (
    r"\bin (?:one|a single|\d+|two|three|five|ten) (?:sentences?|words?|paragraphs?|lines?|bullet points?)\b|"
    r"\bunder \d+ words|\bat most \d+ words|\bno more than \d+|[\d一二三四五六七八九十百]+字"
)
"""Length limits with a number in them (the word-level ones are the ``length`` signal)."""
TIME_EXPRESSION = (
    r"\d{1,2}月\d{1,2}[日号]|[\d一二三四五六七八九十]+号|"
    rf"(?<![{_ZH_DIGIT}])[\d{_ZH_DIGIT}]{{1,3}}点(?:半|[\d{_ZH_DIGIT}]+分?)?(?![儿心])|"
    rf"\bthe \d{{1,2}}(?:st|nd|rd|th)\b|\b(?:{_MONTH_EN})\.? \d{{1,2}}\b|"
    r"(?<![a-z\d])at \d{1,2}(?::\d{2})?(?!\s*(?:%|percent|degrees|years|km|mph))|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)"
    r"|\d{1,2}:\d{2}"
)
"""Dates and clock times with digits (the word-level ones are the ``time word`` signal)."""
CLOCK = r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|[\d一二三四五六七八九十两]+点"
PERSON = (
    r"(?:和|跟|与|陪|约了?|同|找|见)[\u4e00-\u9fff]{1,3}|"
    r"医生|大夫|老师|经理|总监|[王李张刘陈杨赵黄周吴徐孙马胡朱郭何罗高林][总工姐哥]|律师|教授|客户|老板|同事|"
    r"妈妈|爸爸|爷爷|奶奶|外婆|外公|老婆|老公|女朋友|男朋友|朋友|孩子|儿子|女儿|领导|导师|教练|师傅|"
    r"叔叔|阿姨|舅舅|姑姑|姨妈|伯伯|同学|室友|邻居|房东|爸妈|"
    r"(?:接|送|看望|探望|拜访)[\u4e00-\u9fff]{1,3}|"
    r"(?<![A-Za-z])(?:with|meet|call|visit|see|email|text)\s+(?:(?:Dr|Mr|Ms|Mrs|Prof)\.?\s+)?[A-Z][a-z]+|"
    r"(?<![A-Za-z])(?:Dr|Mr|Ms|Mrs|Prof)\.?\s+[A-Z][a-z]+|"
    r"(?<![A-Za-z])(?:with|call|visit|pick up|drop off|take)\s+(?:my\s+|the\s+|our\s+)?(?:mom|mum|dad|mother|father|"
    r"boss|team|client|manager|kids|children|son|daughter|partner|doctor|dentist|teacher|wife|husband|friend|friends|"
    r"family|parents|grandma|grandpa|colleague|colleagues|plumber|electrician)\b"
)
ACTIVITY = (
    r"去[\u4e00-\u9fff]{1,4}|回[\u4e00-\u9fff]{1,3}|开[\u4e00-\u9fff]{0,3}会|交[\u4e00-\u9fff]{1,3}|"
    r"完成[\u4e00-\u9fff]{1,4}|办[\u4e00-\u9fff]{1,3}"
)
"""Chinese verb-object activities (the word-level ones are the ``activity`` signal)."""
WORD = r"[a-z0-9]+(?:[+#]+|(?:['.&-][a-z0-9]+)*)"


class Lazy:
    """A pattern compiled on its first use: most questions never need most patterns, and compiling
    them all would cost tens of milliseconds on the first question of a process."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self._get().search(text)

    def findall(self, text: str) -> list[str]:
        return self._get().findall(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self._get().finditer(text)


@dataclass(frozen=True)
class Family:
    task: str
    name: str
    weight: float
    hints: tuple[str, ...]
    """Substrings of the text (its pattern window) of which one must be present for the pattern to run."""
    hint_words: frozenset[str]
    """Or one of these words among the text's words."""
    zh_hints: tuple[str, ...]
    """Or one of these Chinese substrings (tested only when the text has Chinese in it)."""
    hinted: bool
    """Whether the family has any hint at all (no hint: the pattern always runs)."""
    pattern: Lazy | None


@dataclass(frozen=True)
class Compiled:
    families: tuple[Family, ...]
    """Task families first, then the option families (task ``"options"``), then the signals (task ``"signal"``)."""
    words: dict[str, tuple[int, ...]]
    """One English word (and its plural forms) -> the families it belongs to."""
    word_set: frozenset[str]
    """The keys of ``words``: one C-level set intersection with a text's words finds every hit."""
    phrases: dict[tuple[str, str], tuple[tuple[str, bool, int], ...]]
    """A phrase's first two words -> (" the whole phrase ", longer than two words, family): the text's
    word pairs intersected with these keys find the candidates; only longer phrases then need a
    substring test on the text's joined words."""
    phrase_pairs: frozenset[tuple[str, str]]
    code_family: int
    imperative_family: int
    advice_family: int
    calendar_family: int
    programming_family: int
    topical_families: tuple[int, ...]
    list_family: int
    """Index of "list request" ("what are some ...": knowledge, unless a choice among them is asked)."""
    """The topic-noun families ("world facts", "everyday know-how"): they count only in short questions."""
    """Index of the "personal advice" family (without a first person it is a question about the world)."""
    """Index of the "imperative write" family (it does not count when the thing to write is code)."""
    """Index of the "code marks" family (error names found while reading words count for it)."""
    word: re.Pattern[str]
    zh: dict[str, tuple[tuple[str, tuple[int, ...]], ...]]
    """First character -> (Chinese term, its families), longest first."""
    zh_first: frozenset[str]
    """The first characters of every Chinese term: intersected with a text's characters."""
    patterned: tuple[tuple[int, Family], ...]
    """The families that have a regular expression, with their index."""
    number: Lazy
    zh_number: Lazy
    expression: Lazy
    math_function: Lazy
    percent_of: Lazy
    time_expression: Lazy
    clock: Lazy
    person: Lazy
    activity: Lazy
    length: Lazy


_NO_FORMS = frozenset({"ruby", "python", "java", "rust", "swift", "perl", "dart", "lua", "scala", "shell", "node",
                       "solve", "simplify", "integrate", "differentiate", "factorise", "factorize", "derive", "prove",
                    "evaluate", "compute", "calculate", "translate", "extract", "implement", "debug", "compile"})
"""Names ("rubies" are gems) and requests as verbs ("it simplifies", "this proves" describe, they do not ask)
get no -s forms."""


_WORD_HINT = re.compile(r"[a-z][a-z'+#-]*")
_CJK_HINT = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def _forms(word: str) -> tuple[str, ...]:
    """A listed word and its plurals ("bug" -> "bugs", "century" -> "centuries"), so that reading a
    text needs no stemming: one set look-up per word."""
    if not word.isalpha() or len(word) < 3 or word in _NO_FORMS:
        return (word,)
    forms = [word, word + "s", word + "'s"]
    if word.endswith(("s", "x", "ch", "sh")):
        forms.append(word + "es")
    if word.endswith("y") and word[-2] not in "aeiou":
        forms.append(word[:-1] + "ies")
    return tuple(forms)


@lru_cache(maxsize=1)
def compiled() -> Compiled:
    """Every table and pattern, built once on first use."""
    specs = [(t, n, w, en, zh, rx) for t, n, w, en, zh, rx in FAMILIES]
    specs += [("options", n, w, en, zh, rx) for n, w, en, zh, rx in OPTION_FAMILIES]
    specs += [("signal", n, 0.0, en, zh, "") for n, en, zh in SIGNALS]
    families: list[Family] = []
    words: dict[str, list[int]] = {}
    phrases: dict[tuple[str, str], list[tuple[str, bool, int]]] = {}
    terms: dict[str, list[int]] = {}
    for index, (task, name, weight, en, zh, rx) in enumerate(specs):
        hints = HINTS.get(name, ())
        as_words = frozenset(() if name in _SUBSTRING_HINTS else (h for h in hints if _WORD_HINT.fullmatch(h)))
        substrings = tuple(h for h in hints if h not in as_words and not _CJK_HINT.search(h))
        zh_hints = tuple(h for h in hints if h not in as_words and _CJK_HINT.search(h))
        families.append(
            Family(task, name, weight, substrings, as_words, zh_hints, bool(hints), Lazy(rx) if rx else None)
        )
        for term in (t for t in zh.split("|") if t):
            terms.setdefault(term, []).append(index)
        for entry in (e.strip() for e in en.split("|")):
            if not entry:
                continue
            parts = entry.split()
            if len(parts) == 1:
                for form in _forms(parts[0]):
                    words.setdefault(form, []).append(index)
            else:
                entry_ = (" " + " ".join(parts) + " ", len(parts) > 2, index)
                phrases.setdefault((parts[0], parts[1]), []).append(entry_)
                if len(parts) == 2 and parts[1].isalpha():  # "central bank's", "monthly payments"
                    phrases.setdefault((parts[0], parts[1] + "'s"), []).append(entry_)
                    if len(parts[1]) > 2 and not parts[1].endswith("s"):
                        phrases.setdefault((parts[0], parts[1] + "s"), []).append(entry_)

    def c(pattern: str) -> Lazy:
        return Lazy(pattern)

    first: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
    for term, indices in terms.items():
        first.setdefault(term[0], []).append((term, tuple(dict.fromkeys(indices))))

    return Compiled(
        families=tuple(families),
        words={k: tuple(dict.fromkeys(v)) for k, v in words.items()},
        word_set=frozenset(words),
        phrases={k: tuple(v) for k, v in phrases.items()},
        phrase_pairs=frozenset(phrases),
        code_family=next(i for i, f in enumerate(families) if f.name == "code marks"),
        imperative_family=next(i for i, f in enumerate(families) if f.name == "imperative write"),
        advice_family=next(i for i, f in enumerate(families) if f.name == "personal advice"),
        calendar_family=next(i for i, f in enumerate(families) if f.name == "calendar request"),
        programming_family=next(i for i, f in enumerate(families) if f.name == "programming vocabulary"),
        list_family=next(i for i, f in enumerate(families) if f.name == "list request"),
        topical_families=tuple(i for i, f in enumerate(families) if f.name in ("world facts", "everyday know-how")),
        word=re.compile(WORD),
        zh={k: tuple(sorted(v, key=lambda e: -len(e[0]))) for k, v in first.items()},
        zh_first=frozenset(first),
        patterned=tuple((i, f) for i, f in enumerate(families) if f.pattern is not None),
        number=c(NUMBER),
        zh_number=c(ZH_NUMBER),
        expression=c(EXPRESSION),
        math_function=c(MATH_FUNCTION),
        percent_of=c(PERCENT_OF),
        time_expression=c(TIME_EXPRESSION),
        clock=c(CLOCK),
        person=c(PERSON),
        activity=c(ACTIVITY),
        length=c(LENGTH),
    )


__all__ = ["FAMILIES", "OPTION_FAMILIES", "SIGNALS", "Compiled", "Family", "Lazy", "compiled"]
