//! The extractor on the forms issue 3 lists: numbers, scales, words, fractions, ranges,
//! conditions, units and currencies, and what must not come out as a measurement.

use tally_text::quantity::NumberKind;
use tally_text::{extract, Change, Quantity, Value};

/// (value, unit name or "-", change) of every counted quantity (ordinals and multipliers left out).
fn read(text: &str) -> Vec<(String, String, &'static str)> {
    extract(text)
        .into_iter()
        .filter(|q| matches!(q.kind, NumberKind::Cardinal | NumberKind::Fraction))
        .map(|q| (value(&q), unit(&q), q.change.symbol()))
        .collect()
}

fn value(q: &Quantity) -> String {
    match q.value {
        Value::Single(v) => format!("{v}"),
        Value::Range { from, to } => format!("{from}..{to}"),
    }
}

fn unit(q: &Quantity) -> String {
    q.unit.as_ref().map_or("-".into(), |u| u.name.clone())
}

fn one(text: &str) -> (String, String, &'static str) {
    let found = read(text);
    assert_eq!(found.len(), 1, "{text}: {found:?}");
    found.into_iter().next().unwrap()
}

fn values(text: &str) -> Vec<String> {
    read(text).into_iter().map(|(v, _, _)| v).collect()
}

#[test]
fn digits_separators_signs_and_scientific_notation() {
    assert_eq!(values("It weighs 1,200.5 kg."), ["1200.5"]);
    assert_eq!(values("a crowd of 6 000 people"), ["6000"]);
    assert_eq!(values("the low was -5 degrees"), ["-5"]);
    assert_eq!(values("about 1.5e6 cells"), ["1500000"]);
    assert_eq!(values("a speed of 3 × 10^8 m/s"), ["300000000"]);
    assert_eq!(values("a .500 record"), ["0.5"]);
}

#[test]
fn scale_words_and_suffixes() {
    assert_eq!(
        one("with 138k followers"),
        ("138000".into(), "follower".into(), "=")
    );
    assert_eq!(values("a 2.5bn deal"), ["2500000000"]);
    assert_eq!(
        one("it raised $300 million"),
        ("300000000".into(), "dollar".into(), "=")
    );
    assert_eq!(values("debt of 1.2 trillion"), ["1200000000000"]);
    assert_eq!(values("a price of 3 lakh rupees"), ["300000"]);
    assert_eq!(one("a $5m budget").1, "dollar");
    assert_eq!(values("a $5m budget"), ["5000000"]);
    assert_eq!(
        one("a 5m drop").1,
        "metre",
        "without a currency, m is metres"
    );
}

#[test]
fn number_words() {
    assert_eq!(values("seventeen people"), ["17"]);
    assert_eq!(values("two hundred and five pages"), ["205"]);
    assert_eq!(values("twenty-five thousand fans"), ["25000"]);
    assert_eq!(values("a dozen eggs"), ["12"]);
    assert_eq!(values("half a million people"), ["500000"]);
    assert_eq!(values("one and a half hours"), ["1.5"]);
    assert_eq!(values("two thirds of voters"), [format!("{}", 2.0 / 3.0)]);
    let twice = extract("she scored twice");
    assert_eq!(twice.len(), 1);
    assert_eq!(twice[0].kind, NumberKind::Multiplier);
    assert_eq!(twice[0].value, Value::Single(2.0));
}

#[test]
fn fold_words_are_multipliers() {
    for (text, n) in [
        ("profits grew threefold", 3.0),
        ("a ten-fold rise in cases", 10.0),
        ("output rose twentyfold", 20.0),
        ("a hundredfold increase", 100.0),
        ("a 3-fold rise", 3.0),
        ("sales rose 2.5 fold", 2.5),
    ] {
        let found = extract(text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert_eq!(found[0].kind, NumberKind::Multiplier, "{text}");
        assert_eq!(found[0].value, Value::Single(n), "{text}");
    }
    // Words that end in "fold" without a number.
    for text in [
        "the problems are manifold",
        "a scaffold went up",
        "the fold of a map",
    ] {
        assert!(extract(text).is_empty(), "{text}");
    }
}

#[test]
fn ordinals_are_kept_apart_from_counts() {
    let found = extract("the 22nd amendment and the third season");
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|q| q.kind == NumberKind::Ordinal));
    assert!(read("the 22nd amendment and the third season").is_empty());
}

