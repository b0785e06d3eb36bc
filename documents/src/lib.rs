//! A person's documents and the data sets, read into passages with their typed records, and the
//! stores that hold them: the snippet index of count questions, the sentence index of quantity
//! search and value questions (with its quantity keys, observations and sentence vectors), and
//! the record tables. Nothing here answers a question; the engine answers over these stores.

pub mod corpus;
pub mod crop_store;
mod error;
pub mod index_dir;
pub mod rarity;
pub mod sentence_store;
pub mod snippet_index;
pub mod spelling;
pub mod tables;

pub use corpus::catalogue::{discover_corpora, CorpusInfo};
pub use error::DocumentsError;
