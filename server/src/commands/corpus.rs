//! The corpora on the command line: `tally corpus list` and `tally corpus delete`.

use tally_documents::corpus::indexing::{self, Indexes};
use tally_documents::sentence_store::SentenceIndex;
use tally_documents::snippet_index::SnippetIndex;

use tally_setup::flags::IndexArgs;

/// `tally corpus list`.
pub fn list(args: &IndexArgs) -> anyhow::Result<()> {
    let (snippets, sentences) = open(args)?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: Some(&sentences),
    };
    println!("{:<24} {:>10} {:>10}", "corpus", "snippets", "sentences");
    for corpus in indexing::corpora(&indexes)? {
        println!(
            "{:<24} {:>10} {:>10}",
            corpus.name, corpus.snippets, corpus.sentences
        );
    }
    Ok(())
}

/// `tally corpus delete NAME`.
pub fn delete(name: &str, args: &IndexArgs) -> anyhow::Result<()> {
    let (snippets, sentences) = open(args)?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: Some(&sentences),
    };
    let deleted = indexing::delete(&indexes, name)?;
    println!(
        "deleted corpus `{name}`: {} snippets, {} sentences",
        deleted.snippets, deleted.sentences
    );
    Ok(())
}

fn open(args: &IndexArgs) -> anyhow::Result<(SnippetIndex, SentenceIndex)> {
    Ok((
        open_snippets(&args.index)?,
        open_sentences(&args.search_index)?,
    ))
}

use tally_setup::loading::{open_sentences, open_snippets};
