"""Cue families for technical work: coding, maths, multi-step reasoning, structured extraction.
Rows as ``cues.FAMILIES`` describes them.
"""

from __future__ import annotations

TECHNICAL: tuple[tuple[str, str, float, str, str, str], ...] = (
    # --- coding --------------------------------------------------------------------------------
    ("coding", "programming vocabulary", 3.2,
     "python|javascript|typescript|java|golang|c program|discord bot|discord.py|telegram bot|in rust|rust code|using rust|rust function|rust program|rust crate|rust library|rust struct|rust trait|rust macro|rust project|rustc|borrow checker|c++|c#|kotlin|swift|php|ruby|scala|haskell|bash|shell script|"
     "sql|mysql|postgres|postgresql|sqlite|regex|regular expression|html|css|react|vue|angular|django|flask|node|"
     "node.js|npm|pip|docker|kubernetes|k8s|git|github|api|endpoint|json schema|database schema|db schema|design a schema|a schema to|compile|compiler|runtime|debug|"
     "debugging|bug|stack trace|traceback|exception|segfault|null pointer|recursion|algorithm|data structure|"
     "linked list|binary tree|hashmap|hash map|lru|unit test|refactor|deploy|frontend|backend|code|coding|"
     "programming|framework|re-render|re-renders|rerender|component|thread-safe|concurrency|concurrent|async|"
     "mutex|write a function|a function that|a class that|a script|leetcode|repo|pull request|commit|"
     "a program|the program|that program|this program|write a program|little program|small program|simple program|"
     "database|databases|database schema|create table|stored procedure|sql query|write a query|a query that|"
     "perl|lua|matlab|dart|elixir|erlang|fortran|cobol|assembly language|verilog|vhdl|powershell|groovy|clojure|"
     "ocaml|objective-c|solidity|fizzbuzz|for loop|while loop|this loop|the loop|infinite loop|list comprehension|in c|vim|emacs|linux|unix|"
     # a terminal that is a station ("a cabin leaves the bottom terminal every 22 seconds") is no shell
     "in terminal|my terminal|terminal window|terminal command|terminal commands|terminal output|open terminal|"
     "open the terminal|mac terminal|macos terminal|linux terminal|ubuntu terminal|windows terminal|terminal app|"
     "into the terminal|into terminal|integrated terminal|the terminal says|terminal says|command line|cli|gpu|cuda|pandas|numpy|"
     "dataframe|groupby|pyspark|spark|pytorch|tensorflow|jupyter|sklearn|scikit-learn|matplotlib|pyplot|jquery|"
     "next.js|nextjs|webpack|graphql|redis|kafka|nginx|terraform|ansible|cors|localhost|oauth|jwt|websocket|vue3|"
     "vue2|python3|es6|html5|css3|cron|crontab|cronjob|cron job|cron expression|datetime|strftime|strptime|unix timestamp|"
     "epoch time|vscode|vs code|intellij|xcode|kubectl|js|jsx|tsx|csharp|dotnet|.net|laravel|rails|big o|big-o|"
     "time complexity|space complexity|quicksort|mergesort|heapsort|bubble sort|binary search|hash table|grep|chmod|"
     "excel formula|in excel|google sheets|apps script|vba|excel macro|vba macro|openscad|arduino|esp32|autohotkey|power query|userscript|tampermonkey|vlookup|xlookup|pivot table|countif|sumif|chown|sudo|wget|ssh|scp|rsync|awk|mkdir|apt-get|homebrew|rm -rf|in rm|the rm|cli flag|command line flag",
     "代码|编程|程序|脚本|接口|报错|编译|调试|算法|数据结构|链表|二叉树|数组|哈希|递归|并发|线程|前端|后端|数据库|正则|"
     "爬虫|单元测试|重构|部署|类型错误|内存泄漏|缓存|c语言|闭包|回调函数|协程|面向对象|多态|依赖注入|中间件|指针|懒加载|二分查找|二分法|快速排序|冒泡排序|动态规划|深度优先|广度优先|哈希表|写一个函数|写个函数|实现一个函数|字符串|编写|定时任务|时间戳|"
     "go语言|用go|go写|go里|js里|js中|用js|ts里|用ts|excel公式|excel函数|表格公式|wps公式", ""),
    ("coding", "spreadsheet formula", 3.2,
     "index match|index/match|iferror|sumifs|countifs|averageif|averageifs|hlookup|importrange|arrayformula|"
     "conditional formatting|fill down|drag the formula|drag down the formula|spreadsheet formula|sheets formula|"
     "excel formula|excel formulas|excel function|formula in excel|formula for excel|google sheets formula|"
     "col a|col b|col c|col d|column a|column b|column c|column d|in one cell|in another cell|in a separate cell",
     "单元格|公式往下拉|公式下拉|下拉公式|拖动公式|填充公式|用excel|excel里|excel中|excel表|excel怎么|用公式|wps表格|谷歌表格|透视表|条件格式",
     r"#(?:n/a|ref!|value!|div/0!|num!|spill!)|(?:^|[\s(（:：])=[a-z]{2,}[a-z0-9.]*\s*\("
     r"(?=[^)\n]{0,40}(?:\b[a-z]{1,3}\$?\d{1,6}\b|\b[a-z]{1,3}:[a-z]{1,3}\b|\"))"),
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
     "discounted price|before the discount|after the discount|after a discount|divide by zero|divided by zero|"
     "power of zero|power of 0|negative times a negative|fraction|fractions|denominator|numerator|"
     "angles of a triangle",
     "概率|几率|面积|周长|体积|三角形|分数|比例|平均|数列|等差|等比|角度|速度|路程|利息|百分之|相遇|追上|浓度|鸡兔|"
     "半径|直径|圆周|数学|几何|代数|内角和|多少种|排列|组合数|排法|种方法|种不同|负数乘负数|负负得正|分母|分子|除数|0次方|零次方", ""),
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
     "who is right|who is in the picture|who is in the photo|who is in the photograph|who is in the portrait|"
     "who is in the painting|who is in the middle|find the pattern|what's the pattern|what is the pattern|next number|next term|comes next|missing number|next in the sequence|"
     "which direction|which way am i|am i facing|are you facing|am i now facing|every label is wrong|"
     "all the labels are wrong|all labels are wrong|labels are all wrong|mislabeled|mislabelled|lateral thinking|who brought which|"
     "who owns which|who ordered which|who has which|who drives which|who wore which|who lives in which|who made which|"
     "who did which",
     "谜题|脑筋急转弯|逻辑|说谎|说真话|真话|假话|推断|悖论|谁是|哪里去了|去哪了|到底谁|找规律|下一个数|填什么数|面朝哪|朝哪个方向|"
     "标签都是错的|标签全是错的|全都贴错|都贴错了|考考你|出个题|出道题",
     # a logic grid's set-up: "Ann, Ben, Carl, Dana each did one roof: metal, tile, shingle, flat"
     r"\beach (?:did|made|has|had|chose|picked|owns|bought|ordered|took|got|wore|drives|plays|brought|cooked|baked) "
     r"(?:one|a different|exactly one)\b"),
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
     "坐在|相邻|天平|称几次|称三次|称两次|最少称|至少称|谁说了真话|谁在说谎|能否判断|能否确定|能不能判断|如何确定|怎样确定|怎么确定|"
     "各干啥|各干什么|各做什么|各干嘛|分别干什么|分别做什么|各自干什么|各是干什么|各是做什么的",
     r"(?<!\d )(?<!years )(?<!year )(?<!feet )(?<!foot )(?<!inches )(?<!times )(?<!minutes )(?<!points )(?:(?:taller|shorter|older|younger|heavier|lighter|faster|slower|richer|smarter) than|beats|beat|outran|"
     r"outscored|finished ahead of|finished before|finished after|finished behind|came before|came after|is ahead of|is behind) .{1,40}"
     r"(?:(?:taller|shorter|older|younger|heavier|lighter|faster|slower|richer|smarter) than|beats|beat|outran|"
     r"outscored|finished ahead of|finished before|finished after|finished behind|came before|came after|is ahead of|is behind)|"
     r"既不是[^，。？?\s]{1,8}也不是|"
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
     r"(?:turn|put|organi[sz]e|arrange|sort|format|lay out) (?:this|these|it|them|that|those|the following)(?: \w+){0,2} "
     r"(?:into|in) (?:a |an )?(?:table|list|json|csv|spreadsheet|grid|bulleted list)\b|"
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
     "分类|分成|归类|归为|标注|找出|列出|挑出|标出|打分|评分|返回|输出为|输出成|以json|用json|整理出来|整理一下|理一下|"
     "理出来|列一下|汇总一下|汇总成", ""),
    ("extraction", "template fields", 2.0, "date and time|who what when", "字段",
     r"time\s*[,/;、]\s*(?:place\s*[,/;、]\s*)?(?:person|people|who)|person\s*[,/;、]\s*(?:event|activity)|"
     r"时间[、/，,和及与]\s*(?:地点[、/，,和及与]\s*)?人物|人物[、/，,和及与]\s*(?:事项|事件|事情)"),
)
