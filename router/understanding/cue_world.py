"""Cue families for the world outside the model: live data or a tool, and schedule entries to file.
Rows as ``cues.FAMILIES`` describes them.
"""

from __future__ import annotations

from router.understanding.cue_names import CURRENCIES as _CURRENCIES

WORLD: tuple[tuple[str, str, float, str, str, str], ...] = (
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
    # "is 4500 a month worth it?" weighs an offer; "what's my truck worth" asks a value
    ("live_data", "price now", 0.8, "price|prices|priced|temperature|temp", "价格|价钱|多少钱", r"\bworth\b(?! it\b)|"
     # "how much does an epic pass cost right now": a price asked as of now, nothing given to work it out from
     r"\bhow much (?:does|do|is|are|would) [\w' -]{1,40}? cost (?:right now|now|today|these days|at the moment|currently)\b"),
    ("live_data", "office holder", 0.8,
     "prime minister|president|chancellor|mayor|governor|ceo|head coach|secretary general|speaker of the house",
     "总统|首相|总理|市长|州长|主席|ceo", ""),
    ("live_data", "daily value", 0.8, "sunset|sunrise|sun set|sun rise|high tide|low tide|tide times|moonrise",
     "日落|日出|涨潮|退潮|空气|pm2.5|花粉|限行|限号", ""),
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
     r"[^.?？。]{0,30}(?:\b(?:in|to|into)\b|换|兑|等于|是多少|合)"
     rf"|\b(?:{_CURRENCIES}|btc)\s*(?:to|/|兑|换)\s*(?:{_CURRENCIES})\b"),
    ("live_data", "news", 3.0, "news|headline|headlines|breaking|trending|latest on|latest about|latest version|latest release|"
     "updates on|any updates|update on|latest updates|hurricane|tropical storm|typhoon|wildfire|wildfires|"
     "tsunami warning|storm warning|weather warning|flood warning|evacuation order|amber alert",
     "新闻|头条|热搜|最新消息|快讯|时事|发布会|最新版|最新的版本|最新稳定版|热门话题|热点话题",
     # "小红书最近烘焙类有啥热门话题", "这几天啥视频最火": what is popular now is a trend to look up
     r"(?:今天|今日|最近|近期|这两天|这几天|这周|本周|现在)[^，。？?]{0,12}(?:热门|最火|火的|流行什么|在流行|爆款)|"
     r"最新.{0,20}(?:消息|进展|动态)|\blatest (?:stable |lts |major |minor |beta )?(?:version|release)s?\b|"
     r"(?:今天|今日|最近|近期|刚刚|刚才|这两天|这几天)[^，。？?]{0,6}(?:有没有|有什么|有啥|有无|出了?什么|出没出).{0,12}(?:消息|新闻|政策|新规|通知|公告|动静)|"
     r"\b(?:any|was there an?|is there an?|was that an?|did we (?:just )?(?:have|get) an?)\s+"
     r"(?:earthquake|quake|tremor|aftershock|power outage|blackout|tornado warning)s?\b|"
     r"(?:是不是|有没有|是否)(?:发生了?)?(?:地震|余震|停电|火灾|爆炸)|(?:地震|余震|停电)了(?:吗|没)"),
    # "what's the newest version of the X app", "did X push a new update this month": a release to look up
    ("live_data", "release asked", 3.0, "", "",
     r"\bnew(?:est|er) (?:[\w-]+ )?(?:version|release|update|build|firmware|edition)s?\b|"
     r"\b(?:push|pushed|release|released|drop|dropped|ship|shipped|roll|rolled) (?:out )?(?:a |an )?new (?:[\w-]+ )?"
     r"(?:version|update|release|build|patch)\b"),
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
     "lottery numbers|out yet|been announced|announced yet|been released|released yet|status of flight|check the status of|"
     "or is it just me|down or just me|is it just me",
     "路况|堵车吗|航班|比分|赛果|谁赢了|营业时间|余票|快递到哪|物流|赢了吗|输了吗|赢了没|输了没|赢没赢|战况|赛况|积分榜|"
     "停运|停飞|开门了吗|还开着吗|比赛结果|上映|热映|排片|还有票|有票吗|有没有票|还有座|还在运营|正常运营|正常运行|延误|晚点|宕机|崩了吗|挂了吗|"
     "开奖|中奖号码|月票榜|排行榜第一|榜第一|榜首是|热搜第一|热搜榜|票房第一|票房冠军|民调|支持率|赔率|路面结冰|出来了吗|出来没|出来了没|公布了吗|公布了没|公布没|发布了吗|发布了没",
     r"\b(?:is|are) (?!it\b|that\b|this\b|i\b|you\b|he\b|she\b|we\b|they\b)[\w.'-]+(?: [\w.'-]+){0,3} "
     r"(?:down|offline|degraded|busy|crowded|packed|not working|not loading|closed|shut|cancelled|canceled|delayed|having (?:an? )?(?:outage|issues|problems)|"
     r"open (?:on|today|tomorrow|tonight|now|right now|this|late|at))\b|"
     r"\bnext (?:[\w'-]+ ){0,2}(?:bus|train|tram|ferry|flight|departure|shuttle|subway)\b|"
     r"\bstatus of (?:[a-z]+ ){1,2}\d{2,4}\b|"  # "what's the status of United 1432": a flight's number
     r"\b(?:top|bottom) (?:of|in) the (?:[\w-]+ ){0,2}(?:league|table|standings|charts?|division|group)\b"),
    ("live_data", "status asked", 2.2,
     "started yet|begun yet|kicked off yet|is it down|down again|down for me|servers down|server down|servers are down|"
     "server is down|any recall|any recalls|recalls on|recall on|recalls for|recall for|recall announced|recalls announced|been recalled|recall notice",
     "是不是崩了|崩了没|又崩了|服务器崩|是不是挂了|挂了没|出故障|开门吗|开门没|开放吗|开放了吗|营业吗|关门了吗|闭馆了吗|"
     "开了没|开了吗|开始了没|开始了吗|开抢了吗|开售了吗|被召回|召回了吗|有召回|开不开门|开没开门|营不营业|关没关门|闭馆不|开门不|营业不|休馆吗|休馆不",
     r"\bhow (?:are|is|have|has) (?!you\b|we\b|they\b|things\b|it\b|your\b|my\b)(?:the )?[\w.'-]+(?: [\w.'-]+){0,2} (?:been )?(?:doing|playing|looking) (?:so far )?"
     r"this (?:season|year)\b|"
     r"\bwho(?:'s| is| are) (?:playing|in|facing each other) (?:in )?the (?:[\w'-]+ ){0,3}(?:final|finals|super bowl|"
     r"world series|championship|cup|playoffs?|derby)\b|"
     r"\b(?:sale|sales|deal|deals|promo|promotion|event|festival|registration|preorders?|pre-orders?|tickets?)\b"
     r"(?: [\w'-]+){0,2} (?:on|live|out|open|up) yet\b|"
     r"(?:这个|本|这)赛季.{0,8}(?:怎么样|如何|表现|战绩|排第几|排名)"),
    ("live_data", "fare search", 3.0, "", "",
     r"\b(?:cheapest|cheap|lowest) (?:[\w-]+ ){0,2}(?:flights?|fares?|airfares?|hotels?|tickets?|rooms?)\b|"
     r"\bflights? from [a-z]+(?: [a-z]+)? to [a-z]+|(?:最便宜|便宜|特价)的?(?:机票|酒店|车票|门票|航班)|(?:机票|酒店|车票)(?:现在)?多少钱|"
     r"\b(?:trains?|flights?|buses|ferry|ferries) (?:from )?[a-z]+(?: [a-z]+)? to [a-z]+(?: [a-z]+)? "
     r"(?:tonight|today|tomorrow|tmrw|this (?:morning|afternoon|evening|weekend)|now|rn)\b"),
    ("live_data", "lookup verb", 1.8, "look up|lookup|search|search for|google it|google this|fetch|find out|browse",
     "查一下|查询|查查|查下|搜索|搜一下|帮我查|上网查|检索", ""),
    # --- schedule: an explicit request to file a dated item -------------------------------------
    ("schedule", "calendar request", 3.6,
     "remind me|to the calendar|on the calendar|in the calendar|in my calendar|to my schedule|in my diary|"
     "to my diary|add to my calendar|add this to my calendar|add it to my calendar|put it in my calendar|"
     "put it on my calendar|on my calendar|schedule a|schedule an|book a meeting|book an appointment|save the date|"
     "calendar event|calendar entry|calendar invite",
     "提醒我|备忘|记一下|记下|加到日程|日程|添加到日历|帮我安排|定个闹钟|标成|标记成|标记为|空出来",
     # a reminder set, not one to write ("a polite but firm payment reminder for a client", "a reminder email")
     r"(?<!payment )(?<!polite )(?<!gentle )(?<!friendly )(?<!firm )(?<!rent )(?<!invoice )\breminder\b"
     r"(?! (?:email|emails|letter|letters|message|messages|text|texts|note|notice|notices|template|sms))|"
     # "block Friday the 17th, 10 to 11:30, for the closing", "block out june 15 10:00 to noon": time held for an event
     r"\bblock (?:out |off )?(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\b|(?:jan|feb|mar|apr|may|jun|jul|aug|"
     r"sep|sept|oct|nov|dec)[a-z]* \d|\d{1,2}(?:st|nd|rd|th)?\b(?![.,]\d)|(?:the|my) (?:morning|afternoon|evening) of\b|tomorrow\b|next (?:week|\w+day)\b)"),
)