#[test]
fn fractions_and_percentages() {
    assert_eq!(values("3/4 of the vote"), ["0.75"]);
    assert_eq!(one("a rise of 40 %").1, "percent");
    assert_eq!(one("inflation of 2.1 per cent").1, "percent");
    assert_eq!(
        values("a third of those screened"),
        [format!("{}", 1.0 / 3.0)]
    );
}

#[test]
fn ranges() {
    assert_eq!(
        one("between 50 and 60 km"),
        ("50..60".into(), "kilometre".into(), "=")
    );
    assert_eq!(one("50-60 km"), ("50..60".into(), "kilometre".into(), "="));
    assert_eq!(
        one("from 5 to 10 kg"),
        ("5..10".into(), "kilogram".into(), "=")
    );
    assert_eq!(
        one("between 1 and 5 billion dollars").0,
        "1000000000..5000000000"
    );
    assert_eq!(one("millions of Americans").0, "1000000..10000000");
}

#[test]
fn conditions_before_and_after() {
    let change = |text: &str| one(text).2;
    assert_eq!(change("about 35 miles"), "~");
    assert_eq!(change("nearly 78,000 times"), "~");
    assert_eq!(change("more than 300 hp"), ">");
    assert_eq!(change("at least 128 GB"), ">=");
    assert_eq!(change("up to 400 jobs"), "<=");
    assert_eq!(change("under $10"), "<");
    assert_eq!(change("below 5 degrees"), "<");
    assert_eq!(change("no more than 5 kg"), "<=");
    assert_eq!(change("50 people or more"), ">=");
    assert_eq!(change("shares rose 6.5%"), "up");
    assert_eq!(change("exports dropped 7%"), "down");
    assert_eq!(change("the defense gave up 517 yards"), "=");
    // A restated quantity shares the condition: "more than 100 kilometers (60 miles)".
    let both = read("moths can fly more than 100 kilometers (60 miles)");
    assert_eq!(both[1], ("60".into(), "mile".into(), ">"));
}

#[test]
fn units_and_compound_units() {
    assert_eq!(one("87 mph").1, "mile per hour");
    assert_eq!(one("140 km/h").1, "kilometre per hour");
    assert_eq!(one("30 miles per gallon").1, "mile per gallon");
    assert_eq!(one("$1.34 per share").1, "dollar per share");
    assert_eq!(one("a $3500 a month mortgage").1, "dollar per month");
    assert_eq!(one("275 pound-feet of torque").1, "pound-foot");
    assert_eq!(one("a 3-inch screen").1, "inch");
    assert_eq!(one("a 15 year-old student").1, "year");
    assert_eq!(one("the weight is 20 (kg)").1, "kilogram");
    assert_eq!(
        one("it cost thirteen dollars and forty-five cents").0,
        "13.45"
    );
    assert_eq!(
        one("he is 6 ft 2 in tall").0,
        format!("{}", 6.0 + 2.0 / 12.0)
    );
}

#[test]
fn currencies_with_symbols_and_codes() {
    let currency = |text: &str| -> String {
        let q = &extract(text)[0];
        q.unit
            .as_ref()
            .and_then(|u| u.unit_id.clone())
            .unwrap_or_default()
    };
    assert_eq!(currency("$5"), "usd");
    assert_eq!(currency("US$5"), "usd");
    assert_eq!(currency("US $58.24"), "usd");
    assert_eq!(currency("HK$10.05 billion"), "hkd");
    assert_eq!(currency("€200"), "eur");
    assert_eq!(currency("£60,000"), "gbp");
    assert_eq!(currency("¥1000"), "jpy");
    assert_eq!(currency("USD 5"), "usd");
    assert_eq!(currency("EUR 30"), "eur");
    assert_eq!(currency("Rs. 500"), "inr");
    assert_eq!(currency("10.5 million Australian dollars"), "aud");
}

