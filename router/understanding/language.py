"""Which language a question is in, by the script that dominates it.

Only a text with both Chinese and Latin script needs counting; every other text is told by the first
script it shows. The large ranges compile on first use (``router.lazyre``).
"""

from __future__ import annotations

import re
from functools import cache

from router.lazyre import LazyPattern

CJK = LazyPattern(r"[\u3400-\u9fff\uf900-\ufaff]", ascii="")  # large ranges: router.lazyre
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = LazyPattern(r"[\uac00-\ud7af]", ascii="")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")

WORD_OR_HAN = LazyPattern(r"[a-z]+|[\u3400-\u9fff]", ascii=r"[a-z]+")
"""A lower-cased text's Latin words and single Han characters: the units the hashed vector and the word
fallback both read (Chinese has no spaces, so a character, or a pair of them, stands for a word)."""

_TRADITIONAL = (
    "個个 們们 這这 說说 時时 會会 來来 過过 還还 點点 嗎吗 麼么 幾几 號号 錢钱 價价 氣气 溫温 電电 話话 樣样 對对 現现 "
    "發发 開开 關关 學学 習习 問问 題题 體体 種种 從从 裡里 裏里 後后 東东 車车 長长 門门 間间 見见 覺觉 買买 賣卖 貴贵 實实 寫写 "
    "讀读 聽听 讓让 給给 為为 爲为 無无 愛爱 應应 該该 變变 與与 國国 達达 運运 動动 經经 濟济 場场 報报 紙纸 網网 絡络 線线 級级 "
    "總总 計计 劃划 認认 識识 頭头 臉脸 醫医 療疗 藥药 歲岁 萬万 億亿 兩两 歡欢 樂乐 邊边 遠远 進进 週周 當当 備备 準准 數数 據据 "
    "務务 員员 課课 試试 請请 謝谢 麗丽 灣湾 臺台 颱台 風风 雲云 陽阳 陰阴 華华 飛飞 機机 鐵铁 貨货 幣币 匯汇 漲涨 銀银 戶户 帳账 "
    "單单 費费 稅税 險险 貸贷 額额 證证 圖图 書书 館馆 園园 戲戏 劇剧 視视 聞闻 訊讯 熱热 誰谁 論论 鐘钟 鍾钟 蘋苹 隻只 廳厅 區区 "
    "縣县 雞鸡 籠笼 腳脚 圓圆 積积 幫帮 麵面 飯饭 廣广 廈厦 鄉乡 寧宁 漢汉 語语 譯译 詞词 義义 夠够 師师 張张 陳陈 楊杨 黃黄 劉刘 "
    "趙赵 吳吴 壓压 鉀钾 處处 護护 診诊 練练 遊游 導导 購购 訂订 貼贴 標标 籤签 錯错 設设 權权 衛卫 讚赞 獎奖 勵励 況况 歷历 傳传 "
    "統统 輕轻 鬆松 緊紧 壞坏 舊旧 簡简 態态 節节 慶庆 紀纪 專专 業业 職职 辦办 軟软 碼码 腦脑 檔档 雜杂 質质 測测 驗验 結结 構构 "
    "優优 選选 擇择 換换 轉转 彎弯 濕湿 霧雾 陣阵 颳刮 預预 鬧闹 約约 議议 聯联 繫系 係系 紅红 綠绿 藍蓝 顏颜 財财 寶宝 貝贝 "
    "負负 責责 賬账 資资 產产 營营 銷销 鋪铺 廠厂 農农 獲获 勝胜 敗败 賽赛 隊队 籃篮 爭争 戰战 擊击 槍枪 彈弹 鏈链 儲储 "
    "龍龙 鳳凤 馬马 魚鱼 鳥鸟 貓猫 豬猪 條条 塊块 層层 樓楼 燈灯 鍋锅 頓顿 飲饮 蘭兰 聲声 響响 幹干"
)
"""Common traditional characters and their simplified forms (pairs): the cue tables are written in simplified
Chinese, and a question typed in Taiwan or Hong Kong asks for the same kinds of work."""


@cache
def _simplified_table() -> dict[int, str]:
    return {ord(pair[0]): pair[1] for pair in _TRADITIONAL.split()}


def to_simplified(text: str) -> str:
    """``text`` with its common traditional characters written in simplified form (other characters unchanged)."""
    return text.translate(_simplified_table())


def detect_language(text: str) -> str:
    """ISO 639-1 code of the script that dominates: zh, ja, ko, ru, else en for Latin text."""
    return script_language(text, CJK.search(text) is not None)


def script_language(text: str, has_cjk: bool) -> str:
    """``detect_language`` told whether there is Chinese script: only a text with both scripts needs counting."""
    if not has_cjk:
        if _KANA.search(text) or _HANGUL.search(text):
            return "ja" if _KANA.search(text) else "ko"
        if _CYRILLIC.search(text) and not _LATIN_WORD.search(text):
            return "ru"
        return "en"
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    cjk = len(CJK.findall(text))
    words = len(_LATIN_WORD.findall(text))
    if cjk and cjk >= words:
        return "zh"
    if not words and _CYRILLIC.search(text):
        return "ru"
    return "en"


__all__ = ["CJK", "WORD_OR_HAN", "detect_language", "script_language", "to_simplified"]
