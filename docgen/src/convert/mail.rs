//! An e-mail thread (a text file: the first message's `From:`, `To:`, `Date:` and `Subject:`
//! lines, a blank line, the rest of the thread) read as a [`Mail`]: the date in RFC 5322 form
//! in UK time, as the thread's senders are in the UK and no zone is written.

use std::sync::LazyLock;

use chrono::{Datelike, Duration, FixedOffset, NaiveDate, NaiveDateTime, TimeZone, Weekday};
use regex::Regex;

use super::model::Mail;
use crate::DocgenError;

static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\d{1,2})\s+([A-Za-z]+)\s+(\d{4}),?\s+(\d{1,2})[:.](\d{2})")
        .expect("the pattern is valid")
});

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The thread `text` of document `stem`, with `attachment` (its file name and a sentence of
/// the thread) when it has one.
pub(super) fn read(
    stem: &str,
    text: &str,
    attachment: Option<(&str, &str)>,
) -> Result<Mail, DocgenError> {
    // A thread saved with Windows line ends is read as one saved with `\n`.
    let text = text.replace("\r\n", "\n");
    let (head, rest) = text.split_once("\n\n").unwrap_or((&text, ""));
    let field = |name: &'static str| {
        head.lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(n, _)| n.trim() == name)
            .map(|(_, v)| v.trim().to_string())
            .ok_or_else(|| DocgenError::NoHeaderLine {
                stem: stem.to_string(),
                field: name,
            })
    };
    let written = field("Date")?;
    let date = uk_time(&written).ok_or_else(|| DocgenError::NotADate {
        stem: stem.to_string(),
        written: written.clone(),
    })?;
    if let Some((_, line)) = attachment {
        if !text.contains(line) {
            return Err(DocgenError::AttachmentNotInThread {
                stem: stem.to_string(),
            });
        }
    }
    Ok(Mail {
        stem: stem.to_string(),
        from: address(&field("From")?),
        to: address(&field("To")?),
        date: date.format("%a, %d %b %Y %H:%M:%S %z").to_string(),
        subject: field("Subject")?,
        message_id: format!(
            "<{stem}.{}@own-documents.invalid>",
            date.format("%Y%m%d%H%M")
        ),
        body: rest.to_string(),
        attachment: attachment.map(|(name, line)| (name.to_string(), format!("{line}\n"))),
    })
}

/// An address header as the thread writes it; a bare name (a list's) becomes an empty group,
/// `Name:;`, so that no address is invented.
fn address(value: &str) -> String {
    if value.contains('@') {
        value.to_string()
    } else {
        format!("{}:;", value.trim())
    }
}

/// "Mon, 3 Jun 2024, 09:12", "11 March 2024 16:22" in UK local time: BST from 01:00 (GMT) on
/// the last Sunday of March to 02:00 (BST) on the last Sunday of October. `None` when it is no date or
/// its weekday is not the date's.
fn uk_time(text: &str) -> Option<chrono::DateTime<FixedOffset>> {
    let found = DATE.captures(text)?;
    let number = |i: usize| found.get(i)?.as_str().parse::<u32>().ok();
    let month_name = found.get(2)?.as_str().to_lowercase();
    let month = MONTHS.iter().position(|m| month_name.starts_with(m))? as u32 + 1;
    let naive = NaiveDate::from_ymd_opt(number(3)? as i32, month, number(1)?)?.and_hms_opt(
        number(4)?,
        number(5)?,
        0,
    )?;
    let weekday = text.trim_start().get(..3).map(str::to_lowercase);
    let named = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    if let Some(w) = weekday.filter(|w| named.contains(&w.as_str())) {
        if naive.format("%a").to_string().to_lowercase() != w {
            return None;
        }
    }
    let year = naive.year();
    let summer =
        last_sunday(year, 3)? <= naive && naive < last_sunday(year, 10)? + Duration::hours(1);
    let offset = FixedOffset::east_opt(if summer { 3600 } else { 0 })?;
    offset.from_local_datetime(&naive).single()
}

/// 01:00 on the last Sunday of `month`.
fn last_sunday(year: i32, month: u32) -> Option<NaiveDateTime> {
    let next = if month == 12 {
        NaiveDate::from_ymd_opt(year + 1, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(year, month + 1, 1)?
    };
    let last = next - Duration::days(1);
    let back = last.weekday().num_days_from_sunday();
    let sunday = last - Duration::days(i64::from(back));
    debug_assert_eq!(sunday.weekday(), Weekday::Sun);
    sunday.and_hms_opt(1, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_uk_time() {
        let summer = uk_time("Mon, 3 Jun 2024, 09:12").unwrap();
        assert_eq!(
            summer.format("%a, %d %b %Y %H:%M:%S %z").to_string(),
            "Mon, 03 Jun 2024 09:12:00 +0100"
        );
        let winter = uk_time("11 March 2024 16:22").unwrap();
        assert_eq!(winter.format("%z").to_string(), "+0000");
        assert!(uk_time("Tue, 3 Jun 2024, 09:12").is_none());
        assert_eq!(
            address("Thornbeck RC members list"),
            "Thornbeck RC members list:;"
        );
    }
}
