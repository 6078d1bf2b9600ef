"""Word-level signals the structural rules read, the option families (plans to weigh, the tot mode), and
the hints that gate each family's pattern.
"""

from __future__ import annotations

from router.understanding.cue_names import CURRENCIES as _CURRENCIES
from router.understanding.cue_names import GENRES as _GENRES
from router.understanding.cue_names import LANGS as _LANGS
from router.understanding.cue_names import ZH_LANGS as _ZH_LANGS

# "3 instructors and 4 privates ... marco isn't certified for off-piste. how do i assign these": people or posts
# matched to slots under limits the asker told, a plan to lay out (a rota asked for is the same plan); its figures
# are the limits, not a sum
_SLOTS_ASSIGNED = (
    r"\bhow (?:should|do|would|can|could) (?:i|we) (?:assign|cover|staff|allocate|split up|divide up|pair up|match up)"
    r" (?:these|them|it|this|that|everyone|everybody|people|(?:the|our|my) (?:[\w'-]+ ){0,2}(?:shifts|slots|jobs|lessons|lifts|posts|rooms))\b"
    r"|\b(?:need|make|build|draw up|sort out|put together|work out|set up) (?:a|the|our|my|next week's) (?:rota|roster)"
    r" for\b"
    r"|(?:这回|这次|该|应该|要)(?:怎么|如何)分配(?![的了过])"
)
_SLOTS_HINTS = ("assign", "cover", "staff", "allocate", "split", "divide", "pair", "match", "rota", "roster", "分配")

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
     "吗|呢|什么|怎么|为什么|为啥|哪|如何|是否|是不是|多少|几点|几号|几时|几月|几次|几个|几天|几岁|了没|"
     "要不要|能不能|可不可以|会不会|有没有|该不该|用不用|算不算|行不行|好不好|对不对|严不严重|要不要紧"),
    ("format",
     "json|yaml|csv|xml|markdown|a table|in table|into table|as table|table format|table form|the table below|"
     "comparison table|two-column table|three-column table|2-column table|3-column table|spreadsheet|bullet list|bulleted list|bullet points|numbered list|"
     "in the format|as a list|key-value",
     "表格|列表|格式|清单|分点|条目"),
    ("length", "briefly|tl dr|tldr|one sentence|a single sentence|one-sentence|in two sentences|in three sentences|"
     "one paragraph|in one paragraph|word limit", "一句话|简短|简要|字以内|字左右"),
    ("deictic",
     "now|right now|rn|atm|today|tonight|currently|current|latest|live|real-time|realtime|at the moment|this week|"
     "this weekend|tomorrow|tmrw|tmr|tonite|this morning|this afternoon|this evening|as of now|at present|so far today|"
     "these days|nowadays|this minute|this second|this year",
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
    ("past time", "yesterday|last night|last week|last month|last year|ago|earlier today|turned|graduated|was born|"
     "got married|passed away",
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
     "which would you pick|which would you go with|which would you choose|which would you recommend|what would you pick|"
     "i'm torn|i am torn",
     "哪个|哪种|哪一个|哪家|选哪|怎么选|如何选|该选|选择哪|怎么决策|如何决策|帮我选|帮忙选|替我选|怎么取舍|如何取舍|该怎么取舍",
     r"\bweigh(?:ing)? (?:[\w'-]+ ){1,10}against\b|\b(?:should|do|shall) (?:i|we|our \w+|my \w+) (?:[^?.]|(?<=\d)\.(?=\d)){1,60} or (?!not\b)(?:[^?.]|(?<=\d)\.(?=\d)){1,40}(?:\?|$)|^(?:[^，。？?]{0,8}?(?:给|帮|替|让)[^，。？?]{0,6}?)?(?:买|选|去|学|用|租|住|换|报|读|考|开)[^，。？?]{1,12}还是[^，。？?]{1,12}(?:[？?，,。]|$)|"
     r"^[^，。？?]{0,8}(?:买|卖|租|去|回|学|读|考|用|选|住|换|报|做|开|留|找|领|提|存|取|交|付|拿|贷)[^，。？?]{0,8}还是(?![不没])[^，。？?]{0,4}"
     r"(?:买|卖|租|去|回|学|读|考|用|选|住|换|报|做|开|留|找|领|提|存|取|交|拿|贷)|\bvs\.? [\w' .&+-]{1,25} vs\.? |^[\w' .&+-]{1,30} (?:or|vs\.?|versus) [\w' .&+-]{1,30}(?: for [\w' .&+-]{1,40})?$|"
     r"which \w+ (?:should|would|is better|to (?:choose|pick|buy|use))|"
     # "natural ferment or inoculate for my pinot?", "... at 60 soon. lump sum or annuity?": the alternatives asked; "are
     # there novels where x-rays or radiology matter?" asks whether
     r"^(?!(?:are there|is there|are|is|was|were|do|does|did|can|could|has|have)\b)[\w' .&+-]{1,30} "
     r"(?:or|vs\.?|versus) [\w' .&+-]{1,30}[^?\n]{0,80}\?|(?<=[.!?] )(?!(?:are|is|was|were|do|does|did|can|could)\b)"
     r"[\w' &+-]{1,30} (?:or|vs\.?|versus) [\w' &+-]{1,30}\?|哪[里儿]?.{0,6}(?:更?好|合适|划算)[？?呢]|选.{1,10}还是|还是.{1,12}(?:好|合适|划算|容易|适合|值得|有前途|靠谱)(?:[？?呢吗]|$)|"
     r"(?:该不该|要不要|应不应该|是否应该|是不是应该)(?![^，。？?]{0,4}(?:医院|看医生|看病|就医|急诊|吃药|吃退烧药|打针|输液))[^，。？?]{0,6}(?:跳槽|辞职|离职|换|买|卖|搬|读|考|报|结婚|分手|出国|"
     r"创业|转行|留|去|租|学|生|投资|上|参加|报名|请|送|让|做|裸辞|辞|配|给|装|办|养)|"
     r"(?:该|应该|要不要|是)(?:用|选|买|去|学|报|租|住|换)?[^，。？?]{1,12}还是[^，。？?]{1,12}[？?]?$|"
     # a labelled list of offers or quotes ("job offers: Acme 95k remote, Beta 110k hybrid, ..."), "which for a ..."
     r"\b(?:offers|quotes|bids|candidates|contenders|finalists|shortlist)\s*:\s*[^,;\n]{2,50}[,;\n]\s*[^,;\n]{2,50}[,;\n]|"
     r"\bwhich (?:one )?for (?:a|an|my|the|our)\b|(?P<verb>[\u4e00-\u9fff])还是不(?P=verb)|"
     r"(?:我|咱们?)(?:该|应该)(?!吃|看医生|去医院)[\u4e00-\u9fff]{1,4}吗[？?]?\s*$|(?:有没有|有)必要(?:买|换|升级|花|报|请|装|上)[^，。？?]{0,6}(?:贵|好|新|高)|"
     r"\bis it (?:smarter|better|wiser|cheaper|safer|best|worth it) to [^?]{1,80}? or\b|"
     r"\bwho (?:do|should|would|shall) (?:i|we|you) (?:go with|pick|choose|hire|use)\b|"
     # "三个幼儿园 一个离家近 一个双语 一个便宜 纠结死了": alternatives told one by one, and being torn between them
     r"(?:一个|一家|一所|一套|一款|有的)[^，。？?]{1,12}[，, ]+(?:一个|一家|一所|一套|一款|另一个|还有一个)[^？?]{0,40}?"
     r"(?:纠结|拿不定|定不下)|(?:纠结|拿不定主意|定不下来)[^，。？?]{0,10}(?:一个|一家|一所|一套|一款)[^，。？?]{1,12}[，, ]+(?:一个|另一个)"),
    ("comparison", 2.2,
     "compare|comparison|versus|vs|vs.|pros and cons|trade-off|trade-offs|tradeoff|tradeoffs|weigh|better|worse|"
     "advantages and disadvantages|worth it|more cost-effective|strengths and weaknesses",
     "对比|优劣|利弊|优缺点|权衡|更好|划算|哪个好|孰优孰劣|值不值|比较一下|好处坏处|好处和坏处|好处与坏处|帮我比比|比一比|比比看",
     r"比较(?:哪|这|它|两|几)"),
    ("alternative", 1.0, "or|whether", "或者|要不要|该不该|是否应该", r"还是(?![不没会很一也])"),
    # "这几天37度高温，要不要减料？减多了长得慢": the asker's own next move put as the question, the situation
    # told around it (a told "now" is the asker's case, not a value to fetch)
    ("own move asked", 1.6, "", "", r"(?:^|[，,。；;！!？?\s])(?:那|我|我们|咱|到底|还)?(?:要不要|该不该|应不应该)"
     r"[\u4e00-\u9fff]{1,8}(?:[？?]|\s*$)"
     # "... nights and 2 hrs further from home. is 4500 a month worth it?": the offer weighed, the last thing asked
     r"|\bworth it\s*[?？]*\s*$|值不值得?[\u4e00-\u9fff]{0,3}[？?]*\s*$"),
    ("enumerated alternatives", 1.6, "", "",
     r"[^、，,。？?！!]{1,12}、[^、，,。？?！!]{1,12}(?:、[^、，,。？?！!]{1,12}){0,6}[，,]?(?:还是|或者|或)"
     r"|\b[a-z][\w' -]{0,24}, [\w' -]{1,25},? or (?=\w)"
     # "A 租隔壁20平，B 换个60平的新店面，C 先不动": alternatives lettered in one line ("option a) ..., option b) ...")
     r"|(?:^|[\s：:，,；;。])(?:方案|选项|option |plan )?a(?:[、.．:：)）]|\s(?=[\u4e00-\u9fff]))[^，,；;。？?\n]{2,30}[，,；;。]\s*"
     r"(?:方案|选项|option |plan )?b(?:[、.．:：)）]|\s(?=[\u4e00-\u9fff]))"),
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
     "help me decide|help me think|help me weigh|help me figure out whether|help me figure out if|talk me through|"
     "dilemma|torn between|torn on|torn about|what are my options|what options do i have|a middle ground|can't decide|cant decide|can't make up my mind",
     "帮我分析|帮我参谋|参谋一下|出出主意|值得吗|划不划算|帮我想想|取舍|犹豫|纠结", ""),
    ("brainstorm/plan", 1.8,
     "brainstorm|propose|come up with|suggest|plan a|plan an|plan the|plan my|plan our|design a|design an|"
     "how should we|how can we|how could we|how should i|how should a|how should the|how should our|help me plan|"
     "help us plan|how would you structure|how would you plan|how would you organise|how would you organize|how do i plan|"
     "how do we plan|how can i plan",
     "头脑风暴|出主意|想办法|规划|策划|设计一个|怎样才能|怎么安排|如何安排|怎么排|该怎么推进",
     r"如何(?:提高|降低|提升|减少|增加|改善|解决)|"
     r"(?:怎么|如何)(?:搭配|搞|做|弄|办|推进)[^，。？?]{0,8}(?:比较|最|更)(?:好|合理|稳妥|稳|合适)|"
     r"(?:怎么|如何)(?:提前|合理|更好地?|科学地?)安排|"
     rf"{_SLOTS_ASSIGNED}"),
    # "how should I plan the next three weeks ... I work full time": a plan under the user's own limits is laid
    # out and weighed, one of several ways to spend the time; on top of the plan family's words, a decision
    ("plan asked", 0.8, "", "帮我规划|规划一下|怎么规划|如何规划|怎么安排|如何安排|几种方案|几个方案",
     r"(?:怎么|如何)(?:排|安排|分配|搭配|推进|处理|搞|做|弄|办)[^，。？?]{0,8}(?:比较|最|更)(?:好|合理|划算|稳妥|稳|合适|省|快|顺|高效|公平|均匀)|"
     r"\b(?:how (?:should|do|would|can|could) (?:i|we)|help (?:me|us)|i need to|we need to|trying to) plan\b|"
     # "... pays more but I barely see my kids. help me think it through": a dilemma of the asker's, to be weighed
     r"\bhelp (?:me|us) (?:think|talk|work) (?:it|this|that) (?:through|over)\b(?! (?:how|why|what|the)\b)|"
     r"\bhow (?:should|do|would) (?:i|we) (?:split|divide|allocate|budget|spread|order) (?:my|our|the) "
     r"(?:time|hours|week|weeks|day|days|budget|calls|jobs|tasks|studying|schedule)\b|"
     r"\bhow (?:should|do|would) (?:i|we|you) (?:sequence|structure|prioriti[sz]e|organi[sz]e|lay out)\b|"
     rf"{_SLOTS_ASSIGNED}|"
     r"(?:怎么|如何)(?:提前|合理|更好地?|科学地?)安排|"
     r"\bgive me (?:a few|some|several|two|three|[2-5]) (?:different )?(?:approaches|options|ways|plans|strategies)\b"),
)