#[test]
fn ambiguous_units_follow_the_context() {
    let id = |text: &str| -> String {
        let q = &read_all(text)[0];
        q.unit
            .as_ref()
            .and_then(|u| u.unit_id.clone())
            .unwrap_or_default()
    };
    assert_eq!(id("it was 40 C in the shade"), "celsius");
    assert_eq!(id("a charge of 5 C on the capacitor"), "coulomb");
    assert_eq!(id("he sold it for 40 pounds, a fair price"), "gbp");
    assert_eq!(id("the baby weighs 8 pounds"), "pound");
    assert_eq!(id("a 3 million pounds deal"), "gbp");
    assert_eq!(id("37.5 degrees of approach angle"), "degree_angle");
    assert_eq!(id("temperatures of 40 degrees Fahrenheit"), "fahrenheit");
    assert_eq!(id("a 5 m wall"), "metre");
    assert_eq!(id("Britain can borrow at 1.38pc"), "percent");
}

fn read_all(text: &str) -> Vec<Quantity> {
    extract(text)
}

#[test]
fn dates_years_times_phones_and_versions_are_not_measurements() {
    for text in [
        "She died on September 8 in Dar es Salaam.",
        "Brexit is due on March 29.",
        "It was founded in 1988.",
        "the 1988 horror film",
        "during the 1990s",
        "on 12/05/2020 and 2020-05-12",
        "the meeting is at 10:30",
        "he arrived at 5pm, she at 11 a.m.",
        "call 555-1234 or (555) 123-4567 or +44 20 7946 0958",
        "the new iPhone 11 runs iOS 13.2.1",
        "an upgrade to Windows 10",
        "COVID-19 spread",
        "the PS5 and the F-150",
        "the S&P 500 index",
        "Section 427 Row 21",
        "a 5G network",
    ] {
        assert!(read(text).is_empty(), "{text}: {:?}", read(text));
    }
    // Years with a unit or count are quantities.
    assert_eq!(values("more than 2000 people"), ["2000"]);
    assert_eq!(values("the 1000 hp barrier"), ["1000"]);
    assert_eq!(values("an average of 1500."), ["1500"]);
}

#[test]
fn spans_cover_value_and_unit() {
    let text = "prices of about US $58.24 per barrel";
    let q = &extract(text)[0];
    assert_eq!(&text[q.span.clone()], "US $58.24 per barrel");
    assert_eq!(q.change, Change::Approx);
}

#[test]
fn overflow_is_flagged_not_wrong() {
    let q = &extract("a value of 1e999 units")[0];
    assert!(q.overflow);
    assert_eq!(q.value, Value::Single(f64::INFINITY));
    let q = &extract("999999999999999999999999 km")[0];
    assert!(!q.overflow);
    assert!((q.value.low() - 1e24).abs() / 1e24 < 1e-12);
}

/// Issue 19's failure classes on unseen news text, each with sentences written for the test.
#[test]
fn range_ends_keep_their_own_scale_and_movements_are_marked() {
    assert_eq!(
        one("Houses sell for $700,000 to $2.4 million in the area."),
        ("700000..2400000".into(), "dollar".into(), "=")
    );
    assert_eq!(
        values("a deal worth $2 to 3 billion"),
        ["2000000000..3000000000"]
    );
    assert_eq!(
        values("costs fell from 3 to 2 million"),
        ["3000000..2000000"]
    );
    assert_eq!(
        one("Shares fell from $61 to $48.20 on Monday."),
        ("61..48.2".into(), "dollar".into(), "down")
    );
    assert_eq!(one("Output rose from 5 to 7 tonnes.").2, "up");
    // A particle, not a movement.
    assert_eq!(one("He gave up from 2 to 3 yards.").2, "=");
}

#[test]
fn match_scores_are_not_quantities() {
    assert!(read("The match ended in a 3-3 draw.").is_empty());
    assert!(read("They won 2-1 at home.").is_empty());
    assert!(read("The tie ended 2-2 on aggregate.").is_empty());
    // Without a word of a match result, a dashed pair stays a range.
    assert_eq!(values("a 4-6 week trip"), ["4..6"]);
}

#[test]
fn ages_are_years_of_age() {
    for text in [
        "Ms Ortiz, 52, said the plan would fail.",
        "Nick Hague 52 has spent the night in space.",
        "He was aged 52 at the time.",
        "At the age of 52 he left.",
        "Her daughter Maria who was 52.",
    ] {
        assert_eq!(one(text), ("52".into(), "year".into(), "="), "{text}");
    }
    assert_eq!(one("Voters aged 25 to 40 backed it.").0, "25..40");
    assert_eq!(one("Voters aged 25 to 40 backed it.").1, "year");
    // A model number after a name is still not an age.
    assert!(read("The iPhone 11 has a new camera.").is_empty());
    // Other bare numbers after a comma are not ages.
    assert_eq!(one("On Monday, 52 people came.").1, "people");
}

