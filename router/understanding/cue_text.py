"""Cue families for work on text and talk: translating and rewriting a given text, writing, roleplay,
humanities, knowledge and STEM facts, conversation. Rows as ``cues.FAMILIES`` describes them.
"""

from __future__ import annotations

from router.understanding.cue_names import GENRES as _GENRES
from router.understanding.cue_names import LANG_RE as _LANG_RE
from router.understanding.cue_names import ZH_LANGS as _ZH_LANGS

# (task, family name, weight, English words and phrases "|"-separated, Chinese terms "|"-separated,
#  regex over the lowered text or "").
TRANSLATION: tuple[tuple[str, str, float, str, str, str], ...] = (
    # --- translation or rewriting: the text to work on is given --------------------------------
    ("translation", "translate verb", 4.5,
     "translate|translated|translating|translation of|translation into",
     "翻译|翻成|译成|译为|翻一下", ""),
    ("translation", "say it in a language", 3.5, "", "用英文怎么说|用中文怎么说|怎么说|怎么翻|地道|成英文|成中文|为英文|为中文",
     rf"how (?:do|would|can) (?:you|i|we) say .{{1,80}} in (?:{_LANG_RE})|what does .{{1,60}} mean in (?:{_LANG_RE})|"
     rf"(?:into|to) (?:{_LANG_RE})[.:?!]?$|(?:{_ZH_LANGS})(?:里|中)?.{{0,20}}是?什么意思|"
     rf"^(?:from )?(?:{_LANG_RE}) (?:to|into|->|→) (?:{_LANG_RE})\b|what(?:'s| is) .{{1,60}} in (?:{_LANG_RE})[?.!]?$|"
     r"^(?:de|en|fr|es|it|ja|jp|zh|cn|ko|kr|ru|pt|nl|ar|vi|th)\s*(?:>|->|→|2)\s*(?:de|en|fr|es|it|ja|jp|zh|cn|ko|kr|ru|pt|nl|ar|vi|th)\b|"
     r"[中英日韩法德俄西]译[中英日韩法德俄西]|"
     r"[“\"'‘][a-z][a-z' .,!?-]{1,60}[”\"'’]\s*(?:是什么|是啥|什么|啥)意思|"
     rf"what(?:'s| is) the (?:{_LANG_RE}) (?:word |phrase |expression )?for\b|"
     rf"\b(?:say|put|write|do|turn|get|render|send) (?:this|that|it|these|the following|my message|this message)(?: one)?"
     rf"(?: (?:back|over))? (?:in|into) (?:{_LANG_RE})\b|"
     rf"^(?:in |into )?(?:[a-z-]+ ){{0,3}}(?:{_LANG_RE})(?: please| pls| for [\w' ]{{1,30}})?\s*[:：]"),
    ("translation", "quoted meaning", 3.5, "", "", r"\bwhat does [“\"‘'][^\"”’]{1,60}[”\"’'] (?:mean|stand for)[?.!]*$"),
    ("translation", "rewrite verb", 3.8,
     "rewrite|re-write|rephrase|paraphrase|reword|proofread|polish this|polish my|friendlier|politer|"
     "more polite|less blunt|more formal|less formal|more professional|more casual|sound more|sound less|"
     "formal tone|polite tone|professional tone|casual tone|friendly tone|"
     "shorten this|shorten my|soften this|soften my|soften the|tone down|tone it down|tone this down|less harsh|"
     "less rude|less aggressive|less angry|less pushy|gentler|more friendly|more upbeat|make this more respectful|"
     "make it more respectful|"
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
)

PROSE_AND_TALK: tuple[tuple[str, str, float, str, str, str], ...] = (
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
     r"shanties|anthem|hymn|chant|carol|jingle|serenade|elegy|epigram|couplet|couplets|card|cards|"
     r"(?:sign|signs|notice|notices|poster|placard)(?= for| on| to| saying| that| about| reminding|:))\b|"
     # "门口要贴个告示：今天暂停营业": a notice to put up is a piece to write, whatever day it names
     r"(?:贴|挂|立|出|做)(?:一|个|一个|张|一张|块|一块)?(?:告示|通知|公告|启事|牌子|提示牌|海报|温馨提示)|"
     r"写(?:一|几|两|三|个|篇|首|段|封|份|条|句|些)?.{0,12}(?:诗|词|文章|故事|小说|作文|文案|邮件|信|祝福|"
     r"演讲稿|发言稿|致辞|标语|口号|广告|歌词|剧本|短文|日记|周报|总结|简历|自我介绍|段子|笑话|评论|帖子|朋友圈|"
     r"散文|随笔|游记|童话|寓言|对白|台词|主持词|串词|开场白|情书|贺词|悼词|祝酒词|宣传语|广告语|软文|推文|标题|"
     r"的话|段话|介绍|感言|寄语|留言|贺卡|读后感|观后感|文字|记叙文|议论文|说明文|邀请函|请柬|通知|倡议书|申请书|"
     r"检讨书|感谢信|推荐信|求职信|jd|职位描述|岗位描述|招聘启事|请假条|假条|请假消息|便条|借条|欠条|留言条|回复|回信|答复)|写(?:一|两|几)?[篇首封]|"
     r"想.{0,10}(?:口号|标语|名字|标题|广告语|文案|宣传语)|(?:求|来|要)(?:一|几|个|篇|首|段|条|一个|一段|一首|几个)"
     r".{0,12}(?:文案|诗|祝福语|祝福|标语|口号|段子|笑话|故事|名字|店名)|(?:以|用)[“\"《].{1,20}[”\"》]为题|创作|撰写|起草|描写|"
     r"(?:起|取)(?:个|一个|几个|[\d一二三四五六七八九十]+个)?.{0,10}(?:名字|店名|名称|标题|书名|网名|昵称)|取名|命名|"
     r"\btell (?:me |us )?(?:a |an |some |another |\d+ |two |three |funny |short |bedtime |scary )(?:[\w-]+ ){0,2}"
     r"(?:joke|jokes|story|stories|tale|tales|pun|puns|poem|limerick|fable)\b"),
    ("writing", "genre request", 3.6, "", "",
     r"^(?:(?:a|an|some|one|short|little|funny|cute|sad|sweet|silly|quick|\d+)\s+){0,3}(?:[a-z-]+\s+)?"
     rf"(?:{_GENRES})(?:\s+(?:ideas?|prompts?))?\s+(?:about|on|for|where|in which|celebrating)\b"),
    # "craigslist ad: 2011 camry, 148k, $5900 obo": a genre named as a heading over the notes to write it from
    ("writing", "genre heading", 3.6, "", "",
     r"^(?:[a-z]+ ){0,2}(?:ad|advert|listing|bio|caption|blurb|toast|eulogy|speech|announcement|invite|invitation|"
     r"cover letter|product description|job post|job ad)\s*:(?=[^?]{12,}$)"),
    ("writing", "imperative write", 2.3, "", "",
     r"(?:^|[.!?:\n]\s*)(?:please |now |could you |can you )?(?:write|compose|draft|craft|pen)\b"),
    ("writing", "genre noun", 1.2, "poem|haiku|sonnet|short story|essay|cover letter|speech|slogan|lyrics|bedtime story|"
     "blog post|limerick|fairy tale|fable|screenplay|toast|eulogy|payment reminder|polite reminder|gentle reminder|"
     "friendly reminder|reminder email|reminder letter|reminder message|reminder text",
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
     "扮演|你演|你来演|假装你是|假设你是|你现在是|现在你是|从现在起你是|从现在开始你是|你来当|请你当|你当一|当我的|你就是|假如你是|想象你是|"
     "你是一位|你是一个|你是一名|角色扮演|第一人称",
     r"you(?:'re| are) (?:a|an|my) [\w -]{2,30}(?:\.|,|:|;| and)|以.{1,8}的(?:身份|口吻|语气)|模仿.{1,8}(?:的)?(?:口吻|语气)|"
     r"(?:imagine|suppose|pretend|picture|consider)(?: that)? (?:you are|you're|yourself as|yourself to be)"
     r" (?!in |at |on |standing|participating|given|going|walking|driving|running|trying|asked|told|stuck|lost)|"
     r"\b(?:respond|reply|answer|speak|talk|act) (?:as|like) (?!a list|json|a table|yaml|bullet)[\w' -]{2,30} would\b|"
     r"(?:^|[.!?\n] ?)(?:(?:can|could|would|will) you |please )?play (?:a|an|the|my) (?![\w' -]{0,24}?\b(?:games?|songs?|music|playlist|album|tunes?|round|match|videos?|cards?|tricks?|pranks?|instrument|piano|guitar)\b)[\w' -]{2,40}?"
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
     "象征|的理解|古代|古时候|古人|民国|晚清|清末|科举|世界大战|一战|二战|冷战|抗战|战役|理学|心学|玄学|禅宗|佛学|经学|思想家|哲学家", ""),
    ("humanities", "titled work", 1.6, "", "", r"《[^》]{1,20}》|(?:怎么|如何|怎样)理解[“\"「‘]"),
    ("humanities", "historical date", 1.6, "", "公元|世纪|年代",
     r"\b\d{1,2}(?:st|nd|rd|th)[- ]century\b|"
     r"\b(?:in|during|since|after|before|of) (?:the )?(?:1[1-9][0-9]{2}|20[0-2][0-9])s?\b"
     r"(?!\s*(?:feet|ft|miles|km|meters|metres|pieces|people|dollars|pounds|words|times|units|items|points|%))"),
    # "压岁钱的由来", "七夕节的起源": where a custom or a name comes from is its story; 起源 alone is also life's and
    # the universe's, so it counts only of a festival, a custom or a word
    ("humanities", "origin of a custom", 1.6, "", "的由来|的来历|的渊源",
     r"(?:节|习俗|风俗|传统|民俗|成语|俗语|说法|名字|叫法|称呼|地名)的?起源"),
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
     "what causes|difference between|what's the difference|whats the difference|what is the difference|"
     "what's the actual difference|whats the actual difference|define|definition of|in simple terms|eli5|like i'm five|like i'm 5|"
     "like i'm ten|like i'm 10|like i'm a child|like i'm a kid|like i'm a beginner|layman's terms|tell apart|"
     "tell them apart|tell the difference|id tips|identification tips|mix them up|mixing them up|distinguish",
     "为什么|为何|为啥|原理|是什么|什么是|区别|区分|分辨|解释|定义|怎么形成|如何形成|有什么不一样|有啥不一样|有什么不同|有啥不同|不一样在哪",
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
     "i miss|missing my|missing you|missing home|lonely|i hate|i love my|rough day|bad day|long day|tough day|vent|frustrated|upset|overwhelmed|burned out|"
     "burnt out|exhausted|heartbroken|homesick|cheer me up|need to talk|just want to talk|driving me nuts|"
     "driving me crazy|drives me crazy|so annoying|i keep|feeling down|a bit down|feeling low|can we talk|"
     "can we just talk|just talk|can't stop shaking|haha|lol|scared|freaking out|can't sleep|cant sleep|couldn't sleep|"
     "ugh|omg|sigh|yay|meh|lmao|lmfao|rofl|smh|worst day|best day|horrible day|terrible day|awful day|great day|crazy day|"
     "phew|whew|so relieved|finally done|finally finished|finally over|had to tell someone|had to tell somebody|"
     "just had to share|had to share",
     "哈哈|嘿嘿|呜呜|冷清|好冷清|孤单|空落落|想他们|想孩子|好想家|气死|气炸|好美|真美|太美了|好漂亮|好幸福|好困|好累|好烦|难过|伤心|开心|郁闷|焦虑|压力大|压力好大|压力很大|紧张|孤独|无聊|想哭|心情|失眠|陪我聊|聊会儿|聊聊天|"
     "舍不得|痛苦|崩溃|烦死|累死|困死|难受|好慌|慌|害怕|担心|激动|起不来|累瘫|累趴|松了一口气|终于搞定|终于忙完|终于弄完|"
     "终于做完|终于改完|终于写完|终于考完|高兴得|开心得|激动得|兴奋得|睡不着",
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
)
