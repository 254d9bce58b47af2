import Foundation

/// The texts of a new site (`orderpress init`): a configuration in which every key is explained,
/// sample data shaped like a Google Sheet export, and a note on what to edit first.
enum StarterFiles {
    static func configuration() -> String {
        #"""
        # OrderPress site configuration. Every path is relative to THIS file, so the site
        # (data, templates, output) stays inside this folder wherever you run `orderpress` from.
        # Build with `orderpress build` in this folder; preview with `orderpress serve`.
        # Unknown keys and wrong types are errors (exit 64) naming the key.

        title = "Friday tea run"              # the site's title, on every page and in the feed
        language = "en"                       # interface labels and <html lang>: en, zh-Hant, zh-Hans or ja
        base_currency = "TWD"                 # currency of a price when neither the row nor its group names one
        display_currencies = ["USD"]          # every total is also shown converted into these (ISO 4217 codes)
        timezone = "Asia/Taipei"              # how timestamps are shown (an IANA time zone name)
        templates = "templates"               # page templates and stylesheet; delete a file to use the built-in one
        # base_url = "https://tea.example.org/friday/"  # where the site is served; makes feed links absolute

        [output]
        markdown = "output/markdown"          # deterministic Markdown, meant to be committed and reviewed in git
        site = "output/site"                  # the HTML site: publish this folder (or point it at a web root)
        state = "output/state"                # snapshot, history, cached sources, lock: never publish this one

        [orders]
        # The sample orders, as a Google Sheet exports them (File > Download > CSV).
        # For the live sheet, replace `path` with the sheet itself, read from Google (free; see docs/):
        #   google_sheet = "https://docs.google.com/spreadsheets/d/XXXXXXXX/edit"  # its address or its id
        #   tab = "orders"                    # the tab's name as the sheet shows it
        #   credentials_env = "GOOGLE_APPLICATION_CREDENTIALS"  # variable holding the path of a service account's key file
        #   # api_key_env = "GOOGLE_API_KEY"  # or: an API key, for a sheet shared with anyone with the link
        # or with the SheetDB API of the orders tab:
        #   url = "https://sheetdb.io/api/v1/XXXXXXXX?sheet=orders&mode=UNFORMATTED_VALUE"
        #   token_env = "SHEETDB_TOKEN"       # bearer token read from this environment variable, never from this file
        path = "data/orders.csv"              # a local file: .csv with a header row, or .json in SheetDB's shape
        timeout_seconds = 30                  # per request to a url; retries stay within about 3 times this
        refresh_minutes = 0                   # reuse the cached copy of a url if fetched less than this many minutes ago
        page_size = 1000                      # rows per request when the sheet is read from a url
        # date_order = "dmy"                  # mdy | dmy | ymd: how the sheet writes dates as text (default: what its dates prove)
        # decimal_separator = ","             # "." (default) or ",": the decimal mark of numbers written as text

        [orders.columns]                      # the sheet's header for each field (these are the defaults)
        id = "id"                             # a stable id per row, so a deleted or edited order is recognised
        group = "group"                       # which group (tab "groups") the order belongs to
        person = "orderer"                    # who ordered; one page per person
        item = "drink"                        # what was ordered
        options = ["size", "sugar", "ice"]    # shown after the item: "2 × 珍珠奶茶 L 微糖 去冰"
        quantity = "quantity"                 # whole number from 1; an empty cell means 1
        price = "price"                       # unit price, a plain number ("35", "9.50", "1,200")
        currency = "currency"                 # empty cell: the group's currency, else base_currency
        time = "time"                         # when the order was placed
        note = "note"                         # free text shown with the order
        paid = "paid"                         # TRUE/FALSE: who has paid; pages show who still owes what to whom
        secret = ["editCode"]                 # columns that are never published and never stored in plain text
        # Any other column in the sheet is ignored, never published, and listed on the Attention page.

        [groups]
        # One row per group. For the live sheet: url = "https://sheetdb.io/api/v1/XXXXXXXX?sheet=groups"
        path = "data/groups.csv"              # without a [groups] table, groups are taken from the orders
        refresh_minutes = 0                   # groups rarely change: 60 saves requests when this is a url

        [groups.columns]
        name = "group"                        # the group's name, as the orders' group column spells it
        organizer = "organizer"               # who collects the money
        shop = "shop"                         # where the order goes
        currency = "currency"                 # the currency the shop prices in
        deadline = "deadline"                 # shown on the group page
        payment = "payment"                   # optional: how to pay the organiser, shown beside what each person owes
        fee = "fee"                           # optional: a delivery fee, split equally among the group's people
        discount = "discount"                 # optional: a discount, split in proportion to each person's subtotal

        [rates]
        # Sample exchange rates in the rter.info format. For live rates:
        #   url = "https://tw.rter.info/capi.php"   (format = "rter"), with refresh_minutes = 720
        path = "data/rates.json"              # or url = ...
        format = "rter"                       # rter | ecb | json
        max_age_hours = 48                    # older rates are flagged on every page

        [minor_units]                         # overrides of ISO 4217 minor units (decimal places)
        TWD = 0                               # nobody pays cents for tea

        [guard]
        max_deleted_fraction = 0.5            # publish nothing when more than half of last run's orders vanish at once
                                              # (an emptied or wrong sheet); `orderpress build --accept-deletions` overrides

        [git]
        commit = false                        # true: commit the Markdown folder after each build that changed it

        [rounds]
        close_after_deadline = true           # a group whose deadline has passed and whose orders are all cleared
                                              # is a finished round: archived (archive/<group>/<date>), not a mass deletion
        # organizer_settled = true            # the organiser's own orders count as paid (the default)
        # keep_unpaid_days = 90               # without [payments]: days a finished round's unpaid debts stay listed

        # [payments]                          # optional: where you record settle-ups of debts from finished rounds
        # path = "data/payments.csv"          # or url / google_sheet + tab, with the same keys as [orders]
        # [payments.columns]
        # person = "person"                   # who paid (matched like orderers: case, width and spaces aside)
        # amount = "amount"                   # how much
        # currency = "currency"               # optional: default the group's currency, else base_currency
        # group = "group"                     # optional: whose round it pays first
        # time = "time"                       # optional: when

        [notify]
        print = ["deleted", "rejected", "failing", "blocked"]  # the news `build --quiet` prints (cron mails it) and the webhook gets: [] for nothing
        # webhook_url_env = "ORDERPRESS_WEBHOOK"  # POST each run's news to the URL in this environment variable
        stale_after_minutes = 60              # pages say "not updated since …" once the sheet has failed, or the guard refused, this long

        """#
    }

    /// Eight orders in two groups, with the columns a Google Form feeding a sheet would give. `day`
    /// ("2026-11-21") is the day of `init`, so a new site's data is not dated in the past.
    static func orders(day: String) -> String {
        [
            "id,time,group,orderer,drink,size,sugar,ice,quantity,price,currency,note,paid,editCode",
            "1,\(day) 09:15:00,週五下午茶,Amy,熟成紅茶,L,半糖,少冰,1,35,,,TRUE,k3Xq9A",
            "2,\(day) 09:17:12,週五下午茶,Ben,珍珠奶茶,L,微糖,去冰,2,55,,\"no straw, please\",FALSE,p8Ze2B",
            "3,\(day) 09:21:40,週五下午茶,王小明,冬瓜檸檬,M,全糖,正常冰,1,40,,,TRUE,Rt5mW1",
            "4,\(day) 09:30:05,週五下午茶,Amy,四季春,L,無糖,少冰,1,30,,,FALSE,c2Lp7Q",
            "5,\(day) 09:32:51,週五下午茶,Carol,熟成紅茶,L,半糖,少冰,1,35,,,FALSE,Hv9sK3",
            "6,\(day) 10:02:19,Team lunch,Carol,Chicken curry,,,,1,9.50,,,FALSE,yT4nB6",
            "7,\(day) 10:05:44,Team lunch,Ben,Veggie wrap,,,,1,8.25,,extra sauce,TRUE,Ju2wX8",
            "8,\(day) 10:11:03,Team lunch,Dave,Chicken curry,,,,2,9.50,,,FALSE,Gm6rV0",
        ].joined(separator: "\n") + "\n"
    }

    static func groups(day: String) -> String {
        [
            "group,organizer,shop,currency,deadline,payment,fee,discount",
            "週五下午茶,王小明,春日茶屋,TWD,\(day) 14:00,LINE Pay: 王小明,,",
            "Team lunch,Carol,Curry Corner,USD,\(day) 11:30,Venmo @carol-lunch,3.00,",
        ].joined(separator: "\n") + "\n"
    }

    /// USD-based rates, as https://tw.rter.info/capi.php gives them, dated `timestamp` (UTC).
    static func rates(timestamp: String) -> String {
        """
        {
          "USDTWD": {"Exrate": 32.125, "UTC": "\(timestamp)"},
          "USDJPY": {"Exrate": 154.32, "UTC": "\(timestamp)"},
          "USDEUR": {"Exrate": 0.8612, "UTC": "\(timestamp)"},
          "USDUSD": {"Exrate": 1, "UTC": "\(timestamp)"}
        }

        """
    }

    static let readme = """
        A new OrderPress site
        =====================

        Build it and look at it:

            orderpress build          # writes output/markdown and output/site
            orderpress serve          # preview on http://127.0.0.1:8000/ (Ctrl-C stops)

        What to edit first, in this order:

        1. orderpress.toml: the title, language, base_currency and display_currencies.
        2. data/orders.csv and data/groups.csv are samples. Put your orders in a Google
           Sheet with the same header rows (one tab "orders", one tab "groups"), make a
           SheetDB API for it, and replace `path = ...` in [orders] and [groups] with
           `url = "https://sheetdb.io/api/v1/XXXXXXXX?sheet=orders&mode=UNFORMATTED_VALUE"`
           (and `?sheet=groups`). If the API has a token, `export SHEETDB_TOKEN=...` and
           uncomment `token_env`. Never write the token into orderpress.toml.
        3. data/rates.json holds sample exchange rates; for live ones set
           `url = "https://tw.rter.info/capi.php"` in [rates] and delete `path`.
        4. templates/ holds the page templates and the stylesheet. Change them if you like;
           delete a file to go back to the built-in version.

        Then run `orderpress check` to see every row the sheet gives and any it rejects,
        and `orderpress build` again. output/site is the site to publish; output/state is
        private (snapshot and caches) and must not be published.

        Run it every five minutes, from cron (`crontab -e`; cron mails what it prints,
        and with --quiet that is only news: a deleted order, a rejected row, a failure):

            SHEETDB_TOKEN=your-sheetdb-token
            */5 * * * * /usr/local/bin/orderpress build --quiet --config /path/to/orderpress.toml

        or with systemd: /etc/systemd/system/orderpress.service

            [Unit]
            Description=OrderPress: build the group-order site
            Wants=network-online.target
            After=network-online.target

            [Service]
            Type=oneshot
            User=tea
            # SHEETDB_TOKEN=... and ORDERPRESS_WEBHOOK=https://..., mode 0600
            EnvironmentFile=/etc/orderpress/tea.env
            ExecStart=/usr/local/bin/orderpress build --quiet --config /path/to/orderpress.toml

        and /etc/systemd/system/orderpress.timer

            [Unit]
            Description=Build the group-order site every 5 minutes

            [Timer]
            OnCalendar=*:0/5

            [Install]
            WantedBy=timers.target

        then `sudo systemctl daemon-reload && sudo systemctl enable --now orderpress.timer`.
        Under systemd what --quiet prints goes to the journal (`journalctl -u orderpress`),
        so set webhook_url_env in [notify] for the alerts.

        The full guide is the README of OrderPress, and `man orderpress`.

        """
}