#[test]
fn clock_times_list_markers_and_categories_are_not_quantities() {
    assert!(read("Trading opened at 0930 GMT.").is_empty());
    assert!(read("The index closed at 1600 local time.").is_empty());
    assert!(read("The rules are listed in (3) below.").is_empty());
    assert!(read("A category 3 storm hit the coast.").is_empty());
    assert!(read("She wears size 10 shoes.").is_empty());
    assert!(read("He has stage 4 cancer.").is_empty());
}

#[test]
fn signs_scale_suffixes_and_prices_per_unit() {
    assert_eq!(one("It was minus-3 degrees overnight.").0, "-3");
    assert_eq!(one("It was minus 3 degrees overnight.").0, "-3");
    assert_eq!(
        one("The loss was $-12.4m."),
        ("-12400000".into(), "dollar".into(), "=")
    );
    assert_eq!(one("The yen was -0.4% against the dollar.").2, "down");
    assert_eq!(one("Stocks gained +2.3% on the day.").2, "up");
    assert_eq!(one("Output rose to 2.5m barrels a day.").0, "2500000");
    assert_eq!(one("The app has 7 B users.").0, "7000000000");
    assert_eq!(one("The app has 7bn users.").0, "7000000000");
    // A distance stays a distance.
    assert_eq!(one("He won the 100m hurdles.").1, "metre");
    assert_eq!(
        one("Iron ore sold at $64 a tonne."),
        ("64".into(), "dollar per tonne".into(), "=")
    );
    // "a year earlier" says when, not how often.
    assert_eq!(one("Sales were $5 a year earlier.").1, "dollar");
}

#[test]
fn a_singular_noun_before_another_is_what_the_number_counts() {
    assert_eq!(one("It is a 12 page document.").1, "page");
    assert_eq!(one("a turbocharged 3 cylinder engine").1, "cylinder");
    // A plural head noun is the counted thing; "police" stays "police".
    assert_eq!(one("two police officers were hurt").1, "police officer");
    assert_eq!(one("He sold 73 songs.").1, "song");
}

#[test]
fn news_wire_currencies_and_counts_per_event() {
    assert_eq!(
        one("The rand traded at R15.20 on Friday."),
        ("15.2".into(), "rand".into(), "=")
    );
    // The letter alone is not a currency: "R2" is a name.
    assert!(read("The R2 droid came back.").is_empty());
    assert_eq!(
        one("The fund raised 50 million sterling.").1,
        "pound sterling"
    );
    assert_eq!(
        one("He averaged 25.3 points per game."),
        ("25.3".into(), "point per game".into(), "=")
    );
    assert_eq!(one("He grabbed 7 rebounds a game.").1, "rebound per game");
    // "a" before an ordinary noun is not a rate.
    assert_eq!(one("He scored 3 goals a minute later.").1, "goal");
}

#[test]
fn hyphenated_scales_and_cents_written_c() {
    assert_eq!(
        one("They paid $5.5-million for the house."),
        ("5500000".into(), "dollar".into(), "=")
    );
    assert_eq!(one("a 2-billion budget").0, "2000000000");
    // "c" is a cent where the text is about money, else Celsius; spaced it is neither.
    assert_eq!(one("Shares closed at 45c.").1, "cent");
    assert_eq!(one("It was 45c in Perth.").1, "degree celsius");
    assert_eq!(one("A 3c rise in the price of petrol.").1, "cent");
}

#[test]
fn dotted_abbreviations_read_as_their_symbols() {
    // Style guides write symbols with full stops; the letters without them are the symbol.
    assert_eq!(
        one("The car reached 120 k.p.h. on the track."),
        ("120".into(), "kilometre per hour".into(), "=")
    );
    assert_eq!(
        one("It was doing 70 m.p.h. when it crashed").1,
        "mile per hour"
    );
    assert_eq!(one("a 250 c.c. engine").1, "cubic centimetre");
    // Times of day are not picometres, and one dotted letter is not a unit.
    for text in [
        "Trains leave at 5 p.m. every day.",
        "The shop opens at 9 a.m. on Sundays.",
    ] {
        let units: Vec<String> = read(text).into_iter().map(|(_, u, _)| u).collect();
        assert!(
            !units.iter().any(|u| u.ends_with("metre")),
            "{text}: {units:?}"
        );
    }
}

