//! What every `tally` command sets up, one way: the flag groups several commands share
//! ([`flags`]) and the loading of what they name ([`loading`]: the sentence encoder on the best
//! device, the count pipeline, the two indexes with their default corpora) and the process
//! around a command ([`process`]: its runtime, logs and signals). The server's commands and the
//! lab's both start here.

pub mod flags;
pub mod loading;
pub mod process;
