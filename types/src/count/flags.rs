//! The count settings as command-line flags, made from [`COUNT_SETTINGS`]: one flag per
//! setting, named as in the URL with `-` for `_` (`--min-relevance`), read by the setting's own
//! reader and checked by [`CountSettings::check`].

use clap::error::ErrorKind;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

use super::settings::{CountSettings, SettingError, COUNT_SETTINGS};

/// Every count setting as a flag (`tally ask`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CountFlags(pub CountSettings);

/// The count settings that do not say where snippets come from: evaluations and benchmarks
/// over stored snippet sets.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadingFlags(pub CountSettings);

fn augment(mut command: Command, retrieval: bool) -> Command {
    let defaults = CountSettings::default();
    for setting in COUNT_SETTINGS.iter().filter(|s| retrieval || !s.retrieval) {
        command = command.arg(
            Arg::new(setting.name)
                .long(setting.flag())
                .value_name("VALUE")
                .help(format!(
                    "{} [default: {}]",
                    setting.help,
                    (setting.write)(&defaults)
                )),
        );
    }
    command
}

fn read(matches: &ArgMatches, retrieval: bool) -> Result<CountSettings, clap::Error> {
    let mut settings = CountSettings::default();
    for setting in COUNT_SETTINGS.iter().filter(|s| retrieval || !s.retrieval) {
        if let Ok(Some(given)) = matches.try_get_one::<String>(setting.name) {
            (setting.read)(&mut settings, given).map_err(|e| refused(&e))?;
        }
    }
    settings.check().map_err(|e| refused(&e))?;
    Ok(settings)
}

/// A refusal that names the flag.
fn refused(error: &SettingError) -> clap::Error {
    let message = match error {
        SettingError::OutOfRange {
            name,
            min,
            max,
            given,
        } => format!(
            "--{} must be between {min} and {max}, not {given}",
            name.replace('_', "-")
        ),
        SettingError::Unreadable { name, reason } => {
            format!("--{}: {reason}", name.replace('_', "-"))
        }
    };
    clap::Error::raw(ErrorKind::ValueValidation, format!("{message}\n"))
}

macro_rules! flags {
    ($($flags:ident: $retrieval:literal),*) => {$(
        impl FromArgMatches for $flags {
            fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
                read(matches, $retrieval).map($flags)
            }
            fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
                self.0 = read(matches, $retrieval)?;
                Ok(())
            }
        }

        impl Args for $flags {
            fn augment_args(command: Command) -> Command {
                augment(command, $retrieval)
            }
            fn augment_args_for_update(command: Command) -> Command {
                augment(command, $retrieval)
            }
        }
    )*};
}

flags!(CountFlags: true, ReadingFlags: false);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::Strategy;

    #[derive(clap::Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        count: CountFlags,
    }

    #[derive(clap::Parser, Debug)]
    struct Eval {
        #[command(flatten)]
        count: ReadingFlags,
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        use clap::Parser;
        Cli::try_parse_from(std::iter::once("tally").chain(args.iter().copied()))
    }

    #[test]
    fn each_setting_is_a_flag_read_and_checked_as_the_url_reads_it() {
        let cli = parse(&[
            "--min-relevance",
            "0.4",
            "--strategy",
            "median",
            "--theta",
            "0.2",
            "--corpus",
            "notes",
        ])
        .unwrap();
        let s = cli.count.0;
        assert_eq!(s.min_relevance, 0.4);
        assert_eq!(s.strategy, Strategy::Median);
        assert_eq!(s.context.theta, 0.2);
        assert_eq!(s.corpus.as_deref(), Some("notes"));
        assert_eq!(parse(&[]).unwrap().count.0, CountSettings::default());

        let refused = parse(&["--abstain-below", "2"]).unwrap_err().to_string();
        assert!(
            refused.contains("--abstain-below must be between 0 and 1, not 2"),
            "{refused}"
        );
        let refused = parse(&["--strategy", "mean"]).unwrap_err().to_string();
        assert!(refused.contains("unknown strategy `mean`"), "{refused}");
    }

    #[test]
    fn evaluations_have_no_retrieval_flags() {
        use clap::Parser;
        assert!(Eval::try_parse_from(["eval", "--threshold", "0.3"]).is_ok());
        assert!(Eval::try_parse_from(["eval", "--snippets", "20"]).is_err());
        assert!(Eval::try_parse_from(["eval", "--corpus", "x"]).is_err());
    }
}