#[test]
fn movements_and_levels_from_the_verb_and_the_sign() {
    // A verb of movement makes the amount a change ("rose 3%"); with "to" the number is the new
    // level ("rose to $45"). Written for issue 34 from how news reports movements.
    let changes =
        |text: &str| -> Vec<&'static str> { read(text).into_iter().map(|(_, _, c)| c).collect() };
    for (text, expected) in [
        ("Shares rose 3% on Monday.", vec!["up"]),
        ("Shares rose to $45 on Monday.", vec!["="]),
        ("Profit fell 12% to $3 billion.", vec!["down", "="]),
        ("Sales dropped by 2 million units.", vec!["down"]),
        ("The index was down 0.5%.", vec!["down"]),
        ("Unemployment climbed to 4.1%.", vec!["="]),
        ("Inflation eased to 2.9% in May.", vec!["="]),
        ("Revenue jumped 20 percent.", vec!["up"]),
        ("Costs increased by $5 million.", vec!["up"]),
        ("The stock slid 7%.", vec!["down"]),
        ("Prices are up 4% from a year ago.", vec!["up"]),
        ("The price was cut by 10%.", vec!["down"]),
        ("Oil gained $1.20 a barrel.", vec!["up"]),
        ("Net income plunged 45%.", vec!["down"]),
        ("Stocks rose +0.4% today.", vec!["up"]),
        ("The rate stayed at 5%.", vec!["="]),
        ("Roughly $2 billion was spent.", vec!["~"]),
        ("Fewer than 20 remained.", vec!["<"]),
    ] {
        assert_eq!(changes(text), expected, "{text}");
    }
}

/// A number that borrows the currency of the next ("30 and £115") keeps its own place: its span
/// starts at its own digits, never after its end (this once cut the text backwards).
#[test]
fn a_borrowed_currency_leaves_the_span_where_the_number_is() {
    for text in [
        "Prices start at £70 for adults, £45 for people under 30 and £115 for families.",
        "under 30 and £115",
        "between 30 and £115",
    ] {
        for q in extract(text) {
            assert!(
                q.span.start < q.span.end && text.get(q.span.clone()).is_some(),
                "{text}: {:?}",
                q.span
            );
            let surface = &text[q.span.clone()];
            assert!(
                surface.chars().any(|c| c.is_ascii_digit()),
                "{text}: «{surface}»"
            );
        }
    }
}

/// Unit names of five words and possessive names are read whole (the collection's names).
#[test]
fn long_unit_names_are_read_whole() {
    assert_eq!(
        one("The fine was 85,421 Bosnia and Herzegovina convertible marks."),
        (
            "85421".into(),
            "Bosnia and Herzegovina convertible mark".into(),
            "="
        )
    );
    // The UK chain is Tally's (international) chain, under the collection's name.
    assert_eq!(one("a run of 12 UK gunter's chains").1, "chain");
}

/// A whole number with "and a half", "and a quarter", "and three quarters" after it, in digits
/// or in words.
#[test]
fn and_a_fraction_adds_to_the_whole_number() {
    assert_eq!(one("a payment of 3 and a half dollars").0, "3.5");
    assert_eq!(
        one("six and a quarter miles"),
        ("6.25".into(), "mile".into(), "=")
    );
    assert_eq!(one("It lasted 2 and three quarters hours.").0, "2.75");
    assert_eq!(one("two and one-half years").0, "2.5");
    assert_eq!(one("one and a half million people").0, "1500000");
    assert_eq!(one("3 and a half million tonnes").0, "3500000");
    // Not a fraction: a second count, a plural after "a", or a share of something else.
    assert_eq!(values("3 and a dog"), ["3"]);
    assert_eq!(
        values("killed between 2013-2019 and one third were black"),
        ["0.3333333333333333"]
    );
    assert_eq!(
        values("half the coaches are younger than 50 and a third of them are 45"),
        ["50", "0.3333333333333333", "45"]
    );
    assert_eq!(values("5 and two apples"), ["5", "2"]);
}