# A family's pattern runs only when one of its hints is in the text: most texts lack all of them,
# and a substring test costs far less than a regex scan.
HINTS: dict[str, tuple[str, ...]] = {
    "genre heading": (":",),
    "say it in a language": (*_LANGS.split(), *_ZH_LANGS.split("|"), "意思", ">", "→", "译"),
    "quoted meaning": ("mean",),
    "greeting/thanks": ("morning", "mornin", "afternoon", "evening", "night"),
    "quantity comparison": ("which is", "which weighs", "which costs", "which lasts", "which holds", "which takes",
                            "哪个", "谁", "还是"),
    "extraction request": ("turn", "convert", "list", "find", "grid", "every", "from this", "from that", "from these", "from:",
                           "from the", "all the", "all of the", "json", "csv", "yaml", "table",
                           "spreadsheet", "按"),
    "template fields": ("time", "person", "时间", "人物"),
    "compose a piece": ("write", "tell", "brainstorm", "suggest", "think", "compose", "draft", "create", "give", "make", "come", "pen", "craft", "generate",
                        "produce", "prepare", "invent", "need", "want", "help", "put", "whip", "dash", "写", "起", "取",
                        "名", "想", "题", "创作", "撰写", "起草", "描写", "求", "文案", "祝福",
                        "段子", "口号", "标语", "告示", "通知", "公告", "启事", "牌子", "海报", "提示"),
    "imperative write": ("write", "compose", "draft", "craft", "pen"),
    "genre request": tuple(_GENRES.split("|")),
    "solve/equation": ("prime", "primes"),
    "take a role": ("you", "you're", "yourself", "be", "would", "play", "以", "模仿"),
    "constraint puzzle": ("than", "beat", "outran", "outscored", "finished ahead", "finished before", "finished after",
                          "finished behind", "came before", "came after", "既不是", "is ahead",
                          "is behind", "比", "how many", "brother of", "sister of", "father of", "mother of", "son of",
                          "daughter of", "uncle of", "aunt of", "cousin of", "husband of", "wife of"),
    "live status": ("down", "offline", "degraded", "having", "busy", "crowded", "packed", "next", "league", "table",
                    "standings", "chart", "charts", "division", "working", "loading", "closed", "shut", "cancelled", "canceled",
                    "delayed", "open", "status"),
    "status asked": ("season", "doing", "yet", "final", "finals", "bowl", "series", "championship", "cup", "playoffs",
                     "playoff", "derby", "赛季"),
    "spreadsheet formula": ("#", "="),
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
    "fare search": ("cheapest", "cheap", "lowest", "flight", "flights", "train", "trains", "buses", "ferry", "ferries",
                    "机票", "酒店", "车票", "门票", "航班"),
    "price now": ("worth", "cost"),
    "weather verb": ("rain", "snow", "freeze", "frost", "hail", "storm", "drizzle", "pour"),
    "temperature question": ("度",),
    "news": ("最新", "latest", "消息", "政策", "新规", "通知", "公告", "动静", "新闻", "热门", "最火", "火的", "流行", "爆款", "earthquake", "earthquakes", "quake",
             "tremor", "aftershock", "outage", "blackout", "tornado", "地震", "余震", "停电", "火灾", "爆炸"),
    "clock/calendar": ("今天", "现在"),
    "release asked": ("newest", "newer", "new"),
    "calendar request": ("reminder", "block"),
    "plan asked": ("plan", "split", "through", "over", "divide", "allocate", "budget", "spread", "sequence", "structure", "order", "prioritise",
                   "prioritize", "organise", "organize", "lay", "approaches", "strategies", "ways", "options", "plans",
                   "怎么", "如何", "方案", "搭配", *_SLOTS_HINTS),
    "choice": ("which", "or", "vs", "versus", "哪", "选", "还是", "该不该", "要不要", "应不应该", "是否应该", "是不是应该",
               "必要", "我该", "应该", "还是不", "go with", "offers", "quotes", "bids", "candidates", "contenders", "finalists", "shortlist", "纠结", "拿不定", "定不下"),
    "comparison": ("比较",),
    "alternative": ("还是",),
    "own move asked": ("要不要", "该不该", "应不应该", "worth it", "值不值"),
    "superlative way": ("best", "smartest", "cheapest", "fastest", "easiest", "safest", "wisest", "most", "最"),
    "brainstorm/plan": ("如何", "怎么", *_SLOTS_HINTS),
}
"""A hint that is one lower-case word is looked up among the text's words (one set test for all of a
family's word hints); any other hint (Chinese, punctuation, several words) is a substring test. The
currency hints stay substrings: "100usd" is one word."""
SUBSTRING_HINTS = frozenset({"currency conversion", "constraint puzzle"})
"""The puzzle's hints are what each of its pattern's alternatives cannot match without (two comparisons, a count of
children, two relations "X of"), tested as substrings: "of" and "before" alone would run it on most texts."""
