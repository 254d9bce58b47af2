/// The text of every `ReasonCode` in each language, as labels named `reason_<code>` (so `[labels]`
/// overrides them like any other label). `{name}` marks a value of the reason (a column, the cell as
/// written), put in escaped. The English rows say what the terminal says; the pages of an English site
/// show the reason's own English sentence unless `[labels]` overrides it.
enum ReasonCatalogue {
    /// The English text of each reason label, by key.
    static let english: [String: String] = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.en) })

    static let rows: [LabelCatalogue.Row] = [
        ("reason_separator", "; ", "；", "；", "。"),
        // Rejected rows on person and group pages
        ("not_counted", "Not counted", "未計入的訂單", "未计入的订单", "数えられていない注文"),
        ("rejected_line", "{item} ({group}, row {row}): {reasons} — not counted; fix it in the sheet or ask {organizer}", "{item}（{group}，第 {row} 列）：{reasons}——未計入；請在試算表中修正，或詢問{organizer}", "{item}（{group}，第 {row} 行）：{reasons}——未计入；请在表格中修正，或询问{organizer}", "{item}（{group}、{row} 行目）：{reasons}。数えられていません。シートで直すか、{organizer}に聞いてください"),
        ("group_rejected", "{count} rows of this group were rejected and are not counted.", "這個團購有 {count} 列資料被退回，未計入。", "这个团购有 {count} 行数据被退回，未计入。", "このグループの {count} 行が除外され、数えられていません。"),
        // A paid cell's value on the Changes page
        ("paid_yes", "paid", "已付", "已付", "支払済み"),
        ("paid_no", "unpaid", "未付", "未付", "未払い"),
        // An order placed after its group's deadline (group and person pages)
        ("late_mark", "⏰ late", "⏰ 逾時", "⏰ 逾时", "⏰ 締め切り後"),
        // The page of a person or group whose orders were all deleted (`Tombstones`)
        ("moved_notice", "This page was one spelling of a name that is now one person (case, width and spaces aside): their orders are on their page.", "這一頁原本是同一個名字的另一種寫法（不分大小寫、全半形與空格），現在合併為一人：訂單都在此人的頁面上。", "这一页原本是同一个名字的另一种写法（不分大小写、全半角与空格），现在合并为一人：订单都在此人的页面上。", "このページは同じ名前の別の書き方（大文字小文字・全角半角・空白の違い）でした。今は一人にまとめ、注文はその人のページにあります。"),
        ("tombstone_notice", "Every order on this page was deleted. The page stays until {date} so that links to it keep working.", "這一頁的訂單都已刪除。此頁保留到 {date}，連結在那之前仍可使用。", "这一页的订单都已删除。此页保留到 {date}，链接在那之前仍可使用。", "このページの注文はすべて削除されました。リンクが切れないよう、{date} まで残します。"),
        ("see_why", "See why", "查看原因", "查看原因", "理由を見る"),
        // Rejected rows
        ("reason_person_missing", "person is missing (column '{column}')", "缺少訂購人（欄位「{column}」）", "缺少订购人（列“{column}”）", "注文者がありません（列「{column}」）"),
        ("reason_item_missing", "item is missing (column '{column}')", "缺少品項（欄位「{column}」）", "缺少品项（列“{column}”）", "品目がありません（列「{column}」）"),
        ("reason_group_missing", "group is missing (column '{column}')", "缺少團購名稱（欄位「{column}」）", "缺少团购名称（列“{column}”）", "グループがありません（列「{column}」）"),
        ("reason_group_unknown", "unknown group '{group}'", "沒有「{group}」這個團購", "没有“{group}”这个团购", "グループ「{group}」はありません"),
        ("reason_price_missing", "price is missing (column '{column}')", "缺少價格（欄位「{column}」）", "缺少价格（列“{column}”）", "価格がありません（列「{column}」）"),
        ("reason_price_negative", "price must not be negative", "價格不可為負數", "价格不能为负数", "価格はマイナスにできません"),
        ("reason_price_too_long", "price '{value}' has more than 12 digits before the point or 6 after", "價格「{value}」整數超過 12 位或小數超過 6 位", "价格“{value}”整数超过 12 位或小数超过 6 位", "価格「{value}」は整数部が 12 桁か小数部が 6 桁を超えています"),
        ("reason_price_sheet_format", "price '{value}' is formatted as currency by the sheet; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers={column}, or write {number}", "價格「{value}」被試算表設成貨幣格式；請以 mode=UNFORMATTED_VALUE 或 cast_numbers={column} 讀取，或改寫為 {number}", "价格“{value}”被表格设成货币格式；请用 mode=UNFORMATTED_VALUE 或 cast_numbers={column} 读取，或改写为 {number}", "価格「{value}」はシートで通貨形式になっています。mode=UNFORMATTED_VALUE か cast_numbers={column} で読むか、{number} と書いてください"),
        ("reason_price_formatted", "price '{value}' is not a plain number; write {number} (the currency belongs in the currency column or the group)", "價格「{value}」不是單純的數字；請寫 {number}（幣別請填在幣別欄或團購）", "价格“{value}”不是单纯的数字；请写 {number}（币种请填在币种列或团购）", "価格「{value}」は数字だけではありません。{number} と書いてください（通貨は通貨列かグループへ）"),
        ("reason_price_not_number", "price '{value}' is not a number", "價格「{value}」不是數字", "价格“{value}”不是数字", "価格「{value}」は数値ではありません"),
        ("reason_quantity_invalid", "quantity must be a whole number from 1 to 10,000 (found '{value}')", "數量須為 1 到 10,000 的整數（填的是「{value}」）", "数量须为 1 到 10,000 的整数（填的是“{value}”）", "数量は 1〜10,000 の整数にしてください（「{value}」）"),
        ("reason_quantity_formatted", "quantity '{value}' is not a plain number; write {number}", "數量「{value}」不是單純的數字；請寫 {number}", "数量“{value}”不是单纯的数字；请写 {number}", "数量「{value}」は数字だけではありません。{number} と書いてください"),
        ("reason_currency_unknown", "unknown currency '{value}'", "不明的幣別「{value}」", "未知币种“{value}”", "不明な通貨「{value}」"),
        ("reason_currency_differs", "currency '{value}' differs from group '{group}' currency '{group_currency}'", "幣別「{value}」與團購「{group}」的幣別「{group_currency}」不同", "币种“{value}”与团购“{group}”的币种“{group_currency}”不同", "通貨「{value}」がグループ「{group}」の通貨「{group_currency}」と違います"),
        ("reason_row_shifted_extra", "its cells look shifted by one column from column '{column}' on, or earlier (a comma too many before it, or a line broken or cut short); none of its cells is shown; fix the row in the sheet", "這列的儲存格似乎從欄位「{column}」或更早起錯開一欄（前面多了逗號，或斷行、截斷）；不顯示其內容；請在試算表中修正", "这行的单元格似乎从列“{column}”或更早起错开一列（前面多了逗号，或断行、截断）；不显示其内容；请在表格中修正", "この行のセルは列「{column}」かそれ以前から 1 列ずれているようです（前にカンマが多い、または改行や途切れ）。内容は表示しません。シートで直してください"),
        ("reason_row_shifted_missing", "its cells look shifted by one column from column '{column}' on, or earlier (a comma missing before it, or a line broken or cut short); none of its cells is shown; fix the row in the sheet", "這列的儲存格似乎從欄位「{column}」或更早起錯開一欄（前面少了逗號，或斷行、截斷）；不顯示其內容；請在試算表中修正", "这行的单元格似乎从列“{column}”或更早起错开一列（前面少了逗号，或断行、截断）；不显示其内容；请在表格中修正", "この行のセルは列「{column}」かそれ以前から 1 列ずれているようです（前にカンマが足りない、または改行や途切れ）。内容は表示しません。シートで直してください"),
        ("reason_row_secret_shape", "its '{column}' cell is shaped like the '{secret}' cells beside it, as if the row's cells were shifted by one column; none of its cells is shown; fix the row in the sheet", "「{column}」欄的內容看起來像旁邊的「{secret}」欄，像是整列錯開了一欄；不顯示其內容；請在試算表中修正", "“{column}”列的内容看起来像旁边的“{secret}”列，像是整行错开了一列；不显示其内容；请在表格中修正", "「{column}」のセルが隣の「{secret}」のセルのような形で、行が 1 列ずれているようです。内容は表示しません。シートで直してください"),
        ("reason_row_fields", "has {count} fields but the header has {header_count}; its cells cannot be matched to columns", "有 {count} 個欄位，但標題列有 {header_count} 個；無法對應到欄位", "有 {count} 个字段，但标题行有 {header_count} 个；无法对应到列", "項目が {count} 個ありますが見出しは {header_count} 個です。列に対応づけられません"),
        ("reason_row_swallowed", "reads as one row across lines {first}–{last} of the file: a quoted cell holds line breaks followed by what look like whole rows, so a quote is probably stray or missing; fix the quotes (orders on those lines are not counted until then)", "檔案第 {first}–{last} 行被讀成一列：引號內的儲存格含有換行和看似整列的內容，可能多了或少了引號；請修正引號（修正前這幾行的訂單不計入）", "文件第 {first}–{last} 行被读成一行：引号内的单元格含有换行和看似整行的内容，可能多了或少了引号；请修正引号（修正前这几行的订单不计入）", "ファイルの {first}–{last} 行目が 1 行として読まれました。引用符の中に改行と行のような内容があり、引用符が多いか足りないようです。直すまでこれらの行の注文は数えません"),
        // Warnings about a row
        ("reason_time_unreadable", "time '{value}' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 09:15)", "時間「{value}」無法讀成日期時間，照原樣顯示（請寫成 2026-11-21 09:15）", "时间“{value}”无法读成日期时间，按原样显示（请写成 2026-11-21 09:15）", "時刻「{value}」は日時として読めないため、そのまま表示します（2026-11-21 09:15 のように書いてください）"),
        ("reason_person_too_long", "person longer than {limit} characters", "訂購人名稱超過 {limit} 個字", "订购人名称超过 {limit} 个字", "注文者名が {limit} 文字を超えています"),
        ("reason_item_too_long", "item longer than {limit} characters", "品項超過 {limit} 個字", "品项超过 {limit} 个字", "品目が {limit} 文字を超えています"),
        ("reason_note_too_long", "note longer than {limit} characters", "備註超過 {limit} 個字", "备注超过 {limit} 个字", "メモが {limit} 文字を超えています"),
        ("reason_option_too_long", "option longer than {limit} characters", "選項超過 {limit} 個字", "选项超过 {limit} 个字", "オプションが {limit} 文字を超えています"),
        ("reason_paid_unreadable", "{column} '{value}' is neither paid nor unpaid and counts as not paid; write yes or no", "{column}「{value}」看不出已付或未付，當作未付；請填「是」或「否」", "{column}“{value}”看不出已付或未付，按未付计；请填“是”或“否”", "{column}「{value}」は支払済みか未払いか分からないため未払いとします。「はい」か「いいえ」と書いてください"),
        ("reason_id_repeated", "id '{id}' is used by rows {rows}; they are matched by content instead", "編號「{id}」被第 {rows} 列重複使用；改以內容比對", "编号“{id}”被第 {rows} 行重复使用；改按内容比对", "ID「{id}」が {rows} 行目で重複しています。内容で照合します"),
        ("reason_row_repeated", "repeats row {previous}: the same answers sent {seconds} s later; if they were sent twice, delete one (both are counted)", "與第 {previous} 列的回答完全相同，{seconds} 秒後送出；若是重複送出，請刪除其中一列（目前兩列都計入）", "与第 {previous} 行的回答完全相同，{seconds} 秒后提交；若是重复提交，请删除其中一行（目前两行都计入）", "{previous} 行目と同じ回答が {seconds} 秒後に送られています。二重送信なら片方を削除してください（今は両方とも数えています）"),
        ("reason_person_spellings_merged", "{spellings} → one person (their rows are counted together, shown as '{name}')", "{spellings} → 同一人（合併計算，顯示為「{name}」）", "{spellings} → 同一人（合并计算，显示为“{name}”）", "{spellings} → 同じ人（まとめて数え、「{name}」と表示します）"),
        // Warnings about a source
        ("reason_deadline_unreadable", "groups row {row}: deadline '{value}' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 18:00)", "團購第 {row} 列：截止時間「{value}」無法讀成日期時間，照原樣顯示（請寫成 2026-11-21 18:00）", "团购第 {row} 行：截止时间“{value}”无法读成日期时间，按原样显示（请写成 2026-11-21 18:00）", "グループ {row} 行目：締め切り「{value}」は日時として読めないため、そのまま表示します（2026-11-21 18:00 のように書いてください）"),
        ("reason_group_amount_invalid", "groups row {row}: {column} '{value}' is not a non-negative number and counts as 0", "團購第 {row} 列：{column}「{value}」不是非負的數字，以 0 計算", "团购第 {row} 行：{column}“{value}”不是非负的数字，按 0 计算", "グループ {row} 行目：{column}「{value}」は 0 以上の数ではないため 0 として扱います"),
        ("reason_group_amount_percent", "groups row {row}: {column} '{value}' is a percentage and counts as 0; write the amount it takes off, in the group's currency", "團購第 {row} 列：{column}「{value}」是百分比，以 0 計算；請寫成要折抵的金額（團購的幣別）", "团购第 {row} 行：{column}“{value}”是百分比，按 0 计算；请写成要折抵的金额（团购的币种）", "グループ {row} 行目：{column}「{value}」は割合のため 0 として扱います。差し引く金額をグループの通貨で書いてください"),
        ("reason_group_amount_sheet_format", "groups row {row}: {column} '{value}' is formatted as currency by the sheet and counts as 0; read the groups sheet with mode=UNFORMATTED_VALUE or cast_numbers={column}, or write {number}", "團購第 {row} 列：{column}「{value}」被試算表設成貨幣格式，以 0 計算；請以 mode=UNFORMATTED_VALUE 或 cast_numbers={column} 讀取團購表，或改寫為 {number}", "团购第 {row} 行：{column}“{value}”被表格设成货币格式，按 0 计算；请用 mode=UNFORMATTED_VALUE 或 cast_numbers={column} 读取团购表，或改写为 {number}", "グループ {row} 行目：{column}「{value}」はシートで通貨形式になっているため 0 として扱います。mode=UNFORMATTED_VALUE か cast_numbers={column} でグループシートを読むか、{number} と書いてください"),
        ("reason_group_amount_formatted", "groups row {row}: {column} '{value}' is not a plain number (write {number}) and counts as 0", "團購第 {row} 列：{column}「{value}」不是單純的數字（請寫 {number}），以 0 計算", "团购第 {row} 行：{column}“{value}”不是单纯的数字（请写 {number}），按 0 计算", "グループ {row} 行目：{column}「{value}」は数字だけではないため 0 として扱います（{number} と書いてください）"),
        ("reason_group_nameless", "groups row {row} has no name and is ignored", "團購第 {row} 列沒有名稱，已略過", "团购第 {row} 行没有名称，已忽略", "グループ {row} 行目は名前がないため無視します"),
        ("reason_group_repeated", "groups row {row} repeats group '{group}' and is ignored", "團購第 {row} 列重複了團購「{group}」，已略過", "团购第 {row} 行重复了团购“{group}”，已忽略", "グループ {row} 行目は「{group}」の重複のため無視します"),
        ("reason_group_currency_unknown", "groups row {row}: unknown currency '{value}'; using {currency}", "團購第 {row} 列：不明的幣別「{value}」，改用 {currency}", "团购第 {row} 行：未知币种“{value}”，改用 {currency}", "グループ {row} 行目：不明な通貨「{value}」。{currency} を使います"),
        ("reason_organizer_unmatched", "group '{group}': organiser '{organizer}' is no one who ordered; did you mean '{suggestion}'?", "團購「{group}」：團主「{organizer}」不是任何點餐的人；是指「{suggestion}」嗎？", "团购“{group}”：团长“{organizer}”不是任何点餐的人；是指“{suggestion}”吗？", "グループ「{group}」：幹事「{organizer}」は注文した誰とも一致しません。「{suggestion}」のことですか？"),
        ("reason_source_row_fields", "{table} row {row} has {count} fields but the header has {header_count} and is ignored", "{table} 第 {row} 列有 {count} 個欄位，但標題列有 {header_count} 個，已略過", "{table} 第 {row} 行有 {count} 个字段，但标题行有 {header_count} 个，已忽略", "{table} の {row} 行目は項目が {count} 個で見出しは {header_count} 個のため無視します"),
        ("reason_source_row_swallowed", "{table} row {row} is ignored: it reads as one row across lines {first}–{last} of the file; fix the quotes", "{table} 第 {row} 列已略過：檔案第 {first}–{last} 行被讀成一列；請修正引號", "{table} 第 {row} 行已忽略：文件第 {first}–{last} 行被读成一行；请修正引号", "{table} の {row} 行目を無視します：ファイルの {first}–{last} 行目が 1 行として読まれました。引用符を直してください"),
        // A source's name in its reasons ("orders: column … is not mapped"): `{table}` is `orders` or `groups`.
        ("reason_table_orders", "orders", "訂單表", "订单表", "注文シート"),
        ("reason_table_groups", "groups", "團購表", "团购表", "グループシート"),
        ("reason_column_unmapped", "{table}: column '{column}' is not mapped in the configuration and is not published", "{table}：欄位「{column}」未在設定中對應，不會公開", "{table}：列“{column}”未在配置中对应，不会公开", "{table}：列「{column}」は設定に対応づけられていないため公開しません"),
        ("reason_column_repeated", "{table}: column '{column}' appears {count} times in the header; only the first is read", "{table}：欄位「{column}」在標題列出現 {count} 次；只讀第一個", "{table}：列“{column}”在标题行出现 {count} 次；只读第一个", "{table}：列「{column}」が見出しに {count} 回あります。最初のものだけを読みます"),
        ("reason_rates_ignored", "rates: ignored {bad_codes} entries with a currency that is not an ISO 4217 code and {bad_rates} with a rate that is not a number from 1e-9 to 1e9; check the feed", "匯率：略過 {bad_codes} 筆幣別不是 ISO 4217 代碼、{bad_rates} 筆匯率不在 1e-9 到 1e9 之間的資料；請檢查來源", "汇率：忽略 {bad_codes} 条币种不是 ISO 4217 代码、{bad_rates} 条汇率不在 1e-9 到 1e9 之间的数据；请检查来源", "為替レート：ISO 4217 でない通貨 {bad_codes} 件と、1e-9〜1e9 でないレート {bad_rates} 件を無視しました。配信元を確認してください"),
        ("reason_rates_from_cache", "{error}; using the rates fetched {time}", "{error}；改用 {time} 取得的匯率", "{error}；改用 {time} 获取的汇率", "{error}。{time} に取得したレートを使います"),
        ("reason_cache_not_saved", "{source}: no copy kept for --offline and outages: {error}", "{source}：未保留供 --offline 與斷線時使用的副本：{error}", "{source}：未保留供 --offline 与断线时使用的副本：{error}", "{source}：--offline や障害時のためのコピーを保存できませんでした：{error}"),
    ]
}