/// Currency subunits count in their currency: kopecks, paise, satoshis, euro cents.
#[test]
fn currency_subunits_are_money() {
    for (text, unit) in [
        ("It cost 5 kopecks.", "kopeck"),
        ("a fee of 50 paise", "paisa"),
        ("He sent 300 satoshis.", "satoshi"),
        ("The stamp costs 80 euro cents.", "euro cent"),
    ] {
        let found = extract(text);
        assert_eq!(found.len(), 1, "{text}");
        let read = found[0].unit.as_ref().expect(text);
        assert_eq!(
            (read.name.as_str(), read.dimension.as_deref()),
            (unit, Some("currency"))
        );
    }
}

/// Movements read from the verb before the number, written sentences: verbs of markets, and the
/// level a movement reached ("edged up to") read as "rose to" is, a value rather than a bound.
#[test]
fn market_verbs_give_the_direction() {
    assert_eq!(one("The yen weakened 0.5% against the dollar.").2, "down");
    assert_eq!(one("The euro strengthened 0.3% on Friday.").2, "up");
    assert_eq!(one("Shares rebounded 4% after the report.").2, "up");
    assert_eq!(one("Unemployment edged up to 4.1% in May.").2, "=");
    assert_eq!(one("Unemployment edged up 0.1 points.").2, "up");
    assert_eq!(one("Tickets cost up to $40.").2, "<=");
}

/// A currency's sign right before an amount of money is the currency, even where the same
/// letters after a number would be a word or another unit recased: "KM 82,000" is the
/// convertible mark; "82 KM", a "CF 303 form" and an "MT6752 chipset" are not money.
#[test]
fn currency_signs_before_an_amount() {
    assert_eq!(
        one("The fine was KM 82,000 in total.").1,
        "Bosnia and Herzegovina convertible mark"
    );
    for code in ["Complete a CF 303 form.", "the Mediatek MT6752 chipset"] {
        assert!(
            extract(code).iter().all(|q| q.unit.is_none()),
            "{code}: {:?}",
            read(code)
        );
    }
    assert!(!one("The road ends after 82 KM.").1.contains("mark"));
    assert_eq!(one("Aid reached CF 7.9 billion.").2, "=");
    assert!(unit(&extract("Aid reached CF 7.9 billion.")[0]).contains("franc"));
}

/// A scale's abbreviation in capitals counts money only: "$5 BN" is five billion dollars, while
/// "28,638 TN" and "71,907 MN" are not trillions and millions.
#[test]
fn capital_scale_abbreviations_count_money_only() {
    assert_eq!(one("The deal is worth $5 BN.").0, "5000000000");
    assert_eq!(one("They raised USD 3 MN last year.").0, "3000000");
    assert_eq!(
        values("The report lists 28,638 TN for the quarter."),
        ["28638"]
    );
    assert_eq!(values("It was 71,907 MN in total."), ["71907"]);
    assert_eq!(one("Profit reached 2.5 bn.").0, "2500000000");
}

// ----- issue 50: quantities read whole ---------------------------------------------------------

#[test]
fn a_country_mark_after_the_dollar_sign_names_the_currency() {
    assert_eq!(
        one("The council paid $NZ 12m for the land."),
        ("12000000".into(), "new zealand dollar".into(), "=")
    );
    assert_eq!(one("Revenue was $A 40 million.").1, "australian dollar");
    // Without a mark, the sign alone is still a dollar.
    assert_eq!(one("It cost $4m.").1, "dollar");
}

#[test]
fn a_rate_reads_across_what_is_measured_and_a_bracketed_conversion() {
    assert_eq!(
        one("The well yields 300 litres of oil per hour."),
        ("300".into(), "litre per hour".into(), "=")
    );
    assert_eq!(
        one("The smelter ships 80 tonnes of copper each day.").1,
        "tonne per day"
    );
    assert_eq!(
        read("The bank paid SEK 4 (US$0.38) per share."),
        [
            ("4".into(), "swedish krona per share".into(), "="),
            ("0.38".into(), "dollar per share".into(), "="),
        ]
    );
    // "of" without a rate after it leaves the unit alone.
    assert_eq!(one("It holds 300 litres of oil.").1, "litre");
    // A time that says when is not a rate.
    assert_eq!(
        one("They moved 80 tonnes of copper a year earlier.").1,
        "tonne"
    );
}

