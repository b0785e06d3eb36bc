//! A choice a person makes by name (a strategy, a ranker, a mode): one trait that knows every
//! choice's names, so the query string, the form, the JSON and the command line read them the
//! same way and refuse an unknown one with the same sentence, which lists the names there are.

use std::fmt;

/// An enum whose values are chosen by name.
pub trait Choice: Copy + PartialEq + 'static {
    /// What is chosen, as a sentence names it ("strategy", "ranker").
    const WHAT: &'static str;

    /// Every value, in the order they are listed.
    fn all() -> &'static [Self];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    fn choice_name(self) -> &'static str;

    /// The value a name (or an accepted alias) stands for.
    fn from_choice_name(name: &str) -> Option<Self>;

    /// The value named `given` (surrounding spaces ignored), or why there is none.
    fn choose(given: &str) -> Result<Self, UnknownChoice> {
        let given = given.trim();
        Self::from_choice_name(given).ok_or_else(|| UnknownChoice {
            what: Self::WHAT,
            given: given.to_string(),
            choices: Self::all()
                .iter()
                .map(|c| c.choice_name())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

/// A name that is none of a choice's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownChoice {
    /// What is chosen, as a sentence names it ("strategy", "ranker").
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names there are, comma-separated.
    pub choices: String,
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}` ({})",
            self.what, self.given, self.choices
        )
    }
}

impl std::error::Error for UnknownChoice {}

/// Reads a command-line flag's choice by name, refusing an unknown one with [`UnknownChoice`]'s
/// sentence (the one the query string and the API give); `--help` lists the names.
#[cfg(feature = "clap")]
#[derive(Debug, Clone, Copy)]
pub struct ChoiceParser<T>(std::marker::PhantomData<T>);

#[cfg(feature = "clap")]
impl<T> ChoiceParser<T> {
    /// The parser of `T`'s names, for a choice defined outside this crate
    /// (`#[arg(value_parser = ChoiceParser::<T>::new())]`).
    pub const fn new() -> Self {
        ChoiceParser(std::marker::PhantomData)
    }
}

#[cfg(feature = "clap")]
impl<T> Default for ChoiceParser<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(feature = "clap")]
impl<T: Choice + Send + Sync> clap::builder::TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        _command: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        T::choose(&value.to_string_lossy()).map_err(|unknown| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{unknown}\n"))
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            T::all()
                .iter()
                .map(|c| clap::builder::PossibleValue::new(c.choice_name())),
        ))
    }
}

/// Implements [`Choice`] (and clap's parser for it, with the `clap` feature) over an enum's own
/// `ALL`, `name` and `parse`.
macro_rules! choice {
    ($($choice:ty: $what:literal),* $(,)?) => {$(
        impl $crate::choice::Choice for $choice {
            const WHAT: &'static str = $what;
            fn all() -> &'static [Self] {
                &<$choice>::ALL
            }
            fn choice_name(self) -> &'static str {
                self.name()
            }
            fn from_choice_name(name: &str) -> Option<Self> {
                <$choice>::parse(name)
            }
        }

        #[cfg(feature = "clap")]
        impl clap::builder::ValueParserFactory for $choice {
            type Parser = $crate::choice::ChoiceParser<$choice>;
            fn value_parser() -> Self::Parser {
                $crate::choice::ChoiceParser::new()
            }
        }
    )*};
}

choice! {
    crate::Strategy: "strategy",
    crate::ScorerKind: "scorer",
    crate::StatementRule: "statement rule",
    crate::InstanceScoring: "instance scoring",
    crate::SnippetSource: "snippet_source",
    crate::Ranker: "ranker",
    crate::SortOrder: "sort order",
    crate::Mode: "mode",
    crate::QuestionKind: "question kind",
    crate::WebSearchState: "web search state",
    crate::FeedbackPart: "part",
    crate::Verdict: "verdict",
    crate::CnpGroup: "group",
    crate::Decision: "decision",
    crate::documents::UploadMode: "mode",
    crate::documents::JobState: "job state",
}