#[test]
fn a_range_end_with_its_own_sign_keeps_its_amount() {
    assert_eq!(
        values("Grants run from €200 to €1.5 million."),
        ["200..1500000"]
    );
    // An end with no sign or scale takes the other's.
    assert_eq!(
        values("between 4 and 5 billion dollars"),
        ["4000000000..5000000000"]
    );
    // Two ends close in size share the scale even with a sign each.
    assert_eq!(
        values("it could fetch $6 to $8 million"),
        ["6000000..8000000"]
    );
}

#[test]
fn squares_and_cubes_written_plainly_and_spelled_decimals() {
    assert_eq!(one("a 90 m2 apartment").1, "square metre");
    assert_eq!(one("an engine of 1600 cm3").1, "cubic centimetre");
    assert_eq!(
        one("The beam is four point seven metres long."),
        ("4.7".into(), "metre".into(), "=")
    );
    // A code with digits glued to letters is still not a quantity.
    assert!(read("Model 24703 m212 ships today.").is_empty());
}

#[test]
fn tonnes_and_hectares_by_their_symbols() {
    assert_eq!(
        one("The crane lifts 250 t."),
        ("250".into(), "tonne".into(), "=")
    );
    assert_eq!(one("They farm 120 ha of wheat.").1, "hectare");
    // Followed by another word, "t" is not read as a tonne.
    assert!(read("She bought 3 t shirts")
        .iter()
        .all(|(_, unit, _)| unit != "tonne"));
}

#[test]
fn market_verbs_move_and_the_level_reached_is_a_value() {
    assert_eq!(
        read("The Hang Seng added 1.4% to finish at 17,250."),
        [
            ("1.4".into(), "percent".into(), "up"),
            ("17250".into(), "-".into(), "="),
        ]
    );
    assert_eq!(one("The rand was sliding 0.6% on Tuesday.").2, "down");
    assert_eq!(
        read("Markets: Kospi -0.9%, ASX +0.3%"),
        [
            ("-0.9".into(), "percent".into(), "down"),
            ("0.3".into(), "percent".into(), "up"),
        ]
    );
    // "went from … to …" moves the way the values go.
    assert_eq!(
        one("She went from 90 kilos to 82."),
        ("90..82".into(), "kilogram".into(), "down")
    );
    assert_eq!(one("Attendance went from 400 to 650 people.").2, "up");
}

#[test]
fn ascii_stand_ins_for_pound_and_yen_before_money() {
    assert_eq!(
        one("The chairman's package was worth PS4.5m last year."),
        ("4500000".into(), "pound sterling".into(), "=")
    );
    assert_eq!(one("Seats cost Y=12,000.").1, "yen");
    // Without an amount written as money, "PS" is a console or horsepower.
    assert!(read("He bought a PS5 yesterday.").is_empty());
    assert_eq!(one("The engine makes 150 PS.").1, "metric horsepower");
}

#[test]
fn a_rate_said_before_a_weekday_is_still_a_rate() {
    assert_eq!(
        one("They pumped 40 litres a minute on Sunday.").1,
        "litre per minute"
    );
    assert_eq!(one("A year on, prices were 5 euros.").1, "euro");
}

#[test]
fn hyphenated_rates_and_plain_cubes_in_compounds() {
    assert_eq!(
        one("Workers want a £12-an-hour wage."),
        ("12".into(), "pound sterling per hour".into(), "=")
    );
    assert_eq!(
        one("It declared a 45-cents-per-share payout.").1,
        "cent per share"
    );
    assert_eq!(
        one("The spillway passes 800 m3/s.").1,
        "cubic metre per second"
    );
}

#[test]
fn a_number_inside_a_unit_is_part_of_it() {
    assert_eq!(
        read("The hatchback uses 5.2 L/100 km."),
        [("5.2".into(), "litres per 100 kilometres".into(), "=")]
    );
    assert_eq!(
        one("They paid 9 million Swedish crowns.").1,
        "swedish krona"
    );
}
